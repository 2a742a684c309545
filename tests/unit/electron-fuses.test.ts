import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * electron-builder.yml's fuses (issue #15): `npm run dist` needs Electron's binary and is not run
 * here, so the configuration is checked as electron-builder reads it: the keys of its
 * `electronFuses` (FuseOptionsV1 in app-builder-lib's configuration.d.ts), with the values we need.
 */
const yml = readFileSync(join(APP_ROOT, 'electron-builder.yml'), 'utf8');

/** A top-level block of `key: true|false` lines (all electronFuses is), read without a YAML library. */
function booleanBlock(name: string): Record<string, boolean> | undefined {
  const m = new RegExp(`^${name}:\\s*\\n((?:[ \\t]+\\S.*\\n?)*)`, 'm').exec(yml);
  if (!m) return undefined;
  return Object.fromEntries(
    m[1]!
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('#'))
      .map((l) => {
        const kv = /^\s+(\w+):\s*(true|false)\s*$/.exec(l);
        assert.ok(kv, `not a boolean entry in ${name}: ${l}`);
        return [kv[1]!, kv[2] === 'true'];
      }),
  );
}

const config = { electronFuses: booleanBlock('electronFuses'), asar: /^asar:\s*false/m.test(yml) ? false : undefined };

test('fuses: no Node mode, no NODE_OPTIONS, no inspector; asar only, with integrity; no file:// privileges', () => {
  assert.deepEqual(config.electronFuses, {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    enableCookieEncryption: true,
    grantFileProtocolExtraPrivileges: false,
  });
  assert.notEqual(config.asar, false, 'the app is packed into app.asar (integrity needs it)');
});

test('every fuse named is one electron-builder knows (a misspelt key would be ignored)', () => {
  const types = readFileSync(join(APP_ROOT, 'node_modules', 'app-builder-lib', 'out', 'configuration.d.ts'), 'utf8');
  for (const key of Object.keys(config.electronFuses ?? {})) assert.match(types, new RegExp(`\\n\\s+${key}\\?: boolean;`), key);
});

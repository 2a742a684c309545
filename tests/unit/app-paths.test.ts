import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findAppRoot, probeCommand, readAppVersion, rendererDir, runningFromSource } from '../../main/platform/app-paths';

/**
 * main/platform/app-paths.ts: where Strata's own files are, found from the module's location (so `bin/strata`
 * works from any working folder): the folder whose package.json is named "strata", walking up past
 * other packages and broken package.json files; how the probe is started from source or from out/.
 */
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('findAppRoot: from this module, the repository; from deep inside it, the same', () => {
  assert.equal(findAppRoot(), repo);
  assert.equal(findAppRoot(join(repo, 'tests', 'fixtures')), repo);
});

test("findAppRoot walks past another package's package.json and a broken one; above everything it says where it looked", () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-app-paths-'));
  try {
    const app = join(dir, 'app');
    const nested = join(app, 'node_modules', 'dep', 'lib');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'strata', version: '7.7.7' }));
    writeFileSync(join(app, 'node_modules', 'dep', 'package.json'), JSON.stringify({ name: 'dep' }));
    writeFileSync(join(nested, 'package.json'), '{ broken');
    assert.equal(findAppRoot(nested), app);
    assert.equal(readAppVersion(app), '7.7.7');
    const outside = join(dir, 'elsewhere');
    mkdirSync(outside);
    assert.throws(() => findAppRoot(outside), new RegExp(`Strata's package.json not found above ${outside}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("readAppVersion is package.json's version; rendererDir is out/renderer", () => {
  assert.equal(readAppVersion(repo), (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version);
  assert.equal(rendererDir('/opt/strata'), '/opt/strata/out/renderer');
});

test('probeCommand: under tsx (these tests), the TypeScript probe through tsx', () => {
  assert.equal(runningFromSource, true);
  assert.deepEqual(probeCommand('/r'), { file: '/r/native-bridge/probe.ts', execArgv: ['--import', 'tsx'] });
});

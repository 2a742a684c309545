import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { lazyBuiltin } from '../../main/platform/lazy-builtin';

/**
 * main/platform/lazy-builtin.ts: a built-in module loaded at its first use, once (issue #19). Checked
 * in a fresh Node process, where `process.moduleLoadList` says which built-ins have loaded: making
 * the accessor loads nothing, calling it loads the module, and every call returns the same one.
 */
const ROOT = join(import.meta.dirname, '..', '..');

test('the module loads at the first call, not when the accessor is made, and once', () => {
  const script = `
    import { lazyBuiltin } from ${JSON.stringify(join(ROOT, 'main', 'platform', 'lazy-builtin.ts'))};
    const loaded = () => process.moduleLoadList.includes('NativeModule zlib');
    const zlib = lazyBuiltin('node:zlib');
    const before = loaded();
    const first = zlib();
    console.log(JSON.stringify({ before, after: loaded(), same: first === zlib(), gzip: typeof first.gzipSync }));
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { before: false, after: true, same: true, gzip: 'function' });
});

test('a name that is not a built-in fails at the call, as require does', () => {
  const missing = lazyBuiltin('node:no-such-module');
  assert.throws(() => missing(), /no-such-module/);
});

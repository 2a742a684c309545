import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as nodeFs from 'node:fs';
import {
  asStrataFailure,
  fileError,
  isTempOf,
  readIfExists,
  realFileOps,
  sweepDeadTemps,
  tempNameFor,
  unlinkDurable,
  writeFileAtomic,
  type FileOps,
} from '../../main/platform/atomic-file';
import { StrataRequestError } from '../../shared/errors/strata-error';

/**
 * main/platform/atomic-file.ts on a real temporary folder: replace-by-rename writes, durable unlinks,
 * the sweep of temp files left by killed writers (a real dead pid), and file errors in words.
 * override-faults.test.ts and configuration-kill.test.ts hold the owned-file writers to the same.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-atomic-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('writeFileAtomic: the target holds the new bytes, no temp file is left; a temp never ends in .json', () => {
  const target = join(dir, 'VkLayer_override.json');
  writeFileSync(target, 'old');
  writeFileAtomic(target, '{"new":true}');
  assert.equal(readFileSync(target, 'utf8'), '{"new":true}');
  assert.deepEqual(readdirSync(dir), ['VkLayer_override.json']);
  const tmp = tempNameFor(target);
  assert.match(tmp, new RegExp(`/\\.VkLayer_override\\.json\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
  assert.ok(isTempOf(target, tmp.slice(dir.length + 1)));
  assert.ok(!isTempOf(target, 'VkLayer_override.json'));
});

test('writeFileAtomic: a failure at the rename leaves the target as it was and removes the temp', () => {
  const target = join(dir, 'keep.json');
  writeFileSync(target, 'as the user had it');
  const ops: FileOps = {
    ...realFileOps,
    renameSync: () => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    },
  };
  assert.throws(() => writeFileAtomic(target, 'new', ops), /ENOSPC/);
  assert.equal(readFileSync(target, 'utf8'), 'as the user had it');
  assert.deepEqual(
    readdirSync(dir).filter((e) => isTempOf(target, e)),
    [],
  );
});

test('sweepDeadTemps: temps of dead writers go, a live writer’s (ours) stays, other files stay', () => {
  const sub = join(dir, 'sweep');
  mkdirSync(sub);
  // A pid that surely is not running: a child that has exited.
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const deadTemp = `.x.json.${dead}.0123abcd.tmp`;
  const ourTemp = `.x.json.${process.pid}.89abcdef.tmp`;
  for (const f of [deadTemp, ourTemp, 'x.json', '.x.json.notapid.tmp']) writeFileSync(join(sub, f), '');
  assert.deepEqual(sweepDeadTemps(sub), [deadTemp]);
  assert.deepEqual(readdirSync(sub).sort(), [ourTemp, '.x.json.notapid.tmp', 'x.json'].sort());
  assert.deepEqual(sweepDeadTemps(join(dir, 'no-such-folder')), []);
});

test('unlinkDurable: absent is fine; readIfExists: null for absent, refuses a FIFO without blocking', () => {
  const f = join(dir, 'gone.json');
  writeFileSync(f, 'x');
  unlinkDurable(f);
  assert.equal(existsSync(f), false);
  unlinkDurable(f);
  assert.equal(readIfExists(f), null);
  writeFileSync(f, 'back');
  assert.equal(readIfExists(f)?.toString(), 'back');
  const fifo = join(dir, 'fifo.json');
  spawnSync('mkfifo', [fifo]);
  assert.throws(() => readIfExists(fifo));
  assert.equal(readIfExists(join(dir, 'x', 'y'), { ...nodeFs }), null);
});

test('fileError and asStrataFailure: errno codes in words, with the folder and a fix', () => {
  const err = (code: string) => Object.assign(new Error(code), { code, path: '/f/x.json' });
  const e = fileError(err('EACCES'), 'write the override', '/f');
  assert.equal(e.code, 'override/permission-denied');
  assert.equal(e.message, 'Cannot write the override: permission denied; the override file is as it was');
  assert.equal(e.where, '/f/x.json');
  assert.match(e.fix ?? '', /ls -ld \/f/);
  assert.equal(fileError(err('EDQUOT'), 'a', '/f').code, 'override/no-space');
  assert.equal(fileError(err('EROFS'), 'a', '/f').code, 'override/read-only');
  assert.equal(fileError(err('ENOTDIR'), 'a', '/f').code, 'override/not-a-folder');
  assert.equal(fileError(err('EBUSY'), 'a', '/f', 'nothing changed').message, 'Cannot a: EBUSY; nothing changed');
  assert.throws(
    () =>
      asStrataFailure('write x', '/f', () => {
        throw err('ENOSPC');
      }),
    (x: unknown) => x instanceof StrataRequestError && x.error.code === 'override/no-space',
  );
  assert.throws(
    () =>
      asStrataFailure('write x', '/f', () => {
        throw new TypeError('a bug, not a file error');
      }),
    TypeError,
  );
  assert.equal(
    asStrataFailure('a', '/f', () => 42),
    42,
  );
});

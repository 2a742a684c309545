import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, readLockHolder, releaseLock, withLock } from '../../main/platform/file-lock';
import { StrataRequestError } from '../../shared/errors/strata-error';

/**
 * main/platform/file-lock.ts with real processes: a lock held by a live process is waited for and
 * then reported; one left by a dead process is broken; release removes only one's own lock.
 * configuration-kill.test.ts SIGKILLs real writers that hold it.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-file-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('acquire writes pid and nonce; release removes only our own lock; withLock releases after a throw', () => {
  const lock = join(dir, 'a.lock');
  const me = acquireLock(lock);
  assert.deepEqual(readLockHolder(lock), me);
  assert.equal(me.pid, process.pid);
  releaseLock(lock, { ...me, nonce: 'someone-else' });
  assert.ok(existsSync(lock), 'not ours: kept');
  releaseLock(lock, me);
  assert.equal(existsSync(lock), false);
  assert.throws(
    () =>
      withLock(lock, () => {
        throw new Error('inside');
      }),
    /inside/,
  );
  assert.equal(existsSync(lock), false);
  assert.equal(
    withLock(lock, () => 7),
    7,
  );
  assert.deepEqual(
    readdirSync(dir).filter((e) => e.endsWith('.tmp')),
    [],
    'no temp lock file left',
  );
});

test('a lock of a dead process is broken at once', () => {
  const lock = join(dir, 'dead.lock');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  writeFileSync(lock, JSON.stringify({ pid: dead, nonce: 'old', since: '2020-01-01T00:00:00.000Z' }));
  const me = acquireLock(lock, { timeoutMs: 0 });
  assert.equal(readLockHolder(lock)?.nonce, me.nonce);
  releaseLock(lock, me);
  assert.deepEqual(
    readdirSync(dir).filter((e) => e.startsWith('dead.lock')),
    [],
    'nothing moved aside is left',
  );
});

test('a lock of a live process is waited for, then reported with who holds it and the fix', async () => {
  const lock = join(dir, 'live.lock');
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    writeFileSync(lock, JSON.stringify({ pid: holder.pid, nonce: 'live', since: '2024-06-12T15:30:12.000Z' }));
    assert.throws(
      () => acquireLock(lock, { timeoutMs: 100 }),
      (e: unknown) => {
        assert.ok(e instanceof StrataRequestError);
        assert.equal(e.error.code, 'override/locked');
        assert.equal(e.error.message, `Another Strata (pid ${holder.pid}, since 2024-06-12T15:30:12.000Z) is changing the override right now`);
        assert.match(e.error.fix ?? '', new RegExp(`ps -p ${holder.pid}`));
        return true;
      },
    );
    assert.equal(readLockHolder(lock)?.nonce, 'live', 'the live lock is untouched');
    writeFileSync(lock, 'not json');
    assert.throws(() => acquireLock(lock, { timeoutMs: 0 }), /does not say who holds it/);
  } finally {
    holder.kill();
  }
});

import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import { readIfExists, realFileOps, tempNameFor, type FileOps } from './atomic-file';

/**
 * One Strata at a time changes a set of Strata's files (the override and its settings file, the
 * per-application files, the profiles, the bindings): a lock file created with link(2), which fails with
 * EEXIST when the lock exists, so the lock appears atomically *with* its content (pid + nonce). A
 * lock whose pid is gone (a Strata killed mid-apply) is stale and is broken; a live one is waited
 * for, up to `timeoutMs`, then reported with a fix.
 */
export interface LockHolder {
  pid: number;
  nonce: string;
  since: string;
}

export interface LockOptions {
  timeoutMs?: number;
  ops?: FileOps;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
const POLL_MS = 10;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, and belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(bytes: Buffer | null): LockHolder | null {
  if (!bytes) return null;
  try {
    const v = JSON.parse(bytes.toString('utf8')) as Partial<LockHolder>;
    return typeof v.pid === 'number' && typeof v.nonce === 'string' ? { pid: v.pid, nonce: v.nonce, since: String(v.since ?? '') } : null;
  } catch {
    return null;
  }
}

export function readLockHolder(lockFile: string, ops: FileOps = realFileOps): LockHolder | null {
  return parseHolder(readIfExists(lockFile, ops));
}

/** Remove what killed Strata processes left of the locking itself: temp lock files, locks moved aside. */
function sweepDeadTemps(lockFile: string, ops: FileOps) {
  let entries: string[];
  try {
    entries = ops.readdirSync(dirname(lockFile));
  } catch {
    return;
  }
  const tmpPrefix = `.${basename(lockFile)}.`;
  const stalePrefix = `${basename(lockFile)}.stale-`;
  for (const e of entries) {
    let pid: number;
    if (e.startsWith(tmpPrefix) && e.endsWith('.tmp')) pid = Number(e.slice(tmpPrefix.length).split('.')[0]);
    else if (e.startsWith(stalePrefix)) pid = Number(e.slice(stalePrefix.length).split('-')[0]);
    else continue;
    if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid))
      try {
        ops.unlinkSync(join(dirname(lockFile), e));
      } catch {
        // another process swept it first
      }
  }
}

export function acquireLock(lockFile: string, options: LockOptions = {}): LockHolder {
  const ops = options.ops ?? realFileOps;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
  const me: LockHolder = { pid: process.pid, nonce: randomBytes(8).toString('hex'), since: new Date().toISOString() };
  const tmp = tempNameFor(lockFile);
  ops.writeFileSync(tmp, JSON.stringify(me));
  try {
    for (;;) {
      try {
        ops.linkSync(tmp, lockFile);
        sweepDeadTemps(lockFile, ops);
        return me;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readLockHolder(lockFile, ops);
      if (holder && !isAlive(holder.pid)) {
        breakStaleLock(lockFile, holder, ops);
        continue;
      }
      // holder null: gone since EEXIST (retry at once) or unreadable garbage (wait; then report it).
      if (Date.now() >= deadline) {
        throw serviceError(
          'override/locked',
          holder
            ? `Another Strata (pid ${holder.pid}, since ${holder.since}) is changing the override right now`
            : `The override lock file exists but does not say who holds it`,
          {
            where: lockFile,
            fix: holder
              ? `wait for it to finish and run the command again; if no Strata is running (ps -p ${holder.pid}), delete ${lockFile}`
              : `if no Strata is running, delete ${lockFile} and run the command again`,
            data: { holder },
          },
        );
      }
      sleep(POLL_MS);
    }
  } finally {
    try {
      ops.unlinkSync(tmp);
    } catch {
      // linked and unlinked already, or never written
    }
  }
}

/**
 * Move the stale lock aside, then check that what moved is the stale one: if another Strata broke
 * it and took the lock in between, put that live lock back.
 */
function breakStaleLock(lockFile: string, stale: LockHolder, ops: FileOps) {
  const aside = `${lockFile}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    ops.renameSync(lockFile, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = readLockHolder(aside, ops);
  if (moved && moved.nonce !== stale.nonce) {
    try {
      ops.linkSync(aside, lockFile);
    } catch {
      // a third Strata holds it now; the one we moved still finishes its work under its own nonce
    }
  }
  try {
    ops.unlinkSync(aside);
  } catch {
    // gone already
  }
}

export function releaseLock(lockFile: string, me: LockHolder, ops: FileOps = realFileOps): void {
  const holder = readLockHolder(lockFile, ops);
  if (holder?.nonce === me.nonce) ops.unlinkSync(lockFile);
}

export function withLock<T>(lockFile: string, fn: () => T, options: LockOptions = {}): T {
  const me = acquireLock(lockFile, options);
  try {
    return fn();
  } finally {
    releaseLock(lockFile, me, options.ops);
  }
}

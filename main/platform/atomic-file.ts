import * as nodeFs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { serviceError, strataError, StrataRequestError, type StrataError } from '../../shared/errors/strata-error';
import { GuardedReadError, readGuardedSync } from './guarded-read';
import { lazyBuiltin } from './lazy-builtin';

/**
 * Loaded at the first write: node:crypto is ~15 of Node's modules, which every command that only
 * reads (`strata explain`, `layer list`) loaded and every CLI startup snapshot held (issue #19).
 */
const crypto = lazyBuiltin<typeof import('node:crypto')>('node:crypto');

/** The file system calls Strata's writers make (owned-files/, the profile and session stores); tests swap single ones in to inject ENOSPC and friends. */
export type FileOps = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'writeFileSync'
  | 'fsyncSync'
  | 'closeSync'
  | 'renameSync'
  | 'unlinkSync'
  | 'readFileSync'
  | 'mkdirSync'
  | 'linkSync'
  | 'readdirSync'
  | 'existsSync'
>;
export const realFileOps: FileOps = nodeFs;

/** `.NAME.<pid>.<random>.tmp`: never ends in .json, so the loader never reads a half-written one. */
export function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.tmp`);
}

const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes the temp files (tempNameFor) in `dir` left by writers that were killed: those whose pid is
 * no longer running. A live writer's temp is left alone, so this is safe without a lock. Best effort.
 */
export function sweepDeadTemps(dir: string, ops: FileOps = realFileOps): string[] {
  const swept: string[] = [];
  let entries: string[];
  try {
    entries = ops.readdirSync(dir);
  } catch {
    return swept;
  }
  for (const e of entries) {
    const pid = TEMP_NAME.exec(e)?.[1];
    if (pid === undefined || Number(pid) === process.pid || alive(Number(pid))) continue;
    try {
      ops.unlinkSync(join(dir, e));
      swept.push(e);
    } catch {
      // gone already
    }
  }
  return swept;
}

export function isTempOf(path: string, entry: string): boolean {
  return entry.startsWith(`.${basename(path)}.`) && entry.endsWith('.tmp');
}

/** fsync a folder, so a rename or unlink in it survives a crash of the machine, not only of Strata. */
export function fsyncDir(dir: string, ops: FileOps = realFileOps): void {
  // Windows: a folder cannot be flushed (FlushFileBuffers on a directory handle is EPERM); NTFS
  // journals the rename's metadata itself, and MoveFileEx already replaced the file atomically.
  if (process.platform === 'win32') return;
  const fd = ops.openSync(dir, 'r');
  try {
    ops.fsyncSync(fd);
  } finally {
    ops.closeSync(fd);
  }
}

/**
 * Replace `path` with `data` so that every observer, and the file after any crash, has either the
 * old or the new bytes: a temp file in the same folder, fsync, rename over the target, fsync the
 * folder. On failure the temp file is removed and the target is untouched.
 */
export function writeFileAtomic(path: string, data: string | Buffer, ops: FileOps = realFileOps): void {
  const tmp = tempNameFor(path);
  let fd: number | undefined;
  try {
    fd = ops.openSync(tmp, 'wx', 0o644);
    ops.writeFileSync(fd, data);
    ops.fsyncSync(fd);
    ops.closeSync(fd);
    fd = undefined;
    ops.renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined)
      try {
        ops.closeSync(fd);
      } catch {
        // already failing; the original error is the one to report
      }
    try {
      ops.unlinkSync(tmp);
    } catch {
      // not created, or already renamed
    }
    throw e;
  }
  fsyncDir(dirname(path), ops);
}

/** Remove `path` (absent is fine) and make the removal durable. */
export function unlinkDurable(path: string, ops: FileOps = realFileOps): void {
  try {
    ops.unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return;
  }
  fsyncDir(dirname(path), ops);
}

export function readIfExists(path: string, ops: FileOps = realFileOps): Buffer | null {
  try {
    // The real file system goes through the guarded reader: a FIFO or device put in place of one of
    // Strata's files is refused, not waited on or read forever. Tests' fault-injecting ops read as they choose.
    return ops === realFileOps ? readGuardedSync(path, 'settings') : ops.readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * A file system failure as a StrataError with a fix; `action` says what Strata was doing ("write
 * the override"), `untouched` what is known to be unchanged.
 */
export function fileError(e: unknown, action: string, folder: string, untouched = 'the override file is as it was'): StrataError {
  // A folder is the errno case EISDIR below (GuardedReadError carries that code for it).
  if (e instanceof GuardedReadError && !e.folder)
    return strataError('override/unreadable', `Cannot ${action}: ${e.message}; ${untouched}`, {
      where: e.path,
      fix: `move ${e.path} away (it is not a file Strata wrote)`,
    });
  const err = e as NodeJS.ErrnoException;
  const where = err.path ?? folder;
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      return strataError('override/permission-denied', `Cannot ${action}: permission denied; ${untouched}`, {
        where,
        fix: `make ${folder} writable for your user (ls -ld ${folder}), or for the system-wide override run as root with --system`,
      });
    case 'ENOSPC':
    case 'EDQUOT':
      return strataError('override/no-space', `Cannot ${action}: no space left on the device (or quota exceeded); ${untouched}`, {
        where,
        fix: `free some space on the file system of ${folder} (df -h ${folder}) and run the command again`,
      });
    case 'EROFS':
      return strataError('override/read-only', `Cannot ${action}: the file system is read-only; ${untouched}`, {
        where,
        fix: `remount the file system of ${folder} read-write, or point XDG_DATA_HOME / XDG_STATE_HOME at a writable folder`,
      });
    case 'ENOTDIR':
    case 'EISDIR':
      return strataError('override/not-a-folder', `Cannot ${action}: a path on the way is a file where a folder should be (or the reverse); ${untouched}`, {
        where,
        fix: `look at ${where} and move the file that is in the way`,
      });
    default:
      return strataError('override/io-failed', `Cannot ${action}: ${err.code ?? err.message}; ${untouched}`, {
        where,
        fix: 'check the folder and run the command again',
      });
  }
}

/** Runs `fn`, turning a file system exception into a StrataRequestError (an error value at the router). */
export function asStrataFailure<T>(action: string, folder: string, fn: () => T, untouched?: string): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof StrataRequestError) throw e;
    if (e instanceof GuardedReadError) throw serviceError(fileError(e, action, folder, untouched));
    if (e && typeof e === 'object' && 'code' in e && typeof (e as NodeJS.ErrnoException).code === 'string')
      throw serviceError(fileError(e, action, folder, untouched));
    throw e;
  }
}

import { serviceError, StrataRequestError, type StrataError } from '../../../shared/errors/strata-error';
import { fileError, readIfExists, realFileOps, unlinkDurable, writeFileAtomic, type FileOps } from '../atomic-file';
import { GuardedReadError } from '../guarded-read';
import type { OwnedLocation } from './owned-location';
import { labelOf, sha256 as sha } from './owned-record';

/**
 * What a failed write says must match the disk. A change that spans files (the settings file, then
 * the override; or a record after its file) can fail half-way: before it runs, each target file
 * and Strata's bookkeeping for it are read (`snapshot`); when it fails, the files are read again and
 * compared, a file changed while the other did not is put back (`rollBack`, with the same crash
 * safety as a write: the record vouches for both texts while the file is restored), and the message
 * names exactly the files that are changed, if any are left so.
 */
/** The paths of an owned file (owned-location.ts) this module needs. */
export type OwnedFile = Pick<OwnedLocation, 'file' | 'recordFile' | 'originalFile' | 'label' | 'surrenderCommand'>;

export interface Snapshot {
  loc: OwnedFile;
  file: Buffer | null;
  record: Buffer | null;
  original: Buffer | null;
}

const same = (a: Buffer | null, b: Buffer | null) => (a === null ? b === null : b !== null && a.equals(b));

/** The disk as it is, whatever `ops` a test injects; null for a file that cannot be read at all. */
function readTruth(path: string): Buffer | null | 'unreadable' {
  try {
    return readIfExists(path, realFileOps);
  } catch {
    return 'unreadable';
  }
}

export function snapshot(loc: OwnedFile, ops: FileOps): Snapshot {
  return { loc, file: readIfExists(loc.file, ops), record: readIfExists(loc.recordFile, ops), original: readIfExists(loc.originalFile, ops) };
}

/** Puts a location back as the snapshot found it: file, record, pre-Strata backup. Throws when it cannot. */
export function rollBack(s: Snapshot, ops: FileOps): void {
  const { loc } = s;
  // First the record vouches for the text being restored too (pendingSha256), so a crash from here on
  // leaves a file the record accepts, as during a write (owned-file.ts).
  const current = readIfExists(loc.recordFile, ops);
  if (current) {
    const record = JSON.parse(current.toString('utf8')) as Record<string, unknown>;
    writeFileAtomic(loc.recordFile, `${JSON.stringify({ ...record, pendingSha256: s.file ? sha(s.file) : null }, null, 2)}\n`, ops);
  }
  if (s.file) writeFileAtomic(loc.file, s.file, ops);
  else unlinkDurable(loc.file, ops);
  if (s.record) writeFileAtomic(loc.recordFile, s.record, ops);
  else unlinkDurable(loc.recordFile, ops);
  if (s.original) writeFileAtomic(loc.originalFile, s.original, ops);
  else unlinkDurable(loc.originalFile, ops);
}

/**
 * The error to report for `e`, thrown by a change over `snapshots` (in the order they were written),
 * after putting back what can be: the files changed before the one that failed are rolled back when
 * the failed one is unchanged. Errors that are not file-system faults (a simulated crash in tests)
 * are passed on untouched: a process that died does not roll back.
 */
export function truthAfterFault(e: unknown, action: string, folder: string, snapshots: readonly Snapshot[], ops: FileOps): unknown {
  // Already told (inside the lock); nothing known yet (the fault came before anything was read).
  if ((typeof e === 'object' && e !== null && told.has(e)) || snapshots.length === 0) return e;
  const result = tell(e, action, folder, snapshots, ops);
  if (typeof result === 'object' && result !== null) told.add(result);
  return result;
}

const told = new WeakSet<object>();

function tell(e: unknown, action: string, folder: string, snapshots: readonly Snapshot[], ops: FileOps): unknown {
  const isFault =
    e instanceof StrataRequestError ||
    e instanceof GuardedReadError ||
    (typeof (e as NodeJS.ErrnoException | null)?.code === 'string' && !(e as { crash?: boolean }).crash);
  if (!isFault) return e;
  const changed = (s: Snapshot) => {
    const now = readTruth(s.loc.file);
    return now === 'unreadable' || !same(now, s.file);
  };
  let state = snapshots.map((s) => ({ s, changed: changed(s), rolledBack: false, rollbackError: null as string | null }));
  if (state.some((x) => x.changed)) {
    // Roll back every changed file written before the first one that is still as it was (the one that failed).
    const failedAt = state.findIndex((x) => !x.changed);
    // A single file whose own write got through (its record step failed) stays: the pending record vouches for it.
    if (failedAt > 0)
      state = state.map((x, i) => {
        if (i >= failedAt || !x.changed) return x;
        try {
          rollBack(x.s, ops);
          return { ...x, changed: changed(x.s), rolledBack: true };
        } catch (r) {
          return { ...x, rollbackError: (r as NodeJS.ErrnoException).code ?? (r as Error).message };
        }
      });
  }
  const parts = state.map((x) => {
    const label = labelOf(x.s.loc);
    const name = label.endsWith('file') ? `the ${label}` : `the ${label} file`;
    if (x.changed)
      return `${name} ${x.s.loc.file} WAS changed${x.rollbackError ? ` (putting it back failed too: ${x.rollbackError})` : ''}; Strata's record vouches for it, so ${x.s.loc.surrenderCommand ?? '`strata override remove`'} still restores the state before Strata`;
    return x.rolledBack ? `${name} was already written and has been put back as it was` : `${name} is as it was`;
  });
  const truth = parts.join('; ');
  if (e instanceof StrataRequestError) {
    if (!state.some((x) => x.changed || x.rolledBack)) return e;
    const error: StrataError = { ...e.error, message: `${e.error.message}; ${truth}` };
    return serviceError(error);
  }
  return serviceError(fileError(e, action, folder, truth));
}

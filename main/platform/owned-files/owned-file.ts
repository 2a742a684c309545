import { readlinkSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { serviceError } from '../../../shared/errors/strata-error';
import type { OverrideOwnership } from '../../../shared/override/override-status';
import { unifiedDiff } from '../../../shared/text/unified-diff';
import { fsyncDir, isTempOf, readIfExists, realFileOps, tempNameFor, unlinkDurable, writeFileAtomic, type FileOps } from '../atomic-file';
import { withLock } from '../file-lock';
import { snapshot, truthAfterFault, type Snapshot } from './fault-truth';
import type { OwnedLocation } from './owned-location';
import { emptyRecord, labelOf, readOwnedRecord, sha256, writeOwnedRecord, type OwnedRecord } from './owned-record';

/**
 * The one writer of a file Strata owns (the override, the layer settings file, the per-application
 * overrides, the loader settings file): every crash leaves either the old or the new file, one the
 * record vouches for (owned-record.ts); a file Strata did not write (or that was changed since) is
 * never replaced or removed unless forced, and then kept as a backup; surrender restores exactly the
 * state before Strata, a symbolic link as a link.
 *
 * The `…Locked` functions expect the caller to hold `loc.lockFile` (a change spanning several files
 * takes one lock for all); `applyOwned` / `removeOwned` take it themselves.
 */
export interface OwnedWriteOptions {
  /** Replace a file Strata did not write, or one changed since (a backup is kept). */
  force?: boolean;
  ops?: FileOps;
  lockTimeoutMs?: number;
}

export interface OwnedApplyResult {
  action: 'created' | 'replaced' | 'unchanged';
  before: OverrideOwnership;
  /** Where the replaced file went (null: there was none). */
  backup: string | null;
  /** Where the pre-Strata file is kept until surrender (null: there was none). */
  originalBackup: string | null;
  sha256: string;
  text: string;
}

export interface OwnedRemoveResult {
  action: 'nothing' | 'restored' | 'deleted';
  /** Where a copy of the removed file went, when it was not the pre-Strata one. */
  backup: string | null;
  /** Why nothing was done. */
  reason: string | null;
}

export interface OwnedStatus {
  path: string;
  ownership: OverrideOwnership;
  text: string | null;
  sha256: string | null;
  writtenAt: string | null;
  originalBackup: string | null;
  recordPath: string;
  /** modified: what changed since Strata wrote it, as a unified diff. */
  diff: string | null;
}

interface OnDisk {
  bytes: Buffer | null;
  /** The file is a symbolic link to this target (dangling when bytes is null). */
  link: string | null;
  sha: string | null;
  record: OwnedRecord | null;
  ownership: OverrideOwnership;
}

function linkTarget(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

function inspect(loc: OwnedLocation, ops: FileOps): OnDisk {
  const bytes = readIfExists(loc.file, ops);
  const link = linkTarget(loc.file);
  const record = readOwnedRecord(loc, ops);
  const sha = bytes ? sha256(bytes) : null;
  let ownership: OverrideOwnership;
  // A dangling symbolic link is someone's (it points where a file may yet appear), not an empty place.
  if (!bytes && link !== null) ownership = 'foreign';
  else if (!bytes) ownership = 'absent';
  else if (!record) ownership = 'foreign';
  else {
    // The pre-Strata file counts as Strata's to replace: it is backed up, and surrender restores it.
    const vouched = [record.sha256, record.pendingSha256, record.original?.sha256];
    ownership = vouched.includes(sha) ? 'strata' : 'modified';
  }
  return { bytes, link, sha, record, ownership };
}

function changedSinceDiff(loc: OwnedLocation, disk: OnDisk): string {
  return unifiedDiff(disk.record?.text ?? '', disk.bytes?.toString('utf8') ?? '', {
    fromLabel: `${loc.file} (as Strata wrote it${disk.record?.writtenAt ? ` at ${disk.record.writtenAt}` : ''})`,
    toLabel: `${loc.file} (on disk now)`,
  });
}

/** Whose the file is, read with the writer's own rules; a damaged record is refused (override/record-unreadable). */
export function ownedStatus(loc: OwnedLocation, ops: FileOps = realFileOps): OwnedStatus {
  const disk = inspect(loc, ops);
  return {
    path: loc.file,
    ownership: disk.ownership,
    text: disk.bytes?.toString('utf8') ?? null,
    sha256: disk.sha,
    writtenAt: disk.record?.writtenAt ?? null,
    originalBackup: disk.record?.original?.backup ?? null,
    recordPath: loc.recordFile,
    diff: disk.ownership === 'modified' ? changedSinceDiff(loc, disk) : null,
  };
}

function refuse(loc: OwnedLocation, disk: OnDisk, newText: string | null, verb: 'replace' | 'remove'): never {
  const code = loc.refusalCode ?? 'override/not-strata-file';
  const surrender = loc.surrenderCommand ?? '`strata override remove`';
  const foreign = disk.ownership === 'foreign';
  if (foreign && !disk.bytes)
    throw serviceError(code, `${loc.file} is a symbolic link to ${disk.link}, which does not exist; Strata will not ${verb} it on its own`, {
      fix: `to ${verb} it anyway, run the command again with --force (the link is kept, and ${surrender} puts it back)`,
      data: { path: loc.file, ownership: disk.ownership, diff: '' },
    });
  const diff = foreign
    ? unifiedDiff(disk.bytes!.toString('utf8'), newText ?? '', {
        fromLabel: `${loc.file} (on disk, not written by Strata)`,
        toLabel: newText === null ? '(no file)' : `${loc.file} (what Strata would write)`,
      })
    : changedSinceDiff(loc, disk);
  const message = foreign
    ? `${loc.file} was not written by Strata (another tool's or a person's ${labelOf(loc)}); Strata will not ${verb} it on its own`
    : `${loc.file} was changed since Strata wrote it${disk.record?.writtenAt ? ` at ${disk.record.writtenAt}` : ''}; Strata will not ${verb} someone else's edit on its own`;
  const fix =
    verb === 'replace'
      ? `to ${verb} it anyway, run the command again with --force (the file is kept as a backup${foreign ? `, and ${surrender} puts it back` : ''}). The difference:\n${diff}`
      : `to remove it anyway, run the command again with --force (a copy is kept in ${loc.previousFile}). The difference:\n${diff}`;
  throw serviceError(code, message, { fix, data: { path: loc.file, ownership: disk.ownership, diff } });
}

/** Crashed runs leave temp files (never *.json, so the loader ignores them); under the lock they are all stale. */
function sweepTemps(loc: OwnedLocation, ops: FileOps) {
  for (const [dir, targets] of [
    [loc.dir, [loc.file]],
    [loc.stateDir, [loc.recordFile, loc.originalFile, loc.previousFile]],
  ] as const) {
    let entries: string[];
    try {
      entries = ops.readdirSync(dir);
    } catch {
      continue;
    }
    for (const e of entries)
      if (targets.some((t) => isTempOf(t, e)))
        try {
          ops.unlinkSync(join(dir, e));
        } catch {
          // gone already
        }
  }
}

/** The file's folder and the state folder, created before the lock is taken (the lock lives in or above the state folder). */
export function prepareOwned(loc: OwnedLocation, ops: FileOps = realFileOps): void {
  ops.mkdirSync(loc.dir, { recursive: true });
  ops.mkdirSync(loc.stateDir, { recursive: true });
}

const originalText = (disk: OnDisk, ops: FileOps) =>
  disk.record?.original ? (readIfExists(disk.record.original.backup, ops)?.toString('utf8') ?? null) : null;

/**
 * What a write (`text`) or surrender (`text` null) would refuse, thrown before anything is written: for
 * a change that spans several files, each is checked first.
 */
export function assertOwnedChangeAllowed(loc: OwnedLocation, text: string | null, options: OwnedWriteOptions = {}): void {
  const ops = options.ops ?? realFileOps;
  const disk = inspect(loc, ops);
  if (options.force) return;
  if (text !== null) {
    if (disk.ownership === 'foreign' || disk.ownership === 'modified') refuse(loc, disk, text, 'replace');
  } else if (disk.record && disk.ownership === 'modified') {
    refuse(loc, disk, originalText(disk, ops), 'remove');
  }
}

/** Write `text` to the owned file; the caller holds loc.lockFile. */
export function applyOwnedLocked(loc: OwnedLocation, text: string, options: OwnedWriteOptions = {}): OwnedApplyResult {
  const ops = options.ops ?? realFileOps;
  const disk = inspect(loc, ops);
  if ((disk.ownership === 'foreign' || disk.ownership === 'modified') && !options.force) refuse(loc, disk, text, 'replace');
  sweepTemps(loc, ops);
  const newSha = sha256(text);
  let original = disk.record?.original ?? null;
  const result = (action: OwnedApplyResult['action'], backup: string | null): OwnedApplyResult => ({
    action,
    before: disk.ownership,
    backup,
    originalBackup: original?.backup ?? null,
    sha256: newSha,
    text,
  });
  if (disk.sha === newSha && disk.ownership === 'strata') {
    if (disk.record!.sha256 !== newSha || disk.record!.pendingSha256 !== undefined || disk.record!.text !== text)
      writeOwnedRecord(loc, { ...disk.record!, sha256: newSha, text, writtenAt: new Date().toISOString(), pendingSha256: undefined }, ops);
    return result('unchanged', null);
  }
  // The pre-Strata file, kept until surrender; only the first time Strata writes here.
  if (!disk.record && (disk.bytes || disk.link !== null)) {
    // A symbolic link is kept as one: its target is never written (the new file replaces the link), and surrender re-creates the link.
    const bytes = disk.bytes ?? Buffer.alloc(0);
    writeFileAtomic(loc.originalFile, bytes, ops);
    original = { sha256: sha256(bytes), backup: loc.originalFile, ...(disk.link !== null ? { symlink: disk.link } : {}) };
  }
  const backup = disk.bytes ? loc.previousFile : null;
  if (disk.bytes) writeFileAtomic(loc.previousFile, disk.bytes, ops);
  // The record must vouch for both the file on disk now (which may be an interrupted write's pending
  // one, not record.sha256) and the one about to replace it.
  const base = disk.record ?? emptyRecord(loc);
  writeOwnedRecord(loc, { ...base, sha256: disk.sha, text: disk.bytes?.toString('utf8') ?? null, original, pendingSha256: newSha }, ops);
  writeFileAtomic(loc.file, text, ops);
  writeOwnedRecord(loc, { version: 1, path: loc.file, sha256: newSha, text, writtenAt: new Date().toISOString(), original }, ops);
  return result(disk.bytes ? 'replaced' : 'created', backup);
}

/** The pre-Strata symbolic link, back in place atomically (a temp link renamed over the file). */
function restoreLink(path: string, target: string, ops: FileOps) {
  const temp = tempNameFor(path);
  symlinkSync(target, temp);
  try {
    renameSync(temp, path);
  } catch (e) {
    ops.unlinkSync(temp);
    throw e;
  }
  fsyncDir(join(path, '..'), ops);
}

/** Surrender: the file back as it was before Strata (restored, or deleted if there was none); the caller holds loc.lockFile. */
export function removeOwnedLocked(loc: OwnedLocation, options: OwnedWriteOptions = {}): OwnedRemoveResult {
  const ops = options.ops ?? realFileOps;
  const disk = inspect(loc, ops);
  const nothing = (reason: string): OwnedRemoveResult => ({ action: 'nothing', backup: null, reason });
  if (!disk.record)
    return nothing(
      disk.bytes
        ? `Strata did not write ${loc.file} (it was there before, or another tool wrote it), so there is nothing of Strata's to remove`
        : `there is no ${labelOf(loc)} at ${loc.file}`,
    );
  if (disk.ownership === 'modified' && !options.force) refuse(loc, disk, originalText(disk, ops), 'remove');
  sweepTemps(loc, ops);
  const original = disk.record.original;
  let originalBytes: Buffer | null = null;
  if (original) {
    originalBytes = readIfExists(original.backup, ops);
    if (!originalBytes || sha256(originalBytes) !== original.sha256)
      throw serviceError(
        'override/backup-missing',
        `The backup of the ${labelOf(loc)} that was there before Strata is ${originalBytes ? 'damaged' : 'missing'}, so Strata cannot restore it; nothing was changed`,
        {
          where: original.backup,
          fix: `put the pre-Strata file back yourself (or delete ${loc.file}), then delete ${loc.recordFile}`,
        },
      );
  }
  const backup = disk.bytes && disk.sha !== original?.sha256 ? loc.previousFile : null;
  if (backup) writeFileAtomic(loc.previousFile, disk.bytes!, ops);
  writeOwnedRecord(loc, { ...disk.record, sha256: disk.sha, text: disk.bytes?.toString('utf8') ?? null, pendingSha256: original?.sha256 ?? null }, ops);
  if (original?.symlink !== undefined) restoreLink(loc.file, original.symlink, ops);
  else if (originalBytes) writeFileAtomic(loc.file, originalBytes, ops);
  else unlinkDurable(loc.file, ops);
  // The record goes first: without it the restored file is simply not Strata's again.
  unlinkDurable(loc.recordFile, ops);
  if (original) unlinkDurable(original.backup, ops);
  return { action: original ? 'restored' : 'deleted', backup, reason: null };
}

/**
 * Runs a change of one owned file under its lock; a fault's message says whether the file changed (its
 * own write may have got through before its record's, or the lock's release may fail after both).
 */
export function underOwnedLock<T>(loc: OwnedLocation, action: string, options: OwnedWriteOptions, fn: () => T): T {
  const ops = options.ops ?? realFileOps;
  let before: Snapshot[] = [];
  try {
    return withLock(
      loc.lockFile,
      () => {
        before = [snapshot(loc, ops)];
        return fn();
      },
      { ops, ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}) },
    );
  } catch (e) {
    throw truthAfterFault(e, action, loc.dir, before, ops);
  }
}

/** applyOwnedLocked under the file's own lock, the folders created first. */
export function applyOwned(loc: OwnedLocation, text: string, action: string, options: OwnedWriteOptions = {}): OwnedApplyResult {
  prepareOwned(loc, options.ops ?? realFileOps);
  return underOwnedLock(loc, action, options, () => applyOwnedLocked(loc, text, options));
}

/** removeOwnedLocked under the file's own lock; with no record and no lock, nothing of Strata's is created to say so. */
export function removeOwned(loc: OwnedLocation, action: string, options: OwnedWriteOptions = {}): OwnedRemoveResult {
  const ops = options.ops ?? realFileOps;
  if (!ops.existsSync(loc.recordFile) && !ops.existsSync(loc.lockFile) && !loc.legacyRecord) return removeOwnedLocked(loc, options);
  return underOwnedLock(loc, action, options, () => removeOwnedLocked(loc, options));
}

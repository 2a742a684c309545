import { createHash } from 'node:crypto';
import { readlinkSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { strataError, StrataRequestError } from '../../shared/errors/strata-error';
import { resolveXdgDirectories, type Environment } from '../../shared/loader/xdg-directories';
import { OVERRIDE_FILE_NAME } from '../../shared/override/override-config';
import type { OverrideApplyResult, OverrideOwnership, OverrideRemoveResult, OverrideScope, OverrideStatus } from '../../shared/override/override-status';
import { unifiedDiff } from '../../shared/text/unified-diff';
import { asStrataFailure, fsyncDir, isTempOf, readIfExists, realFileOps, tempNameFor, unlinkDurable, writeFileAtomic, type FileOps } from './atomic-file';
import { withLock } from './override-lock';
import { snapshot, truthAfterFault, type Snapshot } from './fault-truth';

/**
 * The override writer: installs Strata's VkLayer_override.json where the loader finds implicit
 * layers, so that every crash leaves either the old or the new file; never overwrites a file it did
 * not write (or that was changed since) unless forced; and can surrender, restoring exactly the
 * state before Strata.
 *
 * Crash safety across two files (the override and Strata's record of it): before replacing the
 * override, the record names the bytes about to be written (`pendingSha256`); after, it names them
 * as written. So after a kill at any point the file on disk is one the record vouches for.
 */
export interface OverrideLocation {
  scope: OverrideScope;
  /** The implicit layer folder. */
  dir: string;
  /** dir/VkLayer_override.json */
  file: string;
  /** Strata's own state folder: record, backups, lock. */
  stateDir: string;
  recordFile: string;
  /** The file that was there before Strata first wrote one; `remove` puts it back. */
  originalFile: string;
  /** The file the latest apply or remove replaced (one backup). */
  previousFile: string;
  lockFile: string;
  /** What the file is, in messages: "override" (the default) or "layer settings file". */
  label?: string;
}

const labelOf = (loc: OverrideLocation) => loc.label ?? 'override';

/**
 * user: $XDG_DATA_HOME/vulkan/implicit_layer.d (one of the loader's implicit layer folders, and the
 * one vkconfig uses), state in $XDG_STATE_HOME/strata. system: /etc/vulkan/implicit_layer.d (the
 * loader's SYSCONFDIR folder on Linux), state in /var/lib/strata.
 */
export function overrideLocation(scope: OverrideScope, env: Environment, home: string): OverrideLocation {
  const xdg = resolveXdgDirectories(env, home);
  const dir = scope === 'system' ? '/etc/vulkan/implicit_layer.d' : join(xdg.dataHome.value, 'vulkan', 'implicit_layer.d');
  const stateDir = scope === 'system' ? '/var/lib/strata' : join(xdg.stateHome.value, 'strata');
  return {
    scope,
    dir,
    file: join(dir, OVERRIDE_FILE_NAME),
    stateDir,
    recordFile: join(stateDir, 'override-record.json'),
    originalFile: join(stateDir, 'override-original.json'),
    previousFile: join(stateDir, 'override-previous.json'),
    lockFile: join(stateDir, 'override.lock'),
  };
}

const OverrideRecordSchema = z.object({
  version: z.literal(1),
  path: z.string(),
  /** What Strata last finished writing (null: nothing finished yet). */
  sha256: z.string().nullable(),
  text: z.string().nullable(),
  writtenAt: z.string().nullable(),
  /** A change in progress: the file may already hold these bytes; null: the file is being removed. */
  pendingSha256: z.string().nullable().optional(),
  /** The pre-Strata file, backed up (null: there was none); `symlink`: it was a symbolic link to that target, restored as a link. */
  original: z.object({ sha256: z.string(), backup: z.string(), symlink: z.string().optional() }).nullable(),
});
export type OverrideRecord = z.infer<typeof OverrideRecordSchema>;

export interface WriterOptions {
  /** Replace a file Strata did not write, or one changed since (a backup is kept). */
  force?: boolean;
  ops?: FileOps;
  lockTimeoutMs?: number;
  /** The effective uid (tests); the system scope needs 0. */
  uid?: number;
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

interface OnDisk {
  bytes: Buffer | null;
  /** The file is a symbolic link to this target (dangling when bytes is null). */
  link: string | null;
  sha: string | null;
  record: OverrideRecord | null;
  ownership: OverrideOwnership;
}

function readRecord(loc: OverrideLocation, ops: FileOps): OverrideRecord | null {
  const bytes = readIfExists(loc.recordFile, ops);
  if (!bytes) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const r = OverrideRecordSchema.safeParse(parsed);
  // Only the paths Strata itself uses: a record naming another backup (with that file's hash) would
  // make `remove` copy that file into the loader's folder and delete it.
  if (!r.success || r.data.path !== loc.file || (r.data.original !== null && r.data.original.backup !== loc.originalFile))
    throw new StrataRequestError(
      strataError(
        'override/record-unreadable',
        `Strata's record of the ${labelOf(loc)} it wrote is damaged or is for another file, so Strata cannot tell whether ${loc.file} is its own`,
        {
          where: loc.recordFile,
          fix: `look at ${loc.file}; if it should go, delete it and ${loc.recordFile}, then apply again`,
        },
      ),
    );
  return r.data;
}

function linkTarget(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

function inspect(loc: OverrideLocation, ops: FileOps): OnDisk {
  const bytes = readIfExists(loc.file, ops);
  const link = linkTarget(loc.file);
  const record = readRecord(loc, ops);
  const sha = bytes ? sha256(bytes) : null;
  let ownership: OverrideOwnership;
  // A dangling symbolic link is someone's (it points where a file may yet appear), not an empty place.
  if (!bytes && link !== null) ownership = 'foreign';
  else if (!bytes) ownership = 'absent';
  else if (!record) ownership = 'foreign';
  else {
    // The pre-Strata file counts as Strata's to replace: it is backed up, and remove restores it.
    const vouched = [record.sha256, record.pendingSha256, record.original?.sha256];
    ownership = vouched.includes(sha) ? 'strata' : 'modified';
  }
  return { bytes, link, sha, record, ownership };
}

function layersOf(text: string | null): OverrideStatus['layers'] {
  if (text === null) return null;
  try {
    const layer = (JSON.parse(text) as { layer?: Record<string, unknown> }).layer;
    if (!layer || typeof layer !== 'object') return null;
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return {
      componentLayers: strings(layer['component_layers']),
      blacklistedLayers: strings(layer['blacklisted_layers']),
      appKeys: strings(layer['app_keys']),
      overridePaths: strings(layer['override_paths']),
    };
  } catch {
    return null;
  }
}

function changedSinceDiff(loc: OverrideLocation, disk: OnDisk): string {
  return unifiedDiff(disk.record?.text ?? '', disk.bytes?.toString('utf8') ?? '', {
    fromLabel: `${loc.file} (as Strata wrote it${disk.record?.writtenAt ? ` at ${disk.record.writtenAt}` : ''})`,
    toLabel: `${loc.file} (on disk now)`,
  });
}

export function readOverrideStatus(loc: OverrideLocation, options: Pick<WriterOptions, 'ops'> = {}): OverrideStatus {
  const ops = options.ops ?? realFileOps;
  return asStrataFailure(`read the ${labelOf(loc)}`, loc.dir, () => {
    const disk = inspect(loc, ops);
    const text = disk.bytes?.toString('utf8') ?? null;
    return {
      scope: loc.scope,
      path: loc.file,
      ownership: disk.ownership,
      text,
      sha256: disk.sha,
      writtenAt: disk.record?.writtenAt ?? null,
      layers: layersOf(text),
      originalBackup: disk.record?.original?.backup ?? null,
      recordPath: loc.recordFile,
      diff: disk.ownership === 'modified' ? changedSinceDiff(loc, disk) : null,
    };
  });
}

function refuse(loc: OverrideLocation, disk: OnDisk, newText: string | null, verb: 'replace' | 'remove'): never {
  const foreign = disk.ownership === 'foreign';
  if (foreign && !disk.bytes)
    throw new StrataRequestError(
      strataError('override/not-strata-file', `${loc.file} is a symbolic link to ${disk.link}, which does not exist; Strata will not ${verb} it on its own`, {
        fix: `to ${verb} it anyway, run the command again with --force (the link is kept, and \`strata override remove\` puts it back)`,
        data: { path: loc.file, ownership: disk.ownership, diff: '' },
      }),
    );
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
      ? `to ${verb} it anyway, run the command again with --force (the file is kept as a backup${foreign ? ', and `strata override remove` puts it back' : ''}). The difference:\n${diff}`
      : `to remove it anyway, run the command again with --force (a copy is kept in ${loc.previousFile}). The difference:\n${diff}`;
  throw new StrataRequestError(strataError('override/not-strata-file', message, { fix, data: { path: loc.file, ownership: disk.ownership, diff } }));
}

function checkScope(loc: OverrideLocation, options: WriterOptions) {
  const uid = options.uid ?? process.getuid?.() ?? 0;
  if (loc.scope === 'system' && uid !== 0)
    throw new StrataRequestError(
      strataError('override/needs-root', `The system-wide override (${loc.file}) can only be changed by root`, {
        fix: 'run the command as root (sudo strata override … --system), or leave out --system to change only your own override',
      }),
    );
}

/** Crashed runs leave temp files (never *.json, so the loader ignores them); under the lock they are all stale. */
function sweepTemps(loc: OverrideLocation, ops: FileOps) {
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

function writeRecord(loc: OverrideLocation, record: OverrideRecord, ops: FileOps) {
  writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, ops);
}

function prepare(loc: OverrideLocation, ops: FileOps) {
  ops.mkdirSync(loc.dir, { recursive: true });
  ops.mkdirSync(loc.stateDir, { recursive: true });
}

/**
 * What apply (`text`) or remove (`text` null) would refuse, thrown before anything is written: for
 * a change that spans two files (override and settings file), both are checked first.
 */
export function assertChangeAllowed(loc: OverrideLocation, text: string | null, options: WriterOptions = {}): void {
  const ops = options.ops ?? realFileOps;
  const disk = inspect(loc, ops);
  if (options.force) return;
  if (text !== null) {
    if (disk.ownership === 'foreign' || disk.ownership === 'modified') refuse(loc, disk, text, 'replace');
  } else if (disk.record && disk.ownership === 'modified') {
    refuse(loc, disk, disk.record.original ? (readIfExists(disk.record.original.backup, ops)?.toString('utf8') ?? null) : null, 'remove');
  }
}

/** Both folders of a location, created before the lock is taken (the lock lives in the state folder). */
export function prepareLocation(loc: OverrideLocation, ops: FileOps = realFileOps): void {
  prepare(loc, ops);
}

export { checkScope as checkOverrideScope };

/** apply without taking the lock: the caller holds it (withLock(loc.lockFile, …)). */
export function applyOverrideLocked(loc: OverrideLocation, text: string, options: WriterOptions = {}): OverrideApplyResult {
  const ops = options.ops ?? realFileOps;
  const disk = inspect(loc, ops);
  if ((disk.ownership === 'foreign' || disk.ownership === 'modified') && !options.force) refuse(loc, disk, text, 'replace');
  sweepTemps(loc, ops);
  const newSha = sha256(text);
  let original = disk.record?.original ?? null;
  const result = (action: OverrideApplyResult['action'], backup: string | null): OverrideApplyResult => ({
    scope: loc.scope,
    path: loc.file,
    action,
    before: disk.ownership,
    backup,
    originalBackup: original?.backup ?? null,
    sha256: newSha,
    text,
  });
  if (disk.sha === newSha && disk.ownership === 'strata') {
    if (disk.record!.sha256 !== newSha || disk.record!.pendingSha256 !== undefined)
      writeRecord(loc, { ...disk.record!, sha256: newSha, text, writtenAt: new Date().toISOString(), pendingSha256: undefined }, ops);
    return result('unchanged', null);
  }
  // The pre-Strata file, kept until surrender; only the first time Strata writes here.
  if (!disk.record && (disk.bytes || disk.link !== null)) {
    // A symbolic link is kept as one: its target is never written (the new file replaces the link), and remove re-creates the link.
    const bytes = disk.bytes ?? Buffer.alloc(0);
    writeFileAtomic(loc.originalFile, bytes, ops);
    original = { sha256: sha256(bytes), backup: loc.originalFile, ...(disk.link !== null ? { symlink: disk.link } : {}) };
  }
  const backup = disk.bytes ? loc.previousFile : null;
  if (disk.bytes) writeFileAtomic(loc.previousFile, disk.bytes, ops);
  // The record must vouch for both the file on disk now (which may be an interrupted apply's pending
  // one, not record.sha256) and the one about to replace it.
  const base: OverrideRecord = disk.record ?? { version: 1, path: loc.file, sha256: null, text: null, writtenAt: null, original: null };
  writeRecord(loc, { ...base, sha256: disk.sha, text: disk.bytes?.toString('utf8') ?? null, original, pendingSha256: newSha }, ops);
  writeFileAtomic(loc.file, text, ops);
  writeRecord(loc, { version: 1, path: loc.file, sha256: newSha, text, writtenAt: new Date().toISOString(), original }, ops);
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

/** remove without taking the lock: the caller holds it. */
export function removeOverrideLocked(loc: OverrideLocation, options: WriterOptions = {}): OverrideRemoveResult {
  const ops = options.ops ?? realFileOps;
  const disk = inspect(loc, ops);
  const nothing = (reason: string): OverrideRemoveResult => ({ scope: loc.scope, path: loc.file, action: 'nothing', backup: null, reason });
  if (!disk.record)
    return nothing(
      disk.bytes
        ? `Strata did not write ${loc.file} (it was there before, or another tool wrote it), so there is nothing of Strata's to remove`
        : `there is no override at ${loc.file}`,
    );
  if (disk.ownership === 'modified' && !options.force)
    refuse(loc, disk, disk.record.original ? (readIfExists(disk.record.original.backup, ops)?.toString('utf8') ?? null) : null, 'remove');
  sweepTemps(loc, ops);
  const original = disk.record.original;
  let originalBytes: Buffer | null = null;
  if (original) {
    originalBytes = readIfExists(original.backup, ops);
    if (!originalBytes || sha256(originalBytes) !== original.sha256)
      throw new StrataRequestError(
        strataError(
          'override/backup-missing',
          `The backup of the ${labelOf(loc)} that was there before Strata is ${originalBytes ? 'damaged' : 'missing'}, so Strata cannot restore it; nothing was changed`,
          {
            where: original.backup,
            fix: `put the pre-Strata file back yourself (or delete ${loc.file}), then delete ${loc.recordFile}`,
          },
        ),
      );
  }
  const backup = disk.bytes && disk.sha !== original?.sha256 ? loc.previousFile : null;
  if (backup) writeFileAtomic(loc.previousFile, disk.bytes!, ops);
  writeRecord(loc, { ...disk.record, sha256: disk.sha, text: disk.bytes?.toString('utf8') ?? null, pendingSha256: original?.sha256 ?? null }, ops);
  if (original?.symlink !== undefined) restoreLink(loc.file, original.symlink, ops);
  else if (originalBytes) writeFileAtomic(loc.file, originalBytes, ops);
  else unlinkDurable(loc.file, ops);
  // The record goes first: without it the restored file is simply not Strata's again.
  unlinkDurable(loc.recordFile, ops);
  if (original) unlinkDurable(original.backup, ops);
  return { scope: loc.scope, path: loc.file, action: original ? 'restored' : 'deleted', backup, reason: null };
}

/**
 * Runs a change of one file under its lock; a fault's message says whether the file changed (its own
 * write may have got through before its record's, or the lock's release may fail after both).
 */
function truthfully<T>(loc: OverrideLocation, action: string, ops: FileOps, options: WriterOptions, fn: () => T): T {
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

export function applyOverride(loc: OverrideLocation, text: string, options: WriterOptions = {}): OverrideApplyResult {
  checkScope(loc, options);
  const ops = options.ops ?? realFileOps;
  return asStrataFailure('write the override', loc.dir, () => {
    prepare(loc, ops);
    return truthfully(loc, 'write the override', ops, options, () => applyOverrideLocked(loc, text, options));
  });
}

export function removeOverride(loc: OverrideLocation, options: WriterOptions = {}): OverrideRemoveResult {
  checkScope(loc, options);
  const ops = options.ops ?? realFileOps;
  return asStrataFailure('remove the override', loc.dir, () => {
    if (!ops.existsSync(loc.recordFile) && !ops.existsSync(loc.lockFile)) return removeOverrideLocked(loc, options);
    return truthfully(loc, 'remove the override', ops, options, () => removeOverrideLocked(loc, options));
  });
}

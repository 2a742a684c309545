import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import type { Environment } from '../../shared/loader/xdg-directories';
import type { OverrideApplyResult, OverrideRemoveResult, OverrideStatus, SettingsFileResult, SettingsFileStatus } from '../../shared/override/override-status';
import type { OverridePreview, PreviewFile } from '../../shared/override/override-preview';
import { hiddenByUserFile, settingsPathVariableFile, userSettingsFile, type HiddenSettingsFile } from '../../shared/settings/settings-file-location';
import { asStrataFailure, readIfExists, realFileOps, type FileOps } from '../platform/atomic-file';
import { withLock } from '../platform/file-lock';
import { labelOf } from '../platform/owned-files/owned-record';
import { snapshot, truthAfterFault, type Snapshot } from '../platform/owned-files/fault-truth';
import {
  applyOverrideLocked,
  assertChangeAllowed,
  checkOverrideScope,
  overrideLocation,
  prepareLocation,
  readOverrideStatus,
  removeOverrideLocked,
  sha256,
  type OverrideLocation,
  type WriterOptions,
} from './override-writer';

/**
 * A configuration touches two files: the override meta-layer (which layers) and the per-user
 * vk_layer_settings.txt (their settings). Both get the override writer's guarantees (atomic
 * replace, one backup, a record of what Strata wrote, refusal to overwrite a file it did not write
 * without force, surrender restoring the file that was there before), under one lock; and both are
 * checked for refusal before either is written, so a refused apply changes nothing.
 */
export interface ConfigurationLocations {
  override: OverrideLocation;
  /** null for the system scope: the layers only read a per-user settings file (settings-file-location.ts). */
  settings: OverrideLocation | null;
}

/**
 * The settings file where the validation layer 1.3.239 looks first ($XDG_DATA_HOME/vulkan/settings.d,
 * or ~/.local/share/…), with its record and backups beside the override's, under the override's lock.
 */
export function settingsFileLocation(env: Environment, home: string): OverrideLocation {
  return settingsFileBeside(overrideLocation('user', env, home), userSettingsFile(env, home));
}

/** The layer settings file `file` with its record and backups in `override`'s state folder, under its lock (Linux's and Windows' alike). */
export function settingsFileBeside(override: OverrideLocation, file: string): OverrideLocation {
  return {
    scope: override.scope,
    dir: dirname(file),
    file,
    stateDir: override.stateDir,
    recordFile: join(override.stateDir, 'settings-record.json'),
    originalFile: join(override.stateDir, 'settings-original.txt'),
    previousFile: join(override.stateDir, 'settings-previous.txt'),
    lockFile: override.lockFile,
    label: 'layer settings file',
  };
}

export function configurationLocations(system: boolean, env: Environment, home: string): ConfigurationLocations {
  return system
    ? { override: overrideLocation('system', env, home), settings: null }
    : { override: overrideLocation('user', env, home), settings: settingsFileLocation(env, home) };
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Settings files the layers would read but ignore while `settingsFile` exists: today, the one VK_LAYER_SETTINGS_PATH names. */
export function hiddenSettingsFiles(env: Environment, settingsFile: string): HiddenSettingsFile[] {
  const path = settingsPathVariableFile(env, isFolder);
  if (!path || resolve(path) === resolve(settingsFile) || !existsSync(path)) return [];
  return [hiddenByUserFile(path)];
}

export interface ConfigurationTexts {
  /** null: the configuration forces no layer, so no override file of Strata's. */
  override: string | null;
  /** null: no settings, so no settings file of Strata's. */
  settings: string | null;
}

const SETTINGS_UNTOUCHED = 'the override and layer settings files are as they were';

function settingsNeedUser(): never {
  throw serviceError(
    'override/settings-need-user',
    'Layer settings cannot be installed system-wide: the layers read vk_layer_settings.txt only from your own ~/.local/share/vulkan/settings.d (or VK_LAYER_SETTINGS_PATH, or the working directory)',
    {
      fix: 'apply the settings without --system (a system-wide override can force the layers on, and your own settings file configures them)',
    },
  );
}

function settingsChange(loc: OverrideLocation, text: string | null, env: Environment, options: WriterOptions): SettingsFileResult {
  const before = readOverrideStatus(loc, options);
  const hides = hiddenSettingsFiles(env, loc.file);
  if (text !== null) {
    const r = applyOverrideLocked(loc, text, options);
    return {
      path: loc.file,
      action: r.action === 'removed' ? 'replaced' : r.action,
      before: r.before,
      backup: r.backup,
      originalBackup: r.originalBackup,
      text,
      hides,
    };
  }
  const r = removeOverrideLocked(loc, options);
  const now = readIfExists(loc.file, options.ops ?? realFileOps)?.toString('utf8') ?? null;
  return {
    path: loc.file,
    action: r.action === 'nothing' ? 'nothing' : 'removed',
    before: before.ownership,
    backup: r.backup,
    originalBackup: null,
    text: now,
    hides: now !== null ? hides : [],
  };
}

/** The override part of a settings-only configuration: Strata's override goes (the pre-Strata one comes back). */
function overrideRemovedByApply(loc: OverrideLocation, options: WriterOptions): OverrideApplyResult {
  const before = readOverrideStatus(loc, options);
  const r = removeOverrideLocked(loc, options);
  const text = readIfExists(loc.file, options.ops ?? realFileOps)?.toString('utf8') ?? '';
  return {
    scope: loc.scope,
    path: loc.file,
    action: r.action === 'nothing' ? 'unchanged' : 'removed',
    before: before.ownership,
    backup: r.backup,
    originalBackup: null,
    sha256: sha256(text),
    text,
  };
}

export function applyConfiguration(
  locs: ConfigurationLocations,
  texts: ConfigurationTexts,
  env: Environment,
  options: WriterOptions = {},
): OverrideApplyResult {
  checkOverrideScope(locs.override, options);
  if (texts.settings !== null && !locs.settings) settingsNeedUser();
  const ops = options.ops ?? realFileOps;
  let snapshots: Snapshot[] = [];
  return asStrataFailure(
    'write the override',
    locs.override.dir,
    () => {
      prepareLocation(locs.override, ops);
      if (locs.settings && texts.settings !== null) prepareLocation(locs.settings, ops);
      // Inside the lock a fault rolls back what it can; one after (releasing the lock) still reports what is on disk.
      return afterLock(
        'write the override',
        locs.override.dir,
        () => snapshots,
        ops,
        () =>
          withLock(
            locs.override.lockFile,
            () => {
              assertChangeAllowed(locs.override, texts.override, options);
              if (locs.settings) assertChangeAllowed(locs.settings, texts.settings, options);
              // In the order they are written; a fault half-way rolls back or names what changed (main/platform/owned-files/fault-truth.ts).
              snapshots = [...(locs.settings ? [snapshot(locs.settings, ops)] : []), snapshot(locs.override, ops)];
              try {
                // Settings first: once the override forces a layer on, its settings are already in place.
                const settings = locs.settings ? settingsChange(locs.settings, texts.settings, env, options) : undefined;
                const override =
                  texts.override !== null ? applyOverrideLocked(locs.override, texts.override, options) : overrideRemovedByApply(locs.override, options);
                return settings ? { ...override, settings } : override;
              } catch (e) {
                throw truthAfterFault(e, 'write the override', locs.override.dir, snapshots, ops);
              }
            },
            { ops, ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}) },
          ),
      );
    },
    SETTINGS_UNTOUCHED,
  );
}

function afterLock<T>(action: string, folder: string, snapshots: () => Snapshot[], ops: FileOps, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw truthAfterFault(e, action, folder, snapshots(), ops);
  }
}

/** Surrender: both files back to the state before Strata; a change made since Strata wrote either is refused without force, before anything is removed. */
export function removeConfiguration(locs: ConfigurationLocations, env: Environment, options: WriterOptions = {}): OverrideRemoveResult {
  checkOverrideScope(locs.override, options);
  const ops = options.ops ?? realFileOps;
  let snapshots: Snapshot[] = [];
  const run = () => {
    assertChangeAllowed(locs.override, null, options);
    if (locs.settings) assertChangeAllowed(locs.settings, null, options);
    snapshots = [...(locs.settings ? [snapshot(locs.settings, ops)] : []), snapshot(locs.override, ops)];
    try {
      const settings = locs.settings ? settingsChange(locs.settings, null, env, options) : undefined;
      const override = removeOverrideLocked(locs.override, options);
      return settings && settings.action !== 'nothing' ? { ...override, settings } : override;
    } catch (e) {
      throw truthAfterFault(e, 'remove the override', locs.override.dir, snapshots, ops);
    }
  };
  return asStrataFailure(
    'remove the override',
    locs.override.dir,
    () => {
      const anyRecord = [locs.override.recordFile, locs.settings?.recordFile].some((f) => f !== undefined && ops.existsSync(f));
      // Nothing of Strata's and nobody holding the lock: answer without creating Strata's state folder.
      if (!anyRecord && !ops.existsSync(locs.override.lockFile)) return run();
      return afterLock(
        'remove the override',
        locs.override.dir,
        () => snapshots,
        ops,
        () => withLock(locs.override.lockFile, run, { ops, ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}) }),
      );
    },
    SETTINGS_UNTOUCHED,
  );
}

export function readConfigurationStatus(locs: ConfigurationLocations, env: Environment, options: Pick<WriterOptions, 'ops'> = {}): OverrideStatus {
  const status = readOverrideStatus(locs.override, options);
  if (!locs.settings) return status;
  const s = readOverrideStatus(locs.settings, options);
  const settings: SettingsFileStatus = {
    path: s.path,
    ownership: s.ownership,
    text: s.text,
    writtenAt: s.writtenAt,
    originalBackup: s.originalBackup,
    diff: s.diff,
    hides: s.text !== null ? hiddenSettingsFiles(env, s.path) : [],
  };
  return { ...status, settings };
}

/**
 * What apply (`texts`) or surrender (`texts` null) would do to each file, read with the writer's
 * own ownership rules, without writing anything (override.preview: the Apply dialog's diff).
 */
export function previewConfiguration(
  locs: ConfigurationLocations,
  texts: ConfigurationTexts | null,
  options: Pick<WriterOptions, 'ops'> = {},
): OverridePreview {
  const ops = options.ops ?? realFileOps;
  if (texts?.settings != null && !locs.settings) settingsNeedUser();
  const fileOf = (role: PreviewFile['role'], loc: OverrideLocation, text: string | null, removeOnly: boolean): PreviewFile | null => {
    const s = readOverrideStatus(loc, { ops });
    const conflict =
      s.ownership === 'foreign'
        ? `${loc.file} was not written by Strata (another tool's or a person's ${labelOf(loc)})`
        : s.ownership === 'modified'
          ? `${loc.file} was changed since Strata wrote it${s.writtenAt ? ` at ${s.writtenAt}` : ''}`
          : null;
    if (text !== null) {
      const unchanged = s.text === text && s.ownership === 'strata';
      const needsForce = s.ownership === 'foreign' || s.ownership === 'modified';
      return {
        role,
        path: loc.file,
        before: s.text,
        after: text,
        action: unchanged ? 'unchanged' : s.text === null ? 'create' : 'replace',
        ownership: s.ownership,
        needsForce,
        conflict: needsForce ? conflict : null,
      };
    }
    // No text: Strata's file goes (the pre-Strata one comes back); anyone else's stays as it is.
    const ours = s.ownership === 'strata' || s.ownership === 'modified';
    if (!ours)
      return removeOnly || s.text === null
        ? null
        : { role, path: loc.file, before: s.text, after: s.text, action: 'unchanged', ownership: s.ownership, needsForce: false, conflict: null };
    const original = s.originalBackup ? (readIfExists(s.originalBackup, ops)?.toString('utf8') ?? null) : null;
    const needsForce = s.ownership === 'modified';
    return {
      role,
      path: loc.file,
      before: s.text,
      after: original,
      action: original !== null ? 'restore' : 'delete',
      ownership: s.ownership,
      needsForce,
      conflict: needsForce ? conflict : null,
    };
  };
  const files = [
    locs.settings ? fileOf('settings', locs.settings, texts?.settings ?? null, true) : null,
    fileOf('override', locs.override, texts?.override ?? null, false),
  ].filter((f): f is PreviewFile => f !== null);
  return { scope: locs.override.scope, files, needsForce: files.some((f) => f.needsForce) };
}

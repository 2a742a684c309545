import { join } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import { resolveXdgDirectories, type Environment } from '../../shared/loader/xdg-directories';
import { OVERRIDE_FILE_NAME } from '../../shared/override/override-config';
import type { OverrideApplyResult, OverrideRemoveResult, OverrideScope, OverrideStatus } from '../../shared/override/override-status';
import { asStrataFailure, realFileOps, type FileOps } from '../platform/atomic-file';
import {
  applyOwned,
  applyOwnedLocked,
  assertOwnedChangeAllowed,
  ownedStatus,
  prepareOwned,
  removeOwned,
  removeOwnedLocked,
  type OwnedWriteOptions,
} from '../platform/owned-files/owned-file';
import type { OwnedLocation } from '../platform/owned-files/owned-location';
import { sha256 } from '../platform/owned-files/owned-record';
import { strataUserDirs } from '../platform/user-dirs';

/**
 * The override writer: installs Strata's VkLayer_override.json where the loader finds implicit
 * layers, through the one writer of files Strata owns (main/platform/owned-files/owned-file.ts):
 * every crash leaves either the old or the new file; a file Strata did not write (or that was
 * changed since) is never overwritten unless forced; surrender restores exactly the state before
 * Strata. What this module adds: where the override lives per scope, and that the system scope
 * needs root.
 */
export interface OverrideLocation extends OwnedLocation {
  scope: OverrideScope;
}

/**
 * user: $XDG_DATA_HOME/vulkan/implicit_layer.d (one of the loader's implicit layer folders, and the
 * one vkconfig uses), state in $XDG_STATE_HOME/strata. system: /etc/vulkan/implicit_layer.d (the
 * loader's SYSCONFDIR folder on Linux), state in /var/lib/strata.
 */
export function overrideLocation(scope: OverrideScope, env: Environment, home: string): OverrideLocation {
  const xdg = resolveXdgDirectories(env, home);
  const dir = scope === 'system' ? '/etc/vulkan/implicit_layer.d' : join(xdg.dataHome.value, 'vulkan', 'implicit_layer.d');
  const stateDir = scope === 'system' ? '/var/lib/strata' : strataUserDirs(env, home).state;
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

export interface WriterOptions extends OwnedWriteOptions {
  /** The effective uid (tests); the system scope needs 0. */
  uid?: number;
}

export { sha256 };

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

export function readOverrideStatus(loc: OverrideLocation, options: Pick<WriterOptions, 'ops'> = {}): OverrideStatus {
  const ops = options.ops ?? realFileOps;
  return asStrataFailure(`read the ${loc.label ?? 'override'}`, loc.dir, () => {
    const s = ownedStatus(loc, ops);
    return {
      scope: loc.scope,
      path: s.path,
      ownership: s.ownership,
      text: s.text,
      sha256: s.sha256,
      writtenAt: s.writtenAt,
      layers: layersOf(s.text),
      originalBackup: s.originalBackup,
      recordPath: s.recordPath,
      diff: s.diff,
    };
  });
}

function checkScope(loc: OverrideLocation, options: WriterOptions) {
  const uid = options.uid ?? process.getuid?.() ?? 0;
  if (loc.scope === 'system' && uid !== 0)
    throw serviceError('override/needs-root', `The system-wide override (${loc.file}) can only be changed by root`, {
      fix: 'run the command as root (sudo strata override … --system), or leave out --system to change only your own override',
    });
}

/**
 * What apply (`text`) or remove (`text` null) would refuse, thrown before anything is written: for
 * a change that spans two files (override and settings file), both are checked first.
 */
export function assertChangeAllowed(loc: OverrideLocation, text: string | null, options: WriterOptions = {}): void {
  assertOwnedChangeAllowed(loc, text, options);
}

/** Both folders of a location, created before the lock is taken (the lock lives in the state folder). */
export function prepareLocation(loc: OverrideLocation, ops: FileOps = realFileOps): void {
  prepareOwned(loc, ops);
}

export { checkScope as checkOverrideScope };

/** apply without taking the lock: the caller holds it (withLock(loc.lockFile, …)). */
export function applyOverrideLocked(loc: OverrideLocation, text: string, options: WriterOptions = {}): OverrideApplyResult {
  return { scope: loc.scope, path: loc.file, ...applyOwnedLocked(loc, text, options) };
}

/** remove without taking the lock: the caller holds it. */
export function removeOverrideLocked(loc: OverrideLocation, options: WriterOptions = {}): OverrideRemoveResult {
  return { scope: loc.scope, path: loc.file, ...removeOwnedLocked(loc, options) };
}

export function applyOverride(loc: OverrideLocation, text: string, options: WriterOptions = {}): OverrideApplyResult {
  checkScope(loc, options);
  return asStrataFailure('write the override', loc.dir, () => ({ scope: loc.scope, path: loc.file, ...applyOwned(loc, text, 'write the override', options) }));
}

export function removeOverride(loc: OverrideLocation, options: WriterOptions = {}): OverrideRemoveResult {
  checkScope(loc, options);
  return asStrataFailure('remove the override', loc.dir, () => ({ scope: loc.scope, path: loc.file, ...removeOwned(loc, 'remove the override', options) }));
}

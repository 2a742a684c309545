import { win32 } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import { windowsLocalAppData } from '../platform/user-dirs';
import { loaderSettingsKey } from '../../shared/loader/windows-settings-file';
import { SETTINGS_FILE_NAME } from '../../shared/loader/settings-file-locations';
import { LOADER_FEATURES, loaderAtLeast } from '../../shared/profiles/loader-features';
import { buildLoaderSettings } from '../../shared/profiles/loader-settings';
import type { AppOverrideGroup } from '../../shared/profiles/app-overrides';
import type { BindingsSyncResult } from '../../shared/profiles/profile-channels';
import type { Environment } from '../../shared/loader/xdg-directories';
import { discoveryManifests } from '../discovery/discovery-service';
import { windowsProcessElevated } from '../discovery/windows-registry';
import { asStrataFailure, realFileOps, type FileOps } from '../platform/atomic-file';
import { applyOwnedLocked, ownedStatus, prepareOwned, removeOwnedLocked, underOwnedLock } from '../platform/owned-files/owned-file';
import type { OwnedLocation } from '../platform/owned-files/owned-location';
import {
  applyOwnedRegistryValue,
  assertRegistryValueAllowed,
  removeOwnedRegistryValue,
  type OwnedRegistryValueLocation,
  type RegistryWrites,
} from '../platform/owned-files/owned-registry-value';
import { systemOverrideRegistry } from './windows-override';

/**
 * The loader settings file on Windows (profile bindings, as on Linux through syncBindings). The
 * loader finds it only through a value of `…\Khronos\Vulkan\LoaderSettings` whose name is the
 * file's path (shared/loader/windows-settings-file.ts: elevated processes read HKLM only, others
 * HKCU then HKLM). So Strata writes vk_loader_settings.json into a folder of its own and registers it:
 *
 *   Strata not elevated: %LOCALAPPDATA%\Strata\loader-settings\vk_loader_settings.json → HKCU\…\LoaderSettings
 *   Strata elevated:     %ProgramData%\Strata\loader-settings\vk_loader_settings.json  → HKLM\…\LoaderSettings
 *
 * Strata models an application as elevated as itself (explain does), and an elevated application
 * reads only HKLM: so an elevated Strata (every process under Wine) registers there, where its
 * applications look. The file has the owned-file writer's guarantees; the value is an owned registry
 * value (main/platform/owned-files/owned-registry-value.ts): recorded, other values in the key
 * refused unless forced (then deleted and put back on surrender: the loader reads one value and
 * ignores the data, so a DWORD 1 would not disable them).
 */

export interface WindowsBindingsOptions {
  env: NodeJS.ProcessEnv;
  loaderVersion: string;
  groups: AppOverrideGroup[];
  force?: boolean;
  ops?: FileOps;
  /** Tests: the registry and the elevation (default: this machine's). */
  registry?: RegistryWrites;
  elevated?: boolean;
}

export interface WindowsLoaderSettingsLocation {
  file: OwnedLocation;
  registration: OwnedRegistryValueLocation;
  hive: 'HKCU' | 'HKLM';
}

export function windowsLoaderSettingsLocation(elevated: boolean, env: Environment, loaderVersion: string): WindowsLoaderSettingsLocation {
  const base = elevated ? env['ProgramData'] || env['PROGRAMDATA'] || 'C:\\ProgramData' : windowsLocalAppData(env);
  const root = win32.join(base, 'Strata');
  const dir = win32.join(root, 'loader-settings');
  const stateDir = win32.join(root, 'state');
  const file = win32.join(dir, SETTINGS_FILE_NAME);
  const hive = elevated ? 'HKLM' : 'HKCU';
  return {
    hive,
    file: {
      dir,
      file,
      stateDir,
      recordFile: win32.join(stateDir, 'loader-settings-record.json'),
      originalFile: win32.join(stateDir, 'loader-settings-original.json'),
      previousFile: win32.join(stateDir, 'loader-settings-previous.json'),
      lockFile: win32.join(stateDir, 'loader-settings.lock'),
      label: 'loader settings file',
      refusalCode: 'profile/foreign-override',
      surrenderCommand: '`strata profile unbind`',
    },
    registration: {
      key: `${hive}\\${loaderSettingsKey(loaderVersion) ?? 'SOFTWARE\\Khronos\\Vulkan\\LoaderSettings'}`,
      name: file,
      recordFile: win32.join(stateDir, 'loader-settings-registration.json'),
      label: 'loader settings file',
      conflictWhy: "the loader reads one value of this key, and could take that one instead of Strata's loader settings file",
      refusalCode: 'profile/foreign-loader-settings',
      surrenderCommand: '`strata profile unbind`',
      // The loader reads no value's data (a DWORD 1 disables nothing): what is in the way is deleted, and Strata's own value is simply taken.
      setAside: { kind: 'delete' },
      ownValueWithoutRecord: 'take',
    },
  };
}

const reachNote = (hive: 'HKCU' | 'HKLM') =>
  hive === 'HKLM'
    ? 'Strata runs elevated, so the file is registered in HKLM, which every application reads (an application that is not elevated reads HKCU first: a settings file registered there wins)'
    : 'registered in HKCU: applications that run elevated (Run as administrator, services) read only HKLM and do not get these bindings; bind from an elevated Strata for them';

/** syncBindings on Windows: write or remove Strata's loader settings file, and its registry value with it. */
export async function syncWindowsLoaderSettings(options: WindowsBindingsOptions): Promise<BindingsSyncResult> {
  const ops = options.ops ?? realFileOps;
  if (!loaderAtLeast(options.loaderVersion, LOADER_FEATURES.settingsFileBindings))
    throw serviceError(
      'profile/bindings-windows',
      `On Windows Strata binds applications through vk_loader_settings.json, which loader ${options.loaderVersion} cannot use for that (${LOADER_FEATURES.settingsFileBindings}+ can: older loaders cannot turn the global override off for a bound application)`,
      {
        fix: `install the Vulkan Runtime ${LOADER_FEATURES.settingsFileBindings} or newer, or start the application from Strata with the profile (\`strata launch --profile NAME -- APP\`)`,
      },
    );
  const elevated = options.elevated ?? (await windowsProcessElevated()) === true;
  const loc = windowsLoaderSettingsLocation(elevated, options.env, options.loaderVersion);
  const reg = options.registry ?? (await systemOverrideRegistry());
  const force = options.force === true;
  const base = { mechanism: 'loader-settings' as const, loaderVersion: options.loaderVersion, checks: [] };

  if (!options.groups.some((g) => g.apps.length)) {
    const removed: string[] = [];
    asStrataFailure('remove the loader settings file', loc.file.dir, () => {
      if (!ops.existsSync(loc.file.recordFile)) return;
      underOwnedLock(loc.file, 'remove the loader settings file', { ops }, () => {
        // Only Strata's own file goes; another tool's (or one changed since) stays.
        if (ownedStatus(loc.file, ops).ownership !== 'strata') return;
        removeOwnedLocked(loc.file, { ops });
        removed.push(loc.file.file);
      });
    });
    const unregistered = await removeOwnedRegistryValue(loc.registration, reg, ops);
    return {
      ...base,
      files: [],
      removed,
      notes: [
        removed.length ? `no application is bound: ${loc.file.file} is removed` : 'no application is bound',
        ...(unregistered.action !== 'nothing' ? [`its value in ${loc.registration.key} is ${unregistered.action}`] : []),
        ...unregistered.restored.map((n) => `${n} is back in ${loc.registration.key}`),
      ],
    };
  }

  const inventory = await discoveryManifests({ env: options.env });
  const built = buildLoaderSettings(
    options.groups.filter((g) => g.apps.length).map((g) => ({ profile: g.profile, appKeys: g.apps })),
    { inventory, loaderVersion: options.loaderVersion },
  );
  if (!built.ok) throw serviceError(built.error);
  // Both refusals before anything is written: another value in the key, another tool's file.
  await assertRegistryValueAllowed(loc.registration, reg, 0, force, ops);
  asStrataFailure('write the loader settings file', loc.file.dir, () => {
    prepareOwned(loc.file, ops);
    underOwnedLock(loc.file, 'write the loader settings file', { ops }, () =>
      applyOwnedLocked(loc.file, built.text, { ops, ...(force ? { force: true } : {}) }),
    );
  });
  const registered = await applyOwnedRegistryValue(loc.registration, reg, 0, { force, ops });
  const apps = options.groups.flatMap((g) => g.apps);
  return {
    ...base,
    files: [{ path: loc.file.file, profile: null, apps, appKeys: apps, written: true }],
    removed: [],
    notes: [
      `loader ${options.loaderVersion} reads ${loc.file.file} through ${loc.registration.key} (value ${registered.action}): one settings object per bound profile, by app_keys`,
      reachNote(loc.hive),
      ...registered.setAside.map(
        (n) => `${n} was removed from ${loc.registration.key} (--force); \`strata profile unbind\` of the last application puts it back`,
      ),
      ...built.notes,
    ],
  };
}

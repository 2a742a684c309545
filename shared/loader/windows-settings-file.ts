import { ansiDataSize, type RegistryValue } from '../discovery/registry-output';
import { loaderHas } from './loader-rules';
import { SETTINGS_FILE_NAME } from './settings-file-locations';

/**
 * Which vk_loader_settings.json a Windows loader reads: the loader finds it through the registry,
 * never by folder (loader_windows.c windows_get_loader_settings_file_path and
 * get_settings_path_if_exists_in_registry_key, read at 1.3.275, 1.4.309, 1.4.321, 1.4.341, 1.4.359;
 * settings.c get_loader_settings calls it under `#if defined(WIN32)`):
 *
 * - The key is `SOFTWARE\Khronos\Vulkan\LoaderSettings` (vk_loader_platform.h VK_SETTINGS_INFO_REGISTRY_LOC;
 *   PR #1222 moved it there from `…\Vulkan\Settings` together with Linux's loader_settings.d, so the
 *   rules table's settings-folder-renamed row, 1.3.253, dates both). Before 1.3.251 there is no settings file.
 * - An elevated process (is_high_integrity) reads HKLM only; any other reads HKCU first and HKLM
 *   only when HKCU gave no file.
 * - In a key, RegEnumValueA walks the values into `char name[MAX_STRING_SIZE]` (1024) and a 4-byte
 *   data buffer and stops at the first that does not fit. `name_size` is set once, before the loop,
 *   and RegEnumValue writes the length of each name it returns into it: so after the first value the
 *   buffer is as long as that name, and the walk also stops at the first name that is not shorter
 *   than every name before it. The data is never looked at (a DWORD 1 counts as much as a 0).
 * - A value is the settings file when the part of its name after the last backslash is exactly
 *   `vk_loader_settings.json` (strcmp: case counts, `/` is no separator). The walk ends at the first.
 * - 1.3.302+ (PR #1607 "Correctly check if settings file exists on windows", merged 2024-11-20;
 *   rules table settings-windows-exists-check): a matching value whose file does not exist fails the
 *   key (logged "Registry contained entry to vk_loader_settings.json but the corresponding file does
 *   not exist, ignoring"), so a non-elevated process goes on to HKLM. Before (1.3.275), the check
 *   sat where it never ran: the path is taken as found, the loader then fails to open it and runs
 *   with no settings file, and HKLM is not read.
 */

export const LOADER_SETTINGS_KEY = 'SOFTWARE\\Khronos\\Vulkan\\LoaderSettings';
/** The key of 1.3.251–1.3.252 (PR #1222 renamed it). */
export const EARLY_LOADER_SETTINGS_KEY = 'SOFTWARE\\Khronos\\Vulkan\\Settings';
/** loader_windows.c `char name[MAX_STRING_SIZE]` (vk_loader_platform.h: 1024). */
const NAME_BUFFER = 1024;

export type SettingsHive = 'HKCU' | 'HKLM';

export interface WindowsSettingsFileQuery {
  loaderVersion: string | null;
  elevated: boolean;
  /** The values of HKCU\…\LoaderSettings in RegEnumValue's order; null when the key does not exist. */
  hkcu: readonly RegistryValue[] | null;
  hklm: readonly RegistryValue[] | null;
  exists: (path: string) => boolean;
}

export interface WindowsSettingsFile {
  /** The file the loader reads; null: none (then it runs without a settings file). */
  path: string | null;
  /** Where it was registered (also set when the registered file is missing and so gives no settings). */
  hive: SettingsHive | null;
  /** The value the loader took, when that file does not exist (1.3.275: it stops there, and reads no file). */
  missing: string | null;
}

/** The registry key a loader of this version reads its settings file through (without the hive); null before 1.3.251. */
export function loaderSettingsKey(loaderVersion: string | null): string | null {
  if (!loaderHas(loaderVersion, 'settings-file')) return null;
  return loaderHas(loaderVersion, 'settings-folder-renamed') ? LOADER_SETTINGS_KEY : EARLY_LOADER_SETTINGS_KEY;
}

/** get_settings_path_if_exists_in_registry_key: the value the walk of one key stops at, if any. */
export function settingsValueInKey(values: readonly RegistryValue[]): string | null {
  let buffer = NAME_BUFFER;
  for (const v of values) {
    // ERROR_MORE_DATA (the name with its NUL, or the data, does not fit) ends the loop.
    if (v.name.length + 1 > buffer || ansiDataSize(v) > 4) return null;
    buffer = v.name.length;
    // The loader scans from name[name_size] down to name[1]: a backslash at index 0 is not seen.
    const slash = v.name.lastIndexOf('\\');
    const base = slash > 0 ? v.name.slice(slash + 1) : v.name;
    if (base === SETTINGS_FILE_NAME) return v.name;
  }
  return null;
}

/**
 * Every value of one LoaderSettings key that names a vk_loader_settings.json (the status strip lists
 * them all, as files someone registered), in the key's order, whether or not the loader's walk
 * (settingsValueInKey) reaches it.
 */
export function registeredSettingsFiles(values: readonly RegistryValue[]): string[] {
  return values.map((v) => v.name).filter((name) => name.slice(name.lastIndexOf('\\') + 1) === SETTINGS_FILE_NAME);
}

/** windows_get_loader_settings_file_path, as the loader of `loaderVersion` runs it. */
export function windowsSettingsFile(q: WindowsSettingsFileQuery): WindowsSettingsFile {
  const none: WindowsSettingsFile = { path: null, hive: null, missing: null };
  if (!loaderSettingsKey(q.loaderVersion)) return none;
  const checksExistence = loaderHas(q.loaderVersion, 'settings-windows-exists-check');
  const hives: [SettingsHive, readonly RegistryValue[] | null][] = q.elevated
    ? [['HKLM', q.hklm]]
    : [
        ['HKCU', q.hkcu],
        ['HKLM', q.hklm],
      ];
  for (const [hive, values] of hives) {
    const name = values ? settingsValueInKey(values) : null;
    if (name === null) continue;
    if (q.exists(name)) return { path: name, hive, missing: null };
    // 1.3.302+: the key failed, the next hive is read; before, the missing file is "found".
    if (!checksExistence) return { path: null, hive, missing: name };
  }
  return none;
}

import { existsSync } from 'node:fs';
import { RULES_VERSION } from '../../shared/loader/loader-rules';
import { settingsFileSearch } from '../../shared/loader/settings-file-locations';
import { loaderSettingsKey, windowsSettingsFile } from '../../shared/loader/windows-settings-file';
import type { RegistryValue } from '../../shared/discovery/registry-output';
import type { Environment } from '../../shared/loader/xdg-directories';
import { systemRegistryReader, windowsProcessElevated, type RegistryReader } from '../discovery/windows-registry';

/** The values of HKCU and HKLM `…\Khronos\Vulkan\LoaderSettings`, in RegEnumValue's order (Windows). */
export interface LoaderSettingsRegistry {
  hkcu: RegistryValue[];
  hklm: RegistryValue[];
}

/** The LoaderSettings values for a loader of `loaderVersion` (default reader: this machine's); null without a registry or before the settings file (1.3.251). */
export async function loaderSettingsRegistry(
  loaderVersion: string | null,
  reader: RegistryReader | null = systemRegistryReader(),
): Promise<LoaderSettingsRegistry | null> {
  const key = loaderSettingsKey(loaderVersion ?? RULES_VERSION);
  if (!reader || !key) return null;
  const [hkcu, hklm] = await Promise.all([reader.values(`HKCU\\${key}`), reader.values(`HKLM\\${key}`)]);
  return { hkcu, hklm };
}

/**
 * The vk_loader_settings.json a loader of `loaderVersion` reads with `env`. Linux and macOS: the
 * first that exists in its own search order (shared/loader/settings-file-locations.ts, proven per
 * version by tests/integration/settings-file-search-vs-loader.test.ts). Windows (`registry` given):
 * the one its LoaderSettings values name (shared/loader/windows-settings-file.ts, proven by
 * tests/integration/windows-override-vs-loader.test.ts). Null when there is none. An unknown
 * version is taken as the rules version. The synchronous core of settingsFileFor, which every
 * caller goes through (it reads the registry on Windows).
 */
export function foundSettingsFile(
  env: Environment,
  loaderVersion: string | null,
  elevated = false,
  registry: LoaderSettingsRegistry | null = null,
): string | null {
  const version = loaderVersion ?? RULES_VERSION;
  if (registry) return windowsSettingsFile({ loaderVersion: version, elevated, hkcu: registry.hkcu, hklm: registry.hklm, exists: existsSync }).path;
  return settingsFileSearch({ env, loaderVersion: version, elevated }).find((p) => existsSync(p)) ?? null;
}

export interface SettingsFileLookup {
  env: Environment;
  loaderVersion: string | null;
  /** Default: this process's OS (process.platform). */
  windows?: boolean;
  /** Whether the application is elevated (default: as this process is: its token on Windows; not elevated elsewhere). */
  elevated?: boolean;
  /** Windows: the registry to read (default: this machine's); null: none (then no settings file on Windows). */
  registry?: RegistryReader | null;
}

/**
 * THE settings-file locator: the vk_loader_settings.json a loader of `loaderVersion` reads, the way
 * that loader finds it on this OS (Linux/macOS: its folder search; Windows: HKCU/HKLM
 * `…\LoaderSettings` as windows_get_loader_settings_file_path walks them, elevation included).
 * `strata explain`, the editor's chain context, `strata lint` (lint.files {settingsFile}), the status
 * strip (activity.status) and the profile chain all ask here, so they cannot disagree about the file.
 */
export async function settingsFileFor(q: SettingsFileLookup): Promise<string | null> {
  const windows = q.windows ?? process.platform === 'win32';
  if (!windows) return foundSettingsFile(q.env, q.loaderVersion, q.elevated ?? false);
  const elevated = q.elevated ?? (await windowsProcessElevated()) === true;
  const registry = await loaderSettingsRegistry(q.loaderVersion, q.registry !== undefined ? q.registry : systemRegistryReader());
  return registry ? foundSettingsFile(q.env, q.loaderVersion, elevated, registry) : null;
}

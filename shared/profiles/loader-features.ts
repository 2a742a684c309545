import { compareLoaderVersions, sinceOf } from '../loader/loader-rules';

/**
 * The loader versions that brought what profiles use, as named views of the one rules table
 * (shared/loader/loader-rules.ts), where each row cites the commit it was found in.
 */
export const LOADER_FEATURES = {
  /** VK_LOADER_LAYERS_ENABLE / VK_LOADER_LAYERS_DISABLE (loader_environment.c). */
  layerFilters: sinceOf('layer-filters'),
  /** VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE (loader_icd_scan), matched on the manifest's file name. */
  driverFilters: sinceOf('driver-filters'),
  /** vk_loader_settings.json: layers (on / off / auto / unordered_layer_location), stderr_log, per-app settings_array with app_keys. */
  settingsFile: sinceOf('settings-file'),
  /** From this version Strata binds profiles to applications through the settings file (it can turn the override layer off). */
  settingsFileBindings: sinceOf('settings-layer-off-meta'),
  /** From this version the file is in vulkan/loader_settings.d/; 1.3.251 read vulkan/settings.d/. */
  settingsFolderRenamed: sinceOf('settings-folder-renamed'),
  /** additional_drivers, additional_drivers_use_exclusively and device_configurations in the settings file. */
  settingsDrivers: sinceOf('settings-drivers'),
} as const;

export function loaderAtLeast(version: string, min: string): boolean {
  return compareLoaderVersions(version, min) >= 0;
}

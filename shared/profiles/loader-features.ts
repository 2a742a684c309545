import { compareLoaderVersions } from '../loader/loader-rules';

/**
 * The loader versions that brought what profiles use, read from the Khronos Vulkan-Loader sources
 * at each tag (loader/vk_loader_platform.h, loader/settings.c). Debian 12 ships 1.3.239.
 */
export const LOADER_FEATURES = {
  /** VK_LOADER_LAYERS_ENABLE / VK_LOADER_LAYERS_DISABLE (loader_environment.c). */
  layerFilters: '1.3.234',
  /** VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE (loader_icd_scan), matched on the manifest's file name. */
  driverFilters: '1.3.234',
  /** vk_loader_settings.json: layers (on / off / auto / unordered_layer_location), stderr_log, per-app settings_array with app_keys. */
  settingsFile: '1.3.251',
  /** From this version the file is in vulkan/loader_settings.d/; 1.3.251 read vulkan/settings.d/. */
  settingsFolderRenamed: '1.3.253',
  /** additional_drivers, additional_drivers_use_exclusively and device_configurations in the settings file. */
  settingsDrivers: '1.4.323',
} as const;

export function loaderAtLeast(version: string, min: string): boolean {
  return compareLoaderVersions(version, min) >= 0;
}

/**
 * The environment variables the Vulkan loader reads (LoaderInterfaceArchitecture.md, "Table of Debug
 * Environment Variables"; LoaderLayerInterface.md, "Layer Discovery"). Later issues key behaviour on
 * the loader version; here they only label what the user has set.
 */
export interface KnownVariable {
  readonly name: string;
  readonly summary: string;
  /**
   * Whether the loader ignores it for processes running with elevated privileges (setuid, root-owned;
   * on Windows a high-integrity token): it reads these with loader_secure_getenv, the layer and driver
   * filters included (loader_environment.c parse_generic_filter_environment_var, 1.3.239 … 1.4.359).
   */
  readonly ignoredWhenElevated: boolean;
}

export const LOADER_VARIABLES: readonly KnownVariable[] = [
  { name: 'VK_DRIVER_FILES', summary: 'Replaces the driver manifest search: a list of manifest files or folders.', ignoredWhenElevated: true },
  { name: 'VK_ICD_FILENAMES', summary: 'Older name of VK_DRIVER_FILES; ignored when VK_DRIVER_FILES is set.', ignoredWhenElevated: true },
  { name: 'VK_ADD_DRIVER_FILES', summary: 'Driver manifest files or folders searched before the default locations.', ignoredWhenElevated: true },
  { name: 'VK_LAYER_PATH', summary: 'Replaces the explicit layer manifest search path.', ignoredWhenElevated: true },
  { name: 'VK_ADD_LAYER_PATH', summary: 'Explicit layer manifest folders searched before the default locations.', ignoredWhenElevated: true },
  { name: 'VK_IMPLICIT_LAYER_PATH', summary: 'Replaces the implicit layer manifest search path (newer loaders).', ignoredWhenElevated: true },
  { name: 'VK_ADD_IMPLICIT_LAYER_PATH', summary: 'Implicit layer manifest folders searched first (newer loaders).', ignoredWhenElevated: true },
  { name: 'VK_INSTANCE_LAYERS', summary: 'Explicit layers to enable, closest to the application.', ignoredWhenElevated: false },
  { name: 'VK_LOADER_LAYERS_ENABLE', summary: 'Layer name patterns to force on (comma-separated globs).', ignoredWhenElevated: true },
  { name: 'VK_LOADER_LAYERS_DISABLE', summary: 'Layer name patterns to force off, including implicit layers.', ignoredWhenElevated: true },
  { name: 'VK_LOADER_LAYERS_ALLOW', summary: 'Layer name patterns exempt from VK_LOADER_LAYERS_DISABLE.', ignoredWhenElevated: true },
  { name: 'VK_LOADER_DRIVERS_SELECT', summary: 'Driver manifest name patterns to keep; all others are dropped.', ignoredWhenElevated: true },
  { name: 'VK_LOADER_DRIVERS_DISABLE', summary: 'Driver manifest name patterns to drop.', ignoredWhenElevated: true },
  { name: 'VK_LOADER_DISABLE_INST_EXT_FILTER', summary: 'Stops the loader filtering unknown instance extensions.', ignoredWhenElevated: false },
  { name: 'VK_LOADER_DEBUG', summary: 'Loader log levels: error, warn, info, debug, layer, driver, all.', ignoredWhenElevated: false },
  { name: 'VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING', summary: 'Keeps layer and driver libraries loaded (for leak checkers).', ignoredWhenElevated: false },
];

const BY_NAME = new Map(LOADER_VARIABLES.map((v) => [v.name, v]));

export function knownVariable(name: string): KnownVariable | undefined {
  return BY_NAME.get(name);
}

/**
 * Variables that are "Vulkan-related" without being the loader's own: layer settings
 * (VK_KHRONOS_VALIDATION_*, VK_LAYER_*), and Mesa's device-select controls that ship as an
 * implicit layer on most Linux systems.
 */
export function isVulkanRelatedName(name: string): boolean {
  return (
    name.startsWith('VK_') ||
    name.startsWith('VULKAN_') ||
    name === 'MESA_VK_DEVICE_SELECT' ||
    name === 'DISABLE_MESA_DEVICE_SELECT' ||
    name === 'NODEVICE_SELECT'
  );
}

/**
 * Where layers look for vk_layer_settings.txt. Read from the Khronos validation layer 1.3.239
 * (Debian's libVkLayer_khronos_validation.so, ConfigFile::FindSettings) and proven by
 * tests/integration/settings-writer.test.ts against it, on Linux the first of these that exists:
 *
 *   1. $XDG_DATA_HOME/vulkan/settings.d/vk_layer_settings.txt (XDG_DATA_HOME unset or empty:
 *      $HOME/.local/share/…), vkconfig's per-user file: read whether or not an override layer is
 *      installed, by every application of that user;
 *   2. $VK_LAYER_SETTINGS_PATH: the file, or vk_layer_settings.txt in that folder;
 *   3. ./vk_layer_settings.txt in the application's working directory.
 *
 * So the per-user file, once it exists, hides the other two: Strata writes only that one, and says
 * so when the environment points at another. Pure: main checks which of them exist.
 */
export const LAYER_SETTINGS_FILE_NAME = 'vk_layer_settings.txt';
export const LAYER_SETTINGS_PATH_VARIABLE = 'VK_LAYER_SETTINGS_PATH';

export type SettingsEnvironment = Readonly<Record<string, string | undefined>>;

/** The per-user settings folder (…/vulkan/settings.d), as the layer computes it: no XDG validation, a relative XDG_DATA_HOME is used as is. */
export function userSettingsFolder(env: SettingsEnvironment, home: string): string {
  const dataHome = env['XDG_DATA_HOME'] || `${env['HOME'] || home}/.local/share`;
  return `${dataHome.replace(/\/+$/, '')}/vulkan/settings.d`;
}

export function userSettingsFile(env: SettingsEnvironment, home: string): string {
  return `${userSettingsFolder(env, home)}/${LAYER_SETTINGS_FILE_NAME}`;
}

/** A settings file the layers would read if Strata's per-user file were not there. */
export interface HiddenSettingsFile {
  path: string;
  /** Why the layers would read it: "VK_LAYER_SETTINGS_PATH". */
  origin: string;
  /** For people: what happens to it. */
  reason: string;
}

/**
 * The file VK_LAYER_SETTINGS_PATH names, given whether that path is a folder (main stats it); null
 * when the variable is unset or empty.
 */
export function settingsPathVariableFile(env: SettingsEnvironment, isFolder: (path: string) => boolean): string | null {
  const value = env[LAYER_SETTINGS_PATH_VARIABLE];
  if (!value) return null;
  return isFolder(value) ? `${value.replace(/\/+$/, '')}/${LAYER_SETTINGS_FILE_NAME}` : value;
}

export function hiddenByUserFile(path: string): HiddenSettingsFile {
  return {
    path,
    origin: LAYER_SETTINGS_PATH_VARIABLE,
    reason: `the layers read the per-user settings file first, so while Strata's is installed they ignore ${path} (named by ${LAYER_SETTINGS_PATH_VARIABLE})`,
  };
}

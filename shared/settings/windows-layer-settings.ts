import { ansiDataSize, type RegistryValue } from '../discovery/registry-output';

/**
 * How a layer finds vk_layer_settings.txt on Windows (the layer settings library of
 * Vulkan-Utility-Libraries, layer_settings_manager.cpp FindSettingsFile, which the Khronos layers
 * use; the validation layer 1.3.239's vk_layer_config.cpp searches the same way):
 *
 *   1. the values of HKLM, then (unless the process is elevated) HKCU SOFTWARE\Khronos\Vulkan\Settings:
 *      the first value that is a REG_DWORD 0 and whose name is a file that exists (not a folder);
 *   2. VK_LAYER_SETTINGS_PATH (a file, or a folder holding vk_layer_settings.txt);
 *   3. vk_layer_settings.txt in the working folder.
 *
 * So on Windows a registered file hides VK_LAYER_SETTINGS_PATH, and a file registered in HKLM hides
 * one registered in HKCU. tests/integration/windows-override-vs-loader.test.ts proves that what
 * Strata registers is what a layer reading this way reads, under Wine.
 */
export const LAYER_SETTINGS_KEY = 'SOFTWARE\\Khronos\\Vulkan\\Settings';

/**
 * The files one Settings key offers a layer, in the order it tries them (each still has to exist).
 * It enumerates with a 4-byte data buffer: a value whose data does not fit (a REG_SZ path as data)
 * ends the walk (ERROR_MORE_DATA), as does a name of 2048 characters or more.
 */
export function layerSettingsCandidates(values: readonly RegistryValue[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    if (ansiDataSize(v) > 4 || v.name.length + 1 > 2048) break;
    if (v.type === 'REG_DWORD' && v.data === 0) out.push(v.name);
  }
  return out;
}

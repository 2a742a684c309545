import type { SettingValue } from './setting-values';
import type { Platform } from './setting-types';

/**
 * How values are spelled where layers read them. vk_layer_settings.txt: `<prefix>.<key> = <value>`
 * per line, lists comma-separated; environment variables: lists split on the platform's path-list
 * separator. Both checked against the validation layer 1.3.239 (tests/integration/settings-writer.test.ts).
 */

/**
 * The key prefix layers read: the layer name without VK_LAYER_, lower-cased
 * (VK_LAYER_KHRONOS_validation → khronos_validation), as the validation layer 1.3.239 and vkconfig
 * spell it.
 */
export function settingPrefix(layerName: string): string {
  return layerName.replace(/^VK_LAYER_/, '').toLowerCase();
}

/** A value as vk_layer_settings.txt holds it: true/false, numbers as written, lists comma-separated. */
export function formatSettingValue(value: SettingValue): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * Lists in an environment variable are split on the path-list separator, not on commas: on Linux
 * the validation layer 1.3.239 reads VK_LAYER_MESSAGE_ID_FILTER=a,b as one item and a:b as two;
 * ';' on Windows by the same rule.
 */
export const environmentListSeparator = (platform: Platform): string => (platform === 'WINDOWS' ? ';' : ':');

export function formatEnvironmentValue(value: SettingValue, platform: Platform): string {
  return Array.isArray(value) ? value.join(environmentListSeparator(platform)) : String(value);
}

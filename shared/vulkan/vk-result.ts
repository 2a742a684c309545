/**
 * VkResult names (Vulkan 1.3 core, vulkan_core.h), for the messages the probe turns a failed call
 * into. One table: the probe's loader queries, driver negotiation and layer inspection all name
 * results through it.
 */
const VK_RESULT_NAMES: Readonly<Record<number, string>> = {
  0: 'VK_SUCCESS',
  1: 'VK_NOT_READY',
  2: 'VK_TIMEOUT',
  3: 'VK_EVENT_SET',
  4: 'VK_EVENT_RESET',
  5: 'VK_INCOMPLETE',
  [-1]: 'VK_ERROR_OUT_OF_HOST_MEMORY',
  [-2]: 'VK_ERROR_OUT_OF_DEVICE_MEMORY',
  [-3]: 'VK_ERROR_INITIALIZATION_FAILED',
  [-4]: 'VK_ERROR_DEVICE_LOST',
  [-5]: 'VK_ERROR_MEMORY_MAP_FAILED',
  [-6]: 'VK_ERROR_LAYER_NOT_PRESENT',
  [-7]: 'VK_ERROR_EXTENSION_NOT_PRESENT',
  [-8]: 'VK_ERROR_FEATURE_NOT_PRESENT',
  [-9]: 'VK_ERROR_INCOMPATIBLE_DRIVER',
  [-10]: 'VK_ERROR_TOO_MANY_OBJECTS',
  [-11]: 'VK_ERROR_FORMAT_NOT_SUPPORTED',
  [-12]: 'VK_ERROR_FRAGMENTED_POOL',
  [-13]: 'VK_ERROR_UNKNOWN',
};

export const VK_SUCCESS = 0;
export const VK_INCOMPLETE = 5;
export const VK_ERROR_INCOMPATIBLE_DRIVER = -9;

/** The result's name, or `VkResult <n>` for one the table does not know (an extension's, or garbage). */
export function vkResultName(result: number): string {
  return VK_RESULT_NAMES[result] ?? `VkResult ${result}`;
}

/**
 * Byte offsets and sizes of the Vulkan structs the probe reads and writes, for 64-bit targets
 * (x86-64 System V / Windows x64, AArch64: pointers 8 bytes, uint64 8-aligned). Measured with gcc's
 * offsetof/sizeof against vulkan_core.h 1.3.239; tests/integration/vulkan-layouts.test.ts measures
 * them again against the installed header and fails on any difference.
 *
 * The probe reads VkPhysicalDeviceProperties as one opaque block: it needs only the fields before
 * `limits`, but the block must be the full 824 bytes (limits 504 + sparse properties 20 + padding)
 * because the driver writes all of it.
 */
export const S_TYPE = {
  APPLICATION_INFO: 0,
  INSTANCE_CREATE_INFO: 1,
  PHYSICAL_DEVICE_PROPERTIES_2: 1000059001,
  PHYSICAL_DEVICE_DRIVER_PROPERTIES: 1000196000,
} as const;

export const VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR = 0x1;

export const LAYOUT = {
  VkApplicationInfo: { sizeof: 48, sType: 0, pNext: 8, pApplicationName: 16, applicationVersion: 24, pEngineName: 32, engineVersion: 40, apiVersion: 44 },
  VkInstanceCreateInfo: {
    sizeof: 64,
    sType: 0,
    pNext: 8,
    flags: 16,
    pApplicationInfo: 24,
    enabledLayerCount: 32,
    ppEnabledLayerNames: 40,
    enabledExtensionCount: 48,
    ppEnabledExtensionNames: 56,
  },
  VkLayerProperties: { sizeof: 520, layerName: 0, specVersion: 256, implementationVersion: 260, description: 264 },
  VkExtensionProperties: { sizeof: 260, extensionName: 0, specVersion: 256 },
  VkPhysicalDeviceProperties: {
    sizeof: 824,
    apiVersion: 0,
    driverVersion: 4,
    vendorID: 8,
    deviceID: 12,
    deviceType: 16,
    deviceName: 20,
    pipelineCacheUUID: 276,
    limits: 296,
    sparseProperties: 800,
  },
  VkPhysicalDeviceProperties2: { sizeof: 840, sType: 0, pNext: 8, properties: 16 },
  VkPhysicalDeviceDriverProperties: { sizeof: 536, sType: 0, pNext: 8, driverID: 16, driverName: 20, driverInfo: 276, conformanceVersion: 532 },
  VkPhysicalDeviceMemoryProperties: { sizeof: 520, memoryTypeCount: 0, memoryTypes: 4, memoryHeapCount: 260, memoryHeaps: 264 },
  VkMemoryHeap: { sizeof: 16, size: 0, flags: 8 },
  VkQueueFamilyProperties: { sizeof: 24, queueFlags: 0, queueCount: 4, timestampValidBits: 8, minImageTransferGranularity: 12 },
} as const;

/** A NUL-terminated char[max] field, decoded as UTF-8. */
export function readFixedString(bytes: Buffer, offset: number, max: number): string {
  const field = bytes.subarray(offset, offset + max);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? max : end).toString('utf8');
}

/**
 * vk_layer.h's loader–layer structs (LoaderLayerInterface, "Layer Version Negotiation"), kept apart
 * from LAYOUT because they live in vk_layer.h, not vulkan_core.h; tests/integration/layer-inspect-service.test.ts
 * measures them against the installed header.
 */
export const LAYER_NEGOTIATE_INTERFACE_STRUCT = 1;
export const LAYER_LAYOUT = {
  VkNegotiateLayerInterface: {
    sizeof: 48,
    sType: 0,
    pNext: 8,
    loaderLayerInterfaceVersion: 16,
    pfnGetInstanceProcAddr: 24,
    pfnGetDeviceProcAddr: 32,
    pfnGetPhysicalDeviceProcAddr: 40,
  },
} as const;

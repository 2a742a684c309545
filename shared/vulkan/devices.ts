import * as z from 'zod';
import { ExtensionPropertiesSchema, ProbeEnvironmentSchema } from './loader-info';
import { DeviceOriginSchema, DriverManifestDevicesSchema } from './device-origin';

/** VkPhysicalDeviceType, as short stable tokens. Index = the enum's value. */
export const DEVICE_TYPES = ['other', 'integrated-gpu', 'discrete-gpu', 'virtual-gpu', 'cpu'] as const;
export const DeviceTypeSchema = z.enum(DEVICE_TYPES);

/** VkDriverId names (vulkan_core.h, 1.3.239), index = value. */
export const DRIVER_IDS: Readonly<Record<number, string>> = {
  1: 'AMD_PROPRIETARY',
  2: 'AMD_OPEN_SOURCE',
  3: 'MESA_RADV',
  4: 'NVIDIA_PROPRIETARY',
  5: 'INTEL_PROPRIETARY_WINDOWS',
  6: 'INTEL_OPEN_SOURCE_MESA',
  7: 'IMAGINATION_PROPRIETARY',
  8: 'QUALCOMM_PROPRIETARY',
  9: 'ARM_PROPRIETARY',
  10: 'GOOGLE_SWIFTSHADER',
  11: 'GGP_PROPRIETARY',
  12: 'BROADCOM_PROPRIETARY',
  13: 'MESA_LLVMPIPE',
  14: 'MOLTENVK',
  15: 'COREAVI_PROPRIETARY',
  16: 'JUICE_PROPRIETARY',
  17: 'VERISILICON_PROPRIETARY',
  18: 'MESA_TURNIP',
  19: 'MESA_V3DV',
  20: 'MESA_PANVK',
  21: 'SAMSUNG_PROPRIETARY',
  22: 'MESA_VENUS',
  23: 'MESA_DOZEN',
  24: 'MESA_NVK',
  25: 'IMAGINATION_OPEN_SOURCE_MESA',
};

/** VkQueueFlagBits, bit index → token. */
export const QUEUE_FLAGS: readonly (readonly [number, string])[] = [
  [0x1, 'graphics'],
  [0x2, 'compute'],
  [0x4, 'transfer'],
  [0x8, 'sparse-binding'],
  [0x10, 'protected'],
  [0x20, 'video-decode'],
  [0x40, 'video-encode'],
  [0x100, 'optical-flow'],
];

/** VkMemoryHeapFlagBits. */
export const MEMORY_HEAP_FLAGS: readonly (readonly [number, string])[] = [
  [0x1, 'device-local'],
  [0x2, 'multi-instance'],
];

/** The names of the bits set in `value`; bits without a name come out as hex. */
export function flagNames(value: number, table: readonly (readonly [number, string])[]): string[] {
  const names: string[] = [];
  let rest = value >>> 0;
  for (const [bit, name] of table) {
    if (rest & bit) names.push(name);
    rest &= ~bit;
  }
  if (rest) names.push(`0x${(rest >>> 0).toString(16)}`);
  return names;
}

export const DriverPropertiesSchema = z.object({
  driverID: z.number().int().nonnegative(),
  /** VkDriverId without the prefix (MESA_LLVMPIPE), or null for an id newer than our table. */
  driverIDName: z.string().nullable(),
  driverName: z.string(),
  driverInfo: z.string(),
  conformanceVersion: z.string().regex(/^\d+\.\d+\.\d+\.\d+$/),
});

export const PhysicalDeviceSchema = z.object({
  deviceName: z.string(),
  apiVersion: z.string().regex(/^\d+\.\d+\.\d+$/),
  apiVersionRaw: z.number().int().nonnegative(),
  /** Decoded per vendor convention (shared/vulkan/versions.ts). */
  driverVersion: z.string(),
  driverVersionRaw: z.number().int().nonnegative(),
  vendorID: z.number().int().nonnegative(),
  vendorName: z.string().nullable(),
  deviceID: z.number().int().nonnegative(),
  deviceType: DeviceTypeSchema,
  /** 16 bytes, lower-case hex. */
  pipelineCacheUUID: z.string().regex(/^[0-9a-f]{32}$/),
  /** VkPhysicalDeviceDriverProperties; null when the device is older than Vulkan 1.2 and lacks VK_KHR_driver_properties. */
  driver: DriverPropertiesSchema.nullable(),
  memoryHeaps: z.array(z.object({ size: z.number().nonnegative(), flags: z.array(z.string()) })),
  queueFamilies: z.array(z.object({ flags: z.array(z.string()), count: z.number().int().nonnegative() })),
  extensions: z.array(ExtensionPropertiesSchema),
  /** The driver manifest it came from (shared/vulkan/device-origin.ts); null when not asked or no manifest accounts for it. */
  origin: DeviceOriginSchema.nullable().default(null),
});
export type PhysicalDevice = z.infer<typeof PhysicalDeviceSchema>;

export const DevicesReportSchema = z.object({
  /** The instance version the probe asked for in VkApplicationInfo.apiVersion. */
  requestedApiVersion: z.string(),
  /** Instance extensions the probe enabled (VK_KHR_portability_enumeration when offered). */
  enabledExtensions: z.array(z.string()),
  devices: z.array(PhysicalDeviceSchema),
  /** Each driver manifest enumerated alone, in the loader's order, to find where each device came from; null when not asked. */
  driverManifests: z.array(DriverManifestDevicesSchema).nullable().default(null),
  /** What the loader logged while answering, when VK_LOADER_DEBUG is set in the request's environment. */
  loaderLog: z.array(z.string()).optional(),
  /** What shaped the answer that a reader would not guess (a loader settings file's drivers or device_configurations). */
  notes: z.array(z.string()).optional(),
});
export type DevicesReport = z.infer<typeof DevicesReportSchema>;

export const DevicesRequestSchema = z
  .object({
    env: ProbeEnvironmentSchema.optional(),
    /** Find each device's driver manifest (one more instance per manifest); default true. */
    origins: z.boolean().optional(),
  })
  .strict();
export type DevicesRequest = z.infer<typeof DevicesRequestSchema>;

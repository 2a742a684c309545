/**
 * Version numbers as the Vulkan API and drivers pack them into a uint32_t. Pure: used by the probe
 * (native-bridge/) to decode, and by anything that shows a raw number again.
 */

/** VK_API_VERSION_MAJOR/MINOR/PATCH: bits 22-28, 12-21, 0-11 (the variant bits 29-31 are dropped). */
export function decodeApiVersion(v: number): string {
  return `${(v >>> 22) & 0x7f}.${(v >>> 12) & 0x3ff}.${v & 0xfff}`;
}

export const VENDOR_IDS: Readonly<Record<number, string>> = {
  0x1002: 'AMD',
  0x1010: 'ImgTec',
  0x106b: 'Apple',
  0x10de: 'NVIDIA',
  0x13b5: 'ARM',
  0x14e4: 'Broadcom',
  0x5143: 'Qualcomm',
  0x8086: 'Intel',
  0x10001: 'Vivante',
  0x10002: 'VeriSilicon',
  0x10003: 'Kazan',
  0x10004: 'Codeplay',
  0x10005: 'Mesa',
  0x10006: 'PoCL',
};

/**
 * driverVersion is vendor-defined (VkPhysicalDeviceProperties, "driverVersion"); the conventions
 * below are the ones vulkaninfo and gpuinfo.org use: NVIDIA packs 10/8/8/6 bits, Intel's Windows
 * driver 18/14 bits, everyone else the Vulkan major/minor/patch layout.
 */
export function decodeDriverVersion(raw: number, vendorID: number, platform: string): string {
  const v = raw >>> 0;
  if (vendorID === 0x10de) return `${(v >>> 22) & 0x3ff}.${(v >>> 14) & 0xff}.${(v >>> 6) & 0xff}.${v & 0x3f}`;
  if (vendorID === 0x8086 && platform === 'win32') return `${v >>> 14}.${v & 0x3fff}`;
  return `${v >>> 22}.${(v >>> 12) & 0x3ff}.${v & 0xfff}`;
}

import * as z from 'zod';

/**
 * Which driver manifest each physical device came from. The loader does not say (a VkPhysicalDevice
 * is its own trampoline object), so the probe asks again with each driver manifest alone
 * (VK_DRIVER_FILES=<that manifest>) and matches the devices by what they report about themselves.
 * Pure: the probe gathers the fingerprints, this pairs them up.
 */

/** What a device says about itself that tells drivers and devices apart; equal fingerprints are indistinguishable. */
export interface DeviceFingerprint {
  vendorID: number;
  deviceID: number;
  deviceType: string;
  deviceName: string;
  apiVersionRaw: number;
  driverVersionRaw: number;
  pipelineCacheUUID: string;
  driverID: number | null;
  driverName: string | null;
  driverInfo: string | null;
}

export const DeviceOriginSchema = z.object({
  /** The driver manifest (as the loader found it) whose driver enumerates this device. */
  manifest: z.string(),
  /**
   * 'unique': only that manifest's driver enumerates a device like this one. 'by-order': several
   * manifests' drivers enumerate identical devices (copies of one driver's manifest, which the
   * loader loads once each); each of them is given one device, in the loader's manifest order, and
   * `candidates` lists them all, since nothing the device reports tells them apart.
   */
  match: z.enum(['unique', 'by-order']),
  candidates: z.array(z.string()),
});
export type DeviceOrigin = z.infer<typeof DeviceOriginSchema>;

export const DriverManifestDevicesSchema = z.object({
  manifest: z.string(),
  /** Devices the loader enumerates with this manifest alone. */
  deviceCount: z.number().int().nonnegative(),
  /** Why the instance could not be created with it alone (the driver did not load); null when it could. */
  error: z.string().nullable(),
});

function keyOf(f: DeviceFingerprint): string {
  return JSON.stringify([
    f.vendorID,
    f.deviceID,
    f.deviceType,
    f.deviceName,
    f.apiVersionRaw,
    f.driverVersionRaw,
    f.pipelineCacheUUID,
    f.driverID,
    f.driverName,
    f.driverInfo,
  ]);
}

/**
 * Pairs each device of the full enumeration with a manifest whose driver, alone, enumerated an
 * identical device. Each manifest's devices are used once (two copies of one manifest make the
 * loader load the driver twice and list its device twice: one device each, never both to the
 * first). A device no manifest accounts for (a layer that adds devices) gets null.
 */
export function attributeDevices(
  devices: readonly DeviceFingerprint[],
  perManifest: readonly { manifest: string; devices: readonly DeviceFingerprint[] }[],
): (DeviceOrigin | null)[] {
  const remaining = perManifest.map((m) => {
    const counts = new Map<string, number>();
    for (const d of m.devices) counts.set(keyOf(d), (counts.get(keyOf(d)) ?? 0) + 1);
    return { manifest: m.manifest, counts };
  });
  return devices.map((d) => {
    const key = keyOf(d);
    const candidates = remaining.filter((m) => m.counts.has(key)).map((m) => m.manifest);
    const pick = remaining.find((m) => (m.counts.get(key) ?? 0) > 0);
    if (!pick) return null;
    pick.counts.set(key, pick.counts.get(key)! - 1);
    const distinct = [...new Set(candidates)];
    return { manifest: pick.manifest, match: distinct.length === 1 ? 'unique' : 'by-order', candidates: distinct };
  });
}

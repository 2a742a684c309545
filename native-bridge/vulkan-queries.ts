/**
 * The probe's Vulkan queries for the physical devices (one instance, created and destroyed per
 * query); the loader's own answers (layers, extensions) are in loader-queries.ts. Runs only inside
 * the probe process. Struct offsets come from vulkan-layouts.ts; all calls go through ffi.ts.
 */
import { NativeArena, type NativeFunction, type NativeLibrary } from './ffi';
import { enumerateInstanceVersion, openLoader, requireFunc } from './loader-library';
import { check, enumerate, instanceExtensions, readExtensions } from './loader-queries';
import { LAYOUT, readFixedString, S_TYPE, VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR } from './vulkan-layouts';
import { decodeApiVersion, decodeDriverVersion, VENDOR_IDS } from '../shared/vulkan/versions';
import { DEVICE_TYPES, DRIVER_IDS, flagNames, MEMORY_HEAP_FLAGS, QUEUE_FLAGS, type DevicesReport, type PhysicalDevice } from '../shared/vulkan/devices';
import { attributeDevices, type DeviceFingerprint } from '../shared/vulkan/device-origin';
import { announce } from './probe-stage';

/** Vulkan 1.1: vkGetPhysicalDeviceProperties2 is core, so no instance extension is needed for it. */
const REQUESTED_API_VERSION = (1 << 22) | (1 << 12);
const PORTABILITY_ENUMERATION = 'VK_KHR_portability_enumeration';

interface InstanceFunctions {
  enumeratePhysicalDevices: NativeFunction<'i32'>;
  getProperties: NativeFunction<'void'>;
  getProperties2: NativeFunction<'void'>;
  getMemoryProperties: NativeFunction<'void'>;
  getQueueFamilies: NativeFunction<'void'>;
  enumerateDeviceExtensions: NativeFunction<'i32'>;
}

function hexBytes(bytes: Buffer): string {
  return bytes.toString('hex');
}

function describeDevice(fns: InstanceFunctions, arena: NativeArena, device: bigint): PhysicalDevice {
  const P = LAYOUT.VkPhysicalDeviceProperties;
  const props = arena.alloc(P.sizeof);
  fns.getProperties(device, props.address);
  const b = props.bytes;
  const apiVersionRaw = b.readUInt32LE(P.apiVersion);
  const driverVersionRaw = b.readUInt32LE(P.driverVersion);
  const vendorID = b.readUInt32LE(P.vendorID);
  const deviceType = DEVICE_TYPES[b.readUInt32LE(P.deviceType)] ?? 'other';

  const extBlock = enumerate(arena, 'vkEnumerateDeviceExtensionProperties', LAYOUT.VkExtensionProperties.sizeof, (c, a) =>
    fns.enumerateDeviceExtensions(device, 0n, c, a),
  );
  const extensions = readExtensions(extBlock.block, extBlock.count);

  // VkPhysicalDeviceDriverProperties is core in 1.2, else VK_KHR_driver_properties (valid usage of pNext).
  const apiMinor = (apiVersionRaw >>> 12) & 0x3ff;
  const apiMajor = (apiVersionRaw >>> 22) & 0x7f;
  const hasDriverProperties = apiMajor > 1 || apiMinor >= 2 || extensions.some((e) => e.name === 'VK_KHR_driver_properties');
  let driver: PhysicalDevice['driver'] = null;
  if (hasDriverProperties) {
    const D = LAYOUT.VkPhysicalDeviceDriverProperties;
    const P2 = LAYOUT.VkPhysicalDeviceProperties2;
    const driverProps = arena.alloc(D.sizeof);
    driverProps.bytes.writeUInt32LE(S_TYPE.PHYSICAL_DEVICE_DRIVER_PROPERTIES, D.sType);
    const props2 = arena.alloc(P2.sizeof);
    props2.bytes.writeUInt32LE(S_TYPE.PHYSICAL_DEVICE_PROPERTIES_2, P2.sType);
    props2.bytes.writeBigUInt64LE(driverProps.address, P2.pNext);
    fns.getProperties2(device, props2.address);
    const d = driverProps.bytes;
    const driverID = d.readUInt32LE(D.driverID);
    const c = D.conformanceVersion;
    driver = {
      driverID,
      driverIDName: DRIVER_IDS[driverID] ?? null,
      driverName: readFixedString(d, D.driverName, 256),
      driverInfo: readFixedString(d, D.driverInfo, 256),
      conformanceVersion: `${d[c]}.${d[c + 1]}.${d[c + 2]}.${d[c + 3]}`,
    };
  }

  const M = LAYOUT.VkPhysicalDeviceMemoryProperties;
  const H = LAYOUT.VkMemoryHeap;
  const mem = arena.alloc(M.sizeof);
  fns.getMemoryProperties(device, mem.address);
  const heapCount = Math.min(16, mem.bytes.readUInt32LE(M.memoryHeapCount));
  const memoryHeaps = Array.from({ length: heapCount }, (_, i) => {
    const at = M.memoryHeaps + i * H.sizeof;
    return { size: Number(mem.bytes.readBigUInt64LE(at + H.size)), flags: flagNames(mem.bytes.readUInt32LE(at + H.flags), MEMORY_HEAP_FLAGS) };
  });

  const Q = LAYOUT.VkQueueFamilyProperties;
  const qf = enumerate(arena, 'vkGetPhysicalDeviceQueueFamilyProperties', Q.sizeof, (c, a) => {
    fns.getQueueFamilies(device, c, a);
  });
  const queueFamilies = Array.from({ length: qf.count }, (_, i) => ({
    flags: flagNames(qf.block.bytes.readUInt32LE(i * Q.sizeof + Q.queueFlags), QUEUE_FLAGS),
    count: qf.block.bytes.readUInt32LE(i * Q.sizeof + Q.queueCount),
  }));

  return {
    deviceName: readFixedString(b, P.deviceName, 256),
    apiVersion: decodeApiVersion(apiVersionRaw),
    apiVersionRaw,
    driverVersion: decodeDriverVersion(driverVersionRaw, vendorID, process.platform),
    driverVersionRaw,
    vendorID,
    vendorName: VENDOR_IDS[vendorID] ?? null,
    deviceID: b.readUInt32LE(P.deviceID),
    deviceType,
    pipelineCacheUUID: hexBytes(b.subarray(P.pipelineCacheUUID, P.pipelineCacheUUID + 16)),
    driver,
    memoryHeaps,
    queueFamilies,
    extensions,
    origin: null,
  };
}

/**
 * Creates one instance (Vulkan 1.1, with VK_KHR_portability_enumeration and its flag when the loader
 * offers it, so portability drivers such as MoltenVK are listed), describes every physical device,
 * destroys the instance.
 */
function enumerateDevices(lib: NativeLibrary): DevicesReport {
  const arena = new NativeArena();
  try {
    const loaderVersion = enumerateInstanceVersion(lib);
    // A 1.0 loader rejects apiVersion 1.1 with VK_ERROR_INCOMPATIBLE_DRIVER; ask for 1.0 there.
    const apiVersion = loaderVersion >= REQUESTED_API_VERSION ? REQUESTED_API_VERSION : 1 << 22;
    const offered = instanceExtensions(lib, arena, null);
    const enabled = offered.some((e) => e.name === PORTABILITY_ENUMERATION) ? [PORTABILITY_ENUMERATION] : [];

    const A = LAYOUT.VkApplicationInfo;
    const app = arena.alloc(A.sizeof);
    app.bytes.writeUInt32LE(S_TYPE.APPLICATION_INFO, A.sType);
    app.bytes.writeBigUInt64LE(arena.cString('Strata probe').address, A.pApplicationName);
    app.bytes.writeBigUInt64LE(arena.cString('Strata').address, A.pEngineName);
    app.bytes.writeUInt32LE(apiVersion, A.apiVersion);

    const I = LAYOUT.VkInstanceCreateInfo;
    const info = arena.alloc(I.sizeof);
    info.bytes.writeUInt32LE(S_TYPE.INSTANCE_CREATE_INFO, I.sType);
    info.bytes.writeUInt32LE(enabled.length ? VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR : 0, I.flags);
    info.bytes.writeBigUInt64LE(app.address, I.pApplicationInfo);
    info.bytes.writeUInt32LE(enabled.length, I.enabledExtensionCount);
    info.bytes.writeBigUInt64LE(arena.cStringArray(enabled).address, I.ppEnabledExtensionNames);

    const createInstance = requireFunc(lib, 'vkCreateInstance', 'i32', ['u64', 'u64', 'u64']);
    const destroyInstance = requireFunc(lib, 'vkDestroyInstance', 'void', ['u64', 'u64']);
    const instanceOut = arena.alloc(8);
    check('vkCreateInstance', createInstance(info.address, 0n, instanceOut.address));
    const instance = instanceOut.bytes.readBigUInt64LE(0);
    try {
      const fns: InstanceFunctions = {
        enumeratePhysicalDevices: requireFunc(lib, 'vkEnumeratePhysicalDevices', 'i32', ['u64', 'u64', 'u64']),
        getProperties: requireFunc(lib, 'vkGetPhysicalDeviceProperties', 'void', ['u64', 'u64']),
        getProperties2: requireFunc(lib, 'vkGetPhysicalDeviceProperties2', 'void', ['u64', 'u64']),
        getMemoryProperties: requireFunc(lib, 'vkGetPhysicalDeviceMemoryProperties', 'void', ['u64', 'u64']),
        getQueueFamilies: requireFunc(lib, 'vkGetPhysicalDeviceQueueFamilyProperties', 'void', ['u64', 'u64', 'u64']),
        enumerateDeviceExtensions: requireFunc(lib, 'vkEnumerateDeviceExtensionProperties', 'i32', ['u64', 'u64', 'u64', 'u64']),
      };
      const handles = enumerate(arena, 'vkEnumeratePhysicalDevices', 8, (c, a) => fns.enumeratePhysicalDevices(instance, c, a));
      const devices = Array.from({ length: handles.count }, (_, i) => describeDevice(fns, arena, handles.block.bytes.readBigUInt64LE(8 * i)));
      return { requestedApiVersion: decodeApiVersion(apiVersion), enabledExtensions: enabled, devices, driverManifests: null };
    } finally {
      destroyInstance(instance, 0n);
    }
  } finally {
    arena.free();
  }
}

function fingerprint(d: PhysicalDevice): DeviceFingerprint {
  return {
    vendorID: d.vendorID,
    deviceID: d.deviceID,
    deviceType: d.deviceType,
    deviceName: d.deviceName,
    apiVersionRaw: d.apiVersionRaw,
    driverVersionRaw: d.driverVersionRaw,
    pipelineCacheUUID: d.pipelineCacheUUID,
    driverID: d.driver?.driverID ?? null,
    driverName: d.driver?.driverName ?? null,
    driverInfo: d.driver?.driverInfo ?? null,
  };
}

/** The variables by which the loader picks its drivers (LoaderDriverInterface, "Overriding the Default Driver Discovery"). */
const DRIVER_SELECTION_VARIABLES = ['VK_DRIVER_FILES', 'VK_ICD_FILENAMES', 'VK_ADD_DRIVER_FILES'] as const;

/**
 * Runs `fn` with VK_DRIVER_FILES naming `manifest` alone. The loader reads its environment at every
 * vkCreateInstance (and Node's process.env writes through to setenv), so one probe process can ask
 * for each driver in turn; the variables are put back afterwards.
 */
function withDriverAlone<T>(manifest: string, fn: () => T): T {
  const saved = DRIVER_SELECTION_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const name of DRIVER_SELECTION_VARIABLES) delete process.env[name];
  process.env['VK_DRIVER_FILES'] = manifest;
  try {
    return fn();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/**
 * devices: every physical device the loader enumerates. With `attributeTo` (the driver manifests
 * the loader finds, in its order; main passes them from discovery) each device also says which
 * manifest it came from: the probe enumerates again with each manifest alone and pairs the devices
 * up (shared/vulkan/device-origin.ts).
 */
export function queryDevices(params?: unknown): DevicesReport {
  const lib = openLoader();
  const report = enumerateDevices(lib);
  const attributeTo = (params as { attributeTo?: unknown } | null | undefined)?.attributeTo;
  if (!Array.isArray(attributeTo)) return report;
  const perManifest = attributeTo
    .filter((m): m is string => typeof m === 'string')
    .map((manifest) => {
      announce(`vkCreateInstance with VK_DRIVER_FILES=${manifest}`);
      try {
        return { manifest, devices: withDriverAlone(manifest, () => enumerateDevices(lib).devices).map(fingerprint), error: null };
      } catch (e) {
        return { manifest, devices: [], error: e instanceof Error ? e.message : String(e) };
      }
    });
  const origins = attributeDevices(report.devices.map(fingerprint), perManifest);
  return {
    ...report,
    devices: report.devices.map((d, i) => ({ ...d, origin: origins[i] ?? null })),
    driverManifests: perManifest.map((m) => ({ manifest: m.manifest, deviceCount: m.devices.length, error: m.error })),
  };
}

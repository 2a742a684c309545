/**
 * The probe's Vulkan queries: instance layers and extensions (no instance needed), and the
 * physical devices (one instance, created and destroyed per query). Runs only inside the probe
 * process. Struct offsets come from vulkan-layouts.ts; all calls go through ffi.ts.
 */
import { NativeArena, type NativeBlock, type NativeFunction, type NativeLibrary } from './ffi';
import { enumerateInstanceVersion, openLoader, queryLoaderVersion, requireFunc } from './loader-library';
import { LAYOUT, readFixedString, S_TYPE, VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR } from './vulkan-layouts';
import { decodeApiVersion, decodeDriverVersion, VENDOR_IDS } from '../shared/vulkan/versions';
import { DEVICE_TYPES, DRIVER_IDS, flagNames, MEMORY_HEAP_FLAGS, QUEUE_FLAGS, type DevicesReport, type PhysicalDevice } from '../shared/vulkan/devices';
import type { ExtensionProperties, LayerProperties, LoaderInfo } from '../shared/vulkan/loader-info';
import { attributeDevices, type DeviceFingerprint } from '../shared/vulkan/device-origin';
import { announce } from './probe-stage';

const VK_SUCCESS = 0;
const VK_INCOMPLETE = 5;

const VK_RESULT_NAMES: Record<number, string> = {
  [-1]: 'VK_ERROR_OUT_OF_HOST_MEMORY',
  [-2]: 'VK_ERROR_OUT_OF_DEVICE_MEMORY',
  [-3]: 'VK_ERROR_INITIALIZATION_FAILED',
  [-6]: 'VK_ERROR_LAYER_NOT_PRESENT',
  [-7]: 'VK_ERROR_EXTENSION_NOT_PRESENT',
  [-9]: 'VK_ERROR_INCOMPATIBLE_DRIVER',
};

/** A failed Vulkan call; the probe turns `code`/`fix` into the error value main receives. */
export class VkError extends Error {
  readonly code: string;
  readonly fix: string | undefined;
  constructor(call: string, result: number) {
    const name = VK_RESULT_NAMES[result] ?? `VkResult ${result}`;
    super(`${call} returned ${name}${VK_RESULT_NAMES[result] ? ` (${result})` : ''}`);
    this.code = `vulkan/${name
      .replace(/^VK_(ERROR_)?/, '')
      .toLowerCase()
      .replace(/_/g, '-')}`;
    this.fix =
      result === -9
        ? 'no Vulkan driver could be loaded in this environment; run with VK_LOADER_DEBUG=driver to see why (check VK_DRIVER_FILES and the driver manifests)'
        : undefined;
  }
}

function check(call: string, result: number): void {
  if (result !== VK_SUCCESS && result !== VK_INCOMPLETE) throw new VkError(call, result);
}

/**
 * The two-call idiom (Vulkan spec, "Opaque Non-Dispatchable Handle Types"/"Enumerating"): ask the
 * count, allocate, fill; repeat while the answer is VK_INCOMPLETE (the set grew in between).
 * `call(countPtr, arrayPtr)` returns a VkResult, or undefined for the void-returning enumerators.
 */
function enumerate(
  arena: NativeArena,
  name: string,
  elementSize: number,
  call: (count: bigint, array: bigint) => number | void,
): { block: NativeBlock; count: number } {
  const countBlock = arena.alloc(4);
  for (let attempt = 0; attempt < 5; attempt++) {
    const first = call(countBlock.address, 0n);
    if (typeof first === 'number') check(name, first);
    const count = countBlock.bytes.readUInt32LE(0);
    const block = arena.alloc(elementSize * count);
    const second = call(countBlock.address, block.address);
    if (typeof second === 'number') check(name, second);
    if (second !== VK_INCOMPLETE) return { block, count: countBlock.bytes.readUInt32LE(0) };
  }
  throw new Error(`${name} kept returning VK_INCOMPLETE`);
}

function readExtensions(block: NativeBlock, count: number): ExtensionProperties[] {
  const L = LAYOUT.VkExtensionProperties;
  return Array.from({ length: count }, (_, i) => {
    const at = i * L.sizeof;
    return { name: readFixedString(block.bytes, at + L.extensionName, 256), specVersion: block.bytes.readUInt32LE(at + L.specVersion) };
  });
}

function instanceExtensions(lib: NativeLibrary, arena: NativeArena, layerName: string | null): ExtensionProperties[] {
  const fn = requireFunc(lib, 'vkEnumerateInstanceExtensionProperties', 'i32', ['u64', 'u64', 'u64']);
  const layer = layerName === null ? 0n : arena.cString(layerName).address;
  const { block, count } = enumerate(arena, 'vkEnumerateInstanceExtensionProperties', LAYOUT.VkExtensionProperties.sizeof, (c, a) => fn(layer, c, a));
  return readExtensions(block, count);
}

function instanceLayers(lib: NativeLibrary, arena: NativeArena): LayerProperties[] {
  const fn = requireFunc(lib, 'vkEnumerateInstanceLayerProperties', 'i32', ['u64', 'u64']);
  const L = LAYOUT.VkLayerProperties;
  const { block, count } = enumerate(arena, 'vkEnumerateInstanceLayerProperties', L.sizeof, (c, a) => fn(c, a));
  return Array.from({ length: count }, (_, i) => {
    const at = i * L.sizeof;
    const name = readFixedString(block.bytes, at + L.layerName, 256);
    const specVersionRaw = block.bytes.readUInt32LE(at + L.specVersion);
    return {
      name,
      specVersion: decodeApiVersion(specVersionRaw),
      specVersionRaw,
      implementationVersion: block.bytes.readUInt32LE(at + L.implementationVersion),
      description: readFixedString(block.bytes, at + L.description, 256),
      extensions: instanceExtensions(lib, arena, name),
    };
  });
}

/** loader.info: version, layers (each with its extensions) and instance extensions, without an instance. */
export function queryLoaderInfo(): LoaderInfo {
  const lib = openLoader();
  const arena = new NativeArena();
  try {
    return { ...queryLoaderVersion(), layers: instanceLayers(lib, arena), extensions: instanceExtensions(lib, arena, null) };
  } finally {
    arena.free();
  }
}

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

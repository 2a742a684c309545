/**
 * The loader's own answers, no instance needed: its version, its instance layers (each with its
 * extensions) and its instance extensions (loader.info). Apart from vulkan-queries.ts (devices) so
 * that a probe asked only this loads neither the device tables nor zod (issue #19: `strata loader show`
 * is one probe start). Runs only inside the probe process: vkEnumerateInstanceExtensionProperties
 * loads every driver (loader 1.3.239 to 1.4.x, loader_icd_scan), which is why this is not in main.
 */
import { NativeArena, type NativeBlock, type NativeLibrary } from './ffi';
import { openLoader, queryLoaderVersion, requireFunc } from './loader-library';
import { LAYOUT, readFixedString } from './vulkan-layouts';
import { decodeApiVersion } from '../shared/vulkan/versions';
import type { ExtensionProperties, LayerProperties, LoaderInfo } from '../shared/vulkan/loader-info';

import { VK_INCOMPLETE, VK_SUCCESS, vkResultName } from '../shared/vulkan/vk-result';

/** A failed Vulkan call; the probe turns `code`/`fix` into the error value main receives. */
export class VkError extends Error {
  readonly code: string;
  readonly fix: string | undefined;
  constructor(call: string, result: number) {
    const name = vkResultName(result);
    super(`${call} returned ${name}${name.startsWith('VkResult ') ? '' : ` (${result})`}`);
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

export function check(call: string, result: number): void {
  if (result !== VK_SUCCESS && result !== VK_INCOMPLETE) throw new VkError(call, result);
}

/**
 * The two-call idiom (Vulkan spec, "Opaque Non-Dispatchable Handle Types"/"Enumerating"): ask the
 * count, allocate, fill; repeat while the answer is VK_INCOMPLETE (the set grew in between).
 * `call(countPtr, arrayPtr)` returns a VkResult, or undefined for the void-returning enumerators.
 *
 * `guess` (a VkResult-returning call only): first one call with room for that many, which is the
 * whole answer when it returns VK_SUCCESS, and the two-call idiom after VK_INCOMPLETE. For the loader's
 * own instance-level enumerators: each call rescans every manifest, and the extension call loads
 * every driver (issue #19: `strata loader show`'s probe made each call twice). Not for calls a
 * driver answers, which may write as many as it has whatever the room (the count it gave is the
 * room the idiom makes).
 */
export function enumerate(
  arena: NativeArena,
  name: string,
  elementSize: number,
  call: (count: bigint, array: bigint) => number | void,
  guess = 0,
): { block: NativeBlock; count: number } {
  const countBlock = arena.alloc(4);
  if (guess > 0) {
    countBlock.bytes.writeUInt32LE(guess, 0);
    const block = arena.alloc(elementSize * guess);
    const result = call(countBlock.address, block.address);
    if (typeof result === 'number') check(name, result);
    if (result === VK_SUCCESS) return { block, count: countBlock.bytes.readUInt32LE(0) };
  }
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

export function readExtensions(block: NativeBlock, count: number): ExtensionProperties[] {
  const L = LAYOUT.VkExtensionProperties;
  return Array.from({ length: count }, (_, i) => {
    const at = i * L.sizeof;
    return { name: readFixedString(block.bytes, at + L.extensionName, 256), specVersion: block.bytes.readUInt32LE(at + L.specVersion) };
  });
}

/** Room for the loader's instance layers and extensions in one call: more than any machine seen has (VkLayerProperties: 520 bytes each). */
const ENUMERATE_GUESS = 256;

export function instanceExtensions(lib: NativeLibrary, arena: NativeArena, layerName: string | null): ExtensionProperties[] {
  const fn = requireFunc(lib, 'vkEnumerateInstanceExtensionProperties', 'i32', ['u64', 'u64', 'u64']);
  const layer = layerName === null ? 0n : arena.cString(layerName).address;
  const { block, count } = enumerate(
    arena,
    'vkEnumerateInstanceExtensionProperties',
    LAYOUT.VkExtensionProperties.sizeof,
    (c, a) => fn(layer, c, a),
    ENUMERATE_GUESS,
  );
  return readExtensions(block, count);
}

function instanceLayers(lib: NativeLibrary, arena: NativeArena): LayerProperties[] {
  const fn = requireFunc(lib, 'vkEnumerateInstanceLayerProperties', 'i32', ['u64', 'u64']);
  const L = LAYOUT.VkLayerProperties;
  const { block, count } = enumerate(arena, 'vkEnumerateInstanceLayerProperties', L.sizeof, (c, a) => fn(c, a), ENUMERATE_GUESS);
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

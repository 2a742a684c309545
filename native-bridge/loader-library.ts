import koffi from 'koffi';
import { readFileSync } from 'node:fs';

/** The loader's file name per platform (LoaderApplicationInterface.md, "Interfacing with Vulkan Functions"). */
export function loaderLibraryName(platform: NodeJS.Platform): string {
  if (platform === 'win32') return 'vulkan-1.dll';
  if (platform === 'darwin') return 'libvulkan.1.dylib';
  return 'libvulkan.so.1';
}

export interface LoaderVersionReport {
  library: string;
  path: string | null;
  apiVersion: number;
  version: string;
}

/** VK_API_VERSION_MAJOR/MINOR/PATCH: bits 22-28, 12-21, 0-11 (the variant bits 29-31 are dropped). */
export function decodeApiVersion(v: number): string {
  return `${(v >>> 22) & 0x7f}.${(v >>> 12) & 0x3ff}.${v & 0xfff}`;
}

/** Which file the dynamic linker really mapped, read back from the process (Linux only). */
function mappedPath(libraryName: string): string | null {
  try {
    const maps = readFileSync('/proc/self/maps', 'utf8');
    for (const line of maps.split('\n')) {
      const file = line.slice(line.indexOf('/'));
      if (line.includes('/') && file.split('/').pop()?.startsWith(libraryName)) return file.trim();
    }
  } catch {
    // Not Linux, or /proc not mounted: the caller shows the library name alone.
  }
  return null;
}

/**
 * Loads the real loader and asks vkEnumerateInstanceVersion. This runs inside the probe process
 * only (native-bridge/probe.ts): the loader runs implicit layers' pre-instance hooks here, and a
 * crash there must not take Strata down.
 */
export function queryLoaderVersion(platform: NodeJS.Platform = process.platform): LoaderVersionReport {
  const library = loaderLibraryName(platform);
  const lib = koffi.load(library);
  const enumerateInstanceVersion = lib.func('int32_t vkEnumerateInstanceVersion(_Out_ uint32_t *pApiVersion)');
  const out = [0];
  const result = enumerateInstanceVersion(out) as number;
  if (result !== 0) throw new Error(`vkEnumerateInstanceVersion returned VkResult ${result}`);
  const apiVersion = out[0]! >>> 0;
  return { library, path: mappedPath(library), apiVersion, version: decodeApiVersion(apiVersion) };
}

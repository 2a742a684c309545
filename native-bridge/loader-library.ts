import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { NativeArena, openLibrary, type CType, type NativeFunction, type NativeLibrary } from './ffi';
import { decodeApiVersion } from '../shared/vulkan/versions';
import { machineFact } from '../shared/app/machine-facts';
import { loadedModulePath } from './windows-native';

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

/**
 * Which file the dynamic linker really mapped for `libraryName` (a file name such as
 * "libGLX_nvidia.so.0"), read back from the process (Linux only). /proc/self/maps shows the file
 * after symbolic links, so "libGLX_nvidia.so.0" appears as "libGLX_nvidia.so.580.159.04": a mapped
 * file whose own name does not start with `libraryName` still counts when `libraryName` beside it
 * links to it, and then that link is reported (the name the linker opened, in the folder it used).
 */
export function mappedPath(libraryName: string): string | null {
  let files: string[];
  try {
    files = [
      ...new Set(
        readFileSync('/proc/self/maps', 'utf8')
          .split('\n')
          .filter((line) => line.includes('/'))
          .map((line) => line.slice(line.indexOf('/')).trim()),
      ),
    ];
  } catch {
    // Not Linux, or /proc not mounted: the caller shows the library name alone.
    return null;
  }
  const direct = files.find((f) => basename(f).startsWith(libraryName));
  if (direct) return direct;
  for (const f of files) {
    const link = join(dirname(f), libraryName);
    try {
      if (realpathSync(link) === f) return link;
    } catch {
      // No such name in that folder.
    }
  }
  return null;
}

/**
 * The real loader, opened once per process (the probe, or the CLI for its in-process version). The
 * probe is started with the environment a request asks about, because the loader reads it when it
 * loads and when it creates instances. `strata explain --loader PATH` asks another loader library:
 * its probe is started with STRATA_LOADER_LIBRARY, and only that probe opens the file by path.
 */
const loaderLibrary = machineFact(() => openLibrary(process.env['STRATA_LOADER_LIBRARY'] || loaderLibraryName(process.platform)));

/** The real loader (see loaderLibrary); `platform` other than this process's names no library it could open. */
export function openLoader(platform: NodeJS.Platform = process.platform): NativeLibrary {
  return platform === process.platform ? loaderLibrary() : openLibrary(loaderLibraryName(platform));
}

/** Like `lib.func`, but a missing export is an error that names it. */
export function requireFunc<R extends CType>(lib: NativeLibrary, symbol: string, result: R, args: readonly CType[]): NativeFunction<R> {
  const fn = lib.func(symbol, result, args);
  if (!fn) throw new Error(`${lib.name} does not export ${symbol}`);
  return fn;
}

/**
 * Loads the real loader and asks vkEnumerateInstanceVersion. This runs inside the probe process
 * (native-bridge/probe.ts): the loader runs implicit layers' pre-instance hooks here, and a crash
 * there must not take Strata down. The one exception is main/bridge/loader-version-in-process.ts, which
 * calls it in the CLI's own process only when no implicit layer manifest names pre-instance hooks.
 */
export function queryLoaderVersion(platform: NodeJS.Platform = process.platform): LoaderVersionReport {
  const library = loaderLibraryName(platform);
  const lib = openLoader(platform);
  const apiVersion = enumerateInstanceVersion(lib);
  return { library, path: platform === 'win32' ? loadedModulePath(library) : mappedPath(library), apiVersion, version: decodeApiVersion(apiVersion) };
}

export function enumerateInstanceVersion(lib: NativeLibrary): number {
  // A Vulkan 1.0 loader lacks vkEnumerateInstanceVersion (Vulkan spec, "Instances"): that means 1.0.0.
  const fn = lib.func('vkEnumerateInstanceVersion', 'i32', ['u64']);
  if (!fn) return 1 << 22;
  const arena = new NativeArena();
  try {
    const out = arena.alloc(4);
    const result = fn(out.address);
    if (result !== 0) throw new Error(`vkEnumerateInstanceVersion returned VkResult ${result}`);
    return out.bytes.readUInt32LE(0);
  } finally {
    arena.free();
  }
}

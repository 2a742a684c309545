import type { LoaderLibrary } from '../../shared/app/app-info';
import { formatStrataError } from '../../shared/errors/strata-error';
import type { BridgeClient } from '../bridge/bridge-client';

interface LoaderVersionReport {
  library: string;
  path: string | null;
  apiVersion: number;
  version: string;
}

const LOADER_FIX: Record<string, string> = {
  linux: 'install the Vulkan loader: sudo apt-get install libvulkan1',
  darwin: 'install the Vulkan SDK (it ships libvulkan.1.dylib) or MoltenVK with the loader',
  win32: 'install a GPU driver or the Vulkan Runtime (vulkan-1.dll)',
};

/** The installed loader as the probe finds it (`loader.version`), or why there is none and the fix (app.info, chain.context). */
export async function describeLoader(bridge: BridgeClient, platform: NodeJS.Platform): Promise<LoaderLibrary> {
  const result = await bridge.request<LoaderVersionReport>('loader.version');
  const library = platform === 'win32' ? 'vulkan-1.dll' : platform === 'darwin' ? 'libvulkan.1.dylib' : 'libvulkan.so.1';
  if (result.ok) return { found: true, ...result.value };
  const fix = LOADER_FIX[platform];
  return { found: false, library, reason: formatStrataError(result.error), ...(fix ? { fix } : {}) };
}

/** The real loader's version, or null with why it could not be had. */
export type LoaderVersionAnswer = { version: string } | { version: null; why: string };

/** Where chain.explain gets the loader version from (the probe in the app; a fixed answer in tests). */
export type LoaderVersionLookup = () => Promise<LoaderVersionAnswer>;

// One loader per Strata process: its version cannot change while the probe runs, so one answer per
// probe client is kept. A failure is not kept; the next question asks again.
const known = new WeakMap<BridgeClient, string>();

/** Asks the probe for vkEnumerateInstanceVersion (the `loader.version` probe method, as `strata info` does). */
export function loaderVersionFromBridge(bridge: BridgeClient, platform: NodeJS.Platform = process.platform): LoaderVersionLookup {
  return async () => {
    const cached = known.get(bridge);
    if (cached) return { version: cached };
    const loader = await describeLoader(bridge, platform);
    if (!loader.found) return { version: null, why: loader.reason };
    known.set(bridge, loader.version);
    return { version: loader.version };
  };
}

import type { AppInfo, LoaderLibrary } from '../../shared/app/app-info';
import type { CallContext } from '../router';
import type { BridgeClient } from '../bridge-client';
import { formatStrataError } from '../../shared/errors/strata-error';

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

export async function describeLoader(bridge: BridgeClient, platform: NodeJS.Platform): Promise<LoaderLibrary> {
  const result = await bridge.request<LoaderVersionReport>('loader.version');
  const library = platform === 'win32' ? 'vulkan-1.dll' : platform === 'darwin' ? 'libvulkan.1.dylib' : 'libvulkan.so.1';
  if (result.ok) return { found: true, ...result.value };
  const fix = LOADER_FIX[platform];
  return { found: false, library, reason: formatStrataError(result.error), ...(fix ? { fix } : {}) };
}

export async function appInfo(options: { version: string; bridge: BridgeClient }, context: CallContext): Promise<AppInfo> {
  return {
    name: 'Strata',
    version: options.version,
    host: context.host,
    platform: process.platform,
    arch: process.arch,
    versions: {
      node: process.versions.node,
      v8: process.versions.v8,
      electron: process.versions['electron'] ?? null,
      chrome: process.versions['chrome'] ?? null,
    },
    loader: await describeLoader(options.bridge, process.platform),
  };
}

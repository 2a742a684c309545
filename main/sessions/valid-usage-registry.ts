import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexValidUsage, specReference, type SpecReference, type ValidUsageIndex } from '../../shared/sessions/valid-usage';

/** Where validusage.json lives: the Vulkan SDK's copy first, then the distributions' (Debian: libvulkan-dev / vulkan-validationlayers-dev). */
export function validUsageCandidates(env: NodeJS.ProcessEnv): string[] {
  const sdk = env['VULKAN_SDK'];
  return [
    ...(env['STRATA_VALIDUSAGE_JSON'] ? [env['STRATA_VALIDUSAGE_JSON']] : []),
    ...(sdk ? [join(sdk, 'share', 'vulkan', 'registry', 'validusage.json')] : []),
    '/usr/share/vulkan/registry/validusage.json',
    '/usr/local/share/vulkan/registry/validusage.json',
  ];
}

const cache = new Map<string, ValidUsageIndex | null>();

/** The registry, read once per process on first use (6 MB of JSON: only when a message needs a link). */
export function loadValidUsage(env: NodeJS.ProcessEnv): ValidUsageIndex | null {
  for (const path of validUsageCandidates(env)) {
    if (cache.has(path)) {
      const hit = cache.get(path)!;
      if (hit) return hit;
      continue;
    }
    let index: ValidUsageIndex | null;
    try {
      index = indexValidUsage(JSON.parse(readFileSync(path, 'utf8')));
      if (index.entries.size === 0) index = null;
    } catch {
      index = null;
    }
    cache.set(path, index);
    if (index) return index;
  }
  return null;
}

/** A lookup for the capture parser that reads the registry only when the first message arrives. */
export function lazySpecLookup(env: NodeJS.ProcessEnv): (vuid: string) => SpecReference {
  let index: ValidUsageIndex | null | undefined;
  return (vuid) => {
    if (index === undefined) index = loadValidUsage(env);
    return specReference(vuid, index);
  };
}

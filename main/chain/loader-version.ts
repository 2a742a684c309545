import type { BridgeClient } from '../bridge-client';
import { describeLoader } from '../services/app-info-service';

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

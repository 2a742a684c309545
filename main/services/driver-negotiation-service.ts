import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BridgeClient } from '../bridge-client';
import type { BridgePool } from '../bridge-pool';
import { strataError, StrataRequestError, type StrataError } from '../../shared/errors/strata-error';
import { resolveXdgDirectories } from '../../shared/loader/xdg-directories';
import {
  DEFAULT_NEGOTIATE_TIMEOUT_MS,
  DriverNegotiationSchema,
  failedNegotiation,
  LOADER_ICD_INTERFACE_VERSION,
  probeDiedError,
  PROBE_STAGE_PREFIX,
  type DriverNegotiation,
  type DriversNegotiateReport,
  type DriversNegotiateRequest,
} from '../../shared/vulkan/driver-negotiation';

export interface DriverNegotiationOptions {
  probes?: BridgePool;
  env?: NodeJS.ProcessEnv;
}

/** How many driver probes run at once: each is a process of its own. */
const CONCURRENCY = 4;
/** Starting a probe (node, and tsx from source) is not the driver's time; it gets its own, generous limit. */
const PROBE_START_TIMEOUT_MS = 20_000;

/**
 * The manifests the loader would consider on Linux when no list is given: VK_DRIVER_FILES (or the
 * older VK_ICD_FILENAMES) when set, else the *.json of the default driver folders in the loader's
 * order (LoaderDriverInterface.md, "Driver Discovery on Linux").
 * TODO: replace with the discovery scanner (main/discovery/) once it lands; this ignores
 * VK_ADD_DRIVER_FILES and the suid rule.
 */
export function defaultDriverManifests(env: NodeJS.ProcessEnv): { source: DriversNegotiateReport['source']; manifests: string[] } {
  const jsonIn = (dir: string): string[] => {
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(dir, f));
    } catch {
      return [];
    }
  };
  const expand = (entry: string): string[] => {
    try {
      return statSync(entry).isDirectory() ? jsonIn(entry) : [entry];
    } catch {
      return [entry]; // reported per driver as unreadable
    }
  };
  for (const name of ['VK_DRIVER_FILES', 'VK_ICD_FILENAMES'] as const) {
    const value = env[name];
    if (value) return { source: name, manifests: value.split(':').filter(Boolean).flatMap(expand) };
  }
  const xdg = resolveXdgDirectories(env, env['HOME'] || homedir());
  const folders = [
    xdg.configHome.value,
    ...xdg.configDirs.value,
    '/etc',
    xdg.dataHome.value,
    ...xdg.dataDirs.value,
  ].map((d) => join(d, 'vulkan', 'icd.d'));
  return { source: 'default-folders', manifests: [...new Set(folders)].flatMap(jsonIn) };
}

/** Best effort, for naming the driver when its probe died: the manifest's library_path. */
function libraryOf(manifest: string): string | null {
  try {
    const p = (JSON.parse(readFileSync(manifest, 'utf8')) as { ICD?: { library_path?: unknown } }).ICD?.library_path;
    return typeof p === 'string' ? p : null;
  } catch {
    return null;
  }
}

/** The last stage the probe announced before it died (native-bridge/driver-negotiation.ts). */
function lastStage(error: StrataError): string | null {
  const tail = (error.data as { stderrTail?: unknown } | undefined)?.stderrTail;
  if (typeof tail !== 'string') return null;
  const lines = tail.split('\n').filter((l) => l.startsWith(PROBE_STAGE_PREFIX));
  return lines.length ? lines[lines.length - 1]!.slice(PROBE_STAGE_PREFIX.length) : null;
}

/** One driver in a probe of its own: a crash or hang becomes this driver's error, and the probe is gone after. */
async function negotiateOne(probes: BridgePool, manifest: string, timeoutMs: number): Promise<DriverNegotiation> {
  const client: BridgeClient = probes.isolated();
  try {
    const ready = await client.request('ping', undefined, { timeoutMs: PROBE_START_TIMEOUT_MS });
    if (!ready.ok) return failedNegotiation(manifest, ready.error, 0, { libraryPath: libraryOf(manifest) });
    const started = performance.now();
    const result = await client.request('drivers.negotiate', { manifests: [manifest], requestedVersion: LOADER_ICD_INTERFACE_VERSION }, { timeoutMs });
    const elapsedMs = performance.now() - started;
    if (!result.ok) {
      const library = libraryOf(manifest);
      const kind = result.error.code === 'bridge/crashed' ? 'crashed' : result.error.code === 'bridge/timeout' ? 'timeout' : null;
      if (!kind) return failedNegotiation(manifest, result.error, elapsedMs, { libraryPath: library });
      const detail = kind === 'timeout' ? `${timeoutMs} ms` : (result.error.message.match(/(killed by \w+|exited with code \d+)/)?.[1] ?? result.error.message);
      return failedNegotiation(manifest, probeDiedError(kind, manifest, library, lastStage(result.error), detail), elapsedMs, { libraryPath: library, library });
    }
    const parsed = DriverNegotiationSchema.array().length(1).safeParse(result.value);
    if (!parsed.success) {
      return failedNegotiation(
        manifest,
        strataError('bridge/invalid-reply', `The probe's answer for ${manifest} does not match its schema: ${parsed.error.message.slice(0, 300)}`, {
          where: 'native-bridge probe',
          fix: 'this is a bug in Strata; please report it',
        }),
        elapsedMs,
      );
    }
    return { ...parsed.data[0]!, elapsedMs };
  } finally {
    client.dispose();
  }
}

/** drivers.negotiate: every driver in isolation, at most CONCURRENCY at a time, results in the order asked. */
export async function negotiateDrivers(options: DriverNegotiationOptions, request: DriversNegotiateRequest): Promise<DriversNegotiateReport> {
  const probes = options.probes;
  if (!probes) throw new StrataRequestError(strataError('bridge/no-pool', 'This host cannot start probes of their own, which loading drivers needs', { where: 'drivers.negotiate' }));
  const { source, manifests } = request.manifests
    ? { source: 'request' as const, manifests: request.manifests.map((m) => resolve(m)) }
    : defaultDriverManifests(options.env ?? process.env);
  const timeoutMs = request.timeoutMs ?? DEFAULT_NEGOTIATE_TIMEOUT_MS;
  const drivers: DriverNegotiation[] = new Array(manifests.length);
  let next = 0;
  const worker = async () => {
    while (next < manifests.length) {
      const i = next++;
      drivers[i] = await negotiateOne(probes, manifests[i]!, timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, manifests.length) }, worker));
  return { loaderInterfaceVersion: LOADER_ICD_INTERFACE_VERSION, source, drivers };
}

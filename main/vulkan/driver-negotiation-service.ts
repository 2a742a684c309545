import { probeDeathDetail } from '../bridge/bridge-client';
import { GuardedReadError, parseJsonGuarded, readTextGuarded, readTextGuardedSync } from '../platform/guarded-read';
import { resolve } from 'node:path';
import { environmentWith, type BridgePool } from '../bridge/bridge-pool';
import { discoveryManifests } from '../discovery/discovery-service';
import { serviceError, strataError, type StrataError } from '../../shared/errors/strata-error';
import {
  DEFAULT_NEGOTIATE_TIMEOUT_MS,
  DriverNegotiationSchema,
  failedNegotiation,
  LOADER_ICD_INTERFACE_VERSION,
  probeDiedError,
  type DriverNegotiation,
  type DriversNegotiateReport,
  type DriversNegotiateRequest,
} from '../../shared/vulkan/driver-negotiation';
import type { ProbeEnvironment } from '../../shared/vulkan/loader-info';

export interface DriverNegotiationOptions {
  probes?: BridgePool;
  env?: NodeJS.ProcessEnv;
}

/** How many driver probes run at once: each is a process of its own. */
const CONCURRENCY = 4;

/**
 * The driver manifests the loader would read in `env`, in its order, from discovery (the same
 * search as `strata driver list`: VK_DRIVER_FILES or VK_ICD_FILENAMES when set, else
 * VK_ADD_DRIVER_FILES and the default folders; LoaderDriverInterface.md, "Driver Discovery on Linux").
 * A file the loader reaches twice is listed twice, as the loader loads it twice.
 */
export async function defaultDriverManifests(env: NodeJS.ProcessEnv): Promise<{ source: DriversNegotiateReport['source']; manifests: string[] }> {
  const inventory = await discoveryManifests({ env });
  const source = env['VK_DRIVER_FILES'] !== undefined ? 'VK_DRIVER_FILES' : env['VK_ICD_FILENAMES'] !== undefined ? 'VK_ICD_FILENAMES' : 'default-folders';
  return { source, manifests: inventory.manifests.driver.map((m) => m.path) };
}

/** Best effort, for naming the driver when its probe died: the manifest's library_path. */
function libraryOf(manifest: string): string | null {
  try {
    const p = (parseJsonGuarded(readTextGuardedSync(manifest, 'manifest'), manifest) as { ICD?: { library_path?: unknown } } | null)?.ICD?.library_path;
    return typeof p === 'string' ? p : null;
  } catch {
    return null;
  }
}

/**
 * The manifest through the guarded reader before any probe sees it: a device, FIFO, file over the
 * manifest cap or JSON nested past the loader's limit is that driver's clear error, not a probe that
 * reads /dev/zero until it is killed or waits on a FIFO until its timeout (and then blames the driver).
 */
async function refusedManifest(manifest: string): Promise<StrataError | null> {
  try {
    parseJsonGuarded(await readTextGuarded(manifest, 'manifest'), manifest);
    return null;
  } catch (e) {
    if (!(e instanceof GuardedReadError)) return null; // missing, not JSON …: the probe's own messages say so
    return strataError('driver/manifest-unreadable', `Driver manifest ${e.message}`, { where: manifest, fix: e.fix });
  }
}

/** One driver in a probe of its own: a crash or hang becomes this driver's error, and the probe is gone after. */
async function negotiateOne(probes: BridgePool, manifest: string, timeoutMs: number, env: ProbeEnvironment | undefined): Promise<DriverNegotiation> {
  const refused = await refusedManifest(manifest);
  if (refused) return failedNegotiation(manifest, refused, 0);
  const params = { manifests: [manifest], requestedVersion: LOADER_ICD_INTERFACE_VERSION };
  const result = await probes.runIsolated('drivers.negotiate', params, { timeoutMs, ...(env ? { env } : {}) });
  if (!result.ok) {
    const library = libraryOf(manifest);
    if (!result.died) return failedNegotiation(manifest, result.error, result.elapsedMs, { libraryPath: library });
    const detail = result.died === 'timeout' ? `${timeoutMs} ms` : (probeDeathDetail(result.error.message) ?? result.error.message);
    return failedNegotiation(manifest, probeDiedError(result.died, manifest, library, result.stage, detail), result.elapsedMs, {
      libraryPath: library,
      library,
    });
  }
  const parsed = DriverNegotiationSchema.array().length(1).safeParse(result.value);
  if (!parsed.success) {
    return failedNegotiation(
      manifest,
      strataError('bridge/invalid-reply', `The probe's answer for ${manifest} does not match its schema: ${parsed.error.message.slice(0, 300)}`, {
        where: 'native-bridge probe',
        fix: 'this is a bug in Strata; please report it',
      }),
      result.elapsedMs,
    );
  }
  return { ...parsed.data[0]!, elapsedMs: result.elapsedMs };
}

/** drivers.negotiate: every driver in isolation, at most CONCURRENCY at a time, results in the order asked. */
export async function negotiateDrivers(options: DriverNegotiationOptions, request: DriversNegotiateRequest): Promise<DriversNegotiateReport> {
  const probes = options.probes;
  if (!probes) throw serviceError('bridge/no-pool', 'This host cannot start probes of their own, which loading drivers needs', { where: 'drivers.negotiate' });
  // The request's environment decides both which manifests the loader would find and how each probe runs.
  const env = environmentWith(options.env ?? process.env, request.env);
  const { source, manifests } = request.manifests
    ? { source: 'request' as const, manifests: request.manifests.map((m) => resolve(m)) }
    : await defaultDriverManifests(env);
  const timeoutMs = request.timeoutMs ?? DEFAULT_NEGOTIATE_TIMEOUT_MS;
  const drivers: DriverNegotiation[] = new Array(manifests.length);
  let next = 0;
  const worker = async () => {
    while (next < manifests.length) {
      const i = next++;
      drivers[i] = await negotiateOne(probes, manifests[i]!, timeoutMs, request.env);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, manifests.length) }, worker));
  return { loaderInterfaceVersion: LOADER_ICD_INTERFACE_VERSION, source, drivers };
}

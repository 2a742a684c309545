import type * as z from 'zod';
import { probeDeathDetail, type BridgeClient } from '../bridge/bridge-client';
import { environmentWith, type BridgePool } from '../bridge/bridge-pool';
import { serviceError, type StrataError } from '../../shared/errors/strata-error';
import { DevicesReportSchema, type DevicesReport, type DevicesRequest } from '../../shared/vulkan/devices';
import { LoaderInfoSchema, type LoaderInfo, type ProbeEnvironment } from '../../shared/vulkan/loader-info';
import { PROBE_STAGE_PREFIX } from '../../shared/vulkan/probe-stage-prefix';

export interface VulkanServiceOptions {
  bridge: BridgeClient;
  probes?: BridgePool;
  /** The environment Strata reasons about (its own by default); a request's env goes on top. */
  env?: NodeJS.ProcessEnv;
}

/** Discovery (manifests, lint), loaded by the requests that read manifests: `strata loader show` does not (issue #19). */
const discovery = () => import('../discovery/discovery-service');
const loaderVersionFile = () => import('../chain/loader-version-file');

function clientFor(options: VulkanServiceOptions, env: ProbeEnvironment | undefined): BridgeClient {
  if (options.probes) return options.probes.forEnv(env);
  if (env && Object.keys(env).length > 0) {
    throw serviceError('bridge/no-pool', 'This host cannot start a probe with another environment', { where: 'env' });
  }
  return options.bridge;
}

/** How many single-driver probes the crash diagnosis runs at once. */
const DIAGNOSIS_CONCURRENCY = 4;

/**
 * The probe died (a crash or a hang) while the loader had every driver and implicit layer of this
 * environment loaded: find out which. Each driver manifest is tried alone (VK_DRIVER_FILES) in a
 * probe of its own; the error then names the manifests that crash or hang it alone, or, when every
 * driver works alone, points at the implicit layers.
 */
async function diagnoseProbeDeath(options: VulkanServiceOptions, method: string, env: ProbeEnvironment | undefined, error: StrataError): Promise<StrataError> {
  const probes = options.probes;
  if (!probes || (error.code !== 'bridge/crashed' && error.code !== 'bridge/timeout')) return error;
  const merged = environmentWith(options.env ?? probes.baseEnv, env);
  const manifests = (await (await discovery()).discoveryManifests({ env: merged })).manifests.driver.map((m) => m.path);
  const deaths: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < manifests.length) {
      const manifest = manifests[next++]!;
      const alone = { ...env, VK_DRIVER_FILES: manifest, VK_ICD_FILENAMES: null, VK_ADD_DRIVER_FILES: null };
      const r = await probes.runIsolated(method, undefined, { timeoutMs: 5000, env: alone });
      if (!r.ok && r.died)
        deaths.push(`${manifest} (${r.died === 'timeout' ? 'hangs' : (probeDeathDetail(r.error.message) ?? 'crashes')}${r.stage ? ` during ${r.stage}` : ''})`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DIAGNOSIS_CONCURRENCY, manifests.length) }, worker));
  if (deaths.length) {
    return {
      ...error,
      message: `${error.message}. Loaded alone, ${deaths.length === 1 ? 'this driver does the same' : 'these drivers do the same'}: ${deaths.join('; ')}`,
      where: deaths[0]!.split(' (')[0]!,
      fix: 'applications using the real loader fail the same way: remove or update that driver, or leave it out with VK_DRIVER_FILES (`strata driver negotiate` shows each driver on its own)',
    };
  }
  return {
    ...error,
    fix: `every driver works when loaded alone${manifests.length ? '' : ' (none found)'}, so an implicit layer is the likely cause: \`strata layer inspect\` loads each layer on its own, and VK_LOADER_DEBUG=all shows what the loader was doing`,
  };
}

/** One probe request, its answer checked against the shared schema (it crossed a process boundary). */
async function ask<S extends z.ZodType>(
  options: VulkanServiceOptions,
  method: string,
  schema: S,
  env: ProbeEnvironment | undefined,
  params?: unknown,
): Promise<z.output<S>> {
  // VK_LOADER_DEBUG makes the loader log to the probe's stderr; the answer carries that log back.
  const debug = environmentWith(options.env ?? options.probes?.baseEnv ?? process.env, env)['VK_LOADER_DEBUG'];
  const result = await clientFor(options, env).request(method, params, { captureStderr: !!debug });
  if (!result.ok) throw serviceError(await diagnoseProbeDeath(options, method, env, result.error));
  const loaderLog = result.stderr?.split('\n').filter((l) => l.trim() !== '' && !l.startsWith(PROBE_STAGE_PREFIX));
  const parsed = schema.safeParse(loaderLog && typeof result.value === 'object' && result.value !== null ? { ...result.value, loaderLog } : result.value);
  if (!parsed.success) {
    throw serviceError('bridge/invalid-reply', `The Vulkan probe's answer to "${method}" does not match its schema: ${parsed.error.message.slice(0, 300)}`, {
      where: 'native-bridge probe',
      fix: 'this is a bug in Strata; please report it',
    });
  }
  return parsed.data;
}

export function loaderInfo(options: VulkanServiceOptions, request: { env?: ProbeEnvironment }): Promise<LoaderInfo> {
  return ask(options, 'loader.info', LoaderInfoSchema, request.env);
}

/**
 * devices: the physical devices in the request's environment; unless `origins: false`, each with
 * the driver manifest it came from. The manifests are those discovery finds in the same
 * environment (the loader's list, in its order); the probe enumerates with each alone and pairs
 * the devices up (native-bridge/vulkan-queries.ts).
 */
export async function physicalDevices(options: VulkanServiceOptions, request: DevicesRequest): Promise<DevicesReport> {
  if (request.origins === false) return ask(options, 'devices', DevicesReportSchema, request.env);
  const env = environmentWith(options.env ?? options.probes?.baseEnv ?? process.env, request.env);
  // The installed loader's version decides whether a settings file adds drivers (as `strata driver list`).
  const [{ discoveryManifests }, { loaderVersionFromFileName }] = await Promise.all([discovery(), loaderVersionFile()]);
  const inventory = await discoveryManifests({ env, loaderVersion: loaderVersionFromFileName(env) });
  // A loader settings file's additional_drivers and device_configurations (loader 1.4.323+) apply to
  // every vkCreateInstance, VK_DRIVER_FILES or not (shared/loader/settings-drivers.ts): a driver
  // cannot be loaded alone to see its devices, so the pairing would be wrong. Say why instead.
  const fromSettings = inventory.manifests.driver.filter((m) => m.origin.startsWith('additional_drivers['));
  if (fromSettings.length || inventory.driverNotes?.length) {
    const report = await ask(options, 'devices', DevicesReportSchema, request.env);
    return {
      ...report,
      notes: [
        ...(inventory.driverNotes ?? []),
        ...(fromSettings.length
          ? [
              `${fromSettings.length} driver manifest${fromSettings.length === 1 ? '' : 's'} come${fromSettings.length === 1 ? 's' : ''} from the loader settings file (additional_drivers)`,
            ]
          : []),
        'which driver manifest each device came from is not shown: the loader settings file applies to every instance, so Strata cannot load one driver alone',
      ],
    };
  }
  return ask(options, 'devices', DevicesReportSchema, request.env, { attributeTo: inventory.manifests.driver.map((m) => m.path) });
}

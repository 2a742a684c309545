import { homedir } from 'node:os';
import type { Handlers } from './router';
import type { ChannelName } from '../../shared/ipc/contract';
import type { BridgeClient } from '../bridge/bridge-client';
import type { BridgePool } from '../bridge/bridge-pool';
import type { SessionService } from '../sessions/session-service';

export interface ServiceOptions {
  version: string;
  bridge: BridgeClient;
  /** The environment Strata reasons about; defaults to its own. Tests pass their own. */
  env?: NodeJS.ProcessEnv;
  /** Probes per environment, for requests that carry `env`; without it only the default probe is used. */
  probes?: BridgePool;
  /**
   * Launches and their sessions; hosts pass one wired to their event bus, made on the first call
   * that needs it. Default: one without live events.
   */
  sessions?: () => Promise<SessionService>;
}

/**
 * A service a startup snapshot's bundle does not hold (see `services`; service-context.ts's sessions):
 * its channels answer with an error that says so, typed as the service they stand for.
 */
export function notInBundle(name: string): () => Promise<never> {
  return () =>
    Promise.reject(
      new Error(
        `the ${name} service is not in the "${String(__STRATA_CLI_GROUP__)}" startup snapshot of the CLI (a bug in Strata: run the command as \`node bin/strata …\`)`,
      ),
    );
}

/**
 * Every service module is imported by the first call of one of its channels, not when the handlers
 * are made: a CLI command loads its own channel's service alone (issue #19: start-up). The import
 * below is the one place a channel's handler names its module.
 *
 * A startup snapshot's bundle (main/build-defines.d.ts) holds only the services its group's commands
 * call: explain's `chain.explain`, `chain.compare` and `profiles.explain`; discovery's `discovery.*`,
 * `lint.files`, `env.summary`, `layers.inspect` and `drivers.negotiate`; shader's `shader.*`. Another
 * channel there answers that it is not in the bundle (tests/integration/cli-snapshot.test.ts runs
 * each group's commands from its snapshot).
 */
const services = {
  appInfo: typeof __STRATA_CLI_GROUP__ === 'undefined' ? () => import('../app-info/app-info-service') : notInBundle('app-info'),
  environment:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery'
      ? () => import('../../shared/loader/environment-summary')
      : notInBundle('environment-summary'),
  vulkan: typeof __STRATA_CLI_GROUP__ === 'undefined' ? () => import('../vulkan/vulkan-service') : notInBundle('vulkan'),
  driverNegotiation:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery'
      ? () => import('../vulkan/driver-negotiation-service')
      : notInBundle('driver-negotiation'),
  layerInspect:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery'
      ? () => import('../vulkan/layer-inspect-service')
      : notInBundle('layer-inspect'),
  discovery:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery'
      ? () => import('../discovery/discovery-service')
      : notInBundle('discovery'),
  lint:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery' ? () => import('../discovery/lint-files-service') : notInBundle('lint'),
  chain: typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'explain' ? () => import('../chain/chain-service') : notInBundle('chain'),
  loaderVersion:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ !== 'shader' ? () => import('../chain/loader-version') : notInBundle('loader-version'),
  loaderVersionFile:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ !== 'shader'
      ? () => import('../chain/loader-version-file')
      : notInBundle('loader-version-file'),
  chainContext: typeof __STRATA_CLI_GROUP__ === 'undefined' ? () => import('../chain/chain-context-service') : notInBundle('chain-context'),
  shader: typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'shader' ? () => import('../shaders/shader-service') : notInBundle('shader'),
  override: typeof __STRATA_CLI_GROUP__ === 'undefined' ? () => import('../override/override-service') : notInBundle('override'),
  sessions: typeof __STRATA_CLI_GROUP__ === 'undefined' ? () => import('../sessions/session-handlers') : notInBundle('sessions'),
  profiles:
    typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'explain' ? () => import('../profiles/profile-handlers') : notInBundle('profiles'),
  activity: typeof __STRATA_CLI_GROUP__ === 'undefined' ? () => import('../activity/activity-service') : notInBundle('activity'),
  bundleFolder: typeof __STRATA_CLI_GROUP__ === 'undefined' ? () => import('../diagnostics/bundle-folder-service') : notInBundle('bundle-folder'),
};

/**
 * Handlers for channels that one module makes together (over shared state: one SessionService, one
 * options object), loaded on the first call of any of them. `names` lists them, so the router knows
 * them before the module loads; the Handlers type makes a missing or extra one a compile error.
 */
function handlerGroup<N extends ChannelName>(names: readonly N[], make: () => Promise<Pick<Handlers, N>>): Pick<Handlers, N> {
  let made: Promise<Pick<Handlers, N>> | undefined;
  const group = {} as Record<N, (request: never, context: never) => Promise<unknown>>;
  for (const name of names) {
    group[name] = async (request, context) => {
      made ??= make();
      const handler = (await made)[name] as (request: unknown, context: unknown) => unknown;
      return handler(request, context);
    };
  }
  return group as unknown as Pick<Handlers, N>;
}

type OverrideService = Awaited<ReturnType<typeof services.override>>;

/** An override channel's request with its scope made explicit (override-service.ts withOverrideScope), handed to `call`. */
async function withScope<R extends { system?: boolean | undefined }, T>(request: R, call: (o: OverrideService, request: R) => Promise<T> | T): Promise<T> {
  const o = await services.override();
  return call(o, await o.withOverrideScope(request));
}

/** One handler per channel of shared/ipc/contract.ts; the type makes a missing channel a compile error. */
export function createHandlers(options: ServiceOptions): Handlers {
  const env = options.env ?? process.env;
  const loaderVersion = async () => (await (await services.loaderVersion()).loaderVersionFromBridge(options.bridge)()).version;
  let sessions: Promise<SessionService> | undefined;
  const sessionService = () =>
    (sessions ??= options.sessions
      ? options.sessions()
      : typeof __STRATA_CLI_GROUP__ === 'undefined'
        ? import('../sessions/session-service').then(({ SessionService }) => new SessionService({ env, version: options.version }))
        : notInBundle('sessions')());
  return {
    'app.info': async (_request, context) => (await services.appInfo()).appInfo(options, context),
    'env.summary': async () => (await services.environment()).summarizeEnvironment(env, env['HOME'] || homedir(), process.platform),
    'discovery.paths': async (request) => (await services.discovery()).discoveryPaths({ env, ...request }),
    // The lint's verdicts follow the installed loader's version, read from its file name (no load: cheap).
    'discovery.manifests': async (request) => {
      const [{ discoveryManifests }, { loaderVersionFromFileName }] = await Promise.all([services.discovery(), services.loaderVersionFile()]);
      // Fresh unless asked otherwise: what a page shows (and its Refresh) is read anew, but its first
      // view takes the answer a watching host keeps (its warm-up's); the services behind other
      // channels may read a kept answer too (manifest-catalogue.ts).
      return discoveryManifests({ env, ...request, loaderVersion: loaderVersionFromFileName(env), fresh: request.fresh ?? true });
    },
    'chain.explain': async (request) => {
      const [{ explainChainRequest }, { loaderVersionFromBridge }, { loaderVersionFromFileName }] = await Promise.all([
        services.chain(),
        services.loaderVersion(),
        services.loaderVersionFile(),
      ]);
      // The installed loader's version from its file name where that names one: no library loaded
      // (~15 ms of `strata explain`, issue #19), and the number vkEnumerateInstanceVersion gives, both
      // coming from the headers the loader was built with (loader-version-file.ts). Else the loader is asked.
      const byName = loaderVersionFromFileName(env);
      const installed = byName ? async () => ({ version: byName }) : loaderVersionFromBridge(options.bridge);
      return explainChainRequest(env, request, installed, (library) => {
        // Another loader library: a probe of its own opens it by path (STRATA_LOADER_LIBRARY, native-bridge/loader-library.ts).
        if (!options.probes) return async () => ({ version: null, why: 'this host has no probe pool to open another loader library' });
        return loaderVersionFromBridge(options.probes.forEnv({ STRATA_LOADER_LIBRARY: library }));
      });
    },
    'chain.compare': async (request) => (await services.chain()).compareChainRequest(env, request),
    'chain.context': async () => (await services.chainContext()).chainContext({ env, bridge: options.bridge }),
    'lint.files': async (request) => {
      const [{ lintFiles }, { loaderVersionFromFileName }] = await Promise.all([services.lint(), services.loaderVersionFile()]);
      // Windows: vulkan-1.dll's name carries no version, so the loader is asked (as explain and the status ask it).
      const version = loaderVersionFromFileName(env) ?? (process.platform === 'win32' ? await loaderVersion().catch(() => null) : null);
      return lintFiles(request, process.cwd(), version, env);
    },
    'loader.info': async (request) => (await services.vulkan()).loaderInfo(options, request),
    'devices.list': async (request) => (await services.vulkan()).physicalDevices(options, request),
    'drivers.negotiate': async (request) =>
      (await services.driverNegotiation()).negotiateDrivers({ ...(options.probes ? { probes: options.probes } : {}), env }, request),
    'layers.inspect': async (request) => (await services.layerInspect()).inspectLayers({ ...(options.probes ? { probes: options.probes } : {}), env }, request),
    'shader.disassemble': async (request) => (await services.shader()).disassembleShaderFile(request),
    'shader.inspect': async (request) => (await services.shader()).inspectShaderFile(request),
    'shader.inspectBytes': async (request) => (await services.shader()).inspectShaderBytes(request),
    'shader.pack': async (request) => (await services.shader()).packShaderBytes(request),
    // A request without a scope means the one this Strata's applications read (override-service.ts defaultOverrideSystem).
    'override.status': async (r) => withScope(r, (o, request) => o.overrideStatusOnAnyPlatform({ env }, request)),
    'override.apply': async (r) => withScope(r, (o, request) => o.overrideApply({ env }, request)),
    'override.remove': async (r) => withScope(r, (o, request) => o.overrideRemoveOnAnyPlatform({ env }, request)),
    'override.preview': async (r) => withScope(r, (o, request) => o.overridePreview({ env }, request)),
    'override.export': async (request) => (await services.override()).overrideExport(request),
    ...handlerGroup(
      ['launch.start', 'launch.stop', 'sessions.list', 'sessions.open', 'sessions.search', 'sessions.delete', 'sessions.export', 'sessions.diff'],
      async () => {
        const [{ sessionHandlers }, service] = await Promise.all([services.sessions(), sessionService()]);
        return sessionHandlers(service);
      },
    ),
    ...handlerGroup(
      [
        'profiles.list',
        'profiles.create',
        'profiles.save',
        'profiles.copy',
        'profiles.rename',
        'profiles.delete',
        'profiles.export',
        'profiles.import',
        'profiles.apply',
        'profiles.overrideExport',
        'profiles.launchEnvironment',
        'profiles.explain',
        'profiles.bind',
        'profiles.unbind',
      ],
      async () => (await services.profiles()).profileHandlers({ env, loaderVersion }),
    ),
    'activity.status': async () => (await services.activity()).activityStatus({ env, loaderVersion }),
    'activity.disable': async (request) => (await services.activity()).activityDisable({ env, loaderVersion }, request),
    'diagnostics.saveFolder': async (request) => (await services.bundleFolder()).saveBundleFolder(request, env),
  };
}

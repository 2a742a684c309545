import { BridgeClient, type BridgeClientOptions } from '../bridge/bridge-client';
import { BridgePool } from '../bridge/bridge-pool';
import type { EventBus } from '../platform/event-bus';
import { createRouter, type Router, type RouterOptions } from '../router/router';
import { createHandlers, notInBundle } from '../router/handlers';
import { probeCommand, readAppVersion } from '../platform/app-paths';
import type { SessionService } from '../sessions/session-service';
import type { ProbeLauncher } from '../bridge/probe-transport';

/**
 * What every host wires the same way: the router over the services, the probe and its pool, the
 * launches. A one-shot CLI command needs this alone; the UI hosts add the event bus and the
 * discovery watch (app-context.ts). Nothing here loads a service or builds a schema before a call
 * needs it (issue #19: start-up).
 */
export interface ServiceContext {
  root: string;
  version: string;
  router: Router;
  bridge: BridgeClient;
  /**
   * Launches and their sessions (one service, so every host in this process sees the same running
   * launches), made on first use: a command that launches nothing never loads it.
   */
  sessions(): Promise<SessionService>;
  dispose(): void;
}

export interface ServiceContextOptions {
  root: string;
  env?: NodeJS.ProcessEnv;
  /** Answer `loader.version` in this process when that is safe (main/bridge/loader-version-in-process.ts): one-shot CLI commands. */
  loaderVersionInProcess?: boolean;
  /** Where launches send their live events (the UI hosts' bus); none: nobody is listening. */
  bus?: EventBus;
  /** How probes are started; default: main/bridge/probe-transport.ts's for this process (the CLI passes one holding a probe it started early). */
  probeLauncher?: ProbeLauncher;
  /** What the router does with each channel's answers (router.ts RouterOptions); default: checks them all. */
  answers?: RouterOptions['answers'];
}

/**
 * STRATA_PROBE_TIMEOUT_MS: how long a probe request may take before it counts as hung (default 5000).
 * For slow machines and emulation (Windows under Wine on a loaded CI machine); a value outside
 * 1000–600000 ms, or not a whole number, is ignored.
 */
export function probeTimeoutMs(env: NodeJS.ProcessEnv): number | undefined {
  const text = env['STRATA_PROBE_TIMEOUT_MS'];
  if (!text || !/^\d+$/.test(text)) return undefined;
  const ms = Number(text);
  return ms >= 1000 && ms <= 600_000 ? ms : undefined;
}

export function createServiceContext(options: ServiceContextOptions): ServiceContext {
  const version = readAppVersion(options.root);
  const env = options.env ?? process.env;
  const timeoutMs = probeTimeoutMs(env);
  const bridgeOptions: BridgeClientOptions = {
    probe: probeCommand(options.root),
    cwd: options.root,
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.probeLauncher ? { launcher: options.probeLauncher } : {}),
  };
  const bridge = new BridgeClient({ ...bridgeOptions, ...(options.loaderVersionInProcess ? { loaderVersionInProcess: true } : {}) });
  const probes = new BridgePool(bridgeOptions, bridge);
  let sessionService: Promise<SessionService> | undefined;
  const sessions = () =>
    (sessionService ??= (
      typeof __STRATA_CLI_GROUP__ === 'undefined'
        ? Promise.all([import('../sessions/session-service'), import('../chain/loader-version'), import('../sessions/profile-launch')])
        : // A startup snapshot's bundle holds no command that launches (main/build-defines.d.ts).
          notInBundle('sessions')()
    ).then(([{ SessionService }, { loaderVersionFromBridge }, { profileResolver }]) => {
      const loaderVersion = loaderVersionFromBridge(bridge);
      return new SessionService({
        env,
        version,
        ...(options.bus ? { bus: options.bus } : {}),
        loaderVersion,
        profiles: profileResolver({ loaderVersion: async () => (await loaderVersion()).version }),
      });
    }));
  const router = createRouter(createHandlers({ version, bridge, probes, sessions, ...(options.env ? { env: options.env } : {}) }), {
    ...(options.answers ? { answers: options.answers } : {}),
  });
  return {
    root: options.root,
    version,
    router,
    bridge,
    sessions,
    dispose: () => {
      // Applications launched from this host are stopped; their sessions close on their own.
      void sessionService?.then((s) => s.dispose());
      probes.dispose();
    },
  };
}

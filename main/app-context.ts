import { BridgeClient, type BridgeClientOptions } from './bridge-client';
import { BridgePool } from './bridge-pool';
import { EventBus } from './event-bus';
import { createRouter, type Router } from './router';
import { createHandlers } from './services/handlers';
import { probeCommand, readAppVersion } from './app-paths';
import { DiscoveryWatch } from './discovery/discovery-watch';
import { SessionService } from './sessions/session-service';
import { loaderVersionFromBridge } from './chain/loader-version';
import { profileResolver } from './sessions/profile-launch';

/** Everything a host needs, wired once: the router over the services, the event bus, the probe. */
export interface AppContext {
  root: string;
  version: string;
  router: Router;
  bus: EventBus;
  bridge: BridgeClient;
  /** Launches and their sessions (one service, so every host in this process sees the same running launches). */
  sessions: SessionService;
  /**
   * A UI client (window, event stream) is attached: while any is, manifest changes on disk go out
   * as `discovery.changed` on the bus. Call the returned function when the client leaves.
   */
  attachUiClient(): () => void;
  dispose(): void;
}

export function createAppContext(options: { root: string; env?: NodeJS.ProcessEnv }): AppContext {
  const version = readAppVersion(options.root);
  const bridgeOptions: BridgeClientOptions = { probe: probeCommand(options.root), cwd: options.root, ...(options.env ? { env: options.env } : {}) };
  const bridge = new BridgeClient(bridgeOptions);
  const probes = new BridgePool(bridgeOptions, bridge);
  const bus = new EventBus();
  const loaderVersion = loaderVersionFromBridge(bridge);
  const sessions = new SessionService({
    env: options.env ?? process.env,
    version,
    bus,
    loaderVersion,
    profiles: profileResolver({ loaderVersion: async () => (await loaderVersion()).version }),
  });
  const router = createRouter(createHandlers({ version, bridge, probes, sessions, ...(options.env ? { env: options.env } : {}) }));
  const discoveryWatch = new DiscoveryWatch({ env: options.env ?? process.env, bus });
  return {
    root: options.root,
    version,
    router,
    bus,
    bridge,
    sessions,
    attachUiClient: () => discoveryWatch.attach(),
    dispose: () => {
      // Applications launched from this host are stopped; their sessions close on their own.
      void sessions.dispose();
      discoveryWatch.dispose();
      probes.dispose();
    },
  };
}

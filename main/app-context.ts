import { BridgeClient, type BridgeClientOptions } from './bridge-client';
import { BridgePool } from './bridge-pool';
import { EventBus } from './event-bus';
import { createRouter, type Router } from './router';
import { createHandlers } from './services/handlers';
import { probeCommand, readAppVersion } from './app-paths';
import { DiscoveryWatch } from './discovery/discovery-watch';

/** Everything a host needs, wired once: the router over the services, the event bus, the probe. */
export interface AppContext {
  root: string;
  version: string;
  router: Router;
  bus: EventBus;
  bridge: BridgeClient;
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
  const router = createRouter(createHandlers({ version, bridge, probes, ...(options.env ? { env: options.env } : {}) }));
  const discoveryWatch = new DiscoveryWatch({ env: options.env ?? process.env, bus });
  return {
    root: options.root,
    version,
    router,
    bus,
    bridge,
    attachUiClient: () => discoveryWatch.attach(),
    dispose: () => {
      discoveryWatch.dispose();
      probes.dispose();
    },
  };
}

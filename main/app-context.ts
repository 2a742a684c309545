import { BridgeClient } from './bridge-client';
import { EventBus } from './event-bus';
import { createRouter, type Router } from './router';
import { createHandlers } from './services/handlers';
import { probeCommand, readAppVersion } from './app-paths';

/** Everything a host needs, wired once: the router over the services, the event bus, the probe. */
export interface AppContext {
  root: string;
  version: string;
  router: Router;
  bus: EventBus;
  bridge: BridgeClient;
  dispose(): void;
}

export function createAppContext(options: { root: string; env?: NodeJS.ProcessEnv }): AppContext {
  const version = readAppVersion(options.root);
  const bridge = new BridgeClient({ probe: probeCommand(options.root), cwd: options.root, ...(options.env ? { env: options.env } : {}) });
  const bus = new EventBus();
  const router = createRouter(createHandlers({ version, bridge, ...(options.env ? { env: options.env } : {}) }));
  return { root: options.root, version, router, bus, bridge, dispose: () => bridge.dispose() };
}

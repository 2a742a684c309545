import { EventBus } from '../platform/event-bus';
import { DiscoveryWatch } from '../discovery/discovery-watch';
import { createServiceContext, type ServiceContext } from './service-context';

/** Everything a UI host needs, wired once: the router over the services, the probe, the event bus, the discovery watch. */
export interface AppContext extends ServiceContext {
  bus: EventBus;
  /**
   * A UI client (window, event stream) is attached: while any is, manifest changes on disk go out
   * as `discovery.changed` on the bus. Call the returned function when the client leaves.
   */
  attachUiClient(): () => void;
}

export function createAppContext(options: { root: string; env?: NodeJS.ProcessEnv; loaderVersionInProcess?: boolean }): AppContext {
  const bus = new EventBus();
  const services = createServiceContext({ ...options, bus });
  const discoveryWatch = new DiscoveryWatch({ env: options.env ?? process.env, bus });
  return {
    ...services,
    bus,
    attachUiClient: () => discoveryWatch.attach(),
    dispose: () => {
      services.dispose();
      discoveryWatch.dispose();
    },
  };
}

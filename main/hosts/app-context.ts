import { EventBus } from '../platform/event-bus';
import { DiscoveryWatch } from '../discovery/discovery-watch';
import { createServiceContext, type ServiceContext } from './service-context';
import { channelSchemas } from '../../shared/ipc/contract';
import { FIRST_VIEW_REQUEST } from '../../shared/ipc/first-view-request';
import type { HostKind } from '../../shared/app/app-info';
import { manifestCatalogue } from '../discovery/manifest-catalogue';
import type { ChannelName } from '../../shared/ipc/contract';
import type { Router } from '../router/router';

/**
 * Channels that write nothing the manifest catalogue holds (manifests, what their lint reads). Any
 * other call (Apply, a binding, a profile saved, Disable…) drops the catalogue's kept answers before
 * and after it, and its own discoveries are fresh (manifest-catalogue.ts). A channel missing here
 * costs a scan, never a stale answer.
 */
const READS_ONLY: ReadonlySet<string> = new Set<ChannelName>([
  'app.info',
  'env.summary',
  'discovery.paths',
  'discovery.manifests',
  'chain.explain',
  'chain.compare',
  'chain.context',
  'lint.files',
  'loader.info',
  'devices.list',
  'drivers.negotiate',
  'layers.inspect',
  'shader.disassemble',
  'shader.inspect',
  'shader.inspectBytes',
  'override.status',
  'override.preview',
  'override.export',
  'sessions.list',
  'sessions.open',
  'sessions.search',
  'sessions.export',
  'sessions.diff',
  'profiles.list',
  'profiles.export',
  'profiles.explain',
  'profiles.launchEnvironment',
  'profiles.overrideExport',
  'activity.status',
]);

/** The channels a UI's first view calls (the Layers editor, the status strip, the profile menu). */
const FIRST_VIEW_CHANNELS: readonly ChannelName[] = [
  'discovery.manifests',
  'discovery.paths',
  'chain.context',
  'override.status',
  'activity.status',
  'profiles.list',
];

/** The router, with the catalogue told of every call that may write. */
function catalogueAwareRouter(router: Router): Router {
  return {
    channelNames: router.channelNames,
    call: async (channel, payload, context) => {
      if (READS_ONLY.has(channel)) return router.call(channel, payload, context);
      const done = manifestCatalogue.beginWrite();
      try {
        return await router.call(channel, payload, context);
      } finally {
        done();
      }
    },
  };
}

/** Everything a UI host needs, wired once: the router over the services, the probe, the event bus, the discovery watch. */
export interface AppContext extends ServiceContext {
  bus: EventBus;
  /**
   * A UI client (window, event stream) is attached: while any is, manifest changes on disk go out
   * as `discovery.changed` on the bus. Call the returned function when the client leaves.
   */
  attachUiClient(): () => void;
  /**
   * While the host waits for its first page (issue #19: first render), what that page's first view
   * would otherwise wait for, on a machine it shares with the browser starting up:
   * - the first view's schemas are built, and the dynamic linker's facts (`ldconfig -p`, kept for
   *   the process: native-bridge/library-resolver.ts) are read;
   * - the search folders are watched from now on (as while a page is open), and one discovery of the
   *   host's environment runs. Its answer is kept while nothing changes (manifest-catalogue.ts: the
   *   watcher for the manifests, a stat of each library its lint read), and the page's first view
   *   takes it (`fresh: false`), so the page no longer waits for a scan (1,000 manifests: 0.5–1 s
   *   beside a starting browser on a 2-core machine); a page that asks while it runs shares it;
   * - then chain.context, as the first view asks it: the discovery the services behind the first
   *   view's other calls read (kept too), and the loader's version, which chain.context,
   *   profiles.list and activity.status need: asked of the probe now and kept for the process
   *   (chain/loader-version.ts), instead of beside the page's rendering (~0.3 s of the probe's CPU on
   *   a tree of 1,000 layers with Strata's override). A failure is not kept: the call that meets it
   *   again reports it.
   */
  warmUp(host: HostKind): Promise<void>;
}

export function createAppContext(options: { root: string; env?: NodeJS.ProcessEnv; loaderVersionInProcess?: boolean }): AppContext {
  const bus = new EventBus();
  const services = createServiceContext({ ...options, bus });
  const discoveryWatch = new DiscoveryWatch({ env: options.env ?? process.env, bus });
  return {
    ...services,
    router: catalogueAwareRouter(services.router),
    bus,
    attachUiClient: () => discoveryWatch.attach(),
    warmUp: async (host) => {
      // Held for the host's life: dispose() stops the watch.
      discoveryWatch.attach();
      await Promise.all(FIRST_VIEW_CHANNELS.map((c) => channelSchemas(c).catch(() => undefined)));
      // The search order alone (a few stat calls): it loads the discovery service, as the first view's discovery does.
      await services.router.call('discovery.paths', {}, { host });
      // The linker's cache, which the first view's lint reads for bare library names (its default folders are asked only for a not-found message).
      if (process.platform === 'linux') (await import('../../native-bridge/library-resolver')).linkerCache();
      // As the first view asks it: a page that came first (strata serve --open) has its answer kept already.
      await services.router.call(FIRST_VIEW_REQUEST.channel, FIRST_VIEW_REQUEST.request, { host });
      // The services behind the first view's other calls read the catalogue without the loader
      // version (another key: the lint's verdicts differ), and chain.context asks the loader's version.
      await services.router.call('chain.context', {}, { host });
    },
    dispose: () => {
      services.dispose();
      discoveryWatch.dispose();
    },
  };
}

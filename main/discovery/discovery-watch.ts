import { computeSearchPaths, platformFromNodeName, type PlatformDescription } from '../../shared/loader/search-paths';
import type { Environment } from '../../shared/loader/xdg-directories';
import type { EventBus } from '../platform/event-bus';
import { currentUser } from './discovery-service';
import { ManifestWatcher } from './manifest-watcher';
import { manifestCatalogue } from './manifest-catalogue';

export interface DiscoveryWatchOptions {
  env: Environment;
  bus: EventBus;
  platform?: PlatformDescription;
  cwd?: string;
  debounceMs?: number;
}

/**
 * The hosts' side of manifest watching: one ManifestWatcher over the search paths discovery uses,
 * running only while at least one UI client (an Electron window, a browser's event stream, or
 * `strata serve` waiting for its first page: AppContext.warmUp) is attached, so the CLI holds no
 * watches. Changes go out as
 * `discovery.changed`; a folder that cannot be watched as one `host.notice` per process. While it
 * watches, the manifest catalogue keeps its answers for this environment, and each change drops them
 * (manifest-catalogue.ts).
 */
export class DiscoveryWatch {
  private clients = 0;
  private watcher: ManifestWatcher | null = null;
  private releaseCatalogue: (() => void) | null = null;
  private readonly noticed = new Set<string>();

  constructor(private readonly options: DiscoveryWatchOptions) {}

  /** A UI client is attached; call the returned function (once, idempotent) when it leaves. */
  attach(): () => void {
    this.clients++;
    if (this.clients === 1) this.startWatching();
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.clients--;
      if (this.clients === 0) this.stopWatching();
    };
  }

  get watching(): boolean {
    return this.watcher !== null;
  }

  dispose(): void {
    this.clients = 0;
    this.stopWatching();
  }

  private startWatching(): void {
    const { env, bus } = this.options;
    const platform = this.options.platform ?? platformFromNodeName(process.platform);
    // The same search paths discovery.paths / discovery.manifests answer with (no `elevated` override).
    const paths = computeSearchPaths({ platform, env, user: currentUser(env) });
    const watcher = new ManifestWatcher({
      paths,
      cwd: this.options.cwd ?? process.cwd(),
      ...(this.options.debounceMs !== undefined ? { debounceMs: this.options.debounceMs } : {}),
      // Kept answers go at a burst's first event, not after its debounce: a page opened meanwhile
      // (its first view takes a kept answer) reads the folders anew.
      onPending: () => manifestCatalogue.invalidate(),
      onChange: (change) => {
        manifestCatalogue.invalidate();
        bus.emit('discovery.changed', change);
      },
      onProblem: (message) => {
        if (this.noticed.has(message)) return;
        this.noticed.add(message);
        bus.emit('host.notice', { level: 'warning', message });
      },
    });
    this.watcher = watcher;
    try {
      watcher.start();
      this.releaseCatalogue = manifestCatalogue.keep(env);
    } catch (e) {
      // start() is built not to throw; if it ever does, the host goes on without watching.
      bus.emit('host.notice', {
        level: 'warning',
        message: `Strata cannot watch the manifest folders: ${e instanceof Error ? e.message : String(e)}. Use Refresh to re-read them.`,
      });
    }
  }

  private stopWatching(): void {
    this.releaseCatalogue?.();
    this.releaseCatalogue = null;
    this.watcher?.close();
    this.watcher = null;
  }
}

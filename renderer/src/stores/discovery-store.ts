import { create } from 'zustand';
import type { ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import type { DiscoveryPaths } from '../../../shared/loader/search-paths';
import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';

/**
 * What discovery found: every manifest (with its lint diagnostics) and the search order. The
 * Layers and Problems panels read the same answer, so a refresh in one shows in both.
 */
interface DiscoveryState {
  manifests: RequestState<ManifestInventory>;
  paths: RequestState<DiscoveryPaths>;
  /** A refresh is out while the previous answer stays on screen (no flash of a spinner). */
  refreshing: boolean;
  loadManifests(): Promise<void>;
  loadPaths(): Promise<void>;
  refresh(): Promise<void>;
}

type Slot = 'manifests' | 'paths';

export const useDiscovery = create<DiscoveryState>()((set, get) => {
  // An older answer arriving after a newer request must not overwrite it.
  const latest: Record<Slot, number> = { manifests: 0, paths: 0 };

  async function load<C extends ChannelName>(slot: Slot, channel: C) {
    const ticket = ++latest[slot];
    if (get()[slot].status !== 'ready') set({ [slot]: { status: 'loading' } } as Partial<DiscoveryState>);
    let next: RequestState<ResponseOf<C>>;
    try {
      next = { status: 'ready', value: await strataApi().call(channel, {} as RequestOf<C>) };
    } catch (e) {
      next = { status: 'error', error: toStrataError(e, channel) };
    }
    if (ticket === latest[slot]) set({ [slot]: next } as Partial<DiscoveryState>);
  }

  return {
    manifests: { status: 'idle' },
    paths: { status: 'idle' },
    refreshing: false,
    loadManifests: () => load('manifests', 'discovery.manifests'),
    loadPaths: () => load('paths', 'discovery.paths'),
    refresh: async () => {
      set({ refreshing: true });
      try {
        await Promise.all([load('manifests', 'discovery.manifests'), load('paths', 'discovery.paths')]);
      } finally {
        set({ refreshing: false });
      }
    },
  };
});

/** Errors across all discovered manifests, for the sidebar badge; null until discovery has answered. */
export const selectErrorCount = (s: DiscoveryState): number | null => {
  if (s.manifests.status !== 'ready') return null;
  let n = 0;
  for (const list of Object.values(s.manifests.value.manifests)) for (const m of list) for (const d of m.diagnostics) if (d.severity === 1 || d.severity === undefined) n++;
  return n;
};

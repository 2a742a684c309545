import { create } from 'zustand';
import type { ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import type { DiscoveryPaths } from '../../../shared/loader/search-paths';
import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { FIRST_VIEW_REQUEST } from '../../../shared/ipc/first-view-request';
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
  /**
   * After `discovery.changed`: re-fetch what has been loaded, in the background. The previous
   * answer stays on screen (and the user's selection and scroll with it), also when the re-fetch
   * fails. Resolves with what happened: nothing was loaded yet, updated, or the error.
   */
  refreshLoaded(): Promise<{ outcome: 'not-loaded' } | { outcome: 'updated' } | { outcome: 'failed'; message: string }>;
}

type Slot = 'manifests' | 'paths';

export const useDiscovery = create<DiscoveryState>()((set, get) => {
  // An older answer arriving after a newer request must not overwrite it.
  const latest: Record<Slot, number> = { manifests: 0, paths: 0 };

  async function load<C extends ChannelName>(slot: Slot, channel: C, keepOnError = false, request = {} as RequestOf<C>): Promise<string | null> {
    const ticket = ++latest[slot];
    if (get()[slot].status !== 'ready') set({ [slot]: { status: 'loading' } } as Partial<DiscoveryState>);
    let next: RequestState<ResponseOf<C>>;
    try {
      next = { status: 'ready', value: await strataApi().call(channel, request) };
    } catch (e) {
      next = { status: 'error', error: toStrataError(e, channel) };
    }
    const failed = next.status === 'error' ? next.error.message : null;
    if (ticket === latest[slot] && !(keepOnError && failed !== null && get()[slot].status === 'ready')) set({ [slot]: next } as Partial<DiscoveryState>);
    return failed;
  }

  const CHANNEL: Record<Slot, 'discovery.manifests' | 'discovery.paths'> = { manifests: 'discovery.manifests', paths: 'discovery.paths' };

  return {
    manifests: { status: 'idle' },
    paths: { status: 'idle' },
    refreshing: false,
    loadManifests: async () => {
      // The first load takes what a watching host keeps up to date (its warm-up's scan); Refresh and a change on disk read anew.
      await load('manifests', FIRST_VIEW_REQUEST.channel, false, FIRST_VIEW_REQUEST.request);
    },
    loadPaths: async () => {
      await load('paths', 'discovery.paths');
    },
    refresh: async () => {
      set({ refreshing: true });
      try {
        await Promise.all([load('manifests', 'discovery.manifests'), load('paths', 'discovery.paths')]);
      } finally {
        set({ refreshing: false });
      }
    },
    refreshLoaded: async () => {
      // A panel not opened yet loads fresh data when it opens; nothing to do for it now.
      const slots = (['manifests', 'paths'] as const).filter((s) => get()[s].status !== 'idle');
      if (slots.length === 0) return { outcome: 'not-loaded' };
      set({ refreshing: true });
      try {
        const errors = (await Promise.all(slots.map((s) => load(s, CHANNEL[s], true)))).filter((m): m is string => m !== null);
        return errors.length ? { outcome: 'failed', message: errors[0]! } : { outcome: 'updated' };
      } finally {
        set({ refreshing: false });
      }
    },
  };
});

/**
 * True while discovery's first answer is on its way (a refresh keeps the previous answer: 'ready').
 * The requests of what sits around the first view (the status strip, the profile menu) wait for it:
 * in main they would compete with it for the same CPU, and the Layers list shows nothing until it
 * comes (issue #19: first render).
 */
export const selectFirstAnswerPending = (s: DiscoveryState): boolean => s.manifests.status === 'loading';

/** Errors across all discovered manifests, for the sidebar badge; null until discovery has answered. */
export const selectErrorCount = (s: DiscoveryState): number | null => {
  if (s.manifests.status !== 'ready') return null;
  let n = 0;
  for (const list of Object.values(s.manifests.value.manifests))
    for (const m of list) for (const d of m.diagnostics) if (d.severity === 1 || d.severity === undefined) n++;
  return n;
};

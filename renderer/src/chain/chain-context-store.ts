import { create } from 'zustand';
import type { ChainContext } from '../../../shared/configurator/chain-context';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';
import { useDiscovery } from '../discovery/discovery-store';

/**
 * chain.context: the environment, loader version and override place the live chain needs. Asked
 * once, and again whenever discovery answers anew (a manifest may name a new variable).
 */
interface ChainContextState {
  context: RequestState<ChainContext>;
  load(): Promise<void>;
}

export const useChainContext = create<ChainContextState>()((set, get) => {
  let latest = 0;
  return {
    context: { status: 'idle' },
    load: async () => {
      const ticket = ++latest;
      if (get().context.status !== 'ready') set({ context: { status: 'loading' } });
      let next: RequestState<ChainContext>;
      try {
        next = { status: 'ready', value: await strataApi().call('chain.context', {}) };
      } catch (e) {
        next = { status: 'error', error: toStrataError(e, 'chain.context') };
      }
      // A failed re-ask keeps the context on screen: the old one is still the best there is.
      if (ticket === latest && !(next.status === 'error' && get().context.status === 'ready')) set({ context: next });
    },
  };
});

useDiscovery.subscribe((s, prev) => {
  if (
    s.manifests !== prev.manifests &&
    s.manifests.status === 'ready' &&
    prev.manifests.status === 'ready' &&
    useChainContext.getState().context.status !== 'idle'
  )
    void useChainContext.getState().load();
});

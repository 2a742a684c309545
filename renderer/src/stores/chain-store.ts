import { create } from 'zustand';
import type { LayerChain } from '../../../shared/loader/chain';
import { apiVersionProblem, parseRequestedLayers, toggleRequestedLayer } from '../chain/chain-layout';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';

/** The Chain panel: what the form holds and the last chain.explain answer. */
interface ChainState {
  requestedText: string;
  apiVersion: string;
  result: RequestState<LayerChain>;
  /** The request the shown answer is for (the form may have changed since). */
  explained: { requestedLayers: string[]; apiVersion: string } | null;
  setRequestedText(text: string): void;
  toggleLayer(name: string): void;
  setApiVersion(text: string): void;
  explain(): Promise<void>;
}

export const useChain = create<ChainState>()((set, get) => {
  let latest = 0;
  return {
    requestedText: '',
    apiVersion: '1.3',
    result: { status: 'idle' },
    explained: null,
    setRequestedText: (requestedText) => set({ requestedText }),
    toggleLayer: (name) => set({ requestedText: toggleRequestedLayer(get().requestedText, name) }),
    setApiVersion: (apiVersion) => set({ apiVersion }),
    explain: async () => {
      const { requestedText, apiVersion, result } = get();
      if (apiVersionProblem(apiVersion)) return;
      const requestedLayers = parseRequestedLayers(requestedText);
      const api = apiVersion.trim();
      const ticket = ++latest;
      if (result.status !== 'ready') set({ result: { status: 'loading' } });
      let next: RequestState<LayerChain>;
      try {
        next = { status: 'ready', value: await strataApi().call('chain.explain', { requestedLayers, ...(api ? { apiVersion: api } : {}) }) };
      } catch (e) {
        next = { status: 'error', error: toStrataError(e, 'chain.explain') };
      }
      if (ticket === latest) set({ result: next, explained: { requestedLayers, apiVersion: api || '1.0' } });
    },
  };
});

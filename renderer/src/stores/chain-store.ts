import { create } from 'zustand';
import { apiVersionProblem, parseRequestedLayers, toggleRequestedLayer } from '../chain/chain-layout';

/**
 * The application the chain is worked out for (the Chain panel's form), and the request last
 * committed with Explain or a picker chip. The chain itself is derived, live, from the draft
 * (chain/draft-view.ts): nothing is asked of main.
 */
export interface ChainRequest {
  requestedLayers: string[];
  /** "MAJOR.MINOR"; 1.0 when the field is empty (VkApplicationInfo's default). */
  apiVersion: string;
}

interface ChainState {
  requestedText: string;
  apiVersion: string;
  explained: ChainRequest;
  setRequestedText(text: string): void;
  /** Adds or removes a layer in the field and commits the form. */
  toggleLayer(name: string): void;
  setApiVersion(text: string): void;
  /** Commits the form (unless the API version is malformed). */
  explain(): void;
}

export const useChain = create<ChainState>()((set, get) => {
  const commit = (requestedText: string, apiVersion: string) => {
    if (apiVersionProblem(apiVersion)) return;
    set({ explained: { requestedLayers: parseRequestedLayers(requestedText), apiVersion: apiVersion.trim() || '1.0' } });
  };
  return {
    requestedText: '',
    apiVersion: '1.3',
    explained: { requestedLayers: [], apiVersion: '1.3' },
    setRequestedText: (requestedText) => set({ requestedText }),
    toggleLayer: (name) => {
      const requestedText = toggleRequestedLayer(get().requestedText, name);
      set({ requestedText });
      commit(requestedText, get().apiVersion);
    },
    setApiVersion: (apiVersion) => set({ apiVersion }),
    explain: () => commit(get().requestedText, get().apiVersion),
  };
});

import { create } from 'zustand';
import { apiVersionProblem, parseRequestedLayers, toggleRequestedLayer } from './chain-layout';

/**
 * The application the chain is worked out for (the Chain panel's form), and the request last
 * committed with Explain or a picker chip. The chain itself is derived, live, from the draft
 * (chain/draft-view.ts): nothing is asked of main.
 */
export interface ChainRequest {
  /** The executable (strata explain --app): the override layers' app_keys are matched against it; null: no application path. */
  appPath: string | null;
  requestedLayers: string[];
  /** "MAJOR.MINOR"; 1.0 when the field is empty (VkApplicationInfo's default). */
  apiVersion: string;
  /** The loader to model (strata explain --loader-version); null: the installed one. */
  loaderVersion: string | null;
}

interface ChainState {
  appPathText: string;
  requestedText: string;
  apiVersion: string;
  explained: ChainRequest;
  setRequestedText(text: string): void;
  setAppPathText(text: string): void;
  /** Shows the chain of one application (from the status strip or the Applications view). */
  explainApp(path: string): void;
  /** Adds or removes a layer in the field and commits the form. */
  toggleLayer(name: string): void;
  setApiVersion(text: string): void;
  /** Models another loader version (null: the installed loader); applies at once. */
  setLoaderVersion(version: string | null): void;
  /** Commits the form (unless the API version is malformed). */
  explain(): void;
}

export const useChain = create<ChainState>()((set, get) => {
  const commit = (requestedText: string, apiVersion: string) => {
    if (apiVersionProblem(apiVersion)) return;
    const appPath = get().appPathText.trim();
    set({
      explained: {
        appPath: appPath || null,
        requestedLayers: parseRequestedLayers(requestedText),
        apiVersion: apiVersion.trim() || '1.0',
        loaderVersion: get().explained.loaderVersion,
      },
    });
  };
  return {
    appPathText: '',
    requestedText: '',
    apiVersion: '1.3',
    explained: { appPath: null, requestedLayers: [], apiVersion: '1.3', loaderVersion: null },
    setRequestedText: (requestedText) => set({ requestedText }),
    setAppPathText: (appPathText) => set({ appPathText }),
    explainApp: (path) => {
      set({ appPathText: path });
      commit(get().requestedText, get().apiVersion);
    },
    toggleLayer: (name) => {
      const requestedText = toggleRequestedLayer(get().requestedText, name);
      set({ requestedText });
      commit(requestedText, get().apiVersion);
    },
    setApiVersion: (apiVersion) => set({ apiVersion }),
    setLoaderVersion: (loaderVersion) => set({ explained: { ...get().explained, loaderVersion } }),
    explain: () => commit(get().requestedText, get().apiVersion),
  };
});

import type { StrataApi } from '../../shared/ipc/api';

// Injected by a preload (Electron's contextBridge or the browser host's script) before the app runs.
declare global {
  interface Window {
    strata: StrataApi;
  }
}

export {};

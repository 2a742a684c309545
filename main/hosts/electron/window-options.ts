/**
 * The main window's options as data (type-only Electron import, so tests load it in plain Node).
 * The webPreferences follow the Electron security checklist; each one is asserted by a test.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

/** Painted before the first frame so the window does not flash white in a dark theme (or dark in a light one). */
export const WINDOW_BACKGROUND = { dark: '#1b1d23', light: '#f7f7f8' } as const;

export function windowOptions(options: { preloadPath: string; dark: boolean; devTools?: boolean }): BrowserWindowConstructorOptions {
  return {
    title: 'Strata',
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    backgroundColor: options.dark ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
    // Shown on 'ready-to-show' so the user never sees a half-painted page.
    show: false,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      // A file dropped on the window would otherwise navigate it away from the app.
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      // DevTools only in development (not packaged): in a release they would hand anyone at the
      // keyboard a console with window.strata, which can run any command.
      devTools: options.devTools ?? false,
    },
  };
}

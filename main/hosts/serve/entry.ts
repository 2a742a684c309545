/**
 * What the CLI's `strata serve` needs from the browser host, in one module: the CLI imports main/hosts/serve/
 * only here, and only lazily (import()), so that no other command loads the HTTP server
 * (.dependency-cruiser.cjs: main-cli-serve-entry-only).
 */
export { startBrowserHost } from './browser-host';
export { isLoopback } from './request-guard';
export { openInBrowser } from './open-browser';

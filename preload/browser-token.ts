/** What the browser page's two scripts (browser-first-request.ts, browser-preload.ts) agree on. */

/** Where the tab keeps the token (sessionStorage: this origin, this tab). */
export const TOKEN_KEY = 'strata.token';
/** The header every request carries it in (main/hosts/serve/request-guard.ts). */
export const TOKEN_HEADER = 'X-Strata-Token';

/** The window property the response to the first view's request (shared/ipc/first-view-request.ts) waits in. */
export const FIRST_REQUEST = { global: '__strataFirstRequest' } as const;

export type FirstRequestWindow = Window & { [FIRST_REQUEST.global]?: Promise<Response> };

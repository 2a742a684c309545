/** What the browser page's two scripts (browser-first-request.ts, browser-preload.ts) agree on. */
import { FIRST_VIEW_BODY, FIRST_VIEW_REQUEST } from '../shared/ipc/first-view-request';

/** Where the tab keeps the token (sessionStorage: this origin, this tab). */
export const TOKEN_KEY = 'strata.token';
/** The header every request carries it in (main/hosts/serve/request-guard.ts). */
export const TOKEN_HEADER = 'X-Strata-Token';

/** The first view's request (shared/ipc/first-view-request.ts), and the window property its response waits in. */
export const FIRST_REQUEST = { channel: FIRST_VIEW_REQUEST.channel, body: FIRST_VIEW_BODY, global: '__strataFirstRequest' } as const;

export type FirstRequestWindow = Window & { [FIRST_REQUEST.global]?: Promise<Response> };

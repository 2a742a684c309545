/**
 * The browser page's first request, sent by a script of its own that the page runs before anything
 * else (main/hosts/serve/browser-host.ts places it first; it imports nothing, so it is a few hundred
 * bytes): `discovery.manifests`, what the first view (Layers) waits for, so the server's discovery
 * overlaps the page's start-up (issue #19: first render). The browser preload (browser-preload.ts)
 * takes the response as its answer to the renderer's first call for that channel, and reads, checks
 * and reports it as it does every answer.
 *
 * Only with a token already at hand (`#token=` in the fragment, or the tab's sessionStorage); with a
 * one-time `#code=` nothing is sent here (the preload trades the code, then asks). The fragment is left
 * for the preload, which keeps the token and clears the address bar.
 */
import { FIRST_VIEW_BODY, FIRST_VIEW_REQUEST } from '../shared/ipc/first-view-request';
import { FIRST_REQUEST, TOKEN_HEADER, TOKEN_KEY, type FirstRequestWindow } from './browser-token';

const params = new URLSearchParams(location.hash.slice(1));
let token = params.get('token');
if (token === null && params.get('code') === null) {
  try {
    token = sessionStorage.getItem(TOKEN_KEY);
  } catch {
    token = null;
  }
}
if (token) {
  const response = fetch(`./api/${encodeURIComponent(FIRST_VIEW_REQUEST.channel)}`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: token },
    body: FIRST_VIEW_BODY,
  });
  // A failure is the preload's to report when it takes the response; until then it is not an unhandled rejection.
  response.catch(() => undefined);
  (window as FirstRequestWindow)[FIRST_REQUEST.global] = response;
}

/**
 * The request the first view (Layers) opens with: `discovery.manifests` taking the answer a
 * watching host keeps (`fresh: false`, shared/loader/search-paths.ts), which `strata serve` has
 * ready from its warm-up (issue #19: first render). The browser page sends it ahead, before its
 * modules load (preload/browser-first-request.ts), and the preload hands that response to the
 * renderer's identical first call. Imports nothing: the page's first script is a few hundred bytes.
 */
export const FIRST_VIEW_REQUEST = { channel: 'discovery.manifests', request: { fresh: false } } as const;

/** The request's body as both sides compare it. */
export const FIRST_VIEW_BODY = JSON.stringify(FIRST_VIEW_REQUEST.request);

/**
 * The `strata://app/...` protocol: the renderer's files from out/renderer, each response carrying the
 * same security headers (CSP included) as the browser host. Written against the Fetch API's
 * Request/Response, which Node and Electron's protocol.handle share, so it is tested in plain Node.
 */
import type { CustomScheme } from 'electron';
import { readStatic } from '../serve/static-files';
import { SECURITY_HEADERS } from '../serve/content-security-policy';
import { APP_HOST, APP_SCHEME } from './app-origin';

/**
 * standard: real origin and relative-URL resolution; secure: counts as a secure context (like https);
 * supportFetchAPI: the renderer may fetch() its own assets. No bypassCSP, no corsEnabled: nothing
 * else may load from it.
 */
export const APP_SCHEME_DEFINITION: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra } });
}

/** Answers one request for the app's own files; anything off-host, off-method or outside `root` is refused. */
export async function serveAppRequest(root: string, request: { url: string; method: string }): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return plain(400, 'Bad request');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST || url.port !== '' || url.username !== '') {
    return plain(404, 'Not found');
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed', { Allow: 'GET, HEAD' });
  const path = url.pathname === '' || url.pathname === '/' ? '/index.html' : url.pathname;
  // readStatic's resolveInside is the path-traversal guard (`..`, encoded slashes, NUL).
  const file = await readStatic(root, path);
  if (!file) return plain(404, 'Not found');
  const headers = { ...SECURITY_HEADERS, 'Content-Type': file.type, 'Content-Length': String(file.body.byteLength) };
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), { status: 200, headers });
}

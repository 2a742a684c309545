import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * The browser host's gate, decided before any body is read or any handler runs, so a refused
 * request has no side effect (docs/security.md, "The browser host's token"). Order: Host (DNS rebinding), Origin
 * (cross-site requests), then the token.
 */
export interface GuardPolicy {
  token: string;
  port: number;
  /** Host header values (host:port) that address this server. Null accepts any (wildcard binds). */
  allowedHosts: ReadonlySet<string> | null;
}

export interface GuardRequest {
  method: string;
  url: URL;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export type GuardVerdict = { ok: true; tokenFrom: 'header' | 'none' } | { ok: false; status: 401 | 403; code: string; message: string };

/** The header the browser preload sends the token in (`Authorization: Bearer …` works too, for scripts). */
export const TOKEN_HEADER = 'x-strata-token';
/** Where the page trades a one-time code (from `strata serve --open`) for the token. */
export const CODE_PATH = '/auth/code';

/**
 * What needs no token: the renderer's static files (public build output, no secret in them) and the
 * one-time-code exchange (the code is its own credential). The token never travels in a cookie
 * (cookies are not scoped by port, so every other server on 127.0.0.1 would receive it) or in the
 * query string (history, logs); only in a header the page's own script adds (docs/security.md).
 */
export function isPublicRequest(method: string, pathname: string): boolean {
  if (pathname === CODE_PATH) return method === 'POST';
  return (method === 'GET' || method === 'HEAD') && !pathname.startsWith('/api/');
}

function header(req: GuardRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hostHeaderFor(address: string, port: number): string {
  return isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\./.test(address);
}

export function guardRequest(req: GuardRequest, policy: GuardPolicy): GuardVerdict {
  const host = header(req, 'host');
  if (policy.allowedHosts && (!host || !policy.allowedHosts.has(host.toLowerCase()))) {
    return { ok: false, status: 403, code: 'serve/bad-host', message: `Host "${host ?? ''}" does not address this Strata server` };
  }
  const origin = header(req, 'origin');
  if (origin !== undefined) {
    let originHost: string | null;
    try {
      const o = new URL(origin);
      originHost = o.protocol === 'http:' ? o.host.toLowerCase() : null;
    } catch {
      originHost = null;
    }
    const sameOrigin = originHost !== null && (policy.allowedHosts ? policy.allowedHosts.has(originHost) : originHost === host?.toLowerCase());
    if (!sameOrigin) return { ok: false, status: 403, code: 'serve/foreign-origin', message: `Requests from origin "${origin}" are not allowed` };
  }
  // A top-level navigation to the page from anywhere (a link, the --open launch file on file://) is
  // fine: the page is public and a GET of it changes nothing. Everything else cross-site is refused.
  const topLevelPage =
    header(req, 'sec-fetch-mode') === 'navigate' && header(req, 'sec-fetch-dest') === 'document' && isPublicRequest(req.method, req.url.pathname);
  if (header(req, 'sec-fetch-site') === 'cross-site' && !topLevelPage) {
    return { ok: false, status: 403, code: 'serve/foreign-origin', message: 'Cross-site requests are not allowed' };
  }
  const bearer = header(req, 'authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (tokenMatches(header(req, TOKEN_HEADER) ?? bearer, policy.token)) return { ok: true, tokenFrom: 'header' };
  if (isPublicRequest(req.method, req.url.pathname)) return { ok: true, tokenFrom: 'none' };
  return {
    ok: false,
    status: 401,
    code: 'serve/bad-token',
    message:
      'Missing or wrong token: open the URL that `strata serve` printed in a new tab (a one-time #code= link opens once: press Enter in its terminal for another)',
  };
}

import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * The browser host's gate, decided before any body is read or any handler runs, so a refused
 * request has no side effect (DESIGN.md, "Browser host"). Order: Host (DNS rebinding), Origin
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

export type GuardVerdict =
  | { ok: true; tokenFrom: 'query' | 'cookie' | 'header' }
  | { ok: false; status: 401 | 403; code: string; message: string };

export function cookieName(port: number): string {
  // Cookies ignore ports: one name per port keeps two Strata servers on one machine apart.
  return `strata_token_${port}`;
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

function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
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
    let originHost: string | null = null;
    try {
      const o = new URL(origin);
      originHost = o.protocol === 'http:' ? o.host.toLowerCase() : null;
    } catch {
      originHost = null;
    }
    const sameOrigin = originHost !== null && (policy.allowedHosts ? policy.allowedHosts.has(originHost) : originHost === host?.toLowerCase());
    if (!sameOrigin) return { ok: false, status: 403, code: 'serve/foreign-origin', message: `Requests from origin "${origin}" are not allowed` };
  }
  if (header(req, 'sec-fetch-site') === 'cross-site') {
    return { ok: false, status: 403, code: 'serve/foreign-origin', message: 'Cross-site requests are not allowed' };
  }
  const bearer = header(req, 'authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (tokenMatches(req.url.searchParams.get('token') ?? undefined, policy.token)) return { ok: true, tokenFrom: 'query' };
  if (tokenMatches(cookieValue(header(req, 'cookie'), cookieName(policy.port)), policy.token)) return { ok: true, tokenFrom: 'cookie' };
  if (tokenMatches(header(req, 'x-strata-token') ?? bearer, policy.token)) return { ok: true, tokenFrom: 'header' };
  return {
    ok: false,
    status: 401,
    code: 'serve/bad-token',
    message: 'Missing or wrong token: open the URL that `strata serve` printed (it ends in ?token=…)',
  };
}

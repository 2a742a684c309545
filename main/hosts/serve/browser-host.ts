import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { networkInterfaces, hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Router } from '../../router/router';
import type { EventBus } from '../../platform/event-bus';
import type { IpcResult } from '../../../shared/ipc/result';
import { strataError } from '../../../shared/errors/strata-error';
import { FIRST_VIEW_REQUEST } from '../../../shared/ipc/first-view-request';
import { CODE_PATH, guardRequest, hostHeaderFor, isLoopback, type GuardPolicy } from './request-guard';
import { OneTimeCodes } from './one-time-codes';
import { isHashedAsset, StaticFileCache } from './static-files';
import { SECURITY_HEADERS } from './content-security-policy';

export interface BrowserHostOptions {
  router: Router;
  bus: EventBus;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** The browser-side window.strata implementation (out/preload/browser.js). */
  browserPreloadFile: string;
  /** The page's first script, which sends the first view's request (out/preload/browser-first-request.js); none: the preload sends it. */
  firstRequestFile?: string;
  host?: string;
  port?: number;
  /** Fixed token for tests; a random one otherwise. */
  token?: string;
  /** Called for each event-stream client (a page); the returned function when it leaves (AppContext.attachUiClient). */
  attachClient?: () => () => void;
}

export interface RunningBrowserHost {
  url: string;
  port: number;
  host: string;
  token: string;
  /**
   * A URL for this server carrying a one-time code (not the token) in its fragment, for
   * `strata serve --open`; `onRedeem` runs when the page has traded it. Valid once, for 5 minutes.
   */
  oneTimeUrl(onRedeem?: () => void, ttlMs?: number): string;
  /**
   * Asks the first view's request (shared/ipc/first-view-request.ts) now and keeps its answer's body
   * encoded, so that a page's first request is answered without writing 1.8 MB of JSON (1,000
   * manifests): call it once the answer is kept (AppContext.warmUp). A failure is not kept: the page's
   * own request meets it again.
   */
  prepareFirstView(): Promise<void>;
  close(): Promise<void>;
}

// shader.inspectBytes carries a file as base64: up to 16 MiB decoded is about 21.4 MiB of JSON.
const MAX_BODY_BYTES = 24 << 20;
const API_PREFIX = '/api/';
/** A body over the limit is drained (so the client reads the 413 instead of a reset) up to this much, then the socket is cut. */
const MAX_DRAIN_BYTES = 256 << 20;
const CODE_TTL_MS = 5 * 60_000;

/** The Host header values that mean "this server": loopback names, or every local address for a wildcard bind. */
function allowedHosts(bind: string, port: number): Set<string> {
  const names = new Set<string>([bind]);
  if (isLoopback(bind)) ['127.0.0.1', 'localhost', '::1'].forEach((n) => names.add(n));
  if (bind === '0.0.0.0' || bind === '::') {
    names.add('localhost').add(hostname());
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(a.address);
  }
  return new Set([...names].map((n) => hostHeaderFor(n, port).toLowerCase()));
}

/**
 * What the browser may do with a chunk named by its content (isHashedAsset): keep it for good, so a
 * second tab, or the page opened again, does not ask for it, and the browser may keep its compiled
 * code (issue #19). Everything else (the page, the preload, the API) stays no-store.
 */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function send(res: ServerResponse, status: number, body: string | Buffer, type: string, extra: Record<string, string> = {}) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown) {
  send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

/**
 * The body of each answer, kept while its value lives: the router hands out the same checked copy of
 * a kept discovery again (main/router/router.ts), 1.8 MB of JSON for 1,000 manifests. Kept encoded: a
 * string body is measured and encoded again at every send (~25 ms of each request for that answer,
 * while the server's one thread holds back the page's scripts, issue #19: first render).
 */
const answerBody = new WeakMap<object, Buffer>();

function bodyOf(value: object): Buffer {
  let body = answerBody.get(value);
  if (body === undefined) answerBody.set(value, (body = Buffer.from(`{"ok":true,"value":${JSON.stringify(value)}}`)));
  return body;
}

function sendResult(res: ServerResponse, result: IpcResult<unknown>) {
  if (!result.ok || typeof result.value !== 'object' || result.value === null) return sendJson(res, statusFor(result), result);
  send(res, 200, bodyOf(result.value), 'application/json; charset=utf-8');
}

function statusFor(result: IpcResult<unknown>): number {
  if (result.ok) return 200;
  switch (result.error.code) {
    case 'ipc/unknown-channel':
      return 404;
    case 'ipc/invalid-request':
      return 400;
    case 'internal':
    case 'ipc/invalid-response':
      return 500;
    default:
      return 200;
  }
}

/**
 * The body, or 'too-large' once it passes MAX_BODY_BYTES. From then on nothing more is kept: the
 * caller answers 413 at once and the rest is read and dropped, so the client sees the answer rather
 * than a connection reset (a socket destroyed mid-upload).
 */
function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (over) {
        if (size > MAX_DRAIN_BYTES) req.socket.destroy();
        return;
      }
      if (size > MAX_BODY_BYTES) {
        over = true;
        chunks.length = 0;
        resolve('too-large');
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The renderer's index.html with the browser preload placed before any of its scripts. `defer`: the
 * page goes on parsing (and fetching the renderer's modules) while the preload downloads, and it still
 * runs before them, since deferred and module scripts run in document order once parsing is done
 * (HTML § 4.12.1.1); a plain script here held every module back until it had run (issue #19). Before
 * it, when there is one, the first-request script (a few hundred bytes, run at once): it sends the
 * first view's request before the preload and the renderer have loaded.
 */
function injectPreload(html: string, firstRequest: boolean): string {
  const tag = `${firstRequest ? '<script src="./strata-first-request.js"></script>' : ''}<script defer src="./strata-preload.js"></script>`;
  const at = html.indexOf('<script');
  return at >= 0 ? html.slice(0, at) + tag + html.slice(at) : html.replace('</head>', `${tag}</head>`);
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<RunningBrowserHost> {
  const bind = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const sse = new Set<ServerResponse>();
  let policy: GuardPolicy | null = null;
  const codes = new OneTimeCodes(CODE_TTL_MS);
  const files = new StaticFileCache(options.rendererDir);

  const handleApi = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    let channel: string;
    try {
      channel = decodeURIComponent(url.pathname.slice(API_PREFIX.length));
    } catch {
      sendJson(res, 400, {
        ok: false,
        error: strataError('serve/bad-channel', `Bad percent-encoding in the channel name "${url.pathname}"`, { where: url.pathname }),
      });
      return;
    }
    // The token arrives in a header, so the page reads this stream with fetch (EventSource cannot send headers).
    if (channel === 'events' && req.method === 'GET') {
      res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
      res.write('retry: 2000\n: connected\n\n');
      sse.add(res);
      const detach = options.attachClient?.();
      req.on('close', () => {
        sse.delete(res);
        detach?.();
      });
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { ok: false, error: strataError('serve/method', `Use POST for ${url.pathname}`, { where: url.pathname }) });
      return;
    }
    const body = await jsonBody(req, res, url);
    if (!body) return;
    let payload: unknown;
    try {
      payload = body.length ? JSON.parse(body.toString('utf8')) : {};
    } catch (e) {
      sendJson(res, 400, { ok: false, error: strataError('serve/bad-json', `Request body is not JSON: ${(e as Error).message}`, { where: url.pathname }) });
      return;
    }
    sendResult(res, await options.router.call(channel, payload, { host: 'browser' }));
  };

  /**
   * The body of a POST that must be JSON, or null once the refusal is sent: a JSON content type
   * cannot be sent cross-site without a CORS preflight, which we never grant (415 otherwise), and a
   * body over MAX_BODY_BYTES is not read to its end (413).
   */
  const jsonBody = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<Buffer | null> => {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      sendJson(res, 415, { ok: false, error: strataError('serve/content-type', 'Send the request body as application/json', { where: url.pathname }) });
      return null;
    }
    const body = await readBody(req);
    if (body !== 'too-large') return body;
    res.setHeader('Connection', 'close');
    sendJson(res, 413, { ok: false, error: strataError('serve/too-large', `Request body over ${MAX_BODY_BYTES} bytes`, { where: url.pathname }) });
    return null;
  };

  /** POST /auth/code {"code": …} → {"token": …}, once per code (strata serve --open). */
  const handleCode = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const body = await jsonBody(req, res, url);
    if (!body) return;
    let code: unknown;
    try {
      code = (JSON.parse(body.toString('utf8')) as { code?: unknown } | null)?.code;
    } catch {
      code = undefined;
    }
    if (!codes.redeem(code)) {
      sendJson(res, 401, {
        ok: false,
        error: strataError('serve/bad-code', 'This one-time link was already used or has expired', {
          where: url.pathname,
          fix: 'open the URL that `strata serve` printed (a one-time #code= link opens once: press Enter in its terminal for another)',
        }),
      });
      return;
    }
    sendJson(res, 200, { ok: true, value: { token } });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const verdict = guardRequest({ method: req.method ?? 'GET', url, headers: req.headers }, policy!);
    if (!verdict.ok) {
      sendJson(res, verdict.status, { ok: false, error: strataError(verdict.code, verdict.message) });
      return;
    }
    if (url.pathname === CODE_PATH) return handleCode(req, res, url);
    if (url.pathname.startsWith(API_PREFIX)) return handleApi(req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8');
      return;
    }
    const own =
      url.pathname === '/strata-preload.js' ? options.browserPreloadFile : url.pathname === '/strata-first-request.js' ? options.firstRequestFile : undefined;
    if (own !== undefined) {
      const script = files.readFile(own);
      if (!script) throw new Error(`${own} is missing: build Strata again (npm run build)`);
      send(res, 200, script.body, 'text/javascript; charset=utf-8');
      return;
    }
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = files.read(path);
    if (!file) {
      send(res, 404, `Not found: ${url.pathname}`, 'text/plain; charset=utf-8');
      return;
    }
    if (path === '/index.html') {
      send(res, 200, injectPreload(file.body.toString('utf8'), options.firstRequestFile !== undefined), file.type);
      return;
    }
    send(res, 200, file.body, file.type, isHashedAsset(path) ? { 'Cache-Control': IMMUTABLE } : {});
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: strataError('internal', e instanceof Error ? e.message : String(e)) });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bind, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  policy = { token, port, allowedHosts: allowedHosts(bind, port) };

  const unsubscribe = options.bus.subscribe((event) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const res of sse) res.write(frame);
  });
  const heartbeat = setInterval(() => {
    for (const res of sse) res.write(': keep-alive\n\n');
  }, 15_000);
  heartbeat.unref();

  const shownHost = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind;
  return {
    // The fragment never leaves the browser (not in requests, logs or Referer); the preload moves it to sessionStorage.
    url: `http://${hostHeaderFor(shownHost, port)}/#token=${token}`,
    oneTimeUrl: (onRedeem, ttlMs) => `http://${hostHeaderFor(shownHost, port)}/#code=${codes.mint(onRedeem, ttlMs)}`,
    port,
    host: bind,
    token,
    prepareFirstView: async () => {
      const result = await options.router.call(FIRST_VIEW_REQUEST.channel, FIRST_VIEW_REQUEST.request, { host: 'browser' });
      if (result.ok && typeof result.value === 'object' && result.value !== null) bodyOf(result.value);
    },
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        clearInterval(heartbeat);
        codes.clear();
        for (const res of sse) res.end();
        sse.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

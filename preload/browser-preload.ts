/**
 * The browser host's stand-in for the Electron preload: the same window.strata, over
 * POST /api/<channel> and the server-sent-events stream at /api/events.
 *
 * The token arrives in the URL's fragment (`#token=…`, never sent to any server) or, from
 * `strata serve --open`, as a one-time code (`#code=…`) traded once at /auth/code. It is kept in
 * sessionStorage (this origin, this tab: no other port's page can read it), the fragment is dropped
 * from the address bar, and every request carries it in a header. No cookie: cookies are not
 * scoped by port, so every other server on 127.0.0.1 would receive one (docs/security.md).
 */
import { createStrataApi, type StrataApi } from '../shared/ipc/api';
import type { IpcResult } from '../shared/ipc/result';
import { strataError } from '../shared/errors/strata-error';
import { FIRST_VIEW_BODY, FIRST_VIEW_REQUEST } from '../shared/ipc/first-view-request';
import { FIRST_REQUEST, TOKEN_HEADER, TOKEN_KEY, type FirstRequestWindow } from './browser-token';

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function keepToken(token: string) {
  try {
    sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage disabled: the token lives in this page only (a reload asks for the URL again).
  }
  memoryToken = token;
}

let memoryToken: string | null = storedToken();

/**
 * zod, configured for the page (shared/validation/zod-config.ts), before the first schema the preload
 * builds: IpcResultSchema for an answer that is not a plain success, and the events' schemas, which
 * createStrataApi loads with the first event (the event stream below is read only once this is done).
 * Not as the preload loads: zod's core set up there was ~40 ms of every first view (issue #19).
 */
const zodConfigured = () => import('../shared/validation/zod-config');

/** Reads #token= or #code= once, then removes the fragment from the address bar and this history entry. */
async function takeFragment(): Promise<void> {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token');
  const code = params.get('code');
  if (token === null && code === null) return;
  history.replaceState(history.state, '', location.pathname + location.search);
  if (token) {
    keepToken(token);
    return;
  }
  const response = await fetch('./auth/code', {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  }).catch(() => null);
  const body = (await response?.json().catch(() => null)) as { ok?: boolean; value?: { token?: unknown } } | null;
  if (body?.ok && typeof body.value?.token === 'string') keepToken(body.value.token);
}

const ready = takeFragment();

function authHeaders(): Record<string, string> {
  return memoryToken ? { [TOKEN_HEADER]: memoryToken } : {};
}

async function invoke(channel: string, request: unknown): Promise<IpcResult<unknown>> {
  await ready;
  const response = await fetch(`./api/${encodeURIComponent(channel)}`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json', ...authHeaders() },
    body: JSON.stringify(request ?? {}),
  });
  return resultOf(channel, response);
}

/** A channel's answer from its HTTP response: the IpcResult it carries, checked, or an error saying what the server answered. */
async function resultOf(channel: string, response: Response): Promise<IpcResult<unknown>> {
  const body: unknown = await response.json().catch(() => null);
  // IpcResultSchema's success asks `ok: true` and a `value` key, whatever its value (z.unknown): that
  // is checked here, so the first view's answer does not wait for zod. Anything else goes through the schema.
  if (typeof body === 'object' && body !== null && 'ok' in body && body.ok === true && 'value' in body) return { ok: true, value: body.value };
  await zodConfigured();
  const { IpcResultSchema } = await import('../shared/ipc/result');
  const parsed = IpcResultSchema.safeParse(body);
  if (parsed.success) return parsed.data as IpcResult<unknown>;
  return {
    ok: false,
    error: strataError('serve/http', `The Strata server answered HTTP ${response.status}`, {
      where: channel,
      fix:
        response.status === 401
          ? 'open a new link from `strata serve` (press Enter in its terminal; a printed link opens once, and a restarted server needs a new one)'
          : 'check the terminal running `strata serve`',
    }),
  };
}

/**
 * The first view's data, asked for before the renderer's modules have loaded (issue #19: first
 * render): the Layers view shows discovery's answer and little before it, and the server's answer
 * (kept from its warm-up, or a discovery that overlaps the page's start-up) is on its way before the
 * page's modules are. Sent by browser-first-request.ts, the page's first script, when it had the
 * token; else here, as this script runs. The renderer's first `discovery.manifests` call (the same
 * request, shared/ipc/first-view-request.ts; renderer/src/main.tsx makes it before its first render)
 * takes this answer; it is handed out once, so every later call (Refresh, a change on disk) asks the
 * server again.
 */
const EARLY_CHANNEL = FIRST_VIEW_REQUEST.channel;
const sent = (window as FirstRequestWindow)[FIRST_REQUEST.global];
delete (window as FirstRequestWindow)[FIRST_REQUEST.global];
let early: Promise<IpcResult<unknown>> | null = sent
  ? sent.then(
      (response) => resultOf(EARLY_CHANNEL, response),
      () => invoke(EARLY_CHANNEL, FIRST_VIEW_REQUEST.request),
    )
  : invoke(EARLY_CHANNEL, FIRST_VIEW_REQUEST.request);
// (A failure is the caller's to see when it takes the answer; until then it is not an unhandled rejection.)
early.catch(() => undefined);
// Nobody asked (another first view, or no renderer): dropped, so no answer older than this is ever handed out.
setTimeout(() => (early = null), 30_000);

function invokeOrEarly(channel: string, request: unknown): Promise<IpcResult<unknown>> {
  const answer = early;
  if (answer && channel === EARLY_CHANNEL && JSON.stringify(request ?? {}) === FIRST_VIEW_BODY) {
    early = null;
    return answer;
  }
  return invoke(channel, request);
}

/** One server-sent-events frame's data lines, joined (https://html.spec.whatwg.org/#event-stream-interpretation). */
function frameData(frame: string): string | null {
  const data = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line[5] === ' ' ? 6 : 5));
  return data.length ? data.join('\n') : null;
}

const RETRY_MS = 2000;

(window as unknown as { strata: StrataApi }).strata = createStrataApi({
  invoke: invokeOrEarly,
  /**
   * The event stream, read with fetch so the token goes in a header (EventSource cannot send one);
   * it reconnects after RETRY_MS as EventSource would.
   */
  subscribe(listener) {
    let stopped = false;
    let abort: AbortController | null = null;
    const deliver = (frame: string) => {
      const data = frameData(frame);
      if (data === null) return;
      try {
        const { name, payload } = JSON.parse(data) as { name: unknown; payload: unknown };
        listener(name, payload);
      } catch {
        // A malformed frame is dropped; createStrataApi validates the rest against the contract.
      }
    };
    const run = async () => {
      await Promise.all([ready, zodConfigured()]);
      while (!stopped) {
        abort = new AbortController();
        try {
          const response = await fetch('./api/events', { credentials: 'omit', cache: 'no-store', headers: authHeaders(), signal: abort.signal });
          if (response.ok && response.body) {
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = '';
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              buffer += value.replace(/\r\n?/g, '\n');
              let end: number;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                deliver(buffer.slice(0, end));
                buffer = buffer.slice(end + 2);
              }
            }
          }
        } catch {
          // Server gone or stream aborted: retry below unless unsubscribed.
        }
        if (!stopped) await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    };
    void run();
    return () => {
      stopped = true;
      abort?.abort();
    };
  },
});

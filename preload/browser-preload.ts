/**
 * The browser host's stand-in for the Electron preload: the same window.strata, over
 * POST /api/<channel> and the server-sent-events stream at /api/events. The token travels as the
 * HttpOnly cookie the server set on first visit, so no script here ever sees it.
 */
import '../shared/validation/zod-config';
import { createStrataApi, type StrataApi } from '../shared/ipc/api';
import { IpcResultSchema, type IpcResult } from '../shared/ipc/result';
import { strataError } from '../shared/errors/strata-error';

async function invoke(channel: string, request: unknown): Promise<IpcResult<unknown>> {
  const response = await fetch(`./api/${encodeURIComponent(channel)}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request ?? {}),
  });
  const body: unknown = await response.json().catch(() => null);
  const parsed = IpcResultSchema.safeParse(body);
  if (parsed.success) return parsed.data as IpcResult<unknown>;
  return {
    ok: false,
    error: strataError('serve/http', `The Strata server answered HTTP ${response.status}`, {
      where: channel,
      fix: response.status === 401 ? 'open the URL that `strata serve` printed again (the server was restarted)' : 'check the terminal running `strata serve`',
    }),
  };
}

(window as unknown as { strata: StrataApi }).strata = createStrataApi({
  invoke,
  subscribe(listener) {
    const source = new EventSource('./api/events');
    source.onmessage = (message) => {
      try {
        const { name, payload } = JSON.parse(message.data as string) as { name: unknown; payload: unknown };
        listener(name, payload);
      } catch {
        // A malformed frame is dropped; createStrataApi validates the rest against the contract.
      }
    };
    return () => source.close();
  },
});

/**
 * The two Electron IPC channels that carry the whole contract: one invoke channel into the router
 * (sender checked first), one event channel out to the window. Electron objects are parameters with
 * structural types, so tests drive this with fakes; Electron's own ipcMain and webContents fit them.
 */
import type { Router } from '../../router/router';
import type { EventBus } from '../../platform/event-bus';
import type { IpcResult } from '../../../shared/ipc/result';
import { strataError } from '../../../shared/errors/strata-error';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../../shared/ipc/electron-channels';
import { isAppUrl } from './app-origin';

/** The part of IpcMainInvokeEvent we read. senderFrame is null once the frame navigated or died. */
export interface InvokeEventLike {
  readonly senderFrame: { readonly url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface WebContentsLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/**
 * Only our own pages may call into main (Electron security checklist, "Validate the sender of all
 * IPC messages"): anything that is not `strata://app/...` — file:, http:, data:, about:blank,
 * lookalike hosts — is refused, whatever frame it sits in.
 */
export function isTrustedSenderUrl(url: string): boolean {
  return isAppUrl(url);
}

/** Registers the invoke handler; returns the function that removes it. */
export function registerIpc(ipcMain: IpcMainLike, router: Pick<Router, 'call'>): () => void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel, payload): Promise<IpcResult<unknown>> => {
    const url = event.senderFrame?.url ?? '';
    if (!isTrustedSenderUrl(url)) {
      return {
        ok: false,
        error: strataError('ipc/untrusted-sender', `IPC from a frame outside the app was refused (${url || 'unknown frame'})`, {
          where: typeof channel === 'string' ? channel : INVOKE_CHANNEL,
        }),
      };
    }
    if (typeof channel !== 'string') {
      return { ok: false, error: strataError('ipc/invalid-request', 'The channel name must be a string', { where: INVOKE_CHANNEL }) };
    }
    return router.call(channel, payload, { host: 'electron' });
  });
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/** Sends every bus event to one window until the returned function is called (on the window's 'closed'). */
export function forwardEvents(bus: Pick<EventBus, 'subscribe'>, webContents: WebContentsLike): () => void {
  const unsubscribe = bus.subscribe((event) => {
    // A destroyed webContents throws on send; the 'closed' handler unsubscribes, this covers the gap.
    if (!webContents.isDestroyed()) webContents.send(EVENT_CHANNEL, event.name, event.payload);
  });
  return () => {
    unsubscribe();
  };
}

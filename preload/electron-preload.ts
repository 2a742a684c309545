/**
 * Electron preload (sandboxed, context-isolated): exposes window.strata and nothing else — never
 * ipcRenderer itself (Electron security checklist, "Do not expose Electron APIs to untrusted content").
 */
import '../shared/validation/zod-config';
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createStrataApi, type StrataApi } from '../shared/ipc/api';
import { StrataRequestError } from '../shared/errors/strata-error';
import type { IpcResult } from '../shared/ipc/result';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc/electron-channels';

const api = createStrataApi({
  invoke: (channel, request) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, request) as Promise<IpcResult<unknown>>,
  subscribe(listener) {
    const handler = (_event: IpcRendererEvent, name: unknown, payload: unknown) => listener(name, payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});

/**
 * contextBridge copies a thrown Error's message only; a plain object keeps its fields. Rejecting with
 * `{ name, message, error }` lets the error value (code, where, fix) reach the renderer intact.
 */
const call: StrataApi['call'] = (channel, request) =>
  api.call(channel, request).catch((e: unknown) => {
    throw e instanceof StrataRequestError ? { name: e.name, message: e.message, error: e.error } : e;
  });

contextBridge.exposeInMainWorld('strata', { call, on: api.on } satisfies StrataApi);

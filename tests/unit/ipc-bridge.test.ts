import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countingHandlers } from '../helpers/counting-handlers';
import type { AppInfo } from '../../shared/app/app-info';
import { EventBus } from '../../main/platform/event-bus';
import { forwardEvents, isTrustedSenderUrl, registerIpc, type InvokeEventLike, type IpcMainLike } from '../../main/hosts/electron/ipc-bridge';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../shared/ipc/electron-channels';
import type { IpcResult } from '../../shared/ipc/result';

for (const url of ['strata://app/index.html', 'strata://app/', 'strata://app/assets/index-abc123.js', 'strata://app/index.html#/layers?x=1']) {
  test(`trusted sender: ${url}`, () => assert.equal(isTrustedSenderUrl(url), true));
}

for (const url of [
  '',
  'about:blank',
  'file:///opt/strata/out/renderer/index.html',
  'http://127.0.0.1:5173/index.html',
  'https://app/index.html',
  'data:text/html,<script>strata.invoke()</script>',
  'javascript:alert(1)',
  'devtools://devtools/bundled/inspector.html',
  'strata://app.evil/index.html',
  'strata://evil/index.html',
  'strata://evil.app/index.html',
  'strata://app@evil/index.html',
  'strata://evil@app/index.html',
  'strata://app:8080/index.html',
  'strata:app/index.html',
  'strata:///app/index.html',
  'strata-app://app/index.html',
  'xstrata://app/index.html',
  'not a url',
]) {
  test(`untrusted sender: ${JSON.stringify(url)}`, () => assert.equal(isTrustedSenderUrl(url), false));
}

/** A real router whose handlers count their calls. */
const countingRouter = () => {
  const { router, calls } = countingHandlers();
  return { router, calls };
};

type Listener = Parameters<IpcMainLike['handle']>[1];

/** Captures what registerIpc registers, like Electron's ipcMain would. */
function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      assert.ok(!handlers.has(channel), `second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => handlers.delete(channel),
  };
  const invoke = async (frameUrl: string | null, ...args: unknown[]) => {
    const listener = handlers.get(INVOKE_CHANNEL);
    assert.ok(listener, 'no handler registered for the invoke channel');
    const event: InvokeEventLike = { senderFrame: frameUrl === null ? null : { url: frameUrl } };
    return (await listener(event, ...args)) as IpcResult<unknown>;
  };
  return { ipcMain, handlers, invoke };
}

test('registers exactly the invoke channel, and removes it again', () => {
  const { ipcMain, handlers } = fakeIpcMain();
  const dispose = registerIpc(ipcMain, countingRouter().router);
  assert.deepEqual([...handlers.keys()], [INVOKE_CHANNEL]);
  dispose();
  assert.equal(handlers.size, 0);
});

for (const frameUrl of ['file:///etc/passwd', 'https://example.com/', 'strata://app.evil/index.html', 'about:blank', null]) {
  test(`untrusted sender ${String(frameUrl)}: ipc/untrusted-sender, router not called`, async () => {
    const { router, calls } = countingRouter();
    const { ipcMain, invoke } = fakeIpcMain();
    registerIpc(ipcMain, router);
    const result = await invoke(frameUrl, 'app.info', {});
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.error.code, 'ipc/untrusted-sender');
    assert.deepEqual(calls, []);
  });
}

test('a trusted sender reaches the router, which sees host "electron"', async () => {
  const { router, calls } = countingRouter();
  const { ipcMain, invoke } = fakeIpcMain();
  registerIpc(ipcMain, router);
  const result = await invoke('strata://app/index.html', 'app.info', {});
  assert.equal(result.ok, true);
  assert.equal(result.ok && (result.value as AppInfo).host, 'electron');
  assert.equal(result.ok && (result.value as AppInfo).version, '9.9.9');
  assert.deepEqual(calls, ['app.info']);
});

test("a trusted sender still gets the router's validation (unknown channel, bad payload)", async () => {
  const { router, calls } = countingRouter();
  const { ipcMain, invoke } = fakeIpcMain();
  registerIpc(ipcMain, router);
  const unknown = await invoke('strata://app/index.html', 'app.delete', {});
  assert.equal(!unknown.ok && unknown.error.code, 'ipc/unknown-channel');
  const invalid = await invoke('strata://app/index.html', 'env.summary', { extra: 1 });
  assert.equal(!invalid.ok && invalid.error.code, 'ipc/invalid-request');
  assert.deepEqual(calls, []);
});

test('a non-string channel name is an error value, not a thrown exception', async () => {
  const { router, calls } = countingRouter();
  const { ipcMain, invoke } = fakeIpcMain();
  registerIpc(ipcMain, router);
  const result = await invoke('strata://app/index.html', { toString: () => 'app.info' }, {});
  assert.equal(!result.ok && result.error.code, 'ipc/invalid-request');
  assert.deepEqual(calls, []);
});

function fakeWebContents() {
  const sent: unknown[][] = [];
  let destroyed = false;
  return {
    sent,
    destroy: () => {
      destroyed = true;
    },
    contents: { send: (channel: string, ...args: unknown[]) => sent.push([channel, ...args]), isDestroyed: () => destroyed },
  };
}

test('bus events reach the window on the event channel as (name, payload)', () => {
  const bus = new EventBus();
  const wc = fakeWebContents();
  forwardEvents(bus, wc.contents);
  bus.emit('ui.navigate', { panel: 'about' });
  bus.emit('host.notice', { level: 'warning', message: 'probe restarted' });
  assert.deepEqual(wc.sent, [
    [EVENT_CHANNEL, 'ui.navigate', { panel: 'about' }],
    [EVENT_CHANNEL, 'host.notice', { level: 'warning', message: 'probe restarted' }],
  ]);
});

test('forwarding stops when disposed, and never sends to a destroyed window', () => {
  const bus = new EventBus();
  const a = fakeWebContents();
  const b = fakeWebContents();
  const stopA = forwardEvents(bus, a.contents);
  forwardEvents(bus, b.contents);
  b.destroy();
  bus.emit('ui.navigate', { panel: 'layers' });
  assert.equal(a.sent.length, 1);
  assert.equal(b.sent.length, 0);
  stopA();
  assert.equal(bus.size, 1);
  bus.emit('ui.navigate', { panel: 'about' });
  assert.equal(a.sent.length, 1);
});

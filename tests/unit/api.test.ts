import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStrataApi, type StrataTransport } from '../../shared/ipc/api';
import { StrataRequestError } from '../../shared/errors/strata-error';
import type { IpcResult } from '../../shared/ipc/result';

function fakeTransport(answer: (channel: string) => Promise<IpcResult<unknown>>) {
  let emit: ((name: unknown, payload: unknown) => void) | null = null;
  let subscriptions = 0;
  const transport: StrataTransport = {
    invoke: (channel) => answer(channel),
    subscribe(listener) {
      subscriptions++;
      emit = listener;
      return () => {
        subscriptions--;
        emit = null;
      };
    },
  };
  return { transport, emit: (n: unknown, p: unknown) => emit?.(n, p), subscriptions: () => subscriptions };
}

test('call resolves with the value of an ok result', async () => {
  const { transport } = fakeTransport(async () => ({ ok: true, value: { platform: 'linux', variables: [], xdg: null } }));
  const value = await createStrataApi(transport).call('env.summary', {});
  assert.equal(value.platform, 'linux');
});

test('call rejects with the error value of a failed result', async () => {
  const { transport } = fakeTransport(async () => ({ ok: false, error: { code: 'x/y', message: 'Broken', fix: 'mend it' } }));
  await assert.rejects(createStrataApi(transport).call('app.info', {}), (e: unknown) => {
    assert.ok(e instanceof StrataRequestError);
    assert.equal(e.error.code, 'x/y');
    assert.equal(e.message, 'Broken. Fix: mend it');
    return true;
  });
});

test('a transport failure becomes ipc/transport-failed with a fix', async () => {
  const { transport } = fakeTransport(async () => {
    throw new Error('connection refused');
  });
  await assert.rejects(createStrataApi(transport).call('app.info', {}), (e: unknown) => {
    assert.ok(e instanceof StrataRequestError);
    assert.equal(e.error.code, 'ipc/transport-failed');
    assert.ok(e.error.fix);
    return true;
  });
});

test('events: delivered when they match the contract, dropped otherwise; one subscription shared', async () => {
  const t = fakeTransport(async () => ({ ok: true, value: null }));
  const api = createStrataApi(t.transport);
  const seen: string[] = [];
  const off1 = api.on('host.notice', (p) => seen.push(`notice:${p.message}`));
  const off2 = api.on('ui.navigate', (p) => seen.push(`nav:${p.panel}`));
  assert.equal(t.subscriptions(), 1);
  t.emit('host.notice', { level: 'warning', message: 'stopping' });
  t.emit('host.notice', { level: 'shout', message: 'bad level' });
  t.emit('no.such.event', {});
  t.emit('ui.navigate', { panel: 'about' });
  await settled(() => seen.length >= 2);
  assert.deepEqual(seen, ['notice:stopping', 'nav:about']);
  off1();
  assert.equal(t.subscriptions(), 1);
  off2();
  assert.equal(t.subscriptions(), 0);
});

/** Until `done` holds, or 10 s: the import() of the events' schemas (compiled on first use under tsx). */
async function settled(done: () => boolean): Promise<void> {
  for (const end = Date.now() + 10_000; !done() && Date.now() < end;) await new Promise((r) => setTimeout(r, 5));
}

test('events: those that arrive while the schemas load are delivered after, in order; later ones at once', async () => {
  const t = fakeTransport(async () => ({ ok: true, value: null }));
  const api = createStrataApi(t.transport);
  const seen: string[] = [];
  api.on('ui.navigate', (p) => seen.push(p.panel));
  t.emit('ui.navigate', { panel: 'a' });
  t.emit('ui.navigate', { panel: 'b' });
  // The schemas load with the first event: nothing is delivered unchecked meanwhile.
  assert.deepEqual(seen, []);
  await settled(() => seen.length >= 2);
  assert.deepEqual(seen, ['a', 'b']);
  t.emit('ui.navigate', { panel: 'c' });
  t.emit('ui.navigate', { panel: 7 });
  assert.deepEqual(seen, ['a', 'b', 'c'], 'once loaded, an event is checked and delivered synchronously');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { APP_ROOT } from '../helpers/strata-cli';
import { FIRST_VIEW_REQUEST } from '../../shared/ipc/first-view-request';

/**
 * The browser preload as `npm test` built it (out/preload/browser.js), run in a context of its own
 * with the few browser objects it touches, over a fetch that answers what each test says. zod's core
 * marks the global object as it sets itself up (`__zod_globalConfig`), so the tests can see when it
 * did: not as the preload loads, nor for the first view's answer (issue #19: that set-up was ~40 ms of
 * every first view in Chromium), and configured (`jitless`, shared/validation/zod-config.ts) before
 * any schema is used.
 */
const PRELOAD = join(APP_ROOT, 'out', 'preload', 'browser.js');

interface Page {
  strata: { call(channel: string, request: unknown): Promise<unknown>; on(event: string, listener: (p: unknown) => void): () => void };
  __zod_globalConfig?: { jitless?: boolean };
}

/** zod's global configuration in the page, once zod's core has set itself up. */
const zodConfig = (page: Page) => page.__zod_globalConfig;

/** The preload loaded in a fresh page whose requests `answer` answers; `fetched` lists each request with zod's state at that moment. */
function loadPreload(answer: (url: string) => { status: number; body: string }) {
  const fetched: { url: string; zodJitless: boolean | undefined }[] = [];
  const page: Record<string, unknown> = {
    location: { hash: '', pathname: '/', search: '' },
    history: { state: null, replaceState() {} },
    sessionStorage: { getItem: () => 'token', setItem() {} },
    URLSearchParams,
    AbortController,
    TextDecoderStream,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms).unref(),
    clearTimeout,
    console,
  };
  page['fetch'] = (url: string) => {
    fetched.push({ url, zodJitless: zodConfig(page as unknown as Page)?.jitless });
    const { status, body } = answer(url);
    // A stream that never ends, for the events: the page keeps it open.
    if (url === './api/events') return Promise.resolve({ ok: true, status, body: new ReadableStream({ start() {} }) });
    return Promise.resolve({ ok: status < 300, status, json: () => Promise.resolve().then(() => JSON.parse(body) as unknown) });
  };
  const context = createContext(page);
  runInContext('var window = globalThis;', context);
  runInContext(readFileSync(PRELOAD, 'utf8'), context, { filename: PRELOAD });
  return { page: page as unknown as Page, fetched };
}

const discovery = { manifests: [{ path: '/etc/vulkan/implicit_layer.d/a.json' }] };

test('the preload hands the first view its answer without setting up zod, and its first check of another answer sets zod up, configured, first', async () => {
  const { page, fetched } = loadPreload((url) =>
    url.endsWith('discovery.manifests')
      ? { status: 200, body: JSON.stringify({ ok: true, value: discovery }) }
      : { status: 200, body: JSON.stringify({ ok: false, error: { code: 'test/refused', message: 'refused', fix: 'do not' } }) },
  );
  assert.deepEqual(await page.strata.call(FIRST_VIEW_REQUEST.channel, FIRST_VIEW_REQUEST.request), discovery);
  assert.equal(zodConfig(page), undefined, 'zod was set up for the first view');
  assert.deepEqual(
    fetched.map((f) => f.url),
    ['./api/discovery.manifests'],
  );

  // An error answer goes through IpcResultSchema: zod, configured, then the error as the server sent it.
  await assert.rejects(page.strata.call('profiles.list', {}), (e: { error?: { code?: string; fix?: string } }) => {
    assert.equal(e.error?.code, 'test/refused');
    assert.equal(e.error?.fix, 'do not');
    return true;
  });
  assert.equal(zodConfig(page)?.jitless, true);
});

test('an answer that is no IpcResult is an error naming the HTTP status, and a success needs its value', async () => {
  const bodies: Record<string, { status: number; body: string }> = {
    './api/discovery.manifests': { status: 200, body: JSON.stringify({ ok: true, value: null }) },
    './api/a': { status: 502, body: '<html>Bad gateway</html>' },
    './api/b': { status: 200, body: JSON.stringify({ ok: true }) },
    './api/c': { status: 200, body: JSON.stringify([{ ok: true, value: 1 }]) },
  };
  const { page } = loadPreload((url) => bodies[url]!);
  assert.equal(await page.strata.call(FIRST_VIEW_REQUEST.channel, FIRST_VIEW_REQUEST.request), null);
  for (const [channel, status] of [
    ['a', 502],
    ['b', 200],
    ['c', 200],
  ] as const) {
    await assert.rejects(page.strata.call(channel, {}), (e: { error?: { code?: string; message?: string } }) => {
      assert.equal(e.error?.code, 'serve/http', channel);
      assert.equal(e.error?.message, `The Strata server answered HTTP ${status}`);
      return true;
    });
  }
});

test("the event stream is read only once zod is configured: the events' schemas load with the first event", async () => {
  const { page, fetched } = loadPreload(() => ({ status: 200, body: JSON.stringify({ ok: true, value: null }) }));
  const stop = page.strata.on('discovery.changed', () => {});
  for (let i = 0; i < 50 && !fetched.some((f) => f.url === './api/events'); i++) await new Promise((r) => setTimeout(r, 1));
  const events = fetched.find((f) => f.url === './api/events');
  assert.ok(events, 'the preload never opened the event stream');
  assert.equal(events.zodJitless, true);
  stop();
});

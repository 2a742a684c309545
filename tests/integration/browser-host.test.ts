import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserHost, type RunningBrowserHost } from '../../main/hosts/serve/browser-host';
import { createRouter, type Router } from '../../main/router/router';
import { FIRST_VIEW_BODY, FIRST_VIEW_REQUEST } from '../../shared/ipc/first-view-request';
import { countingHandlers } from '../helpers/counting-handlers';
import { EventBus } from '../../main/platform/event-bus';

// Real HTTP on 127.0.0.1 against the real router; handlers count calls so "no side effect" is checked.
let host: RunningBrowserHost;
let dir: string;
const bus = new EventBus();
const { handlers, calls } = countingHandlers();
const TOKEN = 'test-token-0123456789abcdef';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, method, path, headers: { Host: `127.0.0.1:${host.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const json = { 'Content-Type': 'application/json' };
/** The token as the page's preload sends it. */
const cookie = () => ({ 'X-Strata-Token': TOKEN });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-host-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'renderer', 'index.html'),
    '<!doctype html><html><head><script type="module" src="./assets/app.js"></script></head><body></body></html>',
  );
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'renderer', 'assets', 'index-1zoEK04V.js'), 'console.log(2)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  writeFileSync(join(dir, 'preload.js'), 'window.strata = {}');
  writeFileSync(join(dir, 'first-request.js'), 'void 0');
  host = await startBrowserHost({
    router: createRouter(handlers),
    bus,
    rendererDir: join(dir, 'renderer'),
    browserPreloadFile: join(dir, 'preload.js'),
    firstRequestFile: join(dir, 'first-request.js'),
    token: TOKEN,
  });
});

after(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

test('binds 127.0.0.1 and prints a URL carrying the token', () => {
  assert.equal(host.host, '127.0.0.1');
  // In the fragment: the browser never sends it to a server, so it is in no request, log or Referer.
  assert.equal(host.url, `http://127.0.0.1:${host.port}/#token=${TOKEN}`);
});

test('a random token per start when none is given', async () => {
  const a = await startBrowserHost({ router: createRouter(handlers), bus, rendererDir: dir, browserPreloadFile: join(dir, 'preload.js') });
  const b = await startBrowserHost({ router: createRouter(handlers), bus, rendererDir: dir, browserPreloadFile: join(dir, 'preload.js') });
  try {
    assert.ok(a.token.length >= 32);
    assert.notEqual(a.token, b.token);
  } finally {
    await a.close();
    await b.close();
  }
});

// The auth matrix: each refused request must leave the handlers untouched.
const refused: [string, () => Promise<Reply>, number, string][] = [
  ['no token', () => send('POST', '/api/app.info', json, '{}'), 401, 'serve/bad-token'],
  ['wrong token (query)', () => send('POST', '/api/app.info?token=nope', json, '{}'), 401, 'serve/bad-token'],
  ['wrong token (header)', () => send('POST', '/api/app.info', { ...json, 'X-Strata-Token': 'nope' }, '{}'), 401, 'serve/bad-token'],
  // Neither travels any more: a cookie reaches every port of 127.0.0.1, a query lands in history and logs.
  ['right token in the query', () => send('POST', `/api/app.info?token=${TOKEN}`, json, '{}'), 401, 'serve/bad-token'],
  [
    'right token in a cookie (the old design)',
    () => send('POST', '/api/app.info', { ...json, Cookie: `strata_token_${host.port}=${TOKEN}` }, '{}'),
    401,
    'serve/bad-token',
  ],
  [
    'foreign Origin with a good token',
    () => send('POST', '/api/app.info', { ...json, ...cookie(), Origin: 'http://evil.example' }, '{}'),
    403,
    'serve/foreign-origin',
  ],
  [
    'Origin on another port',
    () => send('POST', '/api/app.info', { ...json, ...cookie(), Origin: `http://127.0.0.1:${host.port + 1}` }, '{}'),
    403,
    'serve/foreign-origin',
  ],
  ['null Origin', () => send('POST', '/api/app.info', { ...json, ...cookie(), Origin: 'null' }, '{}'), 403, 'serve/foreign-origin'],
  [
    'cross-site fetch metadata',
    () => send('POST', '/api/app.info', { ...json, ...cookie(), 'Sec-Fetch-Site': 'cross-site' }, '{}'),
    403,
    'serve/foreign-origin',
  ],
  ['bad Host (DNS rebinding)', () => send('POST', '/api/app.info', { ...json, ...cookie(), Host: `evil.example:${host.port}` }, '{}'), 403, 'serve/bad-host'],
  ['a channel by GET without token', () => send('GET', '/api/app.info'), 401, 'serve/bad-token'],
  ['a used-up or unknown one-time code', () => send('POST', '/auth/code', json, '{"code":"not-a-code"}'), 401, 'serve/bad-code'],
  [
    'a one-time code from another origin',
    () => send('POST', '/auth/code', { ...json, Origin: `http://127.0.0.1:${host.port + 1}` }, '{"code":"x"}'),
    403,
    'serve/foreign-origin',
  ],
  ['event stream without token', () => send('GET', '/api/events'), 401, 'serve/bad-token'],
];
for (const [label, doIt, status, code] of refused) {
  test(`refused: ${label} → ${status}, no side effect`, async () => {
    const before = calls.length;
    const reply = await doIt();
    assert.equal(reply.status, status);
    assert.equal(JSON.parse(reply.body).error.code, code);
    assert.equal(calls.length, before, 'a refused request must not reach a handler');
  });
}

test('the page and its assets need no token, set no cookie, and hold no secret', async () => {
  for (const path of ['/', '/assets/app.js', '/strata-preload.js', '/strata-first-request.js']) {
    const reply = await send('GET', path);
    assert.equal(reply.status, 200, path);
    assert.equal(reply.headers['set-cookie'], undefined, path);
    assert.ok(!reply.body.includes(TOKEN), path);
  }
  // Host is still checked for them (DNS rebinding).
  assert.equal((await send('GET', '/', { Host: `evil.example:${host.port}` })).status, 403);
});

test('only the chunks named by their content may be kept by the browser; the page, the preload and unhashed files are no-store', async () => {
  const hashed = await send('GET', '/assets/index-1zoEK04V.js');
  assert.equal(hashed.status, 200);
  assert.equal(hashed.body, 'console.log(2)');
  assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(String(hashed.headers['content-security-policy']), /script-src 'self'/, 'the security headers stay');
  for (const path of ['/', '/assets/app.js', '/strata-preload.js', '/strata-first-request.js']) {
    assert.equal((await send('GET', path)).headers['cache-control'], 'no-store', path);
  }
  assert.equal((await send('GET', '/assets/index-00000000.js')).headers['cache-control'], 'no-store', 'a 404 is not kept');
});

test('a one-time code is traded for the token once, then refused', async () => {
  let redeemed = 0;
  const url = new URL(host.oneTimeUrl(() => redeemed++));
  assert.equal(url.origin, `http://127.0.0.1:${host.port}`);
  const code = url.hash.replace(/^#code=/, '');
  assert.ok(code.length >= 32 && !url.href.includes(TOKEN));
  const body = JSON.stringify({ code });
  const textPlain = await send('POST', '/auth/code', { 'Content-Type': 'text/plain' }, body);
  assert.equal(textPlain.status, 415, 'a CORS-simple (form/beacon) request cannot trade it');
  const first = await send('POST', '/auth/code', { ...json, Origin: `http://127.0.0.1:${host.port}` }, body);
  assert.equal(first.status, 200);
  assert.deepEqual(JSON.parse(first.body), { ok: true, value: { token: TOKEN } });
  assert.equal(redeemed, 1);
  const second = await send('POST', '/auth/code', json, body);
  assert.equal(second.status, 401);
  assert.equal(JSON.parse(second.body).error.code, 'serve/bad-code');
  assert.equal(redeemed, 1);
});

test('good: the page carries the preload before the app and a strict CSP', async () => {
  const reply = await send('GET', '/', { Host: `localhost:${host.port}` });
  assert.equal(reply.status, 200);
  assert.ok(reply.body.indexOf('strata-preload.js') < reply.body.indexOf('assets/app.js'));
  // Deferred: it does not hold the page's parsing, and still runs before the app's module (document order);
  // the first-request script (the first view's request, issue #19) runs at once, before both.
  assert.match(reply.body, /<script src="\.\/strata-first-request\.js"><\/script><script defer src="\.\/strata-preload\.js"><\/script>/);
  assert.equal((await send('GET', '/strata-first-request.js')).body, 'void 0');
  assert.match(String(reply.headers['content-security-policy']), /script-src 'self'/);
  assert.equal(reply.headers['x-content-type-options'], 'nosniff');
});

test('good: API call with the token header and same Origin reaches the handler once', async () => {
  const before = calls.length;
  const reply = await send('POST', '/api/app.info', { ...json, ...cookie(), Origin: `http://127.0.0.1:${host.port}` }, '{}');
  assert.equal(reply.status, 200);
  const body = JSON.parse(reply.body);
  assert.equal(body.ok, true);
  assert.equal(body.value.host, 'browser');
  assert.deepEqual(calls.slice(before), ['app.info']);
});

test('good: API call with the token in a header (scripts, curl)', async () => {
  const reply = await send('POST', '/api/env.summary', { ...json, Authorization: `Bearer ${TOKEN}` }, '{}');
  assert.equal(reply.status, 200);
  assert.equal(JSON.parse(reply.body).value.platform, 'linux');
});

test('API errors are error values with HTTP status: unknown channel 404, bad request 400, bad JSON 400', async () => {
  const unknown = await send('POST', '/api/nope', { ...json, ...cookie() }, '{}');
  assert.equal(unknown.status, 404);
  assert.equal(JSON.parse(unknown.body).error.code, 'ipc/unknown-channel');
  const invalid = await send('POST', '/api/app.info', { ...json, ...cookie() }, '{"extra":1}');
  assert.equal(invalid.status, 400);
  assert.equal(JSON.parse(invalid.body).error.code, 'ipc/invalid-request');
  const badJson = await send('POST', '/api/app.info', { ...json, ...cookie() }, '{oops');
  assert.equal(badJson.status, 400);
  assert.equal(JSON.parse(badJson.body).error.code, 'serve/bad-json');
});

test('API refuses non-JSON bodies (no CORS-simple requests) and oversized bodies with a real 413', async () => {
  const before = calls.length;
  const form = await send('POST', '/api/app.info', { ...cookie(), 'Content-Type': 'text/plain' }, '{}');
  assert.equal(form.status, 415);
  // No catch: a connection reset instead of the answer fails the test.
  const big = await send('POST', '/api/app.info', { ...json, ...cookie() }, `{"x":"${'a'.repeat(25 << 20)}"}`);
  assert.equal(big.status, 413);
  assert.equal(JSON.parse(big.body).error.code, 'serve/too-large');
  assert.equal(calls.length, before);
  // The server is fine afterwards.
  assert.equal((await send('POST', '/api/app.info', { ...json, ...cookie() }, '{}')).status, 200);
});

test('bad percent-encoding in a channel name is a 400, not a 500', async () => {
  const reply = await send('POST', '/api/app%E0%A4%A.info', { ...json, ...cookie() }, '{}');
  assert.equal(reply.status, 400);
  assert.equal(JSON.parse(reply.body).error.code, 'serve/bad-channel');
});

test('static files cannot escape the renderer folder', async () => {
  for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/%00']) {
    const reply = await send('GET', path, cookie());
    assert.equal(reply.status, 404, path);
    assert.doesNotMatch(reply.body, /outside the renderer/);
  }
});

test('events reach server-sent-event clients as contract events', async () => {
  const received = await new Promise<string>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, path: '/api/events', headers: { Host: `127.0.0.1:${host.port}`, ...cookie() } }, (res) => {
      assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes(': connected')) bus.emit('host.notice', { level: 'info', message: 'hello' });
        const m = text.match(/data: (.*)\n\n/);
        if (m) {
          req.destroy();
          resolve(m[1]!);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
  assert.deepEqual(JSON.parse(received), { name: 'host.notice', payload: { level: 'info', message: 'hello' } });
});

test("the first view's answer, once prepared, is served as kept bytes: written as JSON once for every page that asks", async () => {
  // A kept discovery hands out the same answer object again (manifest-catalogue.ts): writing its JSON is what is kept.
  let written = 0;
  const answer = Object.freeze({ locations: {}, manifests: {}, toJSON: () => (written++, { manifests: { layer: ['a'] } }) });
  let calls = 0;
  const router: Router = {
    channelNames: [],
    call: async (channel) => (
      calls++,
      channel === FIRST_VIEW_REQUEST.channel ? { ok: true, value: answer } : { ok: false, error: { code: 'x', message: 'no' } }
    ),
  };
  const own = await startBrowserHost({ router, bus, rendererDir: join(dir, 'renderer'), browserPreloadFile: join(dir, 'preload.js'), token: TOKEN });
  try {
    await own.prepareFirstView();
    assert.equal(calls, 1, 'prepareFirstView asks the router');
    assert.equal(written, 1);
    const ask = () =>
      fetch(`http://127.0.0.1:${own.port}/api/${FIRST_VIEW_REQUEST.channel}`, { method: 'POST', headers: { ...json, ...cookie() }, body: FIRST_VIEW_BODY });
    for (let i = 0; i < 2; i++) {
      const reply = await ask();
      assert.equal(reply.status, 200);
      assert.deepEqual(await reply.json(), { ok: true, value: { manifests: { layer: ['a'] } } });
    }
    assert.equal(calls, 3, 'every page still asks the router (its answer may have changed)');
    assert.equal(written, 1, 'the same answer object is not written again');
  } finally {
    await own.close();
  }
});

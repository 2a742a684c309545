import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserHost, type RunningBrowserHost } from '../../main/serve/browser-host';
import { createRouter } from '../../main/router';
import { countingHandlers } from '../helpers/counting-handlers';
import { EventBus } from '../../main/event-bus';
import { cookieName } from '../../main/serve/request-guard';

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
const cookie = () => ({ Cookie: `${cookieName(host.port)}=${TOKEN}` });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-host-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><html><head><script type="module" src="./assets/app.js"></script></head><body></body></html>');
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  writeFileSync(join(dir, 'preload.js'), 'window.strata = {}');
  host = await startBrowserHost({ router: createRouter(handlers), bus, rendererDir: join(dir, 'renderer'), browserPreloadFile: join(dir, 'preload.js'), token: TOKEN });
});

after(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

test('binds 127.0.0.1 and prints a URL carrying the token', () => {
  assert.equal(host.host, '127.0.0.1');
  assert.equal(host.url, `http://127.0.0.1:${host.port}/?token=${TOKEN}`);
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
  ['wrong token (cookie)', () => send('POST', '/api/app.info', { ...json, Cookie: `${cookieName(host.port)}=nope` }, '{}'), 401, 'serve/bad-token'],
  ['token cookie of another port', () => send('POST', '/api/app.info', { ...json, Cookie: `${cookieName(host.port + 1)}=${TOKEN}` }, '{}'), 401, 'serve/bad-token'],
  ['foreign Origin with a good token', () => send('POST', '/api/app.info', { ...json, ...cookie(), Origin: 'http://evil.example' }, '{}'), 403, 'serve/foreign-origin'],
  ['Origin on another port', () => send('POST', '/api/app.info', { ...json, ...cookie(), Origin: `http://127.0.0.1:${host.port + 1}` }, '{}'), 403, 'serve/foreign-origin'],
  ['null Origin', () => send('POST', '/api/app.info', { ...json, ...cookie(), Origin: 'null' }, '{}'), 403, 'serve/foreign-origin'],
  ['cross-site fetch metadata', () => send('POST', '/api/app.info', { ...json, ...cookie(), 'Sec-Fetch-Site': 'cross-site' }, '{}'), 403, 'serve/foreign-origin'],
  ['bad Host (DNS rebinding)', () => send('POST', '/api/app.info', { ...json, ...cookie(), Host: `evil.example:${host.port}` }, '{}'), 403, 'serve/bad-host'],
  ['page without token', () => send('GET', '/'), 401, 'serve/bad-token'],
  ['asset without token', () => send('GET', '/assets/app.js'), 401, 'serve/bad-token'],
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

test('good: token in the URL is traded for an HttpOnly SameSite=Strict cookie and dropped from the URL', async () => {
  const reply = await send('GET', `/?token=${TOKEN}`);
  assert.equal(reply.status, 303);
  assert.equal(reply.headers['location'], '/');
  const setCookie = String(reply.headers['set-cookie']);
  assert.match(setCookie, new RegExp(`^${cookieName(host.port)}=${TOKEN};`));
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Strict/);
});

test('good: the page, with the cookie, carries the preload before the app and a strict CSP', async () => {
  const reply = await send('GET', '/', { ...cookie(), Host: `localhost:${host.port}` });
  assert.equal(reply.status, 200);
  assert.ok(reply.body.indexOf('strata-preload.js') < reply.body.indexOf('assets/app.js'));
  assert.match(String(reply.headers['content-security-policy']), /script-src 'self'/);
  assert.equal(reply.headers['x-content-type-options'], 'nosniff');
});

test('good: API call with cookie and same Origin reaches the handler once', async () => {
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

test('API refuses non-JSON bodies (no CORS-simple requests) and oversized bodies', async () => {
  const before = calls.length;
  const form = await send('POST', '/api/app.info', { ...cookie(), 'Content-Type': 'text/plain' }, '{}');
  assert.equal(form.status, 415);
  const big = await send('POST', '/api/app.info', { ...json, ...cookie() }, `{"x":"${'a'.repeat(25 << 20)}"}`).catch(() => ({ status: 413 }) as Reply);
  assert.equal(big.status, 413);
  assert.equal(calls.length, before);
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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardRequest, hostHeaderFor, isLoopback, isPublicRequest, type GuardPolicy } from '../../main/hosts/serve/request-guard';

const policy: GuardPolicy = { token: 'secret-token', port: 4000, allowedHosts: new Set(['127.0.0.1:4000', 'localhost:4000', '[::1]:4000']) };
const req = (headers: Record<string, string>, path = '/api/app.info') => ({ method: 'POST', url: new URL(path, 'http://x'), headers });

test('IPv6 Host headers are bracketed', () => {
  assert.equal(hostHeaderFor('::1', 80), '[::1]:80');
  assert.equal(hostHeaderFor('127.0.0.1', 80), '127.0.0.1:80');
});

test('loopback addresses', () => {
  for (const a of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.ok(isLoopback(a), a);
  for (const a of ['0.0.0.0', '192.168.1.2', '::', 'example.com']) assert.ok(!isLoopback(a), a);
});

test('Host is checked case-insensitively, before the token', () => {
  assert.deepEqual(guardRequest(req({ host: 'LOCALHOST:4000', 'x-strata-token': 'secret-token' }), policy), { ok: true, tokenFrom: 'header' });
  const v = guardRequest(req({ host: 'attacker.example:4000', 'x-strata-token': 'secret-token' }), policy);
  assert.equal(v.ok === false && v.status, 403);
  const missing = guardRequest(req({ 'x-strata-token': 'secret-token' }), policy);
  assert.equal(missing.ok === false && missing.code, 'serve/bad-host');
});

test('Origin must be this server over http; https or another port is foreign', () => {
  const base = { host: '127.0.0.1:4000', 'x-strata-token': 'secret-token' };
  assert.equal(guardRequest(req({ ...base, origin: 'http://localhost:4000' }), policy).ok, true);
  for (const origin of ['https://127.0.0.1:4000', 'http://127.0.0.1:4001', 'http://127.0.0.1.evil:4000', 'garbage']) {
    const v = guardRequest(req({ ...base, origin }), policy);
    assert.equal(v.ok === false && v.code, 'serve/foreign-origin', origin);
  }
});

test('a wildcard bind accepts any Host but still needs Origin to match it', () => {
  const wild: GuardPolicy = { ...policy, allowedHosts: null };
  const h = { host: 'build-box:4000', authorization: 'Bearer secret-token' };
  assert.equal(guardRequest(req(h), wild).ok, true);
  assert.equal(guardRequest(req({ ...h, origin: 'http://build-box:4000' }), wild).ok, true);
  assert.equal(guardRequest(req({ ...h, origin: 'http://other:4000' }), wild).ok, false);
});

test('token: only in a header; query and cookie no longer count; a prefix or a longer string does not match', () => {
  const h = { host: '127.0.0.1:4000' };
  assert.deepEqual(guardRequest(req({ ...h, 'x-strata-token': 'secret-token' }), policy), { ok: true, tokenFrom: 'header' });
  assert.deepEqual(guardRequest(req({ ...h, authorization: 'Bearer secret-token' }), policy), { ok: true, tokenFrom: 'header' });
  for (const r of [req(h, '/api/app.info?token=secret-token'), req({ ...h, cookie: 'strata_token_4000=secret-token' })]) {
    const v = guardRequest(r, policy);
    assert.equal(v.ok === false && v.status, 401);
  }
  for (const bad of ['secret', 'secret-token-and-more', '', 'SECRET-TOKEN']) {
    const v = guardRequest(req({ ...h, 'x-strata-token': bad }), policy);
    assert.equal(v.ok === false && v.status, 401, bad);
  }
});

test('public: static GETs and the one-time-code exchange; every /api/ path and other methods need the token', () => {
  assert.ok(isPublicRequest('GET', '/'));
  assert.ok(isPublicRequest('HEAD', '/assets/app.js'));
  assert.ok(isPublicRequest('POST', '/auth/code'));
  for (const [m, p] of [
    ['GET', '/api/events'],
    ['GET', '/api/app.info'],
    ['POST', '/api/launch.start'],
    ['POST', '/'],
    ['GET', '/auth/code'],
    ['PUT', '/x'],
  ] as const) {
    assert.ok(!isPublicRequest(m, p), `${m} ${p}`);
  }
  // Public paths still go through Host and Origin first.
  const foreign = { method: 'GET', url: new URL('/', 'http://x'), headers: { host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4001' } };
  assert.equal(guardRequest(foreign, policy).ok, false);
  const rebinding = { method: 'GET', url: new URL('/', 'http://x'), headers: { host: 'evil.example:4000' } };
  assert.equal(guardRequest(rebinding, policy).ok, false);
});

test('cross-site: a top-level navigation to the page passes; a cross-site subresource or API call does not', () => {
  const h = { host: '127.0.0.1:4000', 'sec-fetch-site': 'cross-site' };
  const nav = { ...h, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  assert.deepEqual(guardRequest({ method: 'GET', url: new URL('/', 'http://x'), headers: nav }, policy), { ok: true, tokenFrom: 'none' });
  assert.equal(
    guardRequest({ method: 'GET', url: new URL('/', 'http://x'), headers: { ...h, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' } }, policy).ok,
    false,
  );
  assert.equal(
    guardRequest({ method: 'GET', url: new URL('/api/events', 'http://x'), headers: { ...nav, 'x-strata-token': 'secret-token' } }, policy).ok,
    false,
  );
  assert.equal(guardRequest({ method: 'POST', url: new URL('/', 'http://x'), headers: nav }, policy).ok, false);
});

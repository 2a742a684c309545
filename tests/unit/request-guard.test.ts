import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardRequest, hostHeaderFor, isLoopback, cookieName, type GuardPolicy } from '../../main/serve/request-guard';

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
  const base = { host: '127.0.0.1:4000', cookie: `${cookieName(4000)}=secret-token` };
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

test('token: query, cookie, header; a prefix or a longer string does not match', () => {
  const h = { host: '127.0.0.1:4000' };
  assert.deepEqual(guardRequest(req(h, '/?token=secret-token'), policy), { ok: true, tokenFrom: 'query' });
  assert.deepEqual(guardRequest(req({ ...h, cookie: `a=b; ${cookieName(4000)}=secret-token` }), policy), { ok: true, tokenFrom: 'cookie' });
  for (const bad of ['secret', 'secret-token-and-more', '', 'SECRET-TOKEN']) {
    const v = guardRequest(req({ ...h, 'x-strata-token': bad }), policy);
    assert.equal(v.ok === false && v.status, 401, bad);
  }
});

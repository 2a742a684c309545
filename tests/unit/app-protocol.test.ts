import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_SCHEME_DEFINITION, serveAppRequest } from '../../main/hosts/electron/app-protocol';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../main/hosts/serve/content-security-policy';

let base: string;
let root: string;

before(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-protocol-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Strata</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  // A file next to the renderer folder that no request may reach.
  writeFileSync(join(base, 'secret.txt'), 'do not serve');
});

after(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => serveAppRequest(root, { url, method });

function assertSecurityHeaders(response: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(response.headers.get(name), value, name);
  assert.equal(response.headers.get('Content-Security-Policy'), CONTENT_SECURITY_POLICY);
}

test('the scheme is registered standard, secure and fetch-capable, and nothing more', () => {
  assert.deepEqual(APP_SCHEME_DEFINITION, { scheme: 'strata', privileges: { standard: true, secure: true, supportFetchAPI: true } });
});

test('serves index.html with its type and the security headers', async () => {
  const response = await get('strata://app/index.html');
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('Content-Type'), 'text/html; charset=utf-8');
  assertSecurityHeaders(response);
  assert.match(await response.text(), /<title>Strata<\/title>/);
});

test('the bare origin serves index.html', async () => {
  const response = await get('strata://app/');
  assert.equal(response.status, 200);
  assert.match(await response.text(), /Strata/);
});

test('serves nested assets', async () => {
  const response = await get('strata://app/assets/app.js');
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('Content-Type'), 'text/javascript; charset=utf-8');
  assert.equal(await response.text(), 'console.log(1)');
});

test('HEAD answers headers without a body', async () => {
  const response = await get('strata://app/index.html', 'HEAD');
  assert.equal(response.status, 200);
  assert.equal(response.body, null);
  assertSecurityHeaders(response);
});

for (const url of [
  'strata://app/../secret.txt',
  'strata://app/%2e%2e/secret.txt',
  'strata://app/assets/..%2f..%2fsecret.txt',
  'strata://app/..%5csecret.txt',
  'strata://app/index.html%00.js',
  'strata://app/missing.js',
  'strata://app/assets',
  'strata://evil/index.html',
  'strata://app.evil/index.html',
  'strata://app:99/index.html',
  'strata://user@app/index.html',
]) {
  test(`refuses ${url} with 404 and the security headers`, async () => {
    const response = await get(url);
    assert.equal(response.status, 404);
    assertSecurityHeaders(response);
    assert.doesNotMatch(await response.text(), /do not serve/);
  });
}

test('other methods are refused', async () => {
  const response = await get('strata://app/index.html', 'POST');
  assert.equal(response.status, 405);
  assert.equal(response.headers.get('Allow'), 'GET, HEAD');
  assertSecurityHeaders(response);
});

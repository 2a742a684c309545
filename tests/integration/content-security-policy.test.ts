import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../main/hosts/serve/content-security-policy';
import { serveAppRequest } from '../../main/hosts/electron/app-protocol';
import { startBrowserHost, type RunningBrowserHost } from '../../main/hosts/serve/browser-host';
import { createRouter } from '../../main/router/router';
import { EventBus } from '../../main/platform/event-bus';
import { countingHandlers } from '../helpers/counting-handlers';
import { launchChromium } from '../helpers/e2e-harness';

/**
 * The module's promise: one policy for both hosts that lets the page run only its own script files:
 * nothing inline, no eval, no framing. Asserted twice: the policy text read as CSP Level 3 reads it
 * (directives, fallback to default-src), and Debian's Chromium enforcing it on a page served by each
 * real host (the browser host, and the Electron `strata://` handler bridged onto HTTP) next to the same
 * page served without the headers, where the inline script, eval and the frame all run, so the
 * checks can fail. That each reply of each host carries the headers is browser-host.test.ts and
 * app-protocol.test.ts.
 */

/** CSP3 §2.2.1 "parse a serialized CSP": split on ";", a directive's name is its first token, lowercased; the first of a name wins. */
function parsePolicy(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of text.split(';')) {
    const tokens = part
      .trim()
      .split(/[\t\n\f\r ]+/)
      .filter(Boolean);
    const [name, ...values] = tokens;
    if (!name) continue;
    assert.match(name, /^[a-z0-9-]+$/i, `a directive name: ${name}`);
    assert.ok(!out.has(name.toLowerCase()), `${name} is given twice (the second would be ignored)`);
    out.set(name.toLowerCase(), values);
  }
  return out;
}

/** The sources a fetch of this kind may use: its own directive, else default-src (CSP3 §6.8.3). */
const sourcesFor = (policy: Map<string, string[]>, directive: string) => policy.get(directive) ?? policy.get('default-src') ?? ['*'];

test('the policy parses: each directive once, every source a keyword or data: for images', () => {
  const policy = parsePolicy(CONTENT_SECURITY_POLICY);
  assert.equal(SECURITY_HEADERS['Content-Security-Policy'], CONTENT_SECURITY_POLICY);
  assert.deepEqual(policy.get('default-src'), ["'self'"]);
  for (const [name, values] of policy) {
    assert.ok(values.length > 0, `${name} has sources`);
    for (const v of values) assert.ok(["'self'", "'none'"].includes(v) || (name === 'img-src' && v === 'data:'), `${name} ${v}`);
  }
});

test("the policy forbids inline script, eval and framing: no 'unsafe-*', nonce, hash or wildcard for scripts; frame-ancestors 'none'", () => {
  const policy = parsePolicy(CONTENT_SECURITY_POLICY);
  for (const directive of ['script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'worker-src', 'object-src', 'base-uri']) {
    for (const v of sourcesFor(policy, directive)) {
      assert.doesNotMatch(v, /^'(unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|strict-dynamic|nonce-.*|sha(256|384|512)-.*)'$/, `${directive} ${v}`);
      assert.ok(!['*', 'data:', 'blob:', 'http:', 'https:', 'filesystem:'].includes(v), `${directive} ${v}`);
    }
  }
  assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], 'framing: frame-ancestors does not fall back to default-src');
  assert.deepEqual(policy.get('object-src'), ["'none'"]);
  assert.deepEqual(policy.get('base-uri'), ["'none'"], 'base-uri does not fall back either: a <base> would move every relative script');
  assert.deepEqual(policy.get('form-action'), ["'none'"]);
  // The same promise to browsers that read the older headers.
  assert.equal(SECURITY_HEADERS['X-Frame-Options'], 'DENY');
  assert.equal(SECURITY_HEADERS['X-Content-Type-Options'], 'nosniff');
});

// ---- Chromium enforcing it, on each host ----

/** Every attempt reports to the window that owns the page (or its parent, when framed). */
const INDEX =
  '<!doctype html><html><head><script>window.ran = (window.ran || []).concat("inline");</script>' +
  '<script src="./assets/app.js"></script></head><body onload="window.ran = (window.ran || []).concat(\'attribute\')"></body></html>';
const APP_JS = `
window.ran = (window.ran || []).concat('file');
try { eval('window.ran.push("eval")'); } catch (e) { window.ran.push('eval refused'); }
try { new Function('window.ran.push("Function")')(); } catch (e) { window.ran.push('Function refused'); }
if (window.parent !== window) window.parent.postMessage('framed page ran', '*');
`;

let dir: string;
let browser: Browser;
let browserHost: RunningBrowserHost;
const servers: Server[] = [];

function listen(handler: (path: string, res: ServerResponse) => Promise<void> | void): Promise<string> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req.url ?? '/', res)).catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-csp-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), INDEX);
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), APP_JS);
  writeFileSync(join(dir, 'preload.js'), 'window.strata = {};');
  browserHost = await startBrowserHost({
    router: createRouter(countingHandlers().handlers),
    bus: new EventBus(),
    rendererDir: join(dir, 'renderer'),
    browserPreloadFile: join(dir, 'preload.js'),
    token: 'csp-test-token-0123456789abcdef',
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await browserHost?.close();
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The Electron host's handler (the same Request → Response function protocol.handle calls), answered over HTTP. */
const electronBridge = () =>
  listen(async (path, res) => {
    const reply = await serveAppRequest(join(dir, 'renderer'), { url: `strata://app${path}`, method: 'GET' });
    res.writeHead(reply.status, Object.fromEntries(reply.headers.entries()));
    res.end(Buffer.from(await reply.arrayBuffer()));
  });

/** The control: the same files with no security headers. */
const bare = () =>
  listen((path, res) => {
    const body = path.startsWith('/assets/app.js') ? APP_JS : INDEX;
    res.writeHead(200, { 'Content-Type': path.startsWith('/assets/') ? 'text/javascript' : 'text/html' });
    res.end(body);
  });

async function whatRan(origin: string): Promise<{ ran: string[]; framed: boolean; violations: string[] }> {
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  try {
    await page.goto(`${origin}/`);
    const ran = await page.evaluate(() => ((globalThis as unknown as { ran?: string[] }).ran ?? []).slice());
    // Framed by another origin (another port): the framed page says so to its parent when it runs.
    const framer = await listen((_path, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        `<!doctype html><script>window.got = []; addEventListener('message', (e) => window.got.push(e.data));</script>` +
          `<iframe src="${origin}/" onload="window.loaded = true"></iframe>`,
      );
    });
    await page.goto(`${framer}/`);
    await page.waitForFunction(() => (globalThis as unknown as { loaded?: boolean }).loaded === true, null, { timeout: 20_000 });
    // The frame's onload follows its scripts, so a message it posted is queued before this runs.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    const framed = await page.evaluate(() => ((globalThis as unknown as { got: unknown[] }).got ?? []).includes('framed page ran'));
    return { ran, framed, violations };
  } finally {
    await page.close();
  }
}

test('without the headers (the control), the inline script, the inline handler, eval, Function and the frame all run', async () => {
  const r = await whatRan(await bare());
  assert.deepEqual(r.ran, ['inline', 'file', 'eval', 'Function', 'attribute']);
  assert.equal(r.framed, true);
});

for (const [host, origin] of [
  ['the browser host (strata serve)', () => Promise.resolve(`http://127.0.0.1:${browserHost.port}`)],
  ["Electron's strata:// handler", electronBridge],
] as const) {
  test(`${host}: Chromium runs only the page's script file; inline script, handler, eval and Function are refused; it cannot be framed`, async () => {
    const r = await whatRan(await origin());
    assert.deepEqual(r.ran, ['file', 'eval refused', 'Function refused']);
    assert.equal(r.framed, false, 'another origin framed the page and its script ran');
    assert.ok(r.violations.length >= 2, `Chromium reported the refusals as CSP violations: ${r.violations.join(' | ')}`);
  });
}

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { CHROMIUM, CHROMIUM_ARGS, prepareE2e, stopServer, type StrataServer } from '../helpers/e2e-harness';
import { STRATA_BIN, startAndWaitForUrl } from '../helpers/strata-cli';

/**
 * Issue #15, the token: `bin/strata serve --open` with a recording opener (STRATA_OPEN_WITH), the
 * launch file it hands over opened in Debian's Chromium with a real profile folder (so History is
 * written), then a hostile page on another 127.0.0.1 port in the same browser tries every way to get
 * the token or call a channel. launch.start with `touch MARKER` is the channel tried: a marker on
 * disk would be command execution. The Strata tab itself makes the same call and its marker appears,
 * so the absence of the others means the attempts were refused, not that the call cannot work.
 */
declare const window: { strata: { call(channel: string, request: unknown): Promise<unknown> } };
declare const sessionStorage: { getItem(key: string): string | null };
declare const location: { href: string };

let home: TempHome;
let work: string;
let server: StrataServer | null = null;
let context: BrowserContext | null = null;
let attacker: Server | null = null;
let strataPage: Page;
let token: string;
let launchFileUrl: string;
const attackerSaw: IncomingHttpHeaders[] = [];

const marker = (name: string) => join(work, `marker-${name}`);

before(async () => {
  prepareE2e();
  home = makeTempHome();
  work = mkdtempSync(join(tmpdir(), 'strata-e2e-token-'));
  // The opener records its argv and exits, as xdg-open would after handing the file to a browser.
  const opener = join(work, 'record-opener.sh');
  writeFileSync(
    opener,
    `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > '${join(work, 'opener-argv')}.tmp' && mv '${join(work, 'opener-argv')}.tmp' '${join(work, 'opener-argv')}'\n`,
  );
  chmodSync(opener, 0o755);
  const run = startAndWaitForUrl(process.execPath, [STRATA_BIN, 'serve', '--port', '0', '--open'], { ...home.env, STRATA_OPEN_WITH: opener }, 20_000);
  server = { home, child: run.child, url: await run.url };
  token = new URL(server.url).hash.replace(/^#token=/, '');
  for (let i = 0; i < 100 && !existsSync(join(work, 'opener-argv')); i++) await new Promise((r) => setTimeout(r, 100));
  const argv = readFileSync(join(work, 'opener-argv'), 'utf8').trim().split('\n');
  launchFileUrl = argv[1] ?? '';

  const profileDir = join(work, 'chromium-profile');
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
    env: { ...home.env, HOME: join(work, 'chromium-home') },
  });
});

after(async () => {
  await context?.close().catch(() => {});
  await new Promise<void>((r) => (attacker ? attacker.close(() => r()) : r()));
  await stopServer(server);
  home?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

test('--open: the opener gets a private launch file, no token on any command line', () => {
  const argv = readFileSync(join(work, 'opener-argv'), 'utf8');
  assert.ok(!argv.includes(token), `the opener's argv holds the token: ${argv}`);
  assert.match(launchFileUrl, /^file:\/\/\/.*\.html$/);
  const file = fileURLToPath(launchFileUrl);
  assert.equal(statSync(file).mode & 0o777, 0o600, 'only the user can read the launch file');
  assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
  assert.ok(!readFileSync(file, 'utf8').includes(token), 'the launch file holds a one-time code, not the token');
  // What `ps` shows: every process's command line on this machine.
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // the process has exited
    }
    assert.ok(!cmdline.includes(token), `process ${pid} has the token on its command line: ${cmdline.replace(/\0/g, ' ')}`);
  }
});

test('the launch file opens Strata: the code is traded once, the address bar and the file are cleaned up', async () => {
  strataPage = await context!.newPage();
  await strataPage.goto(launchFileUrl);
  await strataPage.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/$/, { timeout: 15_000 });
  await strataPage.getByTestId('layer-list').waitFor({ timeout: 20_000 });
  assert.equal(await strataPage.evaluate(() => sessionStorage.getItem('strata.token')), token, 'the page holds the token in sessionStorage');
  assert.equal(await strataPage.evaluate(() => location.href), `http://127.0.0.1:${new URL(server!.url).port}/`);
  assert.deepEqual(await context!.cookies(), [], 'no cookie at all');
  const file = fileURLToPath(launchFileUrl);
  for (let i = 0; i < 50 && existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(!existsSync(file), 'the launch file is deleted once its code is used');
  // The code, now in history, is dead.
  const used = await fetch(new URL('/auth/code', server!.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: /#code=([\w-]+)/.exec(launchFileUrl)?.[1] ?? 'none' }),
  });
  assert.equal(used.status, 401);
  // Positive control: the Strata tab can run a command, so the attacker's failures below mean something.
  await strataPage.evaluate((m) => window.strata.call('launch.start', { command: '/usr/bin/touch', args: [m] }), marker('strata-tab'));
  for (let i = 0; i < 50 && !existsSync(marker('strata-tab')); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(existsSync(marker('strata-tab')), 'launch.start from the Strata tab ran');
});

test('a page on another 127.0.0.1 port cannot obtain the token or call a channel', async () => {
  const strata = new URL(server!.url).origin;
  const request = (name: string) => JSON.stringify({ command: '/usr/bin/touch', args: [marker(name)] });
  const page = `<!doctype html><html><body>
<img src="${strata}/api/events"><img src="${strata}/api/launch.start">
<iframe name="sink"></iframe>
<form id="f" method="POST" action="${strata}/api/launch.start" enctype="text/plain" target="sink"><input name='${request('form').slice(0, -1)},"x":"' value='"}'></form>
<script>
const strata = ${JSON.stringify(strata)};
const seen = [];
const tryIt = async (label, fn) => { try { seen.push([label, String(await fn())]); } catch (e) { seen.push([label, 'threw ' + e]); } };
(async () => {
  await tryIt('cookie', () => document.cookie);
  await tryIt('fetch no-cors', () => fetch(strata + '/api/launch.start', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: ${JSON.stringify(request('fetch-no-cors'))} }).then((r) => r.type + ' ' + r.status));
  await tryIt('fetch cors json', () => fetch(strata + '/api/launch.start', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(request('fetch-cors'))} }).then((r) => r.text()));
  await tryIt('fetch page', () => fetch(strata + '/', { credentials: 'include' }).then((r) => r.text()));
  await tryIt('beacon', () => navigator.sendBeacon(strata + '/api/launch.start', ${JSON.stringify(request('beacon'))}));
  await tryIt('xhr', () => new Promise((resolve) => { const x = new XMLHttpRequest(); x.withCredentials = true; x.open('POST', strata + '/api/launch.start'); x.onloadend = () => resolve(x.status + ' ' + x.responseText); x.send(${JSON.stringify(request('xhr'))}); }));
  await tryIt('event source', () => new Promise((resolve) => { const s = new EventSource(strata + '/api/events', { withCredentials: true }); s.onmessage = (m) => resolve('message ' + m.data); s.onerror = () => { s.close(); resolve('error'); }; }));
  await tryIt('popup storage', () => { const w = window.open(strata + '/'); return new Promise((r) => setTimeout(r, 1500)).then(() => w && w.sessionStorage.getItem('strata.token')); });
  document.getElementById('f').submit();
  await new Promise((r) => setTimeout(r, 1500));
  await tryIt('cookie after', () => document.cookie);
  window.seen = seen;
})();
</script></body></html>`;
  attacker = createServer((req, res) => {
    attackerSaw.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(page);
  });
  await new Promise<void>((r) => attacker!.listen(0, '127.0.0.1', () => r()));
  const evil = await context!.newPage();
  await evil.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
  const seen = (await evil
    .waitForFunction(() => (window as unknown as { seen?: string[][] }).seen, undefined, { timeout: 20_000 })
    .then((h) => h.jsonValue())) as string[][];
  await new Promise((r) => setTimeout(r, 1000)); // anything that got through has had time to run
  const everything = JSON.stringify(seen);
  if (process.env['STRATA_E2E_VERBOSE']) console.log(everything);
  assert.ok(!everything.includes(token), `the hostile page read the token: ${everything}`);
  const results = Object.fromEntries(seen.map(([k, v]) => [k, v]));
  assert.equal(results['cookie'], '');
  assert.equal(results['event source'], 'error');
  assert.match(results['fetch cors json'] ?? '', /^threw/, 'CORS is never granted');
  assert.match(results['fetch page'] ?? '', /^threw/);
  assert.match(results['popup storage'] ?? '', /^threw|^null$/, 'another origin cannot read the Strata tab storage');
  for (const name of ['form', 'fetch-no-cors', 'fetch-cors', 'beacon', 'xhr'])
    assert.ok(!existsSync(marker(name)), `${name}: launch.start ran for the hostile page`);
  assert.ok(attackerSaw.length > 0);
  for (const headers of attackerSaw)
    assert.ok(!JSON.stringify(headers).includes(token), `the browser sent the token to another port: ${JSON.stringify(headers)}`);
  // The Strata tab still works afterwards.
  assert.ok(await strataPage.evaluate(() => window.strata.call('app.info', {}).then(() => true)));
});

test('history holds no token (Chromium History database, after the browser closed)', async () => {
  await context!.close();
  context = null;
  const history = join(work, 'chromium-profile', 'Default', 'History');
  assert.ok(existsSync(history), 'Chromium wrote a History database');
  const urls = execFileSync('sqlite3', [history, 'SELECT url FROM urls'], { encoding: 'utf8' });
  assert.ok(urls.includes(`http://127.0.0.1:${new URL(server!.url).port}/`), `the Strata visit is in history: ${urls}`);
  assert.ok(!urls.includes(token), `History holds the token: ${urls}`);
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT } from '../helpers/strata-cli';
import { artifact, launchChromium, openPage, prepareE2e, startServer, stopServer, type StrataServer } from '../helpers/e2e-harness';

/**
 * The Sessions panel through the browser host, with the real loader, lavapipe and the validation
 * layer: the test application (tests/fixtures/apps/validation-app.c) is launched from the UI with a
 * profile, its messages arrive in the live log, the saved session opens from the history, and it is
 * compared with a run without validation. Tests run in order on one page.
 */
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const VUIDS = ['VUID-VkBufferCreateInfo-size-00912', 'VUID-vkDestroyDevice-device-00378'];

let home: TempHome;
let work: string;
let app: string;
let server: StrataServer | null = null;
let browser: Browser | null = null;
let page: Page;
const problems: string[] = [];

before(async () => {
  prepareE2e();
  home = makeTempHome();
  work = mkdtempSync(join(tmpdir(), 'strata-e2e-sessions-'));
  app = join(work, 'validation-app');
  execFileSync('gcc', ['-O1', '-Wall', '-o', app, join(APP_ROOT, 'tests', 'fixtures', 'apps', 'validation-app.c'), '-lvulkan'], { stdio: 'pipe' });
  server = await startServer(home);
  browser = await launchChromium();
  page = await openPage(browser, server.url, { viewport: { width: 1400, height: 1000 }, problems });
});

after(async () => {
  await browser?.close().catch(() => {});
  await stopServer(server);
  home?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

async function launch(profile: string | null) {
  await page.getByTestId('sessions-tab-launch').check();
  await page.getByTestId('launch-command').fill(app);
  await page.getByTestId('launch-env').fill(`VK_DRIVER_FILES=${LAVAPIPE}`);
  await page.getByTestId('launch-loader-debug').selectOption('error,warn,info');
  if (profile) await page.getByTestId('launch-profile').selectOption({ label: `${profile} (preset)` });
  else await page.getByTestId('launch-profile').selectOption('');
  const before = (await page.getByTestId('live-status').count()) ? await page.getByTestId('live-status').getAttribute('data-session') : null;
  await page.getByTestId('launch-start').click();
  // A new session, ended on its own, with the exit shown.
  await page.locator(`[data-testid="live-status"][data-ended="true"]${before ? `:not([data-session="${before}"])` : ''}`).waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('live-status').textContent()) ?? '', /exit 0/);
}

/**
 * Rows are virtualized: a search brings the rows holding `text` into the (filtered) list wherever
 * they were, and `read` runs on the log (the live one unless `log` names another) while they are
 * shown; the search is cleared after.
 */
async function whileSearched<T>(text: string, read: (log: Locator) => Promise<T>, log = 'live-log'): Promise<T> {
  const live = page.getByTestId(log);
  await live.getByTestId('log-search').fill(text);
  // The list re-renders after the input event: wait for the status to count the matches.
  await live
    .getByTestId('log-status')
    .filter({ hasNotText: /^(\S+) of \1$/ })
    .waitFor({ timeout: 5_000 });
  const value = await read(live);
  await live.getByTestId('log-search').fill('');
  await live
    .getByTestId('log-status')
    .filter({ hasText: /^(\S+) of \1$/ })
    .waitFor({ timeout: 5_000 });
  return value;
}

const findLine = (text: string) => whileSearched(text, (live) => live.getByTestId('log-line').filter({ hasText: text }).count());

test('the Sessions panel is built and opens on the Launcher', async () => {
  await page.locator('button[data-panel="sessions"]').click();
  await page.locator('h1', { hasText: 'Sessions' }).waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('button[data-panel="sessions"] .nav-soon').count(), 0);
  await page.getByTestId('launch-form').waitFor();
});

test('launch with the standard validation preset: the messages arrive in the live log with their objects and spec links', async () => {
  await launch('Validation — standard');
  const live = page.getByTestId('live-log');
  // The run has ended (launch waits for it), and the status counts both messages.
  assert.match((await page.getByTestId('live-status').textContent()) ?? '', /2 errors/);
  // Each message is in the log once, wherever the lines after it put it (the list shows only the rows in view).
  for (const vuid of VUIDS) {
    const messages = await whileSearched(vuid, (l) => l.getByTestId('log-message').allTextContents());
    assert.equal(messages.length, 1, vuid);
    assert.ok(messages[0]!.includes(`${vuid} — Validation Error`), messages[0]);
  }
  // The application's own lines and the loader's are there too.
  assert.equal(await findLine('app: start'), 1);
  assert.equal(await findLine('Vulkan Loader Version 1.3.239'), 1);
  // Follow stayed on through the searches and keeps the tail in view: the log is scrolled to its end.
  // (Which rows form the tail depends on how the app's stdout and the loader's stderr interleaved, so
  // the message itself is found by search.)
  assert.equal(await live.getByTestId('log-follow').getAttribute('aria-pressed'), 'true');
  const scroller = live.getByTestId('live-log-scroller');
  const belowView = () => scroller.evaluate((box) => box.scrollHeight - box.scrollTop - box.clientHeight);
  for (const end = Date.now() + 5_000; (await belowView()) >= 2 && Date.now() < end;) await page.waitForTimeout(50);
  assert.ok((await belowView()) < 2, `the log is not scrolled to its end: ${await belowView()} px below the view`);
  await live.getByTestId('log-search').fill(VUIDS[1]!);
  await live.getByTestId('log-message').filter({ hasText: VUIDS[1]! }).click();
  await live.getByTestId('log-search').fill('');
  const details = page.getByTestId('log-details');
  assert.equal(await details.getByTestId('log-object').count(), 2);
  assert.match((await details.getByTestId('log-object').nth(0).textContent()) ?? '', /VK_OBJECT_TYPE_DEVICE .*“strata-test-device”/);
  assert.match((await details.getByTestId('log-object').nth(1).textContent()) ?? '', /VK_OBJECT_TYPE_BUFFER .*“leaked-buffer”/);
  assert.equal(
    await details.getByTestId('log-spec-link').getAttribute('href'),
    `https://registry.khronos.org/vulkan/specs/1.3-extensions/html/vkspec.html#${VUIDS[1]}`,
  );
  // Filters: only validation messages of severity error.
  await page.getByTestId('log-source-app').uncheck();
  await page.getByTestId('log-source-loader').uncheck();
  await page.getByTestId('log-severity-error').check();
  const rows = await live.locator('.log-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  assert.ok(rows.length >= 2 && rows.filter((r) => r === 'log-message').length === 2, JSON.stringify(rows));
  assert.equal(await live.getByTestId('log-line').filter({ hasText: 'app:' }).count(), 0);
  await page.getByTestId('log-severity-error').uncheck();
  await page.getByTestId('log-source-app').check();
  await page.getByTestId('log-source-loader').check();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('sessions-live-light.png'), fullPage: true });
});

test('a second run without validation; the history opens the first and compares the two side by side', async () => {
  await launch(null);
  assert.equal(await page.getByTestId('live-log').getByTestId('log-message').count(), 0);
  await page.getByTestId('sessions-tab-history').check();
  const rows = page.getByTestId('session-row');
  await rows.nth(1).waitFor({ timeout: 15_000 });
  assert.equal(await rows.count(), 2);
  // Newest first: row 1 is the run with validation.
  await rows.nth(1).getByTestId('session-open').click();
  const opened = page.getByTestId('opened-session');
  await opened.waitFor({ timeout: 15_000 });
  assert.match((await page.getByTestId('opened-counts').textContent()) ?? '', /^2 errors/);
  assert.equal(await whileSearched('VUID-', (l) => l.getByTestId('log-message').count(), 'opened-log'), 2);

  await rows.nth(1).getByTestId('session-pick').check();
  await rows.nth(0).getByTestId('session-pick').check();
  await page.getByTestId('session-compare').click();
  const diff = page.getByTestId('session-diff');
  await diff.waitFor({ timeout: 15_000 });
  const gone = await page.getByTestId('session-diff-only-a').locator('code').allTextContents();
  assert.deepEqual(gone, VUIDS);
  assert.match((await page.getByTestId('session-diff-a').textContent()) ?? '', /VK_LAYER_KHRONOS_validation/);
  assert.doesNotMatch((await page.getByTestId('session-diff-b').textContent()) ?? '', /VK_LAYER_KHRONOS_validation/);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('sessions-diff-light.png'), fullPage: true });
  assert.deepEqual(problems, []);
});

test('files in the sessions folder that are not readable sessions are listed with why, and Delete removes each', async () => {
  const dir = join(home.env['XDG_STATE_HOME']!, 'strata', 'sessions');
  const torn = join(dir, '20200101-000000-crashed-0000.jsonl');
  writeFileSync(torn, '{"kind":"head');
  const foreign = join(dir, 'notes.jsonl');
  writeFileSync(foreign, 'not json at all\n');
  await page.getByTestId('sessions-tab-history').check();
  await page.getByRole('button', { name: 'Refresh' }).click();
  const listed = page.getByTestId('unreadable-session');
  await listed.nth(1).waitFor({ timeout: 15_000 });
  assert.deepEqual((await listed.evaluateAll((els) => els.map((e) => e.getAttribute('data-file')))).sort(), [torn, foreign].sort());
  for (const reason of await page.getByTestId('unreadable-reason').allTextContents()) assert.ok(reason.trim().length > 10, `a reason is given: "${reason}"`);
  assert.equal(await page.getByTestId('session-row').count(), 2, 'the readable sessions are still listed');
  await page.screenshot({ path: artifact('sessions-unreadable-light.png'), fullPage: true });
  await page.getByRole('button', { name: `Delete ${torn}` }).click();
  await page.locator(`[data-testid="unreadable-session"][data-file="${torn}"]`).waitFor({ state: 'detached', timeout: 15_000 });
  assert.equal(existsSync(torn), false, 'the torn file is deleted');
  await page.getByRole('button', { name: `Delete ${foreign}` }).click();
  await page.getByTestId('unreadable-sessions').waitFor({ state: 'detached', timeout: 15_000 });
  assert.equal(existsSync(foreign), false);
  assert.equal(await page.getByTestId('session-row').count(), 2, 'the sessions themselves are untouched');
  assert.deepEqual(problems, []);
});

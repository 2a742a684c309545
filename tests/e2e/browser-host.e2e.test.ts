import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { artifact, launchChromium, openPage, prepareE2e, startServer, stopServer, type StrataServer } from '../helpers/e2e-harness';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { FIRST_VIEW_BODY } from '../../shared/ipc/first-view-request';

/**
 * The whole browser-host path, for real: `bin/strata serve` with a throwaway HOME, Debian's
 * Chromium through playwright-core, the built renderer, the real loader behind app.info. Tests run
 * in order on one page (node:test runs a file's top-level tests sequentially).
 */
/*
 * The callbacks given to page.evaluate run in Chromium, but this file is checked with
 * tsconfig.node.json, which has no DOM lib on purpose (main/ must not use it). The few browser
 * globals those callbacks use are declared here, for this module only.
 */
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  body: object;
  activeElement: { id: string; tagName: string; textContent: string | null } | null;
};
declare function getComputedStyle(element: object): { backgroundColor: string };
declare function matchMedia(query: string): { matches: boolean };
declare function requestAnimationFrame(callback: () => void): number;

let home: TempHome;
let server: StrataServer | null = null;
let browser: Browser | null = null;
let page: Page;
/** Console errors, uncaught exceptions and CSP violations seen while the server was up. */
const problems: string[] = [];
let watching = true;

/** Relative luminance (WCAG) of a CSS `rgb(...)`/`rgba(...)` colour. */
function luminance(css: string): number {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
  assert.ok(m, `not an rgb() colour: ${css}`);
  const [r, g, b] = [m[1], m[2], m[3]].map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const theme = () => page.evaluate(() => document.documentElement.dataset['theme']);
/** Media-query change events reach the page asynchronously (at the next rendering step). */
const waitForTheme = (expected: 'light' | 'dark') => page.waitForFunction((t) => document.documentElement.dataset['theme'] === t, expected, { timeout: 2_000 });
/** Waits until the page sees the emulated OS scheme and has had a frame to react to it. */
const settleColorScheme = async (scheme: 'light' | 'dark') => {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((s) => matchMedia(`(prefers-color-scheme: ${s})`).matches, scheme);
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
};
const bodyBackground = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const currentPanels = () => page.locator('nav[aria-label="Panels"] [aria-current="page"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-panel')));
const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');

before(async () => {
  prepareE2e();
  home = makeTempHome();
  server = await startServer(home);
  browser = await launchChromium();
  page = await openPage(browser, server.url, { problems, watching: () => watching });
});

after(async () => {
  await browser?.close().catch(() => {});
  await stopServer(server);
  home?.cleanup();
});

test('About shows the loader version the real vulkaninfo reports, and the host environment', async () => {
  const expected = vulkaninfoInstanceVersion(home.env);
  // Layers is the default panel; About is one click away.
  await page.locator('nav[aria-label="Panels"] button[data-panel="about"]').click();
  const version = page.getByTestId('loader-version');
  await version.waitFor({ timeout: 15_000 });
  assert.equal((await version.textContent())?.trim(), expected);

  // The token moved from the fragment into sessionStorage: gone from the address bar, and no cookie.
  assert.doesNotMatch(page.url(), /token=|#/);
  assert.deepEqual(await page.context().cookies(), []);
  assert.equal(await page.title(), 'Strata');
  assert.equal(await page.locator('h1').textContent(), 'About');
  assert.match((await page.getByRole('region', { name: 'Strata', exact: true }).textContent()) ?? '', /Browser \(strata serve\)/);

  // env.summary comes from the server's environment: the temporary XDG_CONFIG_HOME, marked as set.
  const configRow = page.getByTestId('xdg-folders').locator('tr', { hasText: 'XDG_CONFIG_HOME' });
  assert.match((await configRow.textContent()) ?? '', new RegExp(`${home.env['XDG_CONFIG_HOME']!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*Set in environment`));
  // makeTempHome clears every VK_* variable, so the table's empty state shows.
  await page.getByTestId('env-vars-empty').waitFor();
});

test('theme switcher: dark and light by mouse and keyboard, System follows the OS, choice survives a reload', async () => {
  const system = await theme();
  assert.equal(system, 'light', 'the context asks for a light colour scheme and the default mode is System');

  await page.getByRole('radio', { name: 'Dark' }).click();
  assert.equal(await theme(), 'dark');
  const dark = await bodyBackground();
  assert.ok(luminance(dark) < 0.05, `dark body background is dark: ${dark}`);
  await page.mouse.move(0, 0); // no hover state in the screenshot
  await page.screenshot({ path: artifact('about-dark.png'), fullPage: true });

  // The radio just clicked has focus: ArrowLeft selects the one before it, as in any radio group.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getByRole('radio', { name: 'Light' }).isChecked(), true);
  assert.equal(await theme(), 'light');
  const light = await bodyBackground();
  assert.ok(luminance(light) > 0.8, `light body background is light: ${light}`);
  assert.notEqual(light, dark);
  await page.screenshot({ path: artifact('about-light.png'), fullPage: true });

  // A pinned theme ignores the OS; System follows it, live.
  await settleColorScheme('dark');
  assert.equal(await theme(), 'light');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getByRole('radio', { name: 'System' }).isChecked(), true);
  await waitForTheme('dark');
  await settleColorScheme('light');
  await waitForTheme('light');

  await page.getByRole('radio', { name: 'Dark' }).check();
  await page.reload();
  await page.getByTestId('layer-list').waitFor();
  assert.equal(await theme(), 'dark');
  assert.equal(await page.getByRole('radio', { name: 'Dark' }).isChecked(), true);
});

test('keyboard: skip link, Alt+digit shortcuts, roving focus in the sidebar, aria-current follows', async () => {
  // A fresh load, so Tab starts from the top of the document.
  await page.reload();
  await page.getByTestId('layer-list').waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await focusedText(), 'Skip to main content');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');

  assert.deepEqual(await currentPanels(), ['layers'], 'Layers is the default panel');
  await page.keyboard.press('Alt+3');
  assert.deepEqual(await currentPanels(), ['drivers']);
  assert.equal(await page.locator('h1').textContent(), 'Drivers & Devices');
  // Focus moved to the new panel's heading.
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
  await page.getByTestId('drivers-devices').waitFor();

  // One Tab stop in the list: the open panel.
  const tabbable = page.locator('nav[aria-label="Panels"] button[tabindex="0"]');
  assert.equal(await tabbable.count(), 1);
  assert.equal(await tabbable.getAttribute('data-panel'), 'drivers');

  await tabbable.focus();
  await page.keyboard.press('ArrowDown');
  assert.match(await focusedText(), /^Profiles/);
  assert.deepEqual(await currentPanels(), ['drivers'], 'arrows move focus, they do not open');
  await page.keyboard.press('Enter');
  assert.deepEqual(await currentPanels(), ['profiles']);
  assert.equal(await page.locator('h1').textContent(), 'Profiles');
  await page.getByTestId('profiles-view').waitFor();
  await page.screenshot({ path: artifact('profiles-panel-dark.png') });

  await page.locator('nav[aria-label="Panels"] button[tabindex="0"]').focus();
  await page.keyboard.press('Home');
  assert.match(await focusedText(), /^Layers/);
  await page.keyboard.press('ArrowUp'); // wraps to the end
  assert.match(await focusedText(), /^About/);
  await page.keyboard.press(' ');
  assert.deepEqual(await currentPanels(), ['about']);
  await page.getByTestId('loader-version').waitFor();
});

test('first view (issue #19): discovery is asked once, as the page starts; the status strip and profile menu ask after its answer', async () => {
  const fresh = await browser!.newPage();
  try {
    // Every /api/ request and response, in the order the browser saw them.
    const seen: string[] = [];
    const channel = (url: string) => /^\/api\/(.+)$/.exec(new URL(url).pathname)?.[1];
    const bodies: (string | null)[] = [];
    fresh.on('request', (r) => {
      const c = channel(r.url());
      if (c) seen.push(`request ${decodeURIComponent(c)}`);
      if (c === 'discovery.manifests') bodies.push(r.postData());
    });
    fresh.on('response', (r) => {
      const c = channel(r.url());
      if (c) seen.push(`response ${decodeURIComponent(c)}`);
    });
    const answered = Promise.all(['activity.status', 'profiles.list'].map((c) => fresh.waitForResponse((r) => channel(r.url()) === c, { timeout: 30_000 })));
    await fresh.goto(server!.url);
    await answered;
    await fresh
      .getByTestId('layer-count')
      .filter({ hasText: /\d+ layers/ })
      .waitFor({ timeout: 30_000 });
    assert.equal(seen.filter((e) => e === 'request discovery.manifests').length, 1, seen.join('\n'));
    assert.deepEqual(bodies, [FIRST_VIEW_BODY], 'it takes the answer the server keeps (its warm-up scanned)');
    const discovered = seen.indexOf('response discovery.manifests');
    assert.ok(discovered >= 0, seen.join('\n'));
    for (const c of ['activity.status', 'profiles.list'])
      assert.ok(seen.indexOf(`request ${c}`) > discovered, `${c} asked before discovery answered:\n${seen.join('\n')}`);
  } finally {
    await fresh.close();
  }
});

test('no console errors, uncaught exceptions or CSP violations', () => {
  assert.deepEqual(problems, []);
});

test('a host.notice (sent when the server stops) shows in a dismissible alert', async () => {
  watching = false; // from here on the event stream's reconnect attempts fail, by design
  await stopServer(server);
  const alert = page.getByRole('alert').filter({ hasText: 'The Strata server has stopped' });
  await alert.waitFor({ timeout: 5_000 });
  await alert.getByRole('button', { name: /^Dismiss/ }).click();
  await alert.waitFor({ state: 'detached', timeout: 2_000 });
});

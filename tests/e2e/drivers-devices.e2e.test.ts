import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { makeTempHome } from '../helpers/temp-home';
import { artifact, launchChromium, openPage, prepareE2e, startServer, stopServer, type StrataServer } from '../helpers/e2e-harness';
import { parseVulkaninfoSummary, runVulkaninfo, vulkaninfoInstanceVersion } from '../helpers/real-vulkan';

/**
 * The Drivers & Devices panel against the real loader and lavapipe: `bin/strata serve` started with
 * VK_DRIVER_FILES naming only lavapipe (compared with what `vulkaninfo --summary` prints in the
 * same environment), then a second server whose only driver manifest names a library that does not
 * exist. Debian's Chromium through playwright-core, as in browser-host.e2e.test.ts.
 */
/* Browser globals used inside page.evaluate callbacks (tsconfig.node.json has no DOM lib on purpose). */
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  activeElement: { textContent: string | null; getAttribute(name: string): string | null } | null;
  querySelector(selector: string): { scrollHeight: number } | null;
};
declare class MutationObserver {
  constructor(callback: (records: { target: { getAttribute(name: string): string | null } }[]) => void);
  observe(target: object, options: { attributes: boolean; attributeFilter: string[] }): void;
}
declare const window: { __busySeen?: (string | null)[] };

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

let browser: Browser | null = null;
let good: StrataServer | null = null;
let broken: StrataServer | null = null;
let page: Page;
/** Console errors, uncaught exceptions and CSP violations, on every page of this file. */
const problems: string[] = [];

/** A page at `url`, recording into `problems`, once the app has drawn its panel list. */
async function openApp(url: string, colorScheme: 'light' | 'dark'): Promise<Page> {
  const p = await openPage(browser!, url, { colorScheme, problems });
  await p.locator('nav[aria-label="Panels"]').waitFor({ timeout: 15_000 });
  return p;
}

const setTheme = async (p: Page, mode: 'Light' | 'Dark') => {
  await p.getByRole('radio', { name: mode }).check();
  await p.waitForFunction((t) => document.documentElement.dataset['theme'] === t, mode.toLowerCase());
  await p.mouse.move(0, 0);
};
/** The app scrolls inside <main>, so fullPage alone stops at the window: grow the window to the content first. */
async function screenshot(p: Page, name: string) {
  const height = await p.evaluate(() => document.querySelector('.main')?.scrollHeight ?? 960);
  await p.setViewportSize({ width: 1280, height: Math.max(960, Math.ceil(height)) });
  await p.screenshot({ path: artifact(name) });
  await p.setViewportSize({ width: 1280, height: 960 });
}
const focusedText = (p: Page) => p.evaluate(() => document.activeElement?.textContent ?? '');
/** Waits until no refresh is out (aria-busy on the panel is false). */
const idle = (p: Page) => p.locator('[data-testid="drivers-devices"][aria-busy="false"]').waitFor({ timeout: 30_000 });

before(async () => {
  prepareE2e();
  browser = await launchChromium();
  good = await startServer(makeTempHome({ VK_DRIVER_FILES: LAVAPIPE }));
  page = await openApp(good.url, 'light');
});

after(async () => {
  await browser?.close().catch(() => {});
  for (const s of [good, broken]) {
    await stopServer(s);
    s?.home.cleanup();
  }
});

test('the panel shows the llvmpipe device with the deviceName and driverName vulkaninfo prints, and the loader version', async () => {
  const summary = parseVulkaninfoSummary(runVulkaninfo(['--summary'], good!.home.env));
  assert.equal(summary.devices.length, 1, 'vulkaninfo sees exactly lavapipe in this environment');
  const expected = summary.devices[0]!;
  assert.match(expected['deviceName'] ?? '', /^llvmpipe/);

  await page.keyboard.press('Alt+3');
  assert.equal(await page.locator('h1').textContent(), 'Drivers & Devices');
  const card = page.getByTestId('device-card');
  await card.first().waitFor({ timeout: 30_000 });
  await idle(page);
  assert.equal(await card.count(), 1);
  assert.equal(await card.getByTestId('device-name').textContent(), expected['deviceName']);
  assert.equal(await card.getByTestId('device-driver-name').textContent(), expected['driverName']);
  assert.match((await card.getByTestId('device-vendor').textContent()) ?? '', /^Mesa \(0x10005\)$/);
  assert.match((await card.getByTestId('memory-heaps').textContent()) ?? '', /Heap 0.*GiB.*Device-local/);
  assert.match((await card.getByTestId('queue-families').textContent()) ?? '', /Family 0.*Graphics.*Compute.*Transfer/);
  assert.equal((await page.getByTestId('dd-loader-version').textContent())?.trim(), vulkaninfoInstanceVersion(good!.home.env));
});

test("lavapipe's driver row shows a negotiated interface version and OK", async () => {
  const rows = page.getByTestId('driver-row');
  assert.equal(await rows.count(), 1);
  const row = page.locator(`[data-testid="driver-row"][data-manifest="${LAVAPIPE}"]`);
  assert.equal(await row.getAttribute('data-ok'), 'true');
  const iface = ((await row.getByTestId('driver-interface').textContent()) ?? '').trim();
  const m = /^(\d+)of (\d+) offered/.exec(iface);
  assert.ok(m, `interface cell: ${iface}`);
  assert.ok(Number(m[1]) >= 2 && Number(m[1]) <= Number(m[2]), `negotiated ${m[1]} of ${m[2]}`);
  assert.match((await row.getByTestId('driver-result').textContent()) ?? '', /^OK\s*VK_SUCCESS$/);
  assert.match((await row.getByTestId('driver-library').textContent()) ?? '', /libvulkan_lvp\.so$/);
  assert.match((await page.getByTestId('drivers-source').textContent()) ?? '', /from VK_DRIVER_FILES/);
  assert.equal(await page.getByTestId('driver-error').count(), 0);
});

test('the extension list expands and filters', async () => {
  const ext = page.getByTestId('device-extensions');
  const total = Number(await ext.getByTestId('extension-count').textContent());
  assert.ok(total > 50, `lavapipe offers many device extensions: ${total}`);
  const toggle = ext.getByRole('button', { name: /Device extensions/ });
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  assert.equal(await ext.getByRole('listitem').count(), total);
  await toggle.blur();
  await page.mouse.move(0, 0);
  await screenshot(page, 'drivers-devices-light.png');

  await ext.getByRole('searchbox').fill('driver_prop');
  assert.deepEqual(await ext.getByRole('listitem').locator('code').allTextContents(), ['VK_KHR_driver_properties']);
  assert.match((await ext.locator('.ext-shown').textContent()) ?? '', new RegExp(`^1 of ${total} match$`));
  await ext.getByRole('searchbox').fill('');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter'); // collapse again from the toggle
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
});

test('Refresh works by keyboard: asks both channels again, reports busy, keeps focus, announces the result', async () => {
  // Opening the panel focuses its heading; the Refresh button is the next Tab stop.
  await page.keyboard.press('Alt+9');
  await page.keyboard.press('Alt+3');
  await idle(page);
  await page.keyboard.press('Tab');
  assert.equal((await focusedText(page)).trim(), 'Refresh');

  const asked: string[] = [];
  page.on('request', (r) => {
    const m = /\/api\/(devices\.list|drivers\.negotiate|loader\.info)$/.exec(r.url());
    if (m) asked.push(m[1]!);
  });
  await page.evaluate(() => {
    window.__busySeen = [];
    const view = document.querySelector('[data-testid="drivers-devices"]')!;
    new MutationObserver((records) => {
      for (const r of records) window.__busySeen!.push(r.target.getAttribute('aria-busy'));
    }).observe(view, { attributes: true, attributeFilter: ['aria-busy'] });
  });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (window.__busySeen ?? []).includes('false'), undefined, { timeout: 30_000 });
  assert.deepEqual(await page.evaluate(() => window.__busySeen), ['true', 'false']);
  assert.deepEqual([...asked].sort(), ['devices.list', 'drivers.negotiate', 'loader.info']);
  assert.equal((await focusedText(page)).trim(), 'Refresh', 'focus stays on the button');
  assert.equal(await page.getByTestId('dd-status').textContent(), 'Updated: 1 driver; 1 physical device.');
  assert.equal(await page.getByTestId('device-card').count(), 1);

  await setTheme(page, 'Dark');
  await screenshot(page, 'drivers-devices-dark.png');
});

test('a driver whose library does not exist: an error card with the fix, and the device error with Retry', async () => {
  const home = makeTempHome();
  const manifest = join(home.dir, 'broken_icd.json');
  writeFileSync(
    manifest,
    JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: join(home.dir, 'no-such-dir', 'libvulkan_missing.so'), api_version: '1.3.239' } }),
  );
  home.env['VK_DRIVER_FILES'] = manifest;
  broken = await startServer(home);
  const p = await openApp(broken.url, 'light');
  await p.keyboard.press('Alt+3');
  await p.getByTestId('driver-error').waitFor({ timeout: 30_000 });
  await idle(p);

  const row = p.getByTestId('driver-row');
  assert.equal(await row.getAttribute('data-ok'), 'false');
  assert.match((await row.getByTestId('driver-result').textContent()) ?? '', /^Failed\s*driver\/library-not-found$/);
  const card = p.getByTestId('driver-error');
  assert.equal(await card.getAttribute('data-manifest'), manifest);
  const text = (await card.textContent()) ?? '';
  assert.match(text, /broken_icd\.json cannot be used/);
  assert.match(text, /the library does not exist/);
  assert.match(text, /\. Fix: reinstall the driver, or correct "library_path"/);
  assert.match(text, /Error code driver\/library-not-found/);

  // No driver works, so creating the instance fails as a whole: its error, with a way to retry.
  const devicesError = p.getByTestId('devices-error');
  assert.match((await devicesError.textContent()) ?? '', /VK_ERROR_INCOMPATIBLE_DRIVER.*Fix: .*VK_DRIVER_FILES.*vulkan\/incompatible-driver/);
  await screenshot(p, 'drivers-devices-broken-light.png');

  let retried = 0;
  p.on('request', (r) => {
    if (r.url().endsWith('/api/devices.list')) retried++;
  });
  await devicesError.getByRole('button', { name: 'Retry' }).focus();
  await p.keyboard.press('Enter');
  await p
    .locator('[data-testid="drivers-devices"][aria-busy="true"]')
    .waitFor({ timeout: 5_000 })
    .catch(() => {});
  await idle(p);
  assert.equal(retried, 1);
  await p.getByTestId('devices-error').waitFor();

  await setTheme(p, 'Dark');
  await screenshot(p, 'drivers-devices-broken-dark.png');
  await p.context().close();
});

test('no console errors, uncaught exceptions or CSP violations', () => {
  assert.deepEqual(problems, []);
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { launchChromium, openPage, prepareE2e, startServer, stopServer, type StrataServer } from '../helpers/e2e-harness';

/**
 * The header's profile switcher through the browser host (`bin/strata serve`, a throwaway HOME,
 * Debian's Chromium and its validation layer): a preset picked with the keyboard becomes the Layers
 * editor's draft (unsaved, shown in the chain preview, nothing written); an edit marks it "(edited)",
 * and picking another profile then asks first.
 */
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
declare const document: { querySelector(s: string): { getAttribute(n: string): string | null } | null };

let home: TempHome;
let server: StrataServer | null = null;
let browser: Browser | null = null;
let page: Page;
const problems: string[] = [];

const switcher = () => page.getByTestId('profile-switcher');
const waitSource = (key: string) =>
  page.waitForFunction((k) => document.querySelector('[data-testid="profile-switcher"]')?.getAttribute('data-source') === k, key, { timeout: 20_000 });
const validationRow = () => page.locator(`[data-testid="layer-row"][data-layer="${VALIDATION}"]`);

before(async () => {
  prepareE2e();
  home = makeTempHome();
  server = await startServer(home);
  browser = await launchChromium();
  page = await openPage(browser, server.url, { viewport: { width: 1400, height: 1000 }, problems });
});

after(async () => {
  await browser?.close().catch(() => {});
  await stopServer(server);
  home?.cleanup();
});

test('a preset picked in the header with the keyboard becomes the Layers draft, and the chain preview shows it', async () => {
  const select = page.getByLabel('Profile', { exact: true });
  await page.waitForFunction(() => document.querySelector('[data-testid="profile-switcher-select"]')?.getAttribute('disabled') === null, undefined, {
    timeout: 20_000,
  });
  assert.equal(await select.inputValue(), 'global', 'the draft is the global override, from no profile yet');
  await select.focus();
  await page.keyboard.press('ArrowDown');
  await waitSource('preset:validation-standard');
  assert.equal(await select.inputValue(), 'preset:validation-standard');

  await page.locator('button[data-panel="layers"]').click();
  await validationRow().waitFor({ timeout: 20_000 });
  await page.waitForFunction((n) => document.querySelector(`[data-testid="layer-row"][data-layer="${n}"]`)?.getAttribute('data-state') === 'on', VALIDATION, {
    timeout: 10_000,
  });
  assert.match((await page.getByTestId('draft-state').textContent()) ?? '', /Unsaved changes/);
  await page.getByTestId('nav-unsaved').waitFor();
  await page.locator(`[data-testid="chain-preview"] [data-testid="chain-node"][data-layer="${VALIDATION}"]`).waitFor({ timeout: 10_000 });
  assert.equal(await switcher().getAttribute('data-edited'), 'false');
  assert.ok(!existsSync(join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d', 'VkLayer_override.json')), 'nothing is applied by the switcher');
});

test('an edited draft says so, and picking another profile asks before replacing it', async () => {
  await validationRow().getByTestId('layer-state').selectOption('off');
  await page.waitForFunction(() => document.querySelector('[data-testid="profile-switcher"]')?.getAttribute('data-edited') === 'true');
  assert.equal(await page.getByTestId('profile-switcher-state').textContent(), '(edited)');

  const select = page.getByLabel('Profile', { exact: true });
  await select.focus();
  await page.keyboard.press('ArrowDown');
  const dialog = page.getByTestId('profile-switch-dialog');
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await validationRow().getAttribute('data-state'), 'off', 'kept: the question was declined');
  assert.equal(await select.inputValue(), 'preset:validation-standard');

  await select.focus();
  await page.keyboard.press('ArrowDown');
  await dialog.getByTestId('profile-switch-confirm').click();
  await waitSource('preset:validation-synchronization');
  await page.waitForFunction((n) => document.querySelector(`[data-testid="layer-row"][data-layer="${n}"]`)?.getAttribute('data-state') === 'on', VALIDATION, {
    timeout: 10_000,
  });
  assert.equal(await switcher().getAttribute('data-edited'), 'false');
  assert.deepEqual(problems, []);
});

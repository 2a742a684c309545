import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { layoutDefects, unnamedControls } from '../helpers/ui-audit';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';

/**
 * The settings editor of a layer, in Debian's Chromium against the browser host: the validation
 * layer's form from its real manifest, by keyboard only: search, an invalid value (inline message,
 * aria-invalid, aria-describedby), a valid one (the preview shows the exact line and variable),
 * dependence (disabled, with the reason), reset, and an export as a download. Screenshots in both
 * themes. The Layers editor's own e2e applies settings to disk.
 */
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  getElementById(id: string): { textContent: string | null } | null;
  querySelectorAll(s: string): ArrayLike<{
    tagName: string;
    id: string;
    getAttribute(n: string): string | null;
    labels?: ArrayLike<{ textContent: string | null }> | null;
    textContent: string | null;
  }>;
};

declare function getComputedStyle(element: object): { overflowY: string };

const VALIDATION = 'VK_LAYER_KHRONOS_validation';
let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
const problems: string[] = [];
let restoreEnv: (() => void) | undefined;

before(async () => {
  prepareE2e();
  home = makeTempHome();
  // Chromium and the child processes inherit this process's environment: keep their caches out of the real home.
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { viewport: { width: 1440, height: 1100 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv?.();
  home?.cleanup();
});

test('the validation layer settings form: search, inline validation, preview, dependence, reset and export, by keyboard', { timeout: 90_000 }, async () => {
  const row = page.locator(`[data-testid="layer-row"][data-layer="${VALIDATION}"]`);
  await row.waitFor({ timeout: 20_000 });
  await row.click();
  const form = page.getByRole('region', { name: `Settings of ${VALIDATION}` });
  await form.waitFor();
  assert.match((await form.locator('.settings-count').textContent()) ?? '', /^18 settings/);
  assert.deepEqual(await unnamedControls(page, 'section.settings-editor'), [], 'every control of the form has an accessible name');

  const search = form.getByLabel(`Search the settings of ${VALIDATION}`);
  await search.focus();
  await page.keyboard.type('duplicate');
  assert.match((await form.locator('.settings-count').textContent()) ?? '', /2 of 18 settings match/);

  const limit = form.getByRole('textbox', { name: 'Max Duplicated Messages', exact: true });
  await limit.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('0');
  assert.equal(await limit.getAttribute('aria-invalid'), 'true');
  const describedBy = (await limit.getAttribute('aria-describedby')) ?? '';
  const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
  assert.ok(errorId, `aria-describedby names the message: ${describedBy}`);
  assert.equal(await page.locator(`[id="${errorId}"]`).textContent(), 'Must be at least 1');
  assert.ok(
    !((await form.locator('.settings-preview').textContent()) ?? '').includes('duplicate_message_limit = 0'),
    'an invalid value never reaches the draft',
  );

  await page.keyboard.press('Backspace');
  await page.keyboard.type('3');
  assert.equal(await limit.getAttribute('aria-invalid'), null);
  const preview = form.locator('.settings-preview');
  await preview.getByText('khronos_validation.duplicate_message_limit = 3').waitFor();
  assert.match((await preview.textContent()) ?? '', /VK_LAYER_DUPLICATE_MESSAGE_LIMIT=3/);
  await page.screenshot({ path: artifact('settings-editor-light.png') });
  await page.getByRole('radio', { name: 'Dark' }).check();
  await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
  await page.screenshot({ path: artifact('settings-editor-dark.png') });
  await page.getByRole('radio', { name: 'Light' }).check();

  // Dependence: with the limit switched off, the maximum is disabled and says why.
  const enable = form.getByRole('checkbox', { name: 'Limit Duplicated Messages', exact: true });
  await enable.focus();
  await page.keyboard.press('Space');
  assert.equal(await limit.isDisabled(), true);
  await form.getByText('Needs Limit Duplicated Messages to be on').waitFor();

  // Export as a download: the same text `strata settings export` writes.
  const download = page.waitForEvent('download');
  await form.getByRole('button', { name: `Export the settings of ${VALIDATION} as vk_layer_settings.txt` }).press('Enter');
  const file = await download;
  assert.equal(file.suggestedFilename(), 'vk_layer_settings.txt');
  const text = readFileSync((await file.path())!, 'utf8');
  assert.match(text, /^khronos_validation\.enable_message_limit = false$/m);

  // Reset both by keyboard: the preview says nothing is written for the layer.
  for (const name of ['Reset Limit Duplicated Messages to its default (true)', 'Reset Max Duplicated Messages to its default (10)'])
    await form.getByRole('button', { name }).press('Enter');
  await preview.getByText('Every setting is at its default').waitFor();
  assert.deepEqual(problems, []);
});

test(
  'the Settings view: a wide tree that scrolls by itself beside the text written; a preset applied shows in the Apply summary and lands on disk as previewed',
  { timeout: 90_000 },
  async () => {
    await page.keyboard.press('Alt+6');
    await page.getByTestId('settings-view').waitFor({ timeout: 15_000 });
    await page.locator(`[data-testid="settings-layer"][data-layer="${VALIDATION}"]`).click();
    const form = page.getByRole('region', { name: `Settings of ${VALIDATION}` });
    await form.waitFor();
    // The tree is wide and scrolls in its own box: the page itself does not grow with it.
    const list = form.getByTestId('settings-list');
    const box = await list.evaluate((e) => {
      const el = e as unknown as { scrollHeight: number; clientHeight: number; clientWidth: number };
      return { scroll: el.scrollHeight, client: el.clientHeight, width: el.clientWidth, overflowY: getComputedStyle(e).overflowY };
    });
    assert.equal(box.overflowY, 'auto');
    assert.ok(box.scroll > box.client, `the tree scrolls by itself (${box.scroll} > ${box.client})`);
    assert.ok(box.width >= 500, `the tree is wide (the Layers side column gave it 365px): ${box.width}px`);
    assert.deepEqual(await layoutDefects(page), []);
    assert.deepEqual(await unnamedControls(page), []);

    await form.getByLabel(`Apply a preset of ${VALIDATION}`).selectOption({ label: 'Reduced-Overhead' });
    const changed = page.locator(`[data-testid="settings-layer"][data-layer="${VALIDATION}"] [data-testid="settings-layer-changed"]`);
    await changed.waitFor();
    const count = Number(/(\d+) set/.exec((await changed.textContent()) ?? '')?.[1]);
    assert.ok(count > 0);
    const previewed = ((await form.locator('.settings-preview-text').textContent()) ?? '').split('\n').filter((l) => l.startsWith('khronos_validation.'));
    assert.ok(previewed.length > 0);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: artifact('settings-view-light.png') });

    // Apply: the summary lists each setting changed; the file written holds exactly the lines previewed.
    await page.getByTestId('draft-apply').click();
    await page.getByTestId('apply-confirm').waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('apply-setting-change').count(), count);
    const settingsFile = await page.locator('[data-testid="apply-file"][aria-label^="Layer settings:"]').getAttribute('data-path');
    assert.ok(settingsFile);
    await page.getByTestId('apply-confirm').click();
    await page.getByTestId('apply-confirm').waitFor({ state: 'detached', timeout: 15_000 });
    const written = readFileSync(settingsFile, 'utf8').split('\n');
    for (const line of previewed) assert.ok(written.includes(line), `${line} is in ${settingsFile}`);
    assert.equal(written.filter((l) => l.startsWith('khronos_validation.')).length, previewed.length);
    assert.deepEqual(problems, []);
  },
);

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, STRATA_BIN } from '../helpers/strata-cli';
import { artifact, closeApp, openApp, prepareE2e, type E2eApp } from '../helpers/e2e-harness';

/**
 * The Chain panel through the browser host: `bin/strata serve` in a throwaway HOME; the diagram's
 * layers are checked against `strata explain --json` for the same environment and request.
 */
declare const document: { documentElement: { dataset: Record<string, string | undefined> } };

let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
const problems: string[] = [];

interface ExplainJson {
  result: string;
  chain: { name: string }[];
  excluded: { name: string; reasons: { message: string }[] }[];
}
/** `strata explain --json` for the server's environment (exit 1 when vkCreateInstance would fail). */
function explainJson(layers: string): ExplainJson {
  try {
    return JSON.parse(
      execFileSync(process.execPath, [STRATA_BIN, 'explain', '--enable-layers', layers, '--json'], { cwd: APP_ROOT, env: home.env, encoding: 'utf8' }),
    );
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    if (!out) throw e;
    return JSON.parse(out);
  }
}
const diagramNames = () => page.getByTestId('chain-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')));
const setTheme = async (name: 'Light' | 'Dark') => {
  await page.getByRole('radio', { name }).check();
  await page.waitForFunction((t) => document.documentElement.dataset['theme'] === t, name.toLowerCase());
};
const explain = async (layers: string) => {
  await page.getByTestId('chain-layers-input').fill(layers);
  await page.getByTestId('chain-explain').click();
};

before(async () => {
  prepareE2e();
  home = makeTempHome();
  app = await openApp(home, { viewport: { width: 1400, height: 1000 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  home?.cleanup();
});

test('Alt+2 opens Chain; requesting VK_LAYER_KHRONOS_validation draws the same layers in the same order as `strata explain --json`', async () => {
  await page.getByTestId('layer-list').waitFor({ timeout: 15_000 });
  await page.keyboard.press('Alt+2');
  assert.equal(await page.locator('h1').textContent(), 'Chain');
  await page.getByTestId('chain-diagram').waitFor({ timeout: 15_000 });
  // The picker offers the explicit layers; pressing one fills the field.
  await page.locator('[data-testid="chain-chip"][data-layer="VK_LAYER_KHRONOS_validation"]').click();
  assert.equal(await page.getByTestId('chain-layers-input').inputValue(), 'VK_LAYER_KHRONOS_validation');
  assert.equal(await page.locator('[data-testid="chain-chip"][data-layer="VK_LAYER_KHRONOS_validation"]').getAttribute('aria-pressed'), 'true');
  await page.getByTestId('chain-explain').click();
  await page.locator('[data-testid="chain-node"][data-layer="VK_LAYER_KHRONOS_validation"]').waitFor();

  const cli = explainJson('VK_LAYER_KHRONOS_validation');
  assert.equal(cli.result, 'VK_SUCCESS');
  assert.ok(cli.chain.length > 0);
  assert.deepEqual(
    await diagramNames(),
    cli.chain.map((l) => l.name),
  );
  assert.equal(await page.getByTestId('chain-result').getAttribute('data-result'), 'VK_SUCCESS');
  assert.match((await page.getByTestId('chain-result').textContent()) ?? '', /VK_SUCCESS/);
  // Each layer box carries its badge and first reason; the validation layer was asked for.
  const validation = (await page.locator('[data-testid="chain-node"][data-layer="VK_LAYER_KHRONOS_validation"]').textContent()) ?? '';
  assert.match(validation, /explicit/);
  assert.match(validation, /Requested by the application/);
  // The excluded list matches the CLI's.
  assert.deepEqual(
    await page.getByTestId('chain-excluded').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer'))),
    cli.excluded.map((e) => e.name),
  );
  await setTheme('Light');
  await page.screenshot({ path: artifact('chain-light.png'), fullPage: true });
});

test('an excluded layer’s reason appears on keyboard focus and is its accessible description', async () => {
  const item = page.getByTestId('chain-excluded').first();
  const tip = page.getByTestId('chain-excluded-reason').first();
  await setTheme('Dark');
  assert.equal(await tip.isVisible(), false, 'hidden until hover or focus');
  await item.focus();
  await tip.waitFor({ state: 'visible' });
  const cli = explainJson('VK_LAYER_KHRONOS_validation');
  const first = cli.excluded[0]!;
  const text = (await tip.textContent()) ?? '';
  assert.ok(text.toLowerCase().includes(first.reasons[0]!.message.toLowerCase()), `${text} has ${first.reasons[0]!.message}`);
  const describedBy = await item.getAttribute('aria-describedby');
  assert.equal(await tip.getAttribute('id'), describedBy);
  await page.screenshot({ path: artifact('chain-dark.png'), fullPage: true });
  await page.keyboard.press('Tab'); // focus leaves: the tooltip goes
  await page.mouse.move(0, 0);
  await tip.waitFor({ state: 'hidden' });
});

test('Export SVG downloads the diagram as a stand-alone SVG file', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('chain-export').click()]);
  assert.equal(download.suggestedFilename(), 'strata-layer-chain.svg');
  const svg = readFileSync((await download.path())!, 'utf8');
  assert.match(svg, /^<\?xml[^>]*>\s*<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.ok(svg.includes('VK_LAYER_KHRONOS_validation'));
  assert.ok(!/<script/i.test(svg));
  assert.match(svg, /fill="rgb\(/, 'theme colours are inlined');
});

test('a layer that does not exist gives the VK_ERROR_LAYER_NOT_PRESENT badge and no chain', async () => {
  await explain('VK_LAYER_KHRONOS_validation, VK_LAYER_STRATA_does_not_exist');
  await page.locator('[data-testid="chain-result"][data-result="VK_ERROR_LAYER_NOT_PRESENT"]').waitFor();
  assert.match((await page.getByTestId('chain-result').textContent()) ?? '', /VK_ERROR_LAYER_NOT_PRESENT/);
  assert.deepEqual(await diagramNames(), []);
  assert.equal(explainJson('VK_LAYER_KHRONOS_validation,VK_LAYER_STRATA_does_not_exist').result, 'VK_ERROR_LAYER_NOT_PRESENT');
  const missing = page.locator('[data-testid="chain-excluded"][data-layer="VK_LAYER_STRATA_does_not_exist"]');
  await missing.focus();
  const tip = page.locator('[data-testid="chain-excluded"][data-layer="VK_LAYER_STRATA_does_not_exist"] + [role="tooltip"]');
  await tip.waitFor({ state: 'visible' });
  assert.match((await tip.textContent()) ?? '', /fails with VK_ERROR_LAYER_NOT_PRESENT/);
  await page.screenshot({ path: artifact('chain-missing-dark.png'), fullPage: true });
});

test('no console errors, uncaught exceptions or CSP violations', () => {
  assert.deepEqual(problems, []);
});

test('the loader selector models another loader, and "differs on" names the loaders that would give another chain', async () => {
  await page.keyboard.press('Alt+2');
  await page.getByTestId('chain-view').waitFor();
  await explain('VK_LAYER_KHRONOS_validation');
  const select = page.getByTestId('chain-loader-select');
  assert.match((await select.locator('option').allTextContents()).join('\n'), /1\.3\.275 — Ubuntu 24\.04\n[\s\S]*1\.4\.359 — newest release/);
  // Debian's layers alone give the same chain on every loader of the matrix.
  const differs = page.locator('[data-testid="chain-differs"]:visible');
  await differs.waitFor();
  assert.match(await differs.innerText(), /Same chain on every loader/);
  await select.selectOption('1.4.359');
  await page.waitForFunction(() =>
    /loader 1\.4\.359/i.test(String((globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText)),
  );
  await page.screenshot({ path: artifact('chain-loader-selector.png') });
  await select.selectOption('');
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, STRATA_BIN } from '../helpers/strata-cli';
import { artifact, closeApp, openApp, prepareE2e, type E2eApp } from '../helpers/e2e-harness';

/**
 * Layers and Problems through the browser host, for real: `bin/strata serve` in a throwaway HOME
 * with three manifests of our own beside Debian's installed layers; what the UI shows is checked
 * against `strata lint --json` for the same environment. Tests run in order on one page.
 */
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  activeElement: { getAttribute(name: string): string | null; tagName: string } | null;
};
interface ScrollBox {
  scrollTop: number;
  clientHeight: number;
  getBoundingClientRect(): { top: number; bottom: number };
}

const VALIDATION_LIBRARY = '/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so';

const GOOD = `{
  "file_format_version": "1.2.0",
  "layer": {
    "name": "VK_LAYER_STRATA_e2e_good",
    "type": "GLOBAL",
    "library_path": "./libVkLayer_strata_e2e_good.so",
    "api_version": "1.3.239",
    "implementation_version": "7",
    "description": "A valid explicit layer written by the e2e test"
  }
}
`;
// The trailing comma after "name" makes it invalid JSON; the parser reports it at the "}".
const BROKEN = `{
  "file_format_version": "1.2.0",
  "layer": {
    "name": "VK_LAYER_STRATA_e2e_broken",
  }
}
`;
const IMPLICIT = `{
  "file_format_version": "1.2.0",
  "layer": {
    "name": "VK_LAYER_STRATA_e2e_implicit",
    "type": "GLOBAL",
    "library_path": "./libVkLayer_strata_e2e_implicit.so",
    "api_version": "1.3.239",
    "implementation_version": "1",
    "description": "An implicit layer without disable_environment"
  }
}
`;

interface LintDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  code: string;
  message: string;
}

let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
let lint: { uri: string; diagnostics: LintDiagnostic[] }[];
const problems: string[] = [];
const paths = { good: '', broken: '', implicit: '' };

/** `strata lint --json` for the server's environment (exit 1: there are errors, as intended). */
function lintJson(): typeof lint {
  try {
    return JSON.parse(execFileSync(process.execPath, [STRATA_BIN, 'lint', '--json'], { cwd: APP_ROOT, env: home.env, encoding: 'utf8' }));
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    if (!out) throw e;
    return JSON.parse(out);
  }
}

function lintDiagnostic(path: string, code: string): LintDiagnostic {
  const d = lint.find((f) => f.uri === path)?.diagnostics.find((x) => x.code === code);
  assert.ok(d, `strata lint --json reports ${code} for ${path}: ${JSON.stringify(lint.map((f) => [f.uri, f.diagnostics.map((x) => x.code)]))}`);
  return d;
}

const setTheme = async (name: 'Light' | 'Dark') => {
  await page.getByRole('radio', { name }).check();
  await page.waitForFunction((t) => document.documentElement.dataset['theme'] === t, name.toLowerCase());
};
const layerNames = () => page.getByTestId('layer-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')));

before(async () => {
  prepareE2e();
  home = makeTempHome();
  const config = home.env['XDG_CONFIG_HOME']!;
  const explicitDir = join(config, 'vulkan', 'explicit_layer.d');
  const implicitDir = join(config, 'vulkan', 'implicit_layer.d');
  mkdirSync(explicitDir, { recursive: true });
  mkdirSync(implicitDir, { recursive: true });
  paths.good = join(explicitDir, 'strata_e2e_good.json');
  paths.broken = join(explicitDir, 'strata_e2e_broken.json');
  paths.implicit = join(implicitDir, 'strata_e2e_implicit.json');
  writeFileSync(paths.good, GOOD);
  writeFileSync(paths.broken, BROKEN);
  writeFileSync(paths.implicit, IMPLICIT);
  // Real libraries where the manifests' relative library_path points: a clean layer names a library that loads (library/* lint).
  symlinkSync(VALIDATION_LIBRARY, join(explicitDir, 'libVkLayer_strata_e2e_good.so'));
  symlinkSync(VALIDATION_LIBRARY, join(implicitDir, 'libVkLayer_strata_e2e_implicit.so'));
  lint = lintJson();

  app = await openApp(home, { viewport: { width: 1400, height: 960 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  home?.cleanup();
});

test('Layers is the default panel and lists our layers and Debian’s in the loader’s order, implicit first', async () => {
  assert.equal(await page.locator('h1').textContent(), 'Layers');
  await page.getByTestId('layer-list').waitFor({ timeout: 15_000 });
  const names = await layerNames();
  for (const n of ['VK_LAYER_STRATA_e2e_implicit', 'VK_LAYER_STRATA_e2e_good', 'VK_LAYER_STRATA_e2e_broken', 'VK_LAYER_KHRONOS_validation'])
    assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
  // XDG_CONFIG_HOME comes before XDG_DATA_DIRS in the search order; implicit layers come first.
  assert.ok(names.indexOf('VK_LAYER_STRATA_e2e_implicit') < names.indexOf('VK_LAYER_STRATA_e2e_good'));
  assert.ok(names.indexOf('VK_LAYER_STRATA_e2e_good') < names.indexOf('VK_LAYER_KHRONOS_validation'));
  // The order of lint --json (the loader's order) is the order of the rows' manifests.
  const rowPaths = await page.getByTestId('layer-row').locator('.layer-path').allTextContents();
  const lintLayerFiles = lint.map((f) => f.uri).filter((u) => /_layer\.d\//.test(u));
  assert.deepEqual([...new Set(rowPaths)], lintLayerFiles);

  const good = page.locator('[data-testid="layer-row"][data-layer="VK_LAYER_STRATA_e2e_good"]');
  const goodText = (await good.textContent()) ?? '';
  assert.match(goodText, /XDG_CONFIG_HOME/);
  assert.match(goodText, /explicit/);
  assert.match(goodText, /API 1\.3\.239/);
  assert.match(goodText, /v7/);
  assert.ok(goodText.includes(paths.good), 'manifest path shown');
  assert.match(goodText, /A valid explicit layer written by the e2e test/);
  const validation = page.locator('[data-testid="layer-row"][data-layer="VK_LAYER_KHRONOS_validation"]');
  assert.match((await validation.textContent()) ?? '', /XDG_DATA_DIRS\[\d\]/);
  // The broken manifest's row carries an error count.
  assert.match((await page.locator('[data-testid="layer-row"][data-layer="VK_LAYER_STRATA_e2e_broken"] .problem-count-error').textContent()) ?? '', /1/);
  // The sidebar badge counts the errors: invalid JSON + implicit without disable_environment.
  const errors = lint.flatMap((f) => f.diagnostics).filter((d) => (d as { severity?: number }).severity === 1).length;
  assert.equal((await page.getByTestId('problems-nav-count').textContent())?.trim(), String(errors));
});

test('filter: "/" focuses it, words narrow the list, the type filter too; Escape clears', async () => {
  await page.locator('body').click({ position: { x: 900, y: 10 } });
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'layer-filter');
  await page.keyboard.type('khronos valid');
  assert.deepEqual(await layerNames(), ['VK_LAYER_KHRONOS_validation']);
  assert.match((await page.getByTestId('layer-count').textContent()) ?? '', /^1 of \d+ layers$/);
  await page.keyboard.press('Escape');
  await page.keyboard.type('strata_e2e');
  assert.deepEqual((await layerNames()).sort(), ['VK_LAYER_STRATA_e2e_broken', 'VK_LAYER_STRATA_e2e_good', 'VK_LAYER_STRATA_e2e_implicit'], 'by path');
  await page.getByRole('radio', { name: /^Implicit/ }).check();
  assert.deepEqual(await layerNames(), ['VK_LAYER_STRATA_e2e_implicit']);
  await page.getByRole('radio', { name: /^All/ }).check();
  await page.getByTestId('layer-filter').fill('');
  assert.ok((await layerNames()).length >= 5);
});

test('keyboard: arrows move through the list, Enter selects and shows the details', async () => {
  const first = page.locator('[data-testid="layer-row"][tabindex="0"]');
  await first.focus();
  assert.equal(await first.getAttribute('data-layer'), 'VK_LAYER_STRATA_e2e_implicit');
  await page.keyboard.press('Enter');
  const details = page.getByTestId('layer-details');
  await details.waitFor();
  assert.match((await details.textContent()) ?? '', /VK_LAYER_STRATA_e2e_implicit/);
  assert.match((await page.getByTestId('layer-disable-env').textContent()) ?? '', /None: the loader skips this layer/);
  assert.match((await page.getByTestId('layer-library').textContent()) ?? '', /libVkLayer_strata_e2e_implicit\.so/);

  // Down to the good layer (the next after the implicit ones), select it with Enter.
  const names = await layerNames();
  for (let i = 0; i < names.indexOf('VK_LAYER_STRATA_e2e_good'); i++) await page.keyboard.press('ArrowDown');
  assert.deepEqual(
    await page.locator('[data-testid="layer-row"][aria-selected="true"]').evaluateAll((e) => e.map((x) => x.getAttribute('data-layer'))),
    ['VK_LAYER_STRATA_e2e_implicit'],
    'arrows do not select',
  );
  await page.keyboard.press('Enter');
  assert.match((await page.getByTestId('layer-manifest').textContent()) ?? '', /strata_e2e_good\.json/);
  assert.match((await details.textContent()) ?? '', /None found\./);

  // The search order, opened: every location with its origin and whether it exists.
  await page.getByTestId('search-order').locator('summary').click();
  const explicitTable = page.getByTestId('search-order-explicit_layer');
  await explicitTable.waitFor();
  const firstRow = (await explicitTable.locator('tbody tr').first().textContent()) ?? '';
  assert.match(firstRow, /XDG_CONFIG_HOME/);
  assert.match(firstRow, /2 manifests/);
  assert.match((await explicitTable.textContent()) ?? '', /Not there/, 'a location that does not exist is marked');
  await page.getByTestId('search-order-driver').waitFor();

  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('layers-light.png'), fullPage: true });
  // The page scrolls inside <main>, so the search order gets a picture of its own.
  await page.getByTestId('search-order').screenshot({ path: artifact('layers-search-order-light.png') });
  await setTheme('Dark');
  await page.screenshot({ path: artifact('layers-dark.png'), fullPage: true });
  await setTheme('Light');
  await page.getByTestId('search-order').locator('summary').click();
});

test('Problems: grouped by file, with the codes strata lint reports; a clean file is not listed', async () => {
  await page.keyboard.press('Alt+9');
  assert.equal(await page.locator('h1').textContent(), 'Problems');
  await page.getByTestId('problem-list').waitFor({ timeout: 15_000 });
  const groupPaths = await page.getByTestId('problem-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
  assert.deepEqual(
    groupPaths,
    lint.filter((f) => f.diagnostics.length > 0).map((f) => f.uri),
    'the files lint reports, in its order',
  );
  const codes = async (path: string) =>
    page
      .locator(`[data-testid="problem-group"][data-path="${path}"] [data-testid="problem-row"]`)
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
  assert.deepEqual(await codes(paths.broken), ['manifest/invalid-json']);
  assert.deepEqual(await codes(paths.implicit), ['layer/implicit-without-disable-environment']);
  assert.equal(await page.locator(`[data-testid="problem-group"][data-path="${paths.good}"]`).count(), 0);
  // The message's "Fix:" is shown on its own line.
  assert.match(
    (await page.locator(`[data-testid="problem-group"][data-path="${paths.implicit}"] .problem-fix`).textContent()) ?? '',
    /^Fix: add "disable_environment"/,
  );
});

for (const [which, code] of [
  ['broken', 'manifest/invalid-json'],
  ['implicit', 'layer/implicit-without-disable-environment'],
] as const) {
  test(`opening ${code} shows the source with the range highlighted on the line strata lint reports`, async () => {
    const expected = lintDiagnostic(paths[which], code);
    const row = page.locator(`[data-testid="problem-group"][data-path="${paths[which]}"] [data-testid="problem-row"]`);
    if (which === 'broken') await row.click();
    else {
      await row.focus();
      await page.keyboard.press('Enter');
    }
    const source = page.getByTestId('source-view');
    await source.waitFor();
    assert.ok(((await source.locator('.source-header').textContent()) ?? '').includes(paths[which]));
    const marked = page.getByTestId('source-marked-line');
    assert.deepEqual(await marked.evaluateAll((els) => els.map((e) => e.getAttribute('data-line'))), [String(expected.range.start.line + 1)]);
    const fileLine = (which === 'broken' ? BROKEN : IMPLICIT).split('\n')[expected.range.start.line]!;
    assert.equal(
      await marked.locator('[data-testid="source-highlight"]').textContent(),
      fileLine.slice(expected.range.start.character, expected.range.end.character),
    );
    assert.match(
      (await page.getByTestId('source-message').textContent()) ?? '',
      new RegExp(`${code}.*Line ${expected.range.start.line + 1}, column ${expected.range.start.character + 1}`),
    );
    // The marked line is inside the visible part of the code box.
    const visible = await page.locator('.source-code').evaluate((box, line) => {
      const b = (box as unknown as ScrollBox).getBoundingClientRect();
      const l = (box as unknown as { querySelector(s: string): ScrollBox }).querySelector(`[data-line="${line}"]`).getBoundingClientRect();
      return l.top >= b.top && l.bottom <= b.bottom;
    }, expected.range.start.line + 1);
    assert.ok(visible, 'the highlighted line is scrolled into view');
  });
}

test('screenshots of Problems in light and dark; no console errors or CSP violations', async () => {
  await page.locator(`[data-testid="problem-group"][data-path="${paths.broken}"] [data-testid="problem-row"]`).click();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('problems-light.png'), fullPage: true });
  await setTheme('Dark');
  await page.screenshot({ path: artifact('problems-dark.png'), fullPage: true });
  await setTheme('Light');
  assert.deepEqual(problems, []);
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT } from '../helpers/strata-cli';
import { unnamedControls } from '../helpers/ui-audit';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';

/**
 * The Layers editor end to end: `bin/strata serve` in a throwaway HOME holding gcc-built recording
 * layers (tests/fixtures/layers/recording-layer.c: each appends its name to $STRATA_LAYER_LOG when
 * vkCreateInstance passes through it). The draft is edited by drag and by keyboard, applied through
 * the dialog, the file on disk is compared with what the dialog showed, and the real loader is run
 * (tests/fixtures/layers/chain-probe.c under lavapipe, VK_LOADER_DEBUG=layer) to prove the chain it
 * builds is the one the diagram drew. The second test does a whole edit-and-apply with keys only.
 */
declare const document: {
  title: string;
  activeElement: { getAttribute(n: string): string | null; tagName: string; closest(s: string): unknown } | null;
  documentElement: { dataset: Record<string, string | undefined> };
  getElementById(id: string): { textContent: string | null } | null;
  querySelectorAll(s: string): ArrayLike<PageElement>;
};
/** What the preview recorder leaves in the page (no DOM lib here on purpose). */
interface PreviewRecorder {
  __previews: string[];
  __previewObserver?: { disconnect(): void };
}
declare const requestAnimationFrame: (cb: () => void) => void;
interface PageElement {
  tagName: string;
  id: string;
  textContent: string | null;
  getAttribute(n: string): string | null;
  closest(s: string): unknown;
  labels?: ArrayLike<{ textContent: string | null }> | null;
  getClientRects(): ArrayLike<unknown>;
}

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const A = 'VK_LAYER_STRATA_a';
const B = 'VK_LAYER_STRATA_b';
const C = 'VK_LAYER_STRATA_c';
const D = 'VK_LAYER_STRATA_d';

let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
let probe: string;
let overrideFile: string;
const problems: string[] = [];
let restoreEnv: (() => void) | undefined;

function buildFixtures(dir: string) {
  const src = join(APP_ROOT, 'tests', 'fixtures', 'layers');
  const explicit = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  const implicit = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'implicit_layer.d');
  mkdirSync(explicit, { recursive: true });
  mkdirSync(implicit, { recursive: true });
  probe = join(dir, 'chain-probe');
  execFileSync('gcc', ['-O1', '-Wall', '-o', probe, join(src, 'chain-probe.c'), '-lvulkan'], { stdio: 'pipe' });
  for (const name of [A, B, C, D]) {
    const lib = join(dir, `lib${name}.so`);
    execFileSync('gcc', ['-O1', '-Wall', '-shared', '-fPIC', `-DLAYER_NAME="${name}"`, '-o', lib, join(src, 'recording-layer.c'), '-ldl'], { stdio: 'pipe' });
    const isImplicit = name === D;
    const layer = {
      name,
      type: 'GLOBAL',
      library_path: lib,
      api_version: '1.3.0',
      implementation_version: '1',
      description: `recording layer ${name.slice(-1)}`,
      ...(isImplicit ? { disable_environment: { DISABLE_STRATA_D: '1' } } : {}),
    };
    writeFileSync(join(isImplicit ? implicit : explicit, `${name}.json`), `${JSON.stringify({ file_format_version: '1.2.0', layer }, null, 2)}\n`);
  }
}

/** The chain the real loader builds for an application that asks for no layer: its VK_LOADER_DEBUG=layer call stack, and the recording layers' log. */
function realChain(): { stack: string[]; recorded: string[]; result: string } {
  const log = join(home.dir, `layers-${Date.now()}.log`);
  // The loader logs to stderr, the probe prints its result to stdout.
  const run = spawnSync(probe, ['1.3'], { env: { ...home.env, STRATA_LAYER_LOG: log, VK_LOADER_DEBUG: 'layer' }, encoding: 'utf8', timeout: 30_000 });
  const out = `${run.stdout}\n${run.stderr}`;
  const lines = out.split('\n');
  const start = lines.findIndex((l) => l.includes('vkCreateInstance layer callstack setup to:'));
  assert.ok(start >= 0, `the loader printed its call stack:\n${out.slice(0, 4000)}`);
  const stack: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.includes('<Drivers>')) break;
    const m = /^LAYER:\s+(VK_LAYER_\S+)\s*$/.exec(line);
    if (m) stack.push(m[1]!);
  }
  const recorded = existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ')[0]!)
    : [];
  return { stack, recorded, result: /^create (-?\d+)$/m.exec(out)?.[1] ?? out };
}

const rowNames = () => page.getByTestId('layer-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')));
const row = (name: string) => page.locator(`[data-testid="layer-row"][data-layer="${name}"]`);
const stateOf = (name: string) => row(name).getByTestId('layer-state');
const previewNames = () =>
  page
    .getByTestId('chain-preview')
    .getByTestId('chain-node')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')));
/** The live chain diagram, once it shows `names` (it recomputes on every edit); fails with what it shows after 5 s. */
async function expectPreview(names: string[], message?: string) {
  try {
    await page.waitForFunction(
      (want) =>
        JSON.stringify(
          Array.from(document.querySelectorAll('[data-testid="chain-preview"] [data-testid="chain-node"]')).map((e) => e.getAttribute('data-layer')),
        ) === JSON.stringify(want),
      names,
      { timeout: 5_000 },
    );
  } catch {
    assert.deepEqual(await previewNames(), names, message);
  }
}
/**
 * Starts recording every chain the live diagram draws (a MutationObserver: each React commit is seen).
 * A string, not a function: tsx would wrap a named inner function in a helper the page does not have.
 */
const recordPreviews = () =>
  page.evaluate(`(() => {
    const names = () => JSON.stringify(Array.from(document.querySelectorAll('[data-testid="chain-preview"] [data-testid="chain-node"]')).map((e) => e.getAttribute('data-layer')));
    const first = names();
    globalThis.__previews = [];
    globalThis.__previewObserver?.disconnect();
    globalThis.__previewObserver = new MutationObserver(() => {
      const now = names();
      if (now !== first && globalThis.__previews[globalThis.__previews.length - 1] !== now) globalThis.__previews.push(now);
    });
    globalThis.__previewObserver.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);
/** The chains drawn since `recordPreviews` that differ from the one shown when it started; stops recording. */
const recordedPreviews = () =>
  page.evaluate(() => {
    const w = globalThis as unknown as PreviewRecorder;
    w.__previewObserver?.disconnect();
    return w.__previews;
  });
const announcement = () => page.getByTestId('layers-announcer').textContent();
const activeTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
const activeLayer = () => page.evaluate(() => document.activeElement?.getAttribute('data-layer') ?? null);
const setTheme = async (name: 'Light' | 'Dark') => {
  await page.getByRole('radio', { name }).check();
  await page.waitForFunction((t) => document.documentElement.dataset['theme'] === t, name.toLowerCase());
};
const strataOrder = async () => (await rowNames()).filter((n) => n?.startsWith('VK_LAYER_STRATA_'));

before(async () => {
  prepareE2e();
  home = makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
  buildFixtures(home.dir);
  overrideFile = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d', 'VkLayer_override.json');
  // Chromium and the child processes inherit this process's environment: keep their caches out of the real home.
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { viewport: { width: 1440, height: 1000 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv?.();
  home?.cleanup();
});

test(
  'reorder by drag and by keyboard, force a layer off, apply: the file is what the dialog showed, and the real loader builds the chain the diagram drew',
  { timeout: 120_000 },
  async () => {
    await page.getByTestId('layer-list').waitFor({ timeout: 20_000 });
    await row(A).waitFor();
    assert.deepEqual(await strataOrder(), [D, A, B, C], 'discovery order: the implicit layer first');
    // The list shows from discovery's answer; the override's status is asked after it (empty until it answers).
    await page.locator('[data-testid="override-ownership"]:not([data-ownership=""])').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('override-ownership').getAttribute('data-ownership'), 'absent');
    // The implicit layer cannot be ordered, and says why (tooltip and accessible description).
    assert.equal(await row(D).getAttribute('data-orderable'), 'false');
    const why = await row(D).getAttribute('aria-describedby');
    assert.match((await page.locator(`[id="${why}"]`).textContent()) ?? '', /the loader places it itself/);
    assert.match((await row(D).locator('.drag-locked').getAttribute('title')) ?? '', /the loader places it itself/);
    // Implicit layers in the loader's order: XDG_CONFIG_HOME's before /usr/share's.
    await expectPreview([D, 'VK_LAYER_MESA_device_select'], 'before any edit: the implicit layers the loader enables');

    // States through the row's control.
    for (const n of [A, B, C]) await stateOf(n).selectOption('on');
    await page.getByTestId('chain-draft-badge').first().waitFor();
    assert.match((await page.getByTestId('draft-state').textContent()) ?? '', /Unsaved changes · 3 layers changed/);
    await page.getByTestId('nav-unsaved').waitFor();
    assert.match(await page.evaluate(() => document.title), /^● Strata/);
    // The override lands in XDG_DATA_HOME: its components come between the two implicit layers.
    await expectPreview([D, A, B, C, 'VK_LAYER_MESA_device_select']);

    // Drag C by its handle onto A: C takes A's place.
    const handle = row(C).getByTestId('layer-drag-handle');
    const from = (await handle.boundingBox())!;
    const to = (await row(A).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 4 });
    await page.mouse.move(to.x + 40, to.y + to.height / 2 - 8, { steps: 12 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="layer-row"]').length > 0);
    assert.deepEqual(await strataOrder(), [D, C, A, B], 'dragged');
    assert.match((await announcement()) ?? '', new RegExp(`^${C} moved to position \\d+ of \\d+$`));

    // Keyboard: B's row, Alt+↑ moves it above A, announced.
    await row(B).focus();
    await page.keyboard.press('Alt+ArrowUp');
    assert.deepEqual(await strataOrder(), [D, C, B, A]);
    // Positions count the layers the draft holds (not the override's own row, nor files without a layer).
    const inDraft = await page.locator('[data-testid="layer-row"]:not([data-state=""])').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')));
    assert.equal(await announcement(), `${B} moved to position ${inDraft.indexOf(B) + 1} of ${inDraft.length}`);
    assert.equal(await activeLayer(), B, 'focus stays on the moved layer');
    // Alt+↑ on the implicit layer says why it cannot move.
    await row(D).focus();
    await page.keyboard.press('Alt+ArrowDown');
    assert.match((await announcement()) ?? '', new RegExp(`^${D} cannot be moved: Implicit layer`));

    // Force D off (blacklisted).
    await stateOf(D).selectOption('off');
    await expectPreview([C, B, A, 'VK_LAYER_MESA_device_select'], 'live: D is gone, the components come in the draft order');
    assert.deepEqual(await unnamedControls(page), []);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: artifact('layers-editor-draft-light.png'), fullPage: true });

    // The Chain panel shows the same draft chain; the Problems panel the draft's diagnostics.
    await page.keyboard.press('Alt+2');
    await page.getByTestId('chain-card').waitFor();
    assert.deepEqual(
      await page
        .getByTestId('chain-card')
        .getByTestId('chain-node')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-layer'))),
      [C, B, A, 'VK_LAYER_MESA_device_select'],
    );
    await page.getByTestId('chain-draft-badge').waitFor();
    const blacklisted = page.locator(`[data-testid="chain-excluded"][data-layer="${D}"] + [role="tooltip"]`);
    assert.match((await blacklisted.textContent()) ?? '', /blacklisted by the override layer/i);
    assert.deepEqual(await unnamedControls(page), []);
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('chain-export-png').click()]);
    assert.equal(png.suggestedFilename(), 'strata-layer-chain.png');
    assert.deepEqual([...readFileSync((await png.path())!).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
    await page.screenshot({ path: artifact('chain-draft-light.png'), fullPage: true });
    await page.keyboard.press('Alt+9');
    await page.getByTestId('problem-order').waitFor();
    assert.deepEqual(await unnamedControls(page), []);
    await page.screenshot({ path: artifact('problems-draft-light.png'), fullPage: true });
    await page.keyboard.press('Alt+2');
    await page.getByTestId('chain-card').waitFor();
    await setTheme('Dark');
    await page.screenshot({ path: artifact('chain-draft-dark.png'), fullPage: true });
    await page.keyboard.press('Alt+9');
    await page.getByTestId('problem-order').waitFor();
    await page.screenshot({ path: artifact('problems-draft-dark.png'), fullPage: true });
    await page.keyboard.press('Alt+1');
    await page.getByTestId('layer-list').waitFor();
    await page.screenshot({ path: artifact('layers-editor-draft-dark.png'), fullPage: true });
    await setTheme('Light');

    // Apply: the dialog lists the one file and its diff; what it shows is what lands on disk.
    await page.getByTestId('draft-apply').click();
    const dialog = page.getByTestId('apply-dialog');
    await dialog.getByTestId('apply-file').waitFor();
    assert.equal(await dialog.getByTestId('apply-file').getAttribute('data-path'), overrideFile);
    assert.equal(await dialog.getByTestId('apply-file').getAttribute('data-action'), 'create');
    const diff = (await dialog.getByTestId('apply-diff').textContent()) ?? '';
    for (const n of [C, B, A, D]) assert.ok(diff.includes(`+      "${n}"`), `the diff adds ${n}: ${diff}`);
    const shown = (await dialog.getByTestId('apply-new-text').textContent()) ?? '';
    assert.match((await dialog.getByTestId('apply-changes').textContent()) ?? '', /VK_LAYER_STRATA_d: Application-controlled → Off \(forced, blacklisted\)/);
    assert.deepEqual(await unnamedControls(page), []);
    await page.screenshot({ path: artifact('apply-dialog-light.png') });
    // From the click until discovery has read the new file back, every chain the diagram draws is recorded:
    // it must go on showing the draft's chain (what Apply writes), never flash the chain from before Apply.
    const drafted = await previewNames();
    await recordPreviews();
    const reloaded = page.waitForResponse((r) => r.url().includes('/api/discovery.manifests'));
    await dialog.getByTestId('apply-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await reloaded;
    await page.locator('[data-testid="override-ownership"][data-ownership="strata"]').waitFor();
    assert.match((await page.getByTestId('draft-state').textContent()) ?? '', /No unsaved changes/);
    assert.equal(await page.getByTestId('nav-unsaved').count(), 0);
    assert.equal(await page.evaluate(() => document.title), 'Strata');

    const onDisk = readFileSync(overrideFile, 'utf8');
    assert.equal(onDisk, shown, 'the file on disk is the text the dialog showed');
    const layer = (JSON.parse(onDisk) as { layer: { component_layers: string[]; blacklisted_layers: string[] } }).layer;
    assert.deepEqual(layer.component_layers, [C, B, A]);
    assert.deepEqual(layer.blacklisted_layers, [D]);

    // The diagram (now the installed chain, read back through discovery) is the chain the real loader builds.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chain-draft-badge"]').length === 0);
    const real = realChain();
    assert.equal(real.result, '0');
    // The diagram is the loader's chain, and it was all along: from the click through discovery's reload it
    // drew the draft's chain (what Apply wrote) and nothing else, never the chain from before Apply.
    await expectPreview(real.stack, 'VK_LOADER_DEBUG call stack = diagram');
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    assert.deepEqual(await recordedPreviews(), [], `after Apply the diagram kept the draft's chain ${JSON.stringify(drafted)} until discovery's reload`);
    assert.deepEqual(drafted, real.stack, 'the draft drew the chain the loader builds');
    const drawn = await previewNames();
    assert.deepEqual(
      real.recorded,
      drawn.filter((n) => n?.startsWith('VK_LAYER_STRATA_')),
      'the recording layers ran in the diagram’s order',
    );
  },
);

test(
  'keyboard only: filter, move a layer, force one off, open Apply with Ctrl+S, Escape, apply with Enter; the loader follows',
  { timeout: 120_000 },
  async () => {
    // No mouse from here on. "/" focuses the filter from anywhere but a text field.
    await page.keyboard.press('/');
    assert.equal(await activeTestId(), 'layer-filter');
    await page.keyboard.type('recording layer');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="layer-row"]').length === 4);
    // Tab to the list (one Tab stop), then arrows to A.
    for (let i = 0; i < 8 && (await activeTestId()) !== 'layer-row'; i++) await page.keyboard.press('Tab');
    assert.equal(await activeTestId(), 'layer-row');
    for (let i = 0; i < 6 && (await activeLayer()) !== A; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await activeLayer(), A);
    await page.keyboard.press('Enter');
    await page.getByTestId('layer-details').getByText(A).first().waitFor();
    // A up twice: above B and C.
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    assert.deepEqual(await strataOrder(), [D, A, C, B]);
    assert.match((await announcement()) ?? '', new RegExp(`^${A} moved to position`));
    // Down to B, Tab to its state control, choose Off with the arrow keys.
    for (let i = 0; i < 6 && (await activeLayer()) !== B; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    assert.equal(await activeTestId(), 'layer-state');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null), `State of ${B}`);
    await page.keyboard.press('ArrowDown');
    assert.equal(await stateOf(B).inputValue(), 'off');
    await expectPreview([A, C, 'VK_LAYER_MESA_device_select']);

    // Ctrl+S opens Apply; focus is in the dialog; Tab stays in it; Escape closes and gives focus back.
    await page.keyboard.press('Control+s');
    const dialog = page.getByTestId('apply-dialog');
    await dialog.getByTestId('apply-file').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'apply-confirm');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => !!document.activeElement?.closest('dialog')), 'focus stays in the dialog');
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await activeTestId(), 'layer-state', 'focus is back where it was');
    await page.keyboard.press('Control+s');
    await dialog.getByTestId('apply-file').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'apply-confirm');
    const shown = (await dialog.getByTestId('apply-new-text').textContent()) ?? '';
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('draft-state').getByText('No unsaved changes').waitFor();

    const onDisk = readFileSync(overrideFile, 'utf8');
    assert.equal(onDisk, shown);
    const layer = (JSON.parse(onDisk) as { layer: { component_layers: string[]; blacklisted_layers: string[] } }).layer;
    assert.deepEqual(layer.component_layers, [A, C]);
    assert.deepEqual(layer.blacklisted_layers.sort(), [B, D]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chain-draft-badge"]').length === 0);
    const real = realChain();
    await expectPreview(real.stack, 'VK_LOADER_DEBUG call stack = diagram');
    assert.deepEqual(real.recorded, [A, C]);
    await page.keyboard.press('Escape');
  },
);

test(
  'a file another tool wrote while the dialog was open: the error dialog shows the difference and the fix; Overwrite replaces it, Disable restores it',
  { timeout: 60_000 },
  async () => {
    await page.getByTestId('layer-filter').fill('');
    await setTheme('Dark');
    await stateOf(B).selectOption('on');
    await page.getByTestId('draft-apply').click();
    const dialog = page.getByTestId('apply-dialog');
    await dialog.getByTestId('apply-file').waitFor();
    // Another tool's override, between the preview and the click.
    const foreign = `${JSON.stringify({ file_format_version: '1.1.2', layer: { name: 'VK_LAYER_LUNARG_override', type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'another tool', component_layers: [C], disable_environment: { X: '1' } } }, null, 2)}\n`;
    rmSync(join(home.env['XDG_STATE_HOME']!, 'strata', 'override-record.json'));
    writeFileSync(overrideFile, foreign);
    await dialog.getByTestId('apply-confirm').click();
    const error = page.getByTestId('apply-error-dialog');
    await error.waitFor();
    assert.equal(await error.getByTestId('apply-error').getAttribute('data-code'), 'override/not-strata-file');
    assert.match((await error.textContent()) ?? '', /Nothing was written/);
    assert.match((await error.getByTestId('apply-error-diff').textContent()) ?? '', /another tool/);
    assert.equal(readFileSync(overrideFile, 'utf8'), foreign, 'nothing half-applied');
    assert.deepEqual(await unnamedControls(page), []);
    await page.screenshot({ path: artifact('apply-conflict-dark.png') });
    await error.getByTestId('apply-force').click();
    await error.waitFor({ state: 'detached' });
    await setTheme('Light');
    const written = JSON.parse(readFileSync(overrideFile, 'utf8')) as { layer: { component_layers: string[] } };
    assert.deepEqual(written.layer.component_layers, [A, C, B]);

    // Disable Strata's override: the dialog lists what Strata changed (here the global override), then the other tool's file is back.
    await page.getByTestId('override-disable').click();
    const confirm = page.getByTestId('disable-dialog');
    await confirm.getByTestId('disable-global').waitFor();
    assert.equal(await confirm.getByTestId('disable-global').isChecked(), true);
    await confirm.getByTestId('disable-confirm').click();
    await confirm.waitFor({ state: 'detached' });
    assert.equal(readFileSync(overrideFile, 'utf8'), foreign);
    await page.locator('[data-testid="override-ownership"][data-ownership="foreign"]').waitFor();
    assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
  },
);

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { artifact, launchChromium, openPage, prepareE2e } from '../helpers/e2e-harness';
import {
  installRecordingLayer,
  mingwBuild,
  openWindowsLane,
  recordedChain,
  windowsLaneSkip,
  writeLayerManifest,
  type WindowsLane,
} from '../helpers/windows-lane';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * The browser host on Windows: `strata serve` run by Windows Node under Wine (the lane of
 * tests/helpers/windows-lane.ts), opened from Linux's Chromium. The page must show the layers the
 * Windows registry names (HKLM\SOFTWARE\Khronos\Vulkan\ExplicitLayers), with their Windows paths:
 * discovery, the router and the renderer all ran on the Windows side.
 *
 * Windows Node's stdout cannot be a pipe under Wine 8 (EBADF): the server's output goes to a file,
 * and the URL it prints (the token URL: stdout is not a terminal) is read from there.
 */

const skip = windowsLaneSkip('windows-serve.e2e');
let lane: WindowsLane;
let browser: Browser | null = null;
let page: Page;
const problems: string[] = [];
const LAYERS = ['VK_LAYER_STRATA_wine_one', 'VK_LAYER_STRATA_wine_two'];
/** Real layers (tests/fixtures/layers/recording-layer.c as DLLs) for Apply: the loader's chain is recorded. */
const RECORDING = ['VK_LAYER_STRATA_wine_rec_a', 'VK_LAYER_STRATA_wine_rec_b'];
let probe = '';

async function printedUrl(file: string, exited: () => boolean, timeoutMs = 180_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(readFileSync(file, 'utf8'));
    if (m) return m[0];
    if (exited() || Date.now() > until)
      throw new Error(`strata serve printed no URL${exited() ? ' and exited' : ` within ${timeoutMs} ms`}: ${readFileSync(file, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

before(async () => {
  if (skip) return;
  prepareE2e();
  lane = openWindowsLane();
  const dir = join(lane.driveC, 'layers');
  mkdirSync(dir, { recursive: true });
  for (const name of LAYERS) writeLayerManifest(dir, name, { description: 'a layer of the Windows registry' });
  const fixtures = join(APP_ROOT, 'tests', 'fixtures', 'layers');
  probe = mingwBuild([join(fixtures, 'chain-probe.c')], 'chain-probe.exe', [], { vulkan: true });
  for (const name of RECORDING) installRecordingLayer(dir, name);
  lane.setKhronosRegistry({
    'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers': [...LAYERS, ...RECORDING].map((n) => ({ name: `C:\\layers\\${n}.json`, data: 0 })),
  });
  const server = lane.startStrata(['serve', '--port', '0']);
  const url = await printedUrl(server.outFile, server.exited);
  browser = await launchChromium();
  page = await openPage(browser, url, { problems });
});

after(async () => {
  await browser?.close();
  lane?.close();
});

test(
  'strata serve under Wine, opened from Linux Chromium, lists the layers of the Windows registry with their Windows paths',
  { skip, timeout: 240_000 },
  async () => {
    for (const name of LAYERS) await page.getByText(name, { exact: true }).first().waitFor({ timeout: 120_000 });
    const body = await page.locator('body').innerText();
    // Each row names where the Windows loader finds it: the registry key, not a folder.
    assert.match(body, /HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers/);
    await page.screenshot({ path: artifact('windows-serve-layers.png') });
    assert.deepEqual(problems, []);
  },
);

const row = (name: string) => page.locator(`[data-testid="layer-row"][data-layer="${name}"]`);
const previewNames = () =>
  page
    .getByTestId('chain-preview')
    .getByTestId('chain-node')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-layer') ?? ''));

/** The recording layers the real loader ran for the probe, application side first. */
function loaderChain(): string[] {
  const { chain, run } = recordedChain(lane, probe, ['1.3']);
  assert.equal(run.status, 0, run.stderr);
  return chain;
}

test(
  'Apply in the page under Wine: Strata (elevated, as every Wine process) edits the override its applications read, registered in HKLM, and the real Windows loader runs the chain the page drew',
  { skip, timeout: 240_000 },
  async () => {
    assert.deepEqual(loaderChain(), [], 'no recording layer runs before Apply');
    await page.keyboard.press('Alt+1');
    await page.getByTestId('layer-list').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="override-ownership"]:not([data-ownership=""])').waitFor({ timeout: 60_000 });
    for (const name of RECORDING) await row(name).getByTestId('layer-state').selectOption('on');
    // The draft's chain: the override goes where the loader reads it (HKLM\…\ImplicitLayers), so the diagram shows the layers now.
    let drawn0 = await previewNames();
    for (const until = Date.now() + 20_000; !RECORDING.every((n) => drawn0.includes(n)); drawn0 = await previewNames())
      if (Date.now() > until) assert.fail(`the diagram shows ${JSON.stringify(drawn0)}, not the layers forced on`);
    const drawn = drawn0.filter((n) => RECORDING.includes(n));

    await page.getByTestId('draft-apply').click();
    const dialog = page.getByTestId('apply-dialog');
    await dialog.getByTestId('apply-file').first().waitFor({ timeout: 60_000 });
    assert.equal(await dialog.getByTestId('apply-file').first().getAttribute('data-path'), 'C:\\ProgramData\\Strata\\override\\VkLayer_override.json');
    assert.match(
      (await dialog.getByTestId('apply-registered').first().textContent()) ?? '',
      /HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers, which every application reads/,
    );
    await page.screenshot({ path: artifact('windows-serve-apply-dialog.png') });
    await dialog.getByTestId('apply-confirm').click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await page.locator('[data-testid="override-ownership"][data-ownership="strata"]').waitFor({ timeout: 60_000 });
    // The status strip reads the same scope (activity.status): Strata's override, both layers on.
    await page.getByTestId('activity-strip').getByText('Global override: on 2').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: artifact('windows-serve-applied.png') });

    assert.match(
      lane.regQuery('HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers'),
      /C:\\ProgramData\\Strata\\override\\VkLayer_override\.json\s+REG_DWORD\s+0x0/,
    );
    assert.deepEqual(loaderChain(), drawn, 'the real loader runs the chain the page drew');
    assert.deepEqual(problems, []);
  },
);

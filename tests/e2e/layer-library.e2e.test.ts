import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { buildFakeLayers, type FakeLayers } from '../helpers/fake-layers';
import { artifact, closeApp, openApp, prepareE2e, type E2eApp } from '../helpers/e2e-harness';

/**
 * The layer details' "Inspect library" (layers.inspect) and the device cards' driver manifest, in
 * Debian's Chromium against `strata serve`: the real validation layer negotiates, a fake layer that
 * crashes in its constructor is reported as that layer's error while the app goes on, and the
 * lavapipe device names its manifest.
 */
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

let home: TempHome;
let fakes: FakeLayers;
let app: E2eApp | null = null;
let page: Page;
const problems: string[] = [];

before(async () => {
  prepareE2e();
  home = makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
  // $XDG_CONFIG_HOME/vulkan/explicit_layer.d: where the loader (and Strata's discovery) finds them.
  fakes = buildFakeLayers(join(home.env['XDG_CONFIG_HOME']!, 'vulkan'));
  app = await openApp(home, { viewport: { width: 1400, height: 960 }, problems });
  page = app.page;
  await page.getByTestId('layer-list').waitFor({ timeout: 15_000 });
});

after(async () => {
  await closeApp(app);
  home?.cleanup();
});

async function inspect(layer: string) {
  await page.locator(`[data-testid="layer-row"][data-layer="${layer}"]`).first().click();
  // This layer's card: until the selection has moved, the previous layer's card is still there
  // (a click on its Inspect button inspected the previous layer again, and the test read that).
  const card = page.locator(`[data-testid="layer-library-card"][data-layer="${layer}"]`);
  await card.getByRole('button', { name: /Inspect/ }).click();
  const result = card.getByTestId('layer-library-result');
  await result.waitFor({ timeout: 30_000 });
  return result;
}

test('the validation layer: loaded from the ld.so cache, interface 2 negotiated', async () => {
  const result = await inspect('VK_LAYER_KHRONOS_validation');
  assert.equal(await result.getAttribute('data-ok'), 'true');
  assert.equal(await result.getByTestId('layer-library-interface').textContent(), 'Interface 2, negotiated (offered 2)');
  assert.match((await result.getByTestId('layer-library-path').textContent()) ?? '', /libVkLayer_khronos_validation\.so · found in the ld\.so cache$/);
  assert.match((await result.getByTestId('layer-library-symbols').textContent()) ?? '', /vkNegotiateLoaderLayerInterfaceVersion — exported/);
  await page.screenshot({ path: artifact('layer-library-validation.png') });
});

test('a layer that crashes in its constructor: its own error, and the app carries on', async () => {
  const result = await inspect(fakes.names['ctor-segv']);
  assert.equal(await result.getAttribute('data-ok'), 'false');
  const problem = (await result.getByTestId('layer-library-problem').first().textContent()) ?? '';
  assert.match(problem, /^layer\/crashed Layer VK_LAYER_STRATA_fake_ctor_segv .* crashed the probe during dlopen of .*: killed by SIGSEGV/);
  // The next inspection works: the probe that died was this layer's alone.
  const next = await inspect(fakes.names.good);
  const why = (await next.getByTestId('layer-library-problem').allTextContents()).join(' | ');
  assert.equal(await next.getAttribute('data-ok'), 'true', `the good layer after the crash: ${why}`);
});

test('the device card and the driver row name each other: lavapipe manifest ↔ llvmpipe', async () => {
  await page.keyboard.press('Alt+3');
  const card = page.getByTestId('device-card');
  await card.first().waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="drivers-devices"][aria-busy="false"]').waitFor({ timeout: 30_000 });
  assert.equal((await card.getByTestId('device-manifest').textContent())?.trim(), LAVAPIPE);
  assert.match((await page.getByTestId('driver-devices').textContent()) ?? '', /^Devicesllvmpipe/);
  assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
});

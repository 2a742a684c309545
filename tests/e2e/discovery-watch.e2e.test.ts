import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';

/**
 * Manifests written while the page is open show without a reload: `strata serve` watches the search
 * folders while a page is attached, sends `discovery.changed`, and the page re-fetches discovery.
 * The folder the manifest goes into does not exist when the server starts (a new user's
 * ~/.config/vulkan/explicit_layer.d), so the watch on its nearest existing parent is exercised too.
 * Only the layer's name in the Layers panel and the notice are relied on.
 */
declare const window: { strataE2eMarker?: number; strataE2eStream?: unknown };
declare const sessionStorage: { getItem(key: string): string | null };
declare function fetch(
  url: string,
  init: { headers: Record<string, string> },
): Promise<{ ok: boolean; status: number; body: { getReader(): { read(): Promise<unknown> } } | null }>;

const NAME = 'VK_LAYER_STRATA_e2e_watched';
const manifest = JSON.stringify({
  file_format_version: '1.2.0',
  layer: {
    name: NAME,
    type: 'GLOBAL',
    library_path: 'libVkLayer_watched.so',
    api_version: '1.3.239',
    implementation_version: '1',
    description: 'written while the page is open',
  },
});

let home: TempHome;
let app: E2eApp | null = null;
let restoreEnv: (() => void) | undefined;
let page: Page;
const problems: string[] = [];

before(async () => {
  prepareE2e();
  home = makeTempHome();
  // Chromium and the child processes inherit this process's environment: keep their caches out of the real home.
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv?.();
  home?.cleanup();
});

test('a manifest written to disk while the page is open appears in the Layers list, and goes when it is removed, without a reload', async () => {
  assert.equal(await page.locator('h1').textContent(), 'Layers');
  await page.getByText('VK_LAYER_KHRONOS_validation').first().waitFor({ timeout: 15_000 });
  assert.equal(await page.getByText(NAME).count(), 0);
  // A page that reloads loses this.
  await page.evaluate(() => (window.strataE2eMarker = 42));
  // One more event stream, opened from the page: when it is open the server has a UI client, so its
  // watches are armed (they are armed synchronously when a client attaches). No clock involved.
  // Read as the browser preload reads it: fetch with the token header (no cookie, and EventSource cannot send one).
  await page.evaluate(async () => {
    const response = await fetch('./api/events', { headers: { 'X-Strata-Token': sessionStorage.getItem('strata.token') ?? '' } });
    if (!response.ok || !response.body) throw new Error(`the event stream did not open: HTTP ${response.status}`);
    const reader = response.body.getReader();
    await reader.read(); // ": connected"
    window.strataE2eStream = reader; // kept open
  });

  const dir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'watched.json'), manifest);
  await page.getByText(NAME).first().waitFor({ timeout: 20_000 });
  await page.getByRole('alert').filter({ hasText: 'Manifests changed on disk — updated' }).waitFor({ timeout: 5_000 });
  await page.screenshot({ path: artifact('discovery-watch-added.png') });

  rmSync(join(dir, 'watched.json'));
  await page.getByText(NAME).first().waitFor({ state: 'detached', timeout: 20_000 });
  assert.equal(await page.evaluate(() => window.strataE2eMarker), 42, 'the page was not reloaded');
  assert.deepEqual(problems, []);
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { artifact, launchChromium, openPage, prepareE2e } from '../helpers/e2e-harness';
import { openWindowsLane, windowsLaneSkip, type WindowsLane } from '../helpers/windows-lane';

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
  for (const name of LAYERS)
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify({
        file_format_version: '1.1.2',
        layer: {
          name,
          type: 'GLOBAL',
          library_path: `.\\${name}.dll`,
          api_version: '1.3.0',
          implementation_version: '1',
          description: 'a layer of the Windows registry',
        },
      }),
    );
  lane.setKhronosRegistry({ 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers': LAYERS.map((n) => ({ name: `C:\\layers\\${n}.json`, data: 0 })) });
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

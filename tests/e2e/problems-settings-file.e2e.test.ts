import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { profilesBind, profilesCreate, type ProfileServiceOptions } from '../../main/profiles/profile-service';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';
import { loaderMatrix, matrixSkip } from '../helpers/loader-builds';
import { runStrata } from '../helpers/strata-cli';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { layoutDefects, unnamedControls } from '../helpers/ui-audit';

/**
 * The Problems view shows the vk_loader_settings.json the installed loader reads, with its
 * `settings/*` diagnostics exactly as `strata lint` (no argument) gives them, the file named, and
 * who wrote it: another tool's file is described as such, Strata's own (written for a binding) as
 * Strata's. The installed loader is a real Khronos 1.4.321 build on LD_LIBRARY_PATH (the loader
 * matrix, tests/helpers/loader-builds.ts): Debian's 1.3.239 reads no settings file.
 */
const LAYER = 'VK_LAYER_STRATA_a';
const skip = matrixSkip();
let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
let restoreEnv: () => void = () => {};
let manifest: string;
const problems: string[] = [];

before(async () => {
  if (skip) return;
  prepareE2e();
  const [mid] = loaderMatrix(['1.4.321']);
  home = makeTempHome({ LD_LIBRARY_PATH: mid!.libDir });
  const layers = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(layers, { recursive: true });
  manifest = join(layers, 'a.json');
  const layer = { name: LAYER, type: 'GLOBAL', library_path: '/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so' };
  writeFileSync(
    manifest,
    JSON.stringify({ file_format_version: '1.2.0', layer: { ...layer, api_version: '1.3.0', implementation_version: '1', description: 'x' } }),
  );
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { viewport: { width: 1280, height: 800 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv();
  home?.cleanup();
});

/** What `strata lint --json` (no argument) says of `file`: its codes, in order. */
function cliCodes(file: string): string[] | undefined {
  const r = runStrata(['lint', '--json'], home.env);
  const results = JSON.parse(r.stdout) as { uri: string; diagnostics: { code: string }[] }[];
  return results.find((x) => x.uri === file)?.diagnostics.map((d) => d.code);
}

async function shownCard(file: string, owner: string) {
  const card = page.locator(`[data-testid="settings-file-problems"][data-path="${file}"][data-owner="${owner}"]`);
  await card.waitFor({ timeout: 20_000 });
  return {
    codes: await card.getByTestId('settings-file-problem').evaluateAll((els) => els.map((e) => e.getAttribute('data-code'))),
    path: await card.getByTestId('settings-file-path').textContent(),
    owner: (await card.getByTestId('settings-file-owner').textContent()) ?? '',
  };
}

test('another tool’s settings file: named, described as another tool’s, with the diagnostics `strata lint` gives', { skip }, async () => {
  // Where 1.4.x looks (XDG_DATA_HOME); another tool wrote it: the layer after its own "off" entry (1.4.321 crashes).
  const foreign = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'loader_settings.d', 'vk_loader_settings.json');
  mkdirSync(join(foreign, '..'), { recursive: true });
  const entry = (control: string) => ({ control, name: LAYER, path: manifest });
  writeFileSync(foreign, JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers: [entry('off'), entry('on')] }] }, null, 2));
  const expected = cliCodes(foreign);
  assert.deepEqual(expected, ['settings/crashes-loader'], 'the CLI finds the problem (the test is about showing it)');

  await page.getByTestId('layer-list').waitFor({ timeout: 20_000 });
  await page.keyboard.press('Alt+9');
  const shown = await shownCard(foreign, 'foreign');
  assert.equal(shown.path, foreign);
  assert.deepEqual(shown.codes, expected, 'Problems shows what `strata lint` shows');
  assert.match(shown.owner, /another tool/);
  assert.match((await page.getByTestId('settings-file-problem').first().textContent()) ?? '', /1\.4\.321 crashes/);
  assert.deepEqual(await unnamedControls(page), []);
  assert.deepEqual(await layoutDefects(page), []);
  await page.screenshot({ path: artifact('problems-settings-file-foreign-light.png'), fullPage: true });
  rmSync(foreign);
});

test('Strata’s own settings file (an application bound to a profile) is described as Strata’s', { skip }, async () => {
  const o: ProfileServiceOptions = { env: home.env, loaderVersion: async () => '1.4.321' };
  await profilesCreate(o, { name: 'P', profile: { schemaVersion: 2, name: 'P', layers: [{ name: LAYER, state: 'on' }] } });
  const bound = await profilesBind(o, { appPath: '/usr/bin/vulkaninfo', profile: 'P' });
  const own = bound.sync.files[0]?.path;
  assert.equal(bound.sync.mechanism, 'loader-settings');
  assert.ok(own, 'the binding wrote a loader settings file');
  const expected = cliCodes(own);
  assert.ok(expected, '`strata lint` lints it');
  await page.getByRole('button', { name: 'Refresh' }).click();
  const shown = await shownCard(own, 'strata');
  assert.deepEqual(shown.codes, expected);
  assert.match(shown.owner, /Strata’s own file/);
  assert.equal(await page.locator('[data-testid="settings-file-problems"][data-owner="foreign"]').count(), 0);
  assert.deepEqual(problems, []);
});

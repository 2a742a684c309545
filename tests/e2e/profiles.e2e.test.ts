import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT } from '../helpers/strata-cli';
import { artifact, closeApp, openApp, prepareE2e, type E2eApp } from '../helpers/e2e-harness';

/**
 * The Profiles panel through the browser host (`bin/strata serve`, a throwaway HOME, Debian's
 * Chromium): create a profile from a preset, bind it to an application, apply it, export it,
 * delete it and import the exported file again; a broken file dropped on the panel is refused
 * with its field named. Every step is checked on disk.
 */
let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
const problems: string[] = [];
const profilesDir = () => join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles');
const outcome = async () => (await page.getByTestId('profile-outcome').textContent()) ?? '';
const waitOutcome = (re: RegExp) =>
  page.waitForFunction((source) => new RegExp(source).test(document.querySelector('[data-testid="profile-outcome"]')?.textContent ?? ''), re.source, {
    timeout: 20_000,
  });
declare const document: { querySelector(s: string): { textContent: string | null } | null };

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

test('create from a preset, bind, apply, export, delete, re-import', async () => {
  await page.locator('button[data-panel="profiles"]').click();
  await page.getByTestId('profiles-view').waitFor({ timeout: 15_000 });
  await page.locator('[data-testid="profile-entry"][data-key="preset:validation-synchronization"]').click();
  assert.match((await page.getByTestId('profile-layers').textContent()) ?? '', /VK_LAYER_KHRONOS_validation/);
  await page.getByTestId('profile-copy-name').fill('Sync in the browser');
  await page.getByTestId('profile-copy-name-submit').click();
  await waitOutcome(/Created "Sync in the browser"/);
  const file = join(profilesDir(), 'Sync-in-the-browser.json');
  assert.ok(existsSync(file));
  assert.equal(await page.locator('[data-testid="profile-details"][data-key="profile:Sync in the browser"]').count(), 1);

  const app = join(home.dir, 'my-vulkan-app');
  copyFileSync('/bin/true', app);
  await page.getByTestId('profile-bind-path').fill(app);
  await page.getByTestId('profile-bind-path-submit').click();
  await waitOutcome(/Bound .*my-vulkan-app to "Sync in the browser" \(override layers scoped by app_keys, loader 1\.3\.239\)/);
  assert.match(await outcome(), /✓ .*my-vulkan-app: gets VkLayer_override_strata_Sync-in-the-browser\.json only/);
  assert.ok(existsSync(join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d', 'VkLayer_override_strata_Sync-in-the-browser.json')));
  assert.equal(await page.getByTestId('profile-bound').locator('li').count(), 1);

  await page.getByTestId('profile-apply').click();
  await waitOutcome(/Installed: "Sync in the browser" is the override/);
  const override = JSON.parse(readFileSync(join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d', 'VkLayer_override.json'), 'utf8'));
  assert.deepEqual(override.layer.component_layers, ['VK_LAYER_KHRONOS_validation']);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('profiles-light.png'), fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('profile-export').click()]);
  assert.equal(download.suggestedFilename(), 'Sync-in-the-browser.strata-profile.json');
  const exported = readFileSync((await download.path())!, 'utf8');
  assert.equal(JSON.parse(exported).name, 'Sync in the browser');
  const saved = join(home.dir, download.suggestedFilename());
  writeFileSync(saved, exported);

  await page.getByTestId('profile-delete').click();
  await page.getByTestId('profile-delete-confirm').click();
  await waitOutcome(/Deleted "Sync in the browser"\./);
  assert.match(await outcome(), /Unbound: .*my-vulkan-app/);
  assert.ok(!existsSync(file));

  await page.getByTestId('profile-import-input').setInputFiles(saved);
  await waitOutcome(/Imported "Sync in the browser"\./);
  const back = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual({ ...back, applications: undefined }, { ...JSON.parse(exported), applications: undefined });
  assert.equal(await page.locator('[data-testid="profile-details"][data-key="profile:Sync in the browser"]').count(), 1);
});

test('a broken profile file is refused with its field named, and nothing is written', async () => {
  const before = readFileSync(join(profilesDir(), 'Sync-in-the-browser.json'), 'utf8');
  await page.getByTestId('profile-import-input').setInputFiles(join(APP_ROOT, 'tests', 'fixtures', 'profiles', 'bad', 'layer-state-unknown.json'));
  await page.waitForFunction(() => document.querySelector('[data-testid="profile-outcome"][data-ok="false"]') !== null, undefined, { timeout: 20_000 });
  assert.match(await outcome(), /layers\[0\]\.state: .*\(layer-state-unknown\.json, field layers\[0\]\.state\)\. Fix: /);
  assert.equal(readFileSync(join(profilesDir(), 'Sync-in-the-browser.json'), 'utf8'), before);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('profiles-import-error-light.png'), fullPage: true });
  assert.deepEqual(problems, []);
});

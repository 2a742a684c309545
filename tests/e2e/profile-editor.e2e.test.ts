import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { profilesBind, profilesCreate, type ProfileServiceOptions } from '../../main/profiles/profile-service';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';
import { buildLoaderKit, copyProbe, LAVAPIPE, runProbe, writeRecordingManifests } from '../helpers/profile-loader-kit';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { layoutDefects, unnamedControls } from '../helpers/ui-audit';

/**
 * A profile is a document the Layers editor edits (browser host, Debian's Chromium): open a bound
 * profile from Profiles, change states and order, see the diff, save; the application bound to it
 * gets the saved version outside Strata at once (real loader 1.3.239, lavapipe); duplicate it;
 * the order chosen in the global editor survives a reload.
 */
const LAYERS = ['VK_LAYER_STRATA_pa', 'VK_LAYER_STRATA_pb', 'VK_LAYER_STRATA_pc'];
const [A, B, C] = LAYERS as [string, string, string];
let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
let restoreEnv: () => void = () => {};
let appOne: string;
const problems: string[] = [];
const row = (name: string) => page.locator(`[data-testid="layer-row"][data-layer="${name}"]`);
const stateOf = (name: string) => row(name).getByTestId('layer-state');
const strataOrder = async () =>
  (await page.getByTestId('layer-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')))).filter((n) => n?.startsWith('VK_LAYER_STRATA_'));

before(async () => {
  prepareE2e();
  home = makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
  const kit = buildLoaderKit(join(home.dir, 'kit'), LAYERS);
  writeRecordingManifests(kit, join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
  mkdirSync(join(home.dir, 'bin'));
  appOne = realpathSync(copyProbe(kit, join(home.dir, 'bin', 'app-one')));
  const version = vulkaninfoInstanceVersion(home.env);
  const o: ProfileServiceOptions = { env: home.env, loaderVersion: async () => version };
  await profilesCreate(o, { name: 'Alpha', profile: { schemaVersion: 2, name: 'Alpha', layers: [{ name: A, state: 'on' }] } });
  await profilesBind(o, { appPath: appOne, profile: 'Alpha' });
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { viewport: { width: 1440, height: 900 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv();
  home?.cleanup();
});

test('edit a bound profile in the Layers editor, diff, save: its application gets it at once; duplicate; revert', async () => {
  assert.deepEqual((await runProbe(appOne, home.env)).chain, [A]);
  await page.locator('button[data-panel="profiles"]').click();
  await page.locator('[data-testid="profile-entry"][data-key="profile:Alpha"]').click();
  await page.getByTestId('profile-edit').click();
  const bar = page.locator('[data-testid="profile-edit-bar"][data-profile="Alpha"]');
  await bar.waitFor({ timeout: 15_000 });
  assert.match((await bar.textContent()) ?? '', new RegExp(`bound to ${appOne.replace(/[/.]/g, '\\$&')}`));
  assert.equal(await page.getByTestId('profile-switcher-select').inputValue(), 'profile:Alpha');

  // C on, moved above A; B off.
  await stateOf(C).selectOption('on');
  await row(C).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await page.keyboard.press('Alt+ArrowUp');
  await stateOf(B).selectOption('off');
  assert.deepEqual(
    (await strataOrder()).filter((n) => n !== B),
    [C, A],
  );
  assert.match((await page.getByTestId('profile-edit-state').textContent()) ?? '', /Changed since it was saved/);

  // The Settings view edits the same profile: a validation setting, listed in the diff's summary.
  await page.keyboard.press('Alt+6');
  await page.locator('[data-testid="settings-view"] [data-testid="profile-edit-bar"][data-profile="Alpha"]').waitFor({ timeout: 15_000 });
  await page.locator('[data-testid="settings-layer"][data-layer="VK_LAYER_KHRONOS_validation"]').click();
  const limit = page
    .getByRole('region', { name: 'Settings of VK_LAYER_KHRONOS_validation' })
    .getByRole('textbox', { name: 'Max Duplicated Messages', exact: true });
  await limit.fill('3');
  await page.locator('[data-testid="settings-layer"][data-layer="VK_LAYER_KHRONOS_validation"] [data-testid="settings-layer-changed"]').waitFor();
  await page.keyboard.press('Alt+1');
  await bar.waitFor();

  await page.getByTestId('profile-edit-diff').click();
  const diff = page.getByTestId('profile-diff-dialog');
  assert.deepEqual(await diff.getByTestId('profile-setting-change').allTextContents(), [
    'VK_LAYER_KHRONOS_validation setting duplicate_message_limit: default → 3',
  ]);
  const text = (await diff.getByTestId('profile-diff').textContent()) ?? '';
  assert.match(text, new RegExp(`\\+\\s+"name": "${C}"`));
  assert.match(text, new RegExp(`\\+\\s+"state": "off"`));
  assert.deepEqual(await layoutDefects(page), []);
  await page.screenshot({ path: artifact('profile-editor-diff-light.png') });
  await diff.getByRole('button', { name: 'Close' }).first().click();
  await diff.waitFor({ state: 'detached' });

  // Save (Ctrl+S): the file, and the bound application outside Strata.
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => /As saved/.test(document.querySelector('[data-testid="profile-edit-state"]')?.textContent ?? ''), undefined, {
    timeout: 20_000,
  });
  const saved = JSON.parse(readFileSync(join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles', 'Alpha.json'), 'utf8')) as {
    layers: { name: string; state: string }[];
    applications?: string[];
    settings?: Record<string, Record<string, unknown>>;
  };
  assert.deepEqual(saved.settings, { VK_LAYER_KHRONOS_validation: { duplicate_message_limit: 3 } }, 'the setting made in the Settings view is saved');
  assert.equal(saved.layers.length, 3, 'only the layers the profile names (On and Off) are written');
  assert.deepEqual(
    saved.layers.filter((l) => l.state === 'on').map((l) => l.name),
    [C, A],
  );
  assert.deepEqual(
    saved.layers.filter((l) => l.state === 'off').map((l) => l.name),
    [B],
  );
  assert.deepEqual(saved.applications, [appOne], 'the binding is kept in the file');
  assert.deepEqual((await runProbe(appOne, home.env)).chain, [C, A], 'the bound application gets the saved profile');
  await page.waitForTimeout(1500);
  assert.equal(
    await page.getByRole('alert').filter({ hasText: 'Manifests changed on disk' }).count(),
    0,
    'Strata’s own rewrite of the application’s file is no news',
  );
  await page.waitForFunction(() => /1 application bound/.test(document.querySelector('[data-testid="activity-headline"]')?.textContent ?? ''));

  // Revert to saved after an edit.
  await stateOf(B).selectOption('auto');
  await page.getByTestId('profile-edit-revert').click();
  assert.equal(await stateOf(B).inputValue(), 'off');

  // Duplicate: the editor then works on the copy.
  await page.getByTestId('profile-edit-duplicate').click();
  await page.getByTestId('profile-duplicate-name').fill('Alpha copy');
  await page.getByTestId('profile-duplicate-confirm').click();
  await page.locator('[data-testid="profile-edit-bar"][data-profile="Alpha copy"]').waitFor({ timeout: 15_000 });
  const copy = JSON.parse(readFileSync(join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles', 'Alpha-copy.json'), 'utf8')) as {
    layers: { name: string; state: string }[];
    applications?: string[];
  };
  assert.deepEqual(
    copy.layers.filter((l) => l.state === 'on').map((l) => l.name),
    [C, A],
  );
  assert.deepEqual(
    copy.layers.filter((l) => l.state === 'off').map((l) => l.name),
    [B],
  );
  assert.equal(copy.applications, undefined, 'a copy is bound to nothing');
  assert.deepEqual(await unnamedControls(page), []);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('profile-editor-light.png') });
});

test('the global editor keeps the order the user chose across a reload, and says why the chain order differs', async () => {
  await page.getByTestId('profile-switcher-select').selectOption('global');
  await page.locator('[data-testid="profile-edit-bar"]').waitFor({ state: 'detached' });
  await stateOf(B).selectOption('on');
  // B to the top of the list (above the implicit layers).
  await row(B).focus();
  for (let i = 0; i < 12; i++) await page.keyboard.press('Alt+ArrowUp');
  const before = await page.getByTestId('layer-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')));
  assert.equal(before[0], B);
  await page.getByTestId('draft-apply').click();
  await page.getByTestId('apply-confirm').click();
  await page.getByTestId('apply-dialog').waitFor({ state: 'detached', timeout: 20_000 });
  await page.reload();
  await page.locator(`[data-testid="layer-row"][data-layer="${B}"]`).waitFor({ timeout: 20_000 });
  await page.waitForFunction((b) => document.querySelector('[data-testid="layer-row"]')?.getAttribute('data-layer') === b, B, { timeout: 10_000 });
  const after = await page.getByTestId('layer-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')));
  assert.deepEqual(after, before, 'the list order is the one chosen before the reload');
  // B is #1 in the list; in the chain it is where the loader puts the override.
  // The chain is computed after the list appears (chain.context, then the model): wait for it.
  await row(B).locator('[data-testid="layer-chain-pos"].is-loaded').waitFor({ timeout: 20_000 });
  const chip = (await row(B).getByTestId('layer-chain-pos').textContent()) ?? '';
  if (!/chain #1\b/.test(chip)) assert.match(chip, /override’s place/);
  assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
});

declare const document: { querySelector(s: string): { textContent: string | null; getAttribute(n: string): string | null } | null };

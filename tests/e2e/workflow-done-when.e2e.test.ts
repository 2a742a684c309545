import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';
import { buildLoaderKit, copyProbe, LAVAPIPE, runProbe, writeRecordingManifests } from '../helpers/profile-loader-kit';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { layoutDefects, unnamedControls } from '../helpers/ui-audit';

/**
 * Issue #18's "Done when", walked as a new user in Debian's Chromium (browser host) in a fresh HOME:
 * create two profiles in the UI, edit the first's layers, order and settings, bind two applications
 * to the two profiles, launch each and see in Sessions, Chain and Diagnostics that each got what its
 * profile says; then tell from the status strip what Strata changed for whom and undo all of it. The
 * ground truth is the real loader (1.3.239, lavapipe) running the two applications outside Strata
 * (tests/fixtures/layers: recording layers and a chain probe). Nothing is set up behind the UI's back
 * except the layers and applications a user would already have.
 */
const LAYERS = ['VK_LAYER_STRATA_wa', 'VK_LAYER_STRATA_wb', 'VK_LAYER_STRATA_wc'];
const [A, B, C] = LAYERS as [string, string, string];
let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
let restoreEnv: () => void = () => {};
let apps: { one: string; two: string };
const problems: string[] = [];
const row = (name: string) => page.locator(`[data-testid="layer-row"][data-layer="${name}"]`);
const stateOf = (name: string) => row(name).getByTestId('layer-state');
const strataOrder = async () =>
  (await page.getByTestId('layer-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')))).filter(
    (n): n is string => !!n?.startsWith('VK_LAYER_STRATA_'),
  );
const panel = (id: string) => page.locator(`button[data-panel="${id}"]`).click();
const strataNodes = async (testId: string) =>
  (
    await page
      .getByTestId(testId)
      .getByTestId('chain-node')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-layer')))
  ).filter((n): n is string => !!n?.startsWith('VK_LAYER_STRATA_'));

before(async () => {
  prepareE2e();
  home = makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
  const kit = buildLoaderKit(join(home.dir, 'kit'), LAYERS);
  writeRecordingManifests(kit, join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
  mkdirSync(join(home.dir, 'bin'));
  apps = { one: realpathSync(copyProbe(kit, join(home.dir, 'bin', 'app-one'))), two: realpathSync(copyProbe(kit, join(home.dir, 'bin', 'app-two'))) };
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { viewport: { width: 1440, height: 900 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv();
  home?.cleanup();
});

/** Profiles › New profile, renamed to `name`, opened in the Layers editor. */
async function newProfile(name: string) {
  await panel('profiles');
  await page.getByTestId('profile-new').click();
  await page.locator('[data-testid="profile-entry"][data-key="profile:New profile"]').waitFor({ timeout: 15_000 });
  await page.getByTestId('profile-rename-name').fill(name);
  await page.getByTestId('profile-rename-name-submit').click();
  await page.locator(`[data-testid="profile-entry"][data-key="profile:${name}"]`).click();
  await page.getByTestId('profile-edit').click();
  await page.locator(`[data-testid="profile-edit-bar"][data-profile="${name}"]`).waitFor({ timeout: 15_000 });
}

async function saveProfile(name: string) {
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => /As saved/.test(document.querySelector('[data-testid="profile-edit-state"]')?.textContent ?? ''), undefined, {
    timeout: 20_000,
  });
  return JSON.parse(readFileSync(join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles', `${name}.json`), 'utf8')) as {
    layers: { name: string; state: string }[];
    settings?: Record<string, Record<string, unknown>>;
  };
}

async function bind(path: string, profile: string) {
  await panel('applications');
  await page.getByTestId('application-path').fill(path);
  await page.getByTestId('application-profile').selectOption(profile);
  await page.getByTestId('application-bind').click();
  await page.getByTestId('applications-table').getByText(path).first().waitFor({ timeout: 20_000 });
}

/** Sessions › the bound application's one-click entry › Start, with the loader's layer messages; the layers it inserted. */
async function launchBound(path: string): Promise<string[]> {
  await panel('sessions');
  await page.locator(`[data-testid="launch-bound-app"][data-app="${path}"]`).click();
  assert.equal(await page.getByTestId('launch-profile').inputValue(), '', 'launched as it is: its binding gives it its profile');
  // The probe takes the API version to ask for (app_keys match the executable, not its arguments).
  assert.equal(await page.getByTestId('launch-command').inputValue(), path);
  await page.getByTestId('launch-command').fill(`${path} 1.3`);
  await page.getByTestId('launch-loader-debug').selectOption('error,warn,info,layer,driver');
  const before = (await page.getByTestId('live-status').count()) ? await page.getByTestId('live-status').getAttribute('data-session') : null;
  await page.getByTestId('launch-start').click();
  await page.locator(`[data-testid="live-status"][data-ended="true"]${before ? `:not([data-session="${before}"])` : ''}`).waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('live-status').textContent()) ?? '', /exit 0/);
  const live = page.getByTestId('live-log');
  await live.getByTestId('log-search').fill('Insert instance layer');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="live-log"] [data-testid="log-line"]').length > 0);
  const lines = await live.getByTestId('log-line').allTextContents();
  await live.getByTestId('log-search').fill('');
  return LAYERS.filter((l) => lines.some((t) => t.includes(`"${l}"`)));
}

test(
  'Done when: two profiles made and edited in the UI, bound to two applications, launched; Sessions, Chain and Diagnostics agree with the real loader; the strip undoes it all',
  { timeout: 300_000 },
  async () => {
    await page.getByTestId('layer-list').waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => /no application bound/.test(document.querySelector('[data-testid="activity-headline"]')?.textContent ?? ''), undefined, {
      timeout: 20_000,
    });
    assert.equal(await page.getByTestId('activity-headline').textContent(), 'Global override: none · no application bound');

    // 1. "First": C and A on, C above A, B off, and a validation setting.
    await newProfile('First');
    await stateOf(A).selectOption('on');
    await stateOf(C).selectOption('on');
    await row(C).focus();
    for (let i = 0; i < 6 && (await strataOrder()).indexOf(C) > (await strataOrder()).indexOf(A); i++) await page.keyboard.press('Alt+ArrowUp');
    await stateOf(B).selectOption('off');
    const order = await strataOrder();
    assert.ok(order.indexOf(C) < order.indexOf(A), order.join(', '));
    await page.keyboard.press('Alt+6');
    await page.locator('[data-testid="settings-view"] [data-testid="profile-edit-bar"][data-profile="First"]').waitFor({ timeout: 15_000 });
    await page.locator('[data-testid="settings-layer"][data-layer="VK_LAYER_KHRONOS_validation"]').click();
    await page
      .getByRole('region', { name: 'Settings of VK_LAYER_KHRONOS_validation' })
      .getByRole('textbox', { name: 'Max Duplicated Messages', exact: true })
      .fill('3');
    await page.keyboard.press('Alt+1');
    await page.locator('[data-testid="profile-edit-bar"][data-profile="First"]').waitFor();
    const first = await saveProfile('First');
    assert.deepEqual(
      first.layers.filter((l) => l.state === 'on').map((l) => l.name),
      [C, A],
    );
    assert.deepEqual(
      first.layers.filter((l) => l.state === 'off').map((l) => l.name),
      [B],
    );
    assert.deepEqual(first.settings, { VK_LAYER_KHRONOS_validation: { duplicate_message_limit: 3 } });

    // 2. "Second": B on.
    await newProfile('Second');
    await stateOf(B).selectOption('on');
    const second = await saveProfile('Second');
    assert.deepEqual(
      second.layers.filter((l) => l.state === 'on').map((l) => l.name),
      [B],
    );

    // 3. Bind the two applications, from the Applications view.
    await bind(apps.one, 'First');
    await bind(apps.two, 'Second');
    // Outside Strata, the real loader gives each application its profile.
    assert.deepEqual((await runProbe(apps.one, home.env)).chain, [C, A], 'app-one gets First');
    assert.deepEqual((await runProbe(apps.two, home.env)).chain, [B], 'app-two gets Second');

    // 4. Launch each from the Launcher: the loader inserts its profile's layers and no other.
    assert.deepEqual(await launchBound(apps.one), [A, C]);
    assert.deepEqual(await launchBound(apps.two), [B]);
    await page.getByTestId('sessions-tab-history').check();
    await page.getByTestId('session-row').nth(1).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('session-row').count(), 2);

    // 5. Chain: each application's chain, as its own file gives it.
    await panel('chain');
    await page.getByTestId('chain-app-input').fill(apps.one);
    await page.getByTestId('chain-explain').click();
    await page.waitForFunction((c) => !!document.querySelector(`[data-testid="chain-card"] [data-testid="chain-node"][data-layer="${c}"]`), C, {
      timeout: 15_000,
    });
    const chainOne = await strataNodes('chain-card');
    await page.getByTestId('chain-app-input').fill(apps.two);
    await page.getByTestId('chain-explain').click();
    await page.waitForFunction((b) => !!document.querySelector(`[data-testid="chain-card"] [data-testid="chain-node"][data-layer="${b}"]`), B, {
      timeout: 15_000,
    });
    const chainTwo = await strataNodes('chain-card');
    // The diagram runs from the application down to the driver, as the probe records (application side first).
    assert.deepEqual(chainOne, [C, A]);
    assert.deepEqual(chainTwo, [B]);

    // 6. Diagnostics: run the loader for app-one; its layer messages name its profile's layers.
    await page.keyboard.press('Alt+0');
    await page.getByTestId('diagnose-target-app').check();
    await page.getByTestId('diagnose-command').fill(`${apps.one} 1.3`);
    await page.getByTestId('diagnose-level').selectOption('error,warn,info,layer,driver');
    await page.getByTestId('diagnose-run').click();
    await page.locator('[data-testid="diagnose-status"][data-ended="true"]').waitFor({ timeout: 60_000 });
    const layerGroup = (await page.locator('[data-testid="diagnose-group"][data-category="LAYER"]').textContent()) ?? '';
    assert.ok(layerGroup.includes(`Insert instance layer "${C}"`) && layerGroup.includes(`Insert instance layer "${A}"`), layerGroup.slice(0, 2000));
    assert.ok(!layerGroup.includes(`Insert instance layer "${B}"`), 'app-one does not get Second’s layer');
    const firstRun = await page.getByTestId('diagnose-status').getAttribute('data-session');
    await page.getByTestId('diagnose-command').fill(`${apps.two} 1.3`);
    await page.getByTestId('diagnose-run').click();
    await page.locator(`[data-testid="diagnose-status"][data-ended="true"]:not([data-session="${firstRun}"])`).waitFor({ timeout: 60_000 });
    const layerGroupTwo = (await page.locator('[data-testid="diagnose-group"][data-category="LAYER"]').textContent()) ?? '';
    assert.ok(layerGroupTwo.includes(`Insert instance layer "${B}"`), layerGroupTwo.slice(0, 2000));
    assert.ok(
      !layerGroupTwo.includes(`Insert instance layer "${A}"`) && !layerGroupTwo.includes(`Insert instance layer "${C}"`),
      'app-two gets only Second’s layer',
    );
    assert.deepEqual(await layoutDefects(page), []);
    assert.deepEqual(await unnamedControls(page), []);

    // 7. The status strip: who has what, from which file; then Disable undoes all of it.
    await page.waitForFunction(() => /2 applications bound/.test(document.querySelector('[data-testid="activity-headline"]')?.textContent ?? ''));
    assert.equal(await page.getByTestId('activity-headline').textContent(), 'Global override: none · 2 applications bound');
    await page.getByTestId('activity-toggle').click();
    const details = page.getByTestId('activity-details');
    await details.waitFor();
    const bindings = await details
      .getByTestId('activity-binding')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-app'), e.getAttribute('data-ok'), e.textContent ?? '']));
    assert.deepEqual(
      bindings.map(([a, ok]) => [a, ok]),
      [
        [apps.one, 'true'],
        [apps.two, 'true'],
      ],
    );
    assert.match(bindings[0]![2]!, /First/);
    assert.match(bindings[1]![2]!, /Second/);
    const files = await details.getByTestId('activity-file').evaluateAll((els) => els.map((e) => [e.getAttribute('data-path'), e.getAttribute('data-owner')]));
    assert.ok(files.length >= 2 && files.every(([p, owner]) => owner === 'strata' && p && existsSync(p)), JSON.stringify(files));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: artifact('workflow-done-when-strip-light.png') });
    await page.getByTestId('activity-disable').click();
    const dialog = page.getByTestId('disable-dialog');
    await dialog.locator(`[data-testid="disable-app"][data-app="${apps.one}"]`).waitFor();
    await dialog.getByTestId('disable-confirm').click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await page.waitForFunction(() => /no application bound/.test(document.querySelector('[data-testid="activity-headline"]')?.textContent ?? ''), undefined, {
      timeout: 20_000,
    });
    for (const [p] of files) assert.equal(existsSync(p!), false, `${p} is removed`);
    assert.deepEqual((await runProbe(apps.one, home.env)).chain, [], 'app-one is back to what it asks for');
    assert.deepEqual((await runProbe(apps.two, home.env)).chain, [], 'app-two too');
    assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
  },
);

declare const document: { querySelector(s: string): { textContent: string | null } | null; querySelectorAll(s: string): { length: number } };

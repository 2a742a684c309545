import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync, type Dirent } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { basename, dirname, join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { profilesApply, profilesBind, profilesCreate, type ProfileServiceOptions } from '../../main/profiles/profile-service';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';
import { buildLoaderKit, copyProbe, LAVAPIPE, runProbe, writeRecordingManifests } from '../helpers/profile-loader-kit';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { layoutDefects, unnamedControls } from '../helpers/ui-audit';

/**
 * "What is active for whom" in the window frame (browser host, Debian's Chromium): a global
 * override and two applications bound to two profiles of recording layers, plus a loader settings
 * file another tool wrote. The strip names each; the Chain panel shows one application's chain;
 * Disable asks which and undoes exactly that, and the real loader (1.3.239, lavapipe) agrees.
 */
const LAYERS = ['VK_LAYER_STRATA_ea', 'VK_LAYER_STRATA_eb', 'VK_LAYER_STRATA_ec'];
const [A, B, C] = LAYERS as [string, string, string];
let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
let restoreEnv: () => void = () => {};
let apps: { one: string; two: string };
let foreignSettings: string;
const problems: string[] = [];

before(async () => {
  prepareE2e();
  home = makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
  const kit = buildLoaderKit(join(home.dir, 'kit'), LAYERS);
  writeRecordingManifests(kit, join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
  mkdirSync(join(home.dir, 'bin'));
  apps = { one: realpathSync(copyProbe(kit, join(home.dir, 'bin', 'app-one'))), two: realpathSync(copyProbe(kit, join(home.dir, 'bin', 'app-two'))) };
  const version = vulkaninfoInstanceVersion(home.env);
  const o: ProfileServiceOptions = { env: home.env, loaderVersion: async () => version };
  for (const [name, layer] of [
    ['One', A],
    ['Two', B],
    ['Everyone', C],
  ] as const)
    await profilesCreate(o, { name, profile: { schemaVersion: 2, name, layers: [{ name: layer, state: 'on' }] } });
  await profilesApply(o, { name: 'Everyone' });
  await profilesBind(o, { appPath: apps.one, profile: 'One' });
  await profilesBind(o, { appPath: apps.two, profile: 'Two', args: ['1.3'] });
  foreignSettings = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'loader_settings.d', 'vk_loader_settings.json');
  mkdirSync(join(foreignSettings, '..'), { recursive: true });
  writeFileSync(foreignSettings, JSON.stringify({ file_format_version: '1.0.0', settings_array: [] }));
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { viewport: { width: 1440, height: 900 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv();
  home?.cleanup();
});

test('the strip names the global override, both bindings and the other tool’s file; Chain shows one application’s chain; Disable asks which', async () => {
  const headline = page.getByTestId('activity-headline');
  await page.waitForFunction(() => /application/.test(document.querySelector('[data-testid="activity-headline"]')?.textContent ?? ''), undefined, {
    timeout: 20_000,
  });
  assert.equal(await headline.textContent(), 'Global override: on 1 · 2 applications bound · 1 file of another tool');

  await page.getByTestId('activity-toggle').click();
  const details = page.getByTestId('activity-details');
  await details.waitFor();
  assert.deepEqual(
    await details.getByTestId('activity-binding').evaluateAll((els) => els.map((e) => [e.getAttribute('data-app'), e.getAttribute('data-ok')])),
    [
      [apps.one, 'true'],
      [apps.two, 'true'],
    ],
  );
  const files = await details
    .getByTestId('activity-file')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-role')}:${e.getAttribute('data-owner')}`));
  assert.deepEqual([...files].sort(), ['app-override:strata', 'app-override:strata', 'global-override:strata', 'loader-settings:foreign']);
  assert.match((await details.locator(`[data-path="${foreignSettings}"]`).textContent()) ?? '', /another tool.*does not read it/);
  assert.deepEqual(await unnamedControls(page), []);
  assert.deepEqual(await layoutDefects(page), []);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('activity-strip-light.png') });

  // No problem for Strata's own per-application files.
  await page.locator('button[data-panel="problems"]').click();
  await page
    .getByTestId('problems-view')
    .waitFor({ timeout: 15_000 })
    .catch(() => {});
  assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /duplicate-name/);

  // One application's chain, from the strip.
  await details.getByRole('button', { name: `Show the chain of ${apps.two}` }).click();
  await page.getByTestId('chain-card').waitFor({ timeout: 15_000 });
  assert.equal(await page.getByTestId('chain-app-input').inputValue(), apps.two);
  await page.locator(`[data-testid="chain-node"][data-layer="${B}"]`).waitFor();
  assert.equal(await page.locator(`[data-testid="chain-node"][data-layer="${A}"]`).count(), 0);
  assert.equal(await page.locator(`[data-testid="chain-node"][data-layer="${C}"]`).count(), 0);

  // Disable asks which: keep app-two's binding.
  await page.getByTestId('activity-disable').click();
  const dialog = page.getByTestId('disable-dialog');
  await dialog.getByTestId('disable-global').waitFor();
  await dialog.locator(`[data-testid="disable-app"][data-app="${apps.two}"]`).uncheck();
  assert.deepEqual(await layoutDefects(page), []);
  await page.screenshot({ path: artifact('activity-disable-light.png') });
  await dialog.getByTestId('disable-confirm').click();
  await dialog.waitFor({ state: 'detached' });
  assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'BODY', 'focus is not lost when the dialog closes');
  await page.waitForFunction(() => /1 application bound/.test(document.querySelector('[data-testid="activity-headline"]')?.textContent ?? ''));
  assert.equal(await headline.textContent(), 'Global override: none · 1 application bound · 1 file of another tool');
  assert.ok(existsSync(foreignSettings), 'another tool’s file is left alone');

  // The real loader agrees.
  assert.deepEqual((await runProbe(apps.one, home.env)).chain, [], 'app-one: no binding, no global override');
  assert.deepEqual((await runProbe(apps.two, home.env)).chain, [B], 'app-two keeps its profile');

  // Strata's own writes are not announced as changes on disk.
  await page.waitForTimeout(1500);
  assert.equal(await page.getByRole('alert').filter({ hasText: 'Manifests changed on disk' }).count(), 0);

  // The Layers bar says what is true for every application.
  await page.locator('button[data-panel="layers"]').click();
  await page.getByTestId('override-ownership').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => /1 application is bound/.test(document.querySelector('[data-testid="override-ownership"]')?.textContent ?? ''));

  // The bound application is one click from the Launcher.
  await page.locator('button[data-panel="sessions"]').click();
  await page.locator(`[data-testid="launch-bound-app"][data-app="${apps.two}"]`).click();
  assert.equal(await page.getByTestId('launch-command').inputValue(), `${apps.two} 1.3`);
  assert.equal(await page.getByTestId('launch-profile').inputValue(), '', 'started as it is: its binding gives it the profile');
  assert.match((await page.getByTestId('launch-bound-note').textContent()) ?? '', /bound to “Two”/);
  // Launched as it is, with the loader's layer messages: it gets its profile's layer through its own file.
  await page.getByTestId('launch-loader-debug').selectOption('error,warn,info,layer,driver');
  await page.getByTestId('launch-start').click();
  await page.locator('[data-testid="live-status"][data-ended="true"]').waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('live-status').textContent()) ?? '', /exit 0/);
  const live = page.getByTestId('live-log');
  await live.getByTestId('log-search').fill('Insert instance layer');
  await page.waitForFunction(
    () =>
      /^\d+ of \d+$/.test(document.querySelector('[data-testid="live-log"] [data-testid="log-status"]')?.textContent ?? '') &&
      !/^(\d+) of \1$/.test(document.querySelector('[data-testid="live-log"] [data-testid="log-status"]')?.textContent ?? ''),
  );
  const inserted = await live.getByTestId('log-line').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  assert.ok(
    inserted.some((l) => l.includes(`"${B}"`)),
    inserted.join('\n'),
  );
  assert.ok(!inserted.some((l) => l.includes(`"${A}"`) || l.includes(`"${C}"`)), inserted.join('\n'));
  await live.getByTestId('log-search').fill('');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page
    .getByTestId('activity-toggle')
    .click()
    .catch(() => {});
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('activity-strip-dark.png') });
  assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
});

test('a bound application launched with a profile: the switched-off override’s loader warnings are explained once, the header counts every warning, lines wrap', async () => {
  // The page is on Sessions › Launch after the first test; app-two (bound to "Two") launched with the profile "Two".
  await page.locator(`[data-testid="launch-bound-app"][data-app="${apps.two}"]`).click();
  await page.getByTestId('launch-profile').selectOption('Two');
  await page.getByTestId('launch-loader-debug').selectOption('error,warn,info,layer,driver');
  const before = await page.getByTestId('live-status').getAttribute('data-session');
  await page.getByTestId('launch-start').click();
  await page.locator(`[data-testid="live-status"][data-ended="true"]:not([data-session="${before}"])`).waitFor({ timeout: 30_000 });
  const id = await page.getByTestId('live-status').getAttribute('data-session');
  // Ground truth: what the real loader printed, as the session file recorded it.
  const file = join(home.env['XDG_STATE_HOME']!, 'strata', 'sessions', `${id}.jsonl`);
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; src?: string; level?: string; text?: string });
  const component = records.filter((r) => r.src === 'loader' && /Meta-layer VK_LAYER_LUNARG_override can't find component layer/.test(r.text ?? ''));
  const loaderWarnings = records.filter((r) => r.src === 'loader' && r.level === 'warning').length;
  assert.ok(component.length > 0, 'loader 1.3.239 warns about the switched-off override’s component');
  const note = (await page.getByTestId('live-override-note').textContent()) ?? '';
  assert.ok(
    note.startsWith(
      `${component.length} loader warning${component.length === 1 ? '' : 's'} “Meta-layer VK_LAYER_LUNARG_override can't find component layer” (${B})`,
    ),
    note,
  );
  assert.match(note, /DISABLE_STRATA_OVERRIDE=1/);
  assert.equal(await page.getByTestId('live-override-note').count(), 1, 'explained once');
  assert.match((await page.getByTestId('live-counts').textContent()) ?? '', new RegExp(`loader: 0 errors, ${loaderWarnings} warnings?$`));
  // The profile's layer is there all the same.
  const live = page.getByTestId('live-log');
  await live.getByTestId('log-search').fill('Insert instance layer');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="live-log"] [data-testid="log-line"]').length > 0);
  assert.ok((await live.getByTestId('log-line').allTextContents()).some((l) => l.includes(`"${B}"`)));
  // Long lines wrap: the warning's row is several lines high and nothing scrolls sideways.
  await live.getByTestId('log-search').fill("can't find component layer");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="live-log"] [data-testid="log-line"]').length > 0);
  const heights = await live.getByTestId('log-line').evaluateAll((els) => els.map((e) => (e as unknown as { offsetHeight: number }).offsetHeight));
  assert.ok(
    heights.every((h) => h >= 40),
    heights.join(', '),
  );
  const scroller = await live.getByTestId('live-log-scroller').evaluate((e) => [e.scrollWidth, e.clientWidth]);
  assert.ok(scroller[0]! <= scroller[1]! + 1, `the log scrolls sideways: ${scroller.join(' > ')}`);
  await live.getByTestId('log-search').fill('');
  assert.deepEqual(await layoutDefects(page), []);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('profile-launch-note-dark.png') });
  assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
});

test('Diagnostics: one click runs the loader for the system, the log grouped with repeats folded, files, layers and rules linked; the bundle holds every manifest and Strata’s files', async () => {
  // A layer whose name breaks the convention: the loader warns, Strata's lint has a rule for it.
  const odd = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d', 'odd.json');
  const oddManifest = JSON.parse(readFileSync(join(odd, '..', `${A}.json`), 'utf8')) as { layer: { name: string } };
  oddManifest.layer.name = 'my_odd_layer';
  writeFileSync(odd, JSON.stringify(oddManifest, null, 2));
  await page.locator('button[data-panel="diagnostics"]').click();
  await page.getByTestId('diagnostics-view').waitFor({ timeout: 15_000 });
  await page.getByTestId('diagnose-devices').waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('diagnose-devices').textContent()) ?? '', /llvmpipe/);
  // The drivers summary: each driver manifest the loader reads, with the device it gave.
  assert.deepEqual(await page.getByTestId('diagnose-driver').evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))), [LAVAPIPE]);
  assert.match((await page.getByTestId('diagnose-driver').textContent()) ?? '', /→ llvmpipe/);
  await page.getByTestId('diagnose-run').click();
  await page.locator('[data-testid="diagnose-status"][data-ended="true"]').waitFor({ timeout: 60_000 });
  const categories = await page.getByTestId('diagnose-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-category')));
  assert.ok(categories.includes('DRIVER') && categories.includes('LAYER'), categories.join(', '));
  // Every distinct line once; the driver manifest it names is there.
  assert.match((await page.locator('[data-testid="diagnose-group"][data-category="DRIVER"]').textContent()) ?? '', /lvp_icd\.x86_64\.json/);
  // The loader's naming warning is linked to its rule; the rule to the file's problem in Problems.
  const rule = page.locator('[data-testid="diagnose-rule-link"][data-code="layer/name-convention"]').first();
  await rule.waitFor({ timeout: 15_000 });
  await rule.click();
  assert.match((await page.getByTestId('diagnose-rule-details').first().textContent()) ?? '', /docs\/diagnostics\.md › layer\/name-convention/);
  assert.deepEqual(await layoutDefects(page), []);
  assert.deepEqual(await unnamedControls(page), []);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('diagnostics-rule-dark.png') });
  await page.getByTestId('diagnose-rule-problem').first().click();
  await page.locator('[data-testid="problem-row"][aria-selected="true"][data-code="layer/name-convention"]').waitFor({ timeout: 15_000 });
  // Alt+0 goes back; the run is still there.
  await page.keyboard.press('Alt+0');
  await page.locator('[data-testid="diagnose-status"][data-ended="true"]').waitFor({ timeout: 15_000 });
  // A manifest path opens its layer in Layers.
  const fileLink = page.locator('[data-testid="diagnose-group"][data-category="DRIVER"] [data-testid="diagnose-file-link"]').first();
  assert.match((await fileLink.textContent()) ?? '', /lvp_icd\.x86_64\.json$/);
  // Lines wrap: no entry is wider than its card.
  const wide = await page
    .getByTestId('diagnose-entry')
    .evaluateAll(
      (els) =>
        els.filter(
          (e) => (e as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth > (e as unknown as { clientWidth: number }).clientWidth + 1,
        ).length,
    );
  assert.equal(wide, 0);
  assert.deepEqual(await layoutDefects(page), []);
  assert.deepEqual(await unnamedControls(page), []);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('diagnose-dark.png') });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('diagnose-export').click()]);
  assert.match(download.suggestedFilename(), /^strata-diagnostics-.*\.zip$/);
  const zip = unzipSync(readFileSync((await download.path())!));
  const names = Object.keys(zip);
  const recording = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d', `${B}.json`);
  assert.ok(names.includes(`manifests/explicit_layer${recording}`), names.join('\n'));
  assert.equal(strFromU8(zip[`manifests/explicit_layer${recording}`]!), readFileSync(recording, 'utf8'), 'byte for byte');
  const activity = JSON.parse(strFromU8(zip['strata-activity.json']!)) as { bindings: { app: string }[] };
  assert.deepEqual(
    activity.bindings.map((b) => b.app),
    [apps.two],
  );
  assert.match(strFromU8(zip['run/command.txt']!), /vulkaninfo --summary/);
  assert.ok(strFromU8(zip['run/output.log']!).includes('lvp_icd.x86_64.json'));

  // The same bundle as a folder: main writes the files the zip holds under the folder the user names (here ~/bug-reports).
  await page.getByTestId('diagnose-folder').fill('~/bug-reports');
  await page.getByTestId('diagnose-save-folder').click();
  const saved = page.getByTestId('diagnose-folder-saved');
  await saved.waitFor({ timeout: 30_000 });
  const folder = (await saved.locator('code').textContent()) ?? '';
  assert.equal(dirname(folder), join(home.dir, 'bug-reports'));
  assert.match(basename(folder), /^strata-diagnostics-/);
  const inFolder = (readdirSync(folder, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(folder, join(d.parentPath, d.name)))
    .sort();
  assert.deepEqual(inFolder, names.filter((n) => !n.endsWith('/')).sort(), 'the folder holds the files of the zip');
  assert.equal(readFileSync(join(folder, `manifests/explicit_layer${recording}`), 'utf8'), readFileSync(recording, 'utf8'), 'byte for byte');
  assert.equal(readFileSync(join(folder, 'run/output.log'), 'utf8'), strFromU8(zip['run/output.log']!));
  // Saving again makes a new folder: nothing is written over.
  await page.getByTestId('diagnose-save-folder').click();
  await page.waitForFunction((f) => {
    const shown = document.querySelector('[data-testid="diagnose-folder-saved"] code')?.textContent;
    return typeof shown === 'string' && !shown.endsWith(f);
  }, basename(folder));
  assert.equal(readdirSync(join(home.dir, 'bug-reports')).length, 2, 'two bundle folders, no staging folder left');
  // A file where the folder should be: the error says what and where, and nothing is left behind.
  writeFileSync(join(home.dir, 'not-a-folder'), '');
  await page.getByTestId('diagnose-folder').fill(join(home.dir, 'not-a-folder'));
  await page.getByTestId('diagnose-save-folder').click();
  const error = page.getByRole('alert').filter({ hasText: 'The bundle folder was not saved' });
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /a file is in the way/);
  assert.equal(readdirSync(join(home.dir, 'bug-reports')).length, 2);
  assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
});

declare const document: {
  querySelector(s: string): { textContent: string | null } | null;
  querySelectorAll(s: string): { length: number };
  activeElement: { tagName: string } | null;
};

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { profilesApply, profilesBind, profilesCreate, type ProfileServiceOptions } from '../../main/profiles/profile-service';
import { PANELS } from '../../renderer/src/panels/panel-list';
import { artifact, closeApp, openApp, prepareE2e, useHomeEnv, type E2eApp } from '../helpers/e2e-harness';
import { buildLoaderKit, copyProbe, LAVAPIPE, writeRecordingManifests } from '../helpers/profile-loader-kit';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { runStrata } from '../helpers/strata-cli';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { layoutDefects, unnamedControls } from '../helpers/ui-audit';

/**
 * Screenshots as tests: every panel of the sidebar, in both themes, at 1280×800 and 1920×1080,
 * with something to show (two profiles, a global override, two bound applications, a recorded
 * session). Each view fails on a page wider than the window, a control or path that sticks out of
 * its card, and a control without a name; the screenshots are kept in tests/e2e/artifacts/walk-*.
 */
const LAYERS = ['VK_LAYER_STRATA_wa', 'VK_LAYER_STRATA_wb'];
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const THEMES = ['Light', 'Dark'] as const;
let home: TempHome;
let app: E2eApp | null = null;
let page: Page;
let restoreEnv: () => void = () => {};
const problems: string[] = [];

before(async () => {
  prepareE2e();
  home = makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
  const kit = buildLoaderKit(join(home.dir, 'kit'), LAYERS);
  writeRecordingManifests(kit, join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
  // A long folder name: paths must wrap or scroll inside their cards, never push them wider.
  const bin = join(home.dir, 'applications-with-a-rather-long-folder-name', 'bin');
  mkdirSync(bin, { recursive: true });
  const one = realpathSync(copyProbe(kit, join(bin, 'vulkan-application-one')));
  const two = realpathSync(copyProbe(kit, join(bin, 'vulkan-application-two')));
  const version = vulkaninfoInstanceVersion(home.env);
  const o: ProfileServiceOptions = { env: home.env, loaderVersion: async () => version };
  await profilesCreate(o, { name: 'First profile', profile: { schemaVersion: 2, name: 'First profile', layers: [{ name: LAYERS[0]!, state: 'on' }] } });
  await profilesCreate(o, { name: 'Second profile', profile: { schemaVersion: 2, name: 'Second profile', layers: [{ name: LAYERS[1]!, state: 'on' }] } });
  await profilesApply(o, { name: 'First profile' });
  await profilesBind(o, { appPath: one, profile: 'First profile' });
  await profilesBind(o, { appPath: two, profile: 'Second profile' });
  const launched = runStrata(
    ['launch', '--profile', 'Second profile', '--loader-debug', 'warn', '--env', `VK_DRIVER_FILES=${LAVAPIPE}`, '--', two, '1.3'],
    home.env,
  );
  assert.equal(launched.status, 0, launched.stderr);
  // A session file cut short before its header (a crash): the history lists it with why, and a Delete.
  writeFileSync(join(home.env['XDG_STATE_HOME']!, 'strata', 'sessions', '20200101-000000-crashed-0000.jsonl'), '{"kind":"hea');
  restoreEnv = useHomeEnv(home);
  app = await openApp(home, { viewport: SIZES[0], problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  restoreEnv();
  home?.cleanup();
});

async function settle() {
  // Every panel says it is waiting with a LoadingLine; done when none is left (or after 15 s, then the screenshot shows the wait).
  await page.waitForFunction(() => document.querySelectorAll('.loading-line').length === 0, undefined, { timeout: 15_000 }).catch(() => {});
  await page.mouse.move(0, 0);
}

test('every view, both themes, 1280×800 and 1920×1080: no sideways overflow, nothing sticks out of its card, every control named', async () => {
  const found: string[] = [];
  for (const theme of THEMES) {
    await page.getByRole('radio', { name: theme }).check();
    await page.waitForFunction((t) => document.documentElement.dataset['theme'] === t, theme.toLowerCase());
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const panel of PANELS) {
        await page.locator(`button[data-panel="${panel.id}"]`).click();
        await settle();
        if (panel.id === 'layers') {
          // A layer with settings selected (the validation layer where Debian's package is installed, else the first row): the details pane and its settings tree.
          const validation = page.locator('[data-testid="layer-row"][data-layer="VK_LAYER_KHRONOS_validation"]');
          await ((await validation.count()) ? validation : page.getByTestId('layer-row').first()).click();
          await settle();
        }
        if (panel.id === 'sessions') {
          // The history, with the recorded session open.
          await page.getByTestId('sessions-tab-history').check();
          await page.getByTestId('session-open').first().click();
          await settle();
        }
        if (panel.id === 'diagnostics' && (await page.getByTestId('diagnose-status').count()) === 0) {
          // One loader run for the system (kept by the view across the walk): the grouped log with its links.
          await page.getByTestId('diagnose-run').click();
          await page.locator('[data-testid="diagnose-status"][data-ended="true"]').waitFor({ timeout: 60_000 });
          await settle();
        }
        const where = `${panel.id} ${theme.toLowerCase()} ${size.width}×${size.height}`;
        for (const d of await layoutDefects(page)) found.push(`${where}: ${d}`);
        for (const c of await unnamedControls(page)) found.push(`${where}: unnamed ${c}`);
        await page.screenshot({ path: artifact(`walk-${panel.id}-${theme.toLowerCase()}-${size.width}.png`) });
      }
    }
  }
  assert.deepEqual(found, []);
  assert.deepEqual(problems, [], 'no console errors, uncaught exceptions or CSP violations');
});

declare const document: { querySelectorAll(s: string): { length: number }; documentElement: { dataset: Record<string, string | undefined> } };

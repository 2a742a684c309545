import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WINDOW_BACKGROUND, windowOptions } from '../../main/hosts/electron/window-options';

const preloadPath = '/opt/strata/out/preload/electron-preload.cjs';

test('every security-relevant webPreference is pinned to its safe value', () => {
  const prefs = windowOptions({ preloadPath, dark: false }).webPreferences;
  assert.ok(prefs);
  // Listed one by one so a changed default in Electron cannot flip one silently.
  const expected = {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  } as const;
  for (const [key, value] of Object.entries(expected)) {
    assert.equal(prefs[key as keyof typeof prefs], value, `webPreferences.${key}`);
  }
});

test('no option that widens the renderer is set', () => {
  const prefs = windowOptions({ preloadPath, dark: true }).webPreferences ?? {};
  for (const key of ['enableBlinkFeatures', 'additionalArguments', 'partition', 'session'] as const) {
    assert.equal(prefs[key], undefined, `webPreferences.${key} should be left unset`);
  }
});

test('DevTools: off unless asked for (development builds); a release window cannot open them', () => {
  assert.equal(windowOptions({ preloadPath, dark: true }).webPreferences?.devTools, false);
  assert.equal(windowOptions({ preloadPath, dark: true, devTools: false }).webPreferences?.devTools, false);
  assert.equal(windowOptions({ preloadPath, dark: true, devTools: true }).webPreferences?.devTools, true);
});

test('the preload path is passed through unchanged', () => {
  assert.equal(windowOptions({ preloadPath, dark: false }).webPreferences?.preload, preloadPath);
  assert.equal(windowOptions({ preloadPath: 'C:\\Strata\\preload.cjs', dark: true }).webPreferences?.preload, 'C:\\Strata\\preload.cjs');
});

test('the window starts hidden, titled, with a size no smaller than its minimum', () => {
  const o = windowOptions({ preloadPath, dark: false });
  assert.equal(o.show, false);
  assert.equal(o.title, 'Strata');
  assert.ok(o.width && o.height && o.minWidth && o.minHeight);
  assert.ok(o.width >= o.minWidth && o.height >= o.minHeight);
  assert.ok(o.minWidth >= 640 && o.minHeight >= 480, 'the panels need room');
});

test('the background follows the theme', () => {
  assert.equal(windowOptions({ preloadPath, dark: true }).backgroundColor, WINDOW_BACKGROUND.dark);
  assert.equal(windowOptions({ preloadPath, dark: false }).backgroundColor, WINDOW_BACKGROUND.light);
  assert.notEqual(WINDOW_BACKGROUND.dark, WINDOW_BACKGROUND.light);
});

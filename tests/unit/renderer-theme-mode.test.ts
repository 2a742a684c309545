import { test } from 'node:test';
import assert from 'node:assert/strict';
import { THEME_MODES, parseThemeMode, resolveTheme } from '../../renderer/src/theme/theme-mode';
import { selectResolvedTheme, useTheme } from '../../renderer/src/theme/theme-store';

test('System follows the OS preference; Light and Dark ignore it', () => {
  assert.equal(resolveTheme('system', true), 'dark');
  assert.equal(resolveTheme('system', false), 'light');
  assert.equal(resolveTheme('light', true), 'light');
  assert.equal(resolveTheme('dark', false), 'dark');
});

test('a stored mode is read back; anything else means System', () => {
  for (const m of THEME_MODES) assert.equal(parseThemeMode(m), m);
  assert.equal(parseThemeMode(null), 'system');
  assert.equal(parseThemeMode(undefined), 'system');
  assert.equal(parseThemeMode('Dark'), 'system');
  assert.equal(parseThemeMode('solarized'), 'system');
});

test('the theme store derives the resolved theme from mode and OS preference', () => {
  const { setMode, setSystemPrefersDark } = useTheme.getState();
  setMode('system');
  setSystemPrefersDark(true);
  assert.equal(selectResolvedTheme(useTheme.getState()), 'dark');
  setSystemPrefersDark(false);
  assert.equal(selectResolvedTheme(useTheme.getState()), 'light');
  setMode('dark');
  assert.equal(selectResolvedTheme(useTheme.getState()), 'dark');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { panelForShortcut, type ShortcutKey } from '../../renderer/src/navigation/panel-shortcuts';

const key = (code: string, mods: Partial<ShortcutKey> = {}): ShortcutKey => ({ code, altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });

test('Alt+1 … Alt+9 and Alt+0 open the panels by physical key, top row or keypad', () => {
  assert.equal(panelForShortcut(key('Digit1')), 'layers');
  assert.equal(panelForShortcut(key('Digit2')), 'chain');
  assert.equal(panelForShortcut(key('Digit3')), 'drivers');
  assert.equal(panelForShortcut(key('Digit6')), 'settings');
  assert.equal(panelForShortcut(key('Digit9')), 'problems');
  assert.equal(panelForShortcut(key('Digit0')), 'diagnostics');
  assert.equal(panelForShortcut(key('Numpad0')), 'diagnostics');
  assert.equal(panelForShortcut(key('Numpad4')), 'profiles');
});

test('other digits and other modifiers are not shortcuts', () => {
  assert.equal(panelForShortcut(key('Digit1', { altKey: false })), null);
  assert.equal(panelForShortcut(key('Digit1', { ctrlKey: true })), null, 'AltGr arrives as Ctrl+Alt on Windows');
  assert.equal(panelForShortcut(key('Digit1', { shiftKey: true })), null);
  assert.equal(panelForShortcut(key('Digit1', { metaKey: true })), null);
  assert.equal(panelForShortcut(key('KeyA')), null);
});

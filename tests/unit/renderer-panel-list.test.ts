import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PANEL, PANELS, isPanelId, panelById, panelForDigit, panelFromName, shortcutDigit, type PanelId } from '../../renderer/src/panels/panel-list';

test('the sidebar lists the planned panels in order, About last', () => {
  assert.deepEqual(
    PANELS.map((p) => p.label),
    ['Layers', 'Chain', 'Drivers & Devices', 'Profiles', 'Applications', 'Settings', 'Sessions', 'Shaders', 'Problems', 'Diagnostics', 'About'],
  );
});

test('ids are unique, and every panel says in one sentence what it is for', () => {
  assert.equal(new Set(PANELS.map((p) => p.id)).size, PANELS.length);
  for (const p of PANELS) assert.ok(p.summary.length > 0, p.id);
});

test('Alt+digit numbers follow sidebar order: 1…9, then 0 for the tenth; none past it', () => {
  assert.equal(panelForDigit(1), 'layers');
  assert.equal(panelForDigit(2), 'chain');
  assert.equal(panelForDigit(3), 'drivers');
  assert.equal(panelForDigit(6), 'settings');
  assert.equal(panelForDigit(9), 'problems');
  assert.equal(panelForDigit(0), 'diagnostics');
  assert.equal(shortcutDigit('diagnostics'), 0);
  assert.equal(shortcutDigit('about'), null);
  assert.equal(panelForDigit(10), null);
  assert.equal(panelForDigit(-1), null);
  assert.equal(panelForDigit(1.5), null);
  for (const p of PANELS) {
    const digit = shortcutDigit(p.id);
    if (digit !== null) assert.equal(panelForDigit(digit), p.id);
  }
});

test('panelById and isPanelId agree with the list', () => {
  for (const p of PANELS) {
    assert.ok(isPanelId(p.id));
    assert.equal(panelById(p.id), p);
  }
  assert.equal(isPanelId('preferences'), false);
  assert.ok(isPanelId(DEFAULT_PANEL));
});

test('ui.navigate names: ids and labels in any case; anything else is refused', () => {
  const cases: [string, PanelId | null][] = [
    ['about', 'about'],
    ['About', 'about'],
    [' PROBLEMS ', 'problems'],
    ['Drivers & Devices', 'drivers'],
    ['drivers', 'drivers'],
    ['Chain', 'chain'],
    ['Settings', 'settings'],
    ['preferences', null],
    ['', null],
    ['__proto__', null],
  ];
  for (const [name, expected] of cases) assert.equal(panelFromName(name), expected, JSON.stringify(name));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useNavigation } from '../../renderer/src/navigation/navigation-store';
import { DEFAULT_PANEL } from '../../renderer/src/panels/panel-list';

test('starts on the default panel without asking for focus; each open asks for it', () => {
  assert.equal(useNavigation.getState().panel, DEFAULT_PANEL);
  assert.equal(useNavigation.getState().focusRequest, 0);
  useNavigation.getState().open('problems');
  assert.equal(useNavigation.getState().panel, 'problems');
  assert.equal(useNavigation.getState().focusRequest, 1);
  // Opening the panel already open still moves focus to its heading (e.g. Alt+7 twice).
  useNavigation.getState().open('problems');
  assert.equal(useNavigation.getState().focusRequest, 2);
});

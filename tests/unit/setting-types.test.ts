import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flattenSettings, isListType, isValueSetting, SETTING_TYPES, typeInWords, type SettingDescription } from '../../shared/settings/setting-types';

// shared/settings/setting-types.ts: the setting types of vkconfig's layers_schema.json (manifest 1.2.0).
const node = (key: string, type: SettingDescription['type'], children: SettingDescription[] = []) => ({ key, type, children }) as unknown as SettingDescription;

test('flattenSettings: depth first, a setting before its children', () => {
  const tree = [node('g', 'GROUP', [node('a', 'BOOL', [node('a1', 'INT')]), node('b', 'STRING')]), node('c', 'FLAGS')];
  assert.deepEqual(
    flattenSettings(tree).map((s) => s.key),
    ['g', 'a', 'a1', 'b', 'c'],
  );
  assert.deepEqual(flattenSettings([]), []);
});

test('value settings, list types and the words for every type', () => {
  assert.equal(isValueSetting(node('g', 'GROUP')), false);
  assert.equal(isValueSetting(node('a', 'BOOL')), true);
  assert.deepEqual(SETTING_TYPES.filter(isListType), ['FLAGS', 'LIST']);
  for (const t of SETTING_TYPES) assert.ok(typeInWords(t), t);
  assert.equal(typeInWords('INT'), 'whole number');
  assert.equal(typeInWords('FLAGS'), 'any of a list');
  assert.equal(new Set(SETTING_TYPES.map(typeInWords)).size, SETTING_TYPES.length, 'each type reads differently');
});

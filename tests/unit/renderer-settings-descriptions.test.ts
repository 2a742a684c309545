import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layerSettingsFromManifest } from '../../shared/settings/settings-schema';
import type { ManifestInventory } from '../../shared/discovery/manifest-inventory';
import { listedDescription, readDescriptionsAhead, settingsDescription } from '../../renderer/src/settings/settings-descriptions';

/**
 * renderer/src/settings/settings-descriptions.ts: the Settings view's descriptions, read once per
 * manifest text (issue #19: opening the view). What it hands out is what layerSettingsFromManifest
 * gives for the same text, and the count of settings is the view's (groups not counted).
 */
const manifest = (name: string, settings: string) =>
  `{"file_format_version": "1.2.0", "layer": {"name": "${name}", "type": "GLOBAL", "features": {"settings": [${settings}]}}}`;
const GROUP =
  '{"key": "g", "label": "G", "description": "d", "type": "GROUP", "settings": [{"key": "k", "label": "K", "description": "d", "type": "BOOL", "default": true}]}';
const BOOL = '{"key": "b", "label": "B", "description": "d", "type": "BOOL", "default": false}';

test('the same description as layerSettingsFromManifest, read once per text and layer', () => {
  const text = manifest('VK_LAYER_a', `${GROUP}, ${BOOL}`);
  const first = settingsDescription(text, 'VK_LAYER_a');
  assert.deepEqual(first.description, layerSettingsFromManifest(text, 'VK_LAYER_a'));
  assert.equal(first.described, 2, 'a group is not a setting');
  assert.equal(settingsDescription(text, 'VK_LAYER_a'), first, 'kept');
  assert.deepEqual(settingsDescription(text, 'VK_LAYER_other'), { description: null, described: 0 }, 'a layer the text does not define');
});

test('a text that cannot hold settings is not parsed for the list; readDescriptionsAhead reads what the list will ask', () => {
  const plain = '{"file_format_version": "1.0.0", "layer": {"name": "VK_LAYER_plain", "type": "GLOBAL"}}';
  assert.deepEqual(listedDescription(plain, 'VK_LAYER_plain'), { description: null, described: 0 });
  const text = manifest('VK_LAYER_b', BOOL);
  const inventory = {
    manifests: {
      implicit_layer: [],
      explicit_layer: [
        { text, layers: [{ name: 'VK_LAYER_b' }] },
        { text: null, layers: [] },
      ],
      driver: [],
    },
  } as unknown as ManifestInventory;
  readDescriptionsAhead(inventory);
  const ahead = listedDescription(text, 'VK_LAYER_b');
  assert.equal(ahead.described, 1);
  assert.equal(settingsDescription(text, 'VK_LAYER_b'), ahead, 'the list and the editor read the same kept entry');
});

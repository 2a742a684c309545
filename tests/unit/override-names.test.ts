import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forcesLayers, OVERRIDE_FILE_NAME, OVERRIDE_LAYER_NAME } from '../../shared/override/override-names';

// shared/override/override-names.ts: the names the loader documents for the override meta-layer
// (LoaderLayerInterface.md, "Override Meta-Layer": VK_LAYER_LUNARG_override in VkLayer_override.json).
test('the override layer and file names are the ones the loader looks for', () => {
  assert.equal(OVERRIDE_LAYER_NAME, 'VK_LAYER_LUNARG_override');
  assert.equal(OVERRIDE_FILE_NAME, 'VkLayer_override.json');
});

test('forcesLayers: only a layer forced on or off makes an override file', () => {
  assert.equal(forcesLayers({ layers: [] }), false);
  assert.equal(forcesLayers({ layers: [{ state: 'auto' }, { state: 'auto' }] }), false);
  assert.equal(forcesLayers({ layers: [{ state: 'auto' }, { state: 'off' }] }), true);
  assert.equal(forcesLayers({ layers: [{ state: 'on' }] }), true);
});

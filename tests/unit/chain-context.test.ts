import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chainEnvironment, chainVariableNames } from '../../shared/configurator/chain-context';
import { OVERRIDE_DISABLE_VARIABLE } from '../../shared/override/override-names';
import { explicitLayer, fakeInventory, implicitLayer } from '../helpers/profile-inventory';

// shared/configurator/chain-context.ts: the variables the chain model may read are every VK_* one and
// those a layer names in enable_environment / disable_environment (LoaderLayerInterface.md, "Layer
// Manifest File Format"), plus the override's disable variable.
test('chainVariableNames: the override’s variable and every enable/disable variable of the layers', () => {
  const inventory = fakeInventory({
    implicit: [implicitLayer('VK_LAYER_a', 'DISABLE_A', ['ENABLE_A', '1'])],
    explicit: [explicitLayer('VK_LAYER_b')],
  });
  assert.deepEqual([...chainVariableNames(inventory)].sort(), ['DISABLE_A', 'ENABLE_A', OVERRIDE_DISABLE_VARIABLE].sort());
});

test('chainEnvironment keeps VK_* and named variables that are set, empty strings included', () => {
  const env = { VK_LOADER_DEBUG: 'all', VK_INSTANCE_LAYERS: '', DISABLE_A: '', HOME: '/home/u', PATH: '/bin', ENABLE_A: undefined, vk_lower: 'x' };
  assert.deepEqual(chainEnvironment(env, new Set(['DISABLE_A', 'ENABLE_A'])), { VK_LOADER_DEBUG: 'all', VK_INSTANCE_LAYERS: '', DISABLE_A: '' });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseName, inventoryDrivers, inventoryLayers } from '../../shared/profiles/inventory-layers';
import { explicitLayer, fakeInventory, implicitLayer } from '../helpers/profile-inventory';
import { buildInventory } from '../../shared/discovery/manifest-inventory';

// shared/profiles/inventory-layers.ts: a lookup by name takes the first manifest of that name,
// implicit layers before explicit ones (LoaderLayerInterface.md, "Layer Manifest File Format").
test('inventoryLayers: implicit first, first of a name wins, with its variables', () => {
  const inv = fakeInventory({
    implicit: [implicitLayer('VK_LAYER_MESA_device_select', 'NODEVICE_SELECT', ['ENABLE_DS', '1'])],
    explicit: [explicitLayer('VK_LAYER_MESA_device_select', '/opt/explicit'), explicitLayer('VK_LAYER_A'), explicitLayer('VK_LAYER_A', '/second')],
  });
  const layers = inventoryLayers(inv);
  assert.deepEqual([...layers.keys()], ['VK_LAYER_MESA_device_select', 'VK_LAYER_A']);
  assert.deepEqual(layers.get('VK_LAYER_MESA_device_select'), {
    name: 'VK_LAYER_MESA_device_select',
    implicit: true,
    meta: false,
    manifest: '/usr/share/vulkan/implicit_layer.d/VK_LAYER_MESA_device_select.json',
    enableEnvironment: ['ENABLE_DS'],
    disableEnvironment: ['NODEVICE_SELECT'],
  });
  assert.equal(layers.get('VK_LAYER_A')?.manifest, '/usr/share/vulkan/explicit_layer.d/VK_LAYER_A.json');
  assert.equal(inventoryLayers(null).size, 0);
});

test('inventoryDrivers: readable driver manifests in the loader’s order; baseName for either separator', () => {
  const inv = fakeInventory({ drivers: ['/a/lvp_icd.json', '/b/radeon_icd.json'] });
  assert.deepEqual(inventoryDrivers(inv), ['/a/lvp_icd.json', '/b/radeon_icd.json']);
  const broken = buildInventory(
    { implicit_layer: [], explicit_layer: [], driver: [] },
    {
      implicit_layer: [],
      explicit_layer: [],
      driver: [
        { path: '/gone.json', kind: 'driver', origin: 't', location: '/', order: 0, readdirOrder: false, text: null, problem: 'missing', duplicateOf: null },
      ],
    },
  );
  assert.deepEqual(inventoryDrivers(broken), []);
  assert.deepEqual(inventoryDrivers(undefined), []);
  assert.equal(baseName('/usr/share/vulkan/icd.d/lvp_icd.json'), 'lvp_icd.json');
  assert.equal(baseName('C:\\Windows\\System32\\nv-vk64.json'), 'nv-vk64.json');
  assert.equal(baseName('plain.json'), 'plain.json');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOADER_FEATURES, loaderAtLeast } from '../../shared/profiles/loader-features';

// shared/profiles/loader-features.ts: named views of the rules table (shared/loader/loader-rules.ts,
// each row citing its loader commit).
test('the loader versions profiles depend on', () => {
  assert.deepEqual(LOADER_FEATURES, {
    layerFilters: '1.3.234', // VK_LOADER_LAYERS_ENABLE / _DISABLE (loader_environment.c)
    driverFilters: '1.3.234', // VK_LOADER_DRIVERS_SELECT / _DISABLE
    settingsFile: '1.3.251', // 9a7de469f "Add loader settings file"
    settingsFileBindings: '1.3.302', // 44d99e3d8: the settings file can turn a meta-layer off
    settingsFolderRenamed: '1.3.253', // settings.c: vulkan/loader_settings.d/
    settingsDrivers: '1.4.323', // additional_drivers in the settings file
  });
});

test('loaderAtLeast compares numerically, part by part', () => {
  assert.equal(loaderAtLeast('1.3.251', '1.3.251'), true);
  assert.equal(loaderAtLeast('1.3.250', '1.3.251'), false);
  assert.equal(loaderAtLeast('1.4.0', '1.3.300'), true);
  assert.equal(loaderAtLeast('1.3.1000', '1.3.999'), true, 'not a string comparison');
  assert.equal(loaderAtLeast('1.10.0', '1.9.0'), true);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layerSettingsCandidates } from '../../shared/settings/windows-layer-settings';

/**
 * shared/settings/windows-layer-settings.ts: which values of …\Khronos\Vulkan\Settings a layer tries,
 * in order. Under Wine, tests/integration/windows-override-vs-loader.test.ts has a layer read them.
 */
test('layerSettingsCandidates: REG_DWORD 0 values in order; a disabled one is passed over', () => {
  assert.deepEqual(
    layerSettingsCandidates([
      { name: 'C:\\a\\vk_layer_settings.txt', type: 'REG_DWORD', data: 1 },
      { name: 'C:\\b\\vk_layer_settings.txt', type: 'REG_DWORD', data: 0 },
      { name: 'C:\\c\\any-name.txt', type: 'REG_DWORD', data: 0 },
    ]),
    ['C:\\b\\vk_layer_settings.txt', 'C:\\c\\any-name.txt'],
  );
});

test('layerSettingsCandidates: a value whose data is not 4 bytes ends the walk (ERROR_MORE_DATA); 4 zero bytes of another type do not count', () => {
  assert.deepEqual(
    layerSettingsCandidates([
      { name: 'C:\\bin\\vk_layer_settings.txt', type: 'REG_BINARY', data: '00000000' },
      { name: 'C:\\a\\vk_layer_settings.txt', type: 'REG_DWORD', data: 0 },
      { name: 'C:\\sz', type: 'REG_SZ', data: 'C:\\x\\vk_layer_settings.txt' },
      { name: 'C:\\after\\vk_layer_settings.txt', type: 'REG_DWORD', data: 0 },
    ]),
    ['C:\\a\\vk_layer_settings.txt'],
  );
  assert.deepEqual(layerSettingsCandidates([{ name: `C:\\${'x'.repeat(2047)}`, type: 'REG_DWORD', data: 0 }]), [], 'a name of 2048 characters with its NUL');
});

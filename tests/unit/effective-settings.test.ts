import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultOf, effectiveValue, settingStates, withSettingValue } from '../../shared/settings/effective-settings';
import { layerSettingsFromManifest } from '../../shared/settings/settings-schema';
import type { LayerSettingsDescription, SettingDescription } from '../../shared/settings/setting-types';

// shared/settings/effective-settings.ts on Debian's validation layer manifest (file_format_version 1.2.0).
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const d = layerSettingsFromManifest(readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8'), VALIDATION)!;
const s = (key: string) => d.byKey.get(key) as SettingDescription;

test('the stored value wins over the manifest default, even a falsy one; a group has neither', () => {
  assert.deepEqual(defaultOf(s('report_flags')), ['error']);
  assert.deepEqual(effectiveValue(s('report_flags'), {}), ['error']);
  assert.equal(effectiveValue(s('enable_message_limit'), { enable_message_limit: false }), false);
  assert.equal(effectiveValue(s('duplicate_message_limit'), { duplicate_message_limit: 0 }), 0);
  const group = { ...s('report_flags'), type: 'GROUP' } as unknown as SettingDescription;
  assert.equal(defaultOf(group), undefined);
  assert.equal(effectiveValue(group, { report_flags: ['x'] }), undefined);
});

test('withSettingValue stores only what differs from the default; FLAGS compare as sets', () => {
  assert.deepEqual(withSettingValue(d, {}, 'duplicate_message_limit', 20), { duplicate_message_limit: 20 });
  assert.deepEqual(withSettingValue(d, { duplicate_message_limit: 20 }, 'duplicate_message_limit', 10), {});
  assert.deepEqual(withSettingValue(d, { debug_action: [] }, 'debug_action', undefined), {});
  const flags = withSettingValue(d, {}, 'disables', ['VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT']);
  assert.deepEqual(flags, {});
  // Without a description every value is kept (free-form keys).
  assert.deepEqual(withSettingValue(null, {}, 'anything', 'x'), { anything: 'x' });
});

test('settingStates: tree order, changed, available per platform, dependence through a disabled setting', () => {
  const states = settingStates(d, { enables: ['VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT'], gpuav_buffer_oob: false }, 'LINUX');
  const by = new Map(states.map((st) => [st.setting.key, st]));
  assert.equal(states.length, d.byKey.size);
  assert.equal(states[0]?.setting.key, 'debug_action');
  assert.equal(by.get('enables')?.changed, true);
  assert.equal(by.get('report_flags')?.changed, false);
  assert.equal(by.get('gpuav_buffer_oob')?.dependence.enabled, true);
  assert.equal(by.get('warn_on_robust_oob')?.dependence.enabled, false, 'gpuav_buffer_oob is off');
  // GPU-AV not enabled: gpuav_buffer_oob is disabled, so its dependent is too although its value is the default true.
  const plain = new Map(settingStates(d, {}, 'LINUX').map((st) => [st.setting.key, st]));
  assert.equal(plain.get('warn_on_robust_oob')?.dependence.enabled, false);
  assert.equal(plain.get('printf_verbose')?.available, true);
  assert.equal(new Map(settingStates(d, {}, 'MACOS').map((st) => [st.setting.key, st])).get('printf_verbose')?.available, false);
});

test('a dependence cycle does not loop: the setting counts as enabled', () => {
  const a = {
    ...s('enable_message_limit'),
    key: 'a',
    children: [],
    dependence: { mode: 'ALL', conditions: [{ key: 'b', value: true }] },
  } as SettingDescription;
  const b = {
    ...s('enable_message_limit'),
    key: 'b',
    children: [],
    dependence: { mode: 'ALL', conditions: [{ key: 'a', value: true }] },
  } as SettingDescription;
  const cyc: LayerSettingsDescription = {
    ...d,
    settings: [a, b],
    byKey: new Map([
      ['a', a],
      ['b', b],
    ]),
  };
  const states = settingStates(cyc, {}, 'LINUX');
  assert.equal(states.length, 2);
});

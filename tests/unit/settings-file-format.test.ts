import { test } from 'node:test';
import assert from 'node:assert/strict';
import { environmentListSeparator, formatEnvironmentValue, formatSettingValue, settingPrefix } from '../../shared/settings/settings-file-format';

// shared/settings/settings-file-format.ts: the spelling the validation layer 1.3.239 reads
// (checked against the real layer in tests/integration/settings-writer.test.ts).
test('settingPrefix: the layer name without VK_LAYER_, lower-cased', () => {
  assert.equal(settingPrefix('VK_LAYER_KHRONOS_validation'), 'khronos_validation');
  assert.equal(settingPrefix('VK_LAYER_LUNARG_api_dump'), 'lunarg_api_dump');
  assert.equal(settingPrefix('MY_VK_LAYER_x'), 'my_vk_layer_x', 'only a leading VK_LAYER_ is dropped');
});

test('vk_layer_settings.txt values: lists comma-separated, others as written', () => {
  assert.equal(formatSettingValue(['error', 'warn']), 'error,warn');
  assert.equal(formatSettingValue([]), '');
  assert.equal(formatSettingValue(true), 'true');
  assert.equal(formatSettingValue(1.5), '1.5');
  assert.equal(formatSettingValue('stdout'), 'stdout');
});

test('environment values: lists split on the path-list separator of the platform (":" on Linux, ";" on Windows)', () => {
  assert.equal(environmentListSeparator('LINUX'), ':');
  assert.equal(environmentListSeparator('MACOS'), ':');
  assert.equal(environmentListSeparator('WINDOWS'), ';');
  assert.equal(formatEnvironmentValue(['a', 'b'], 'LINUX'), 'a:b');
  assert.equal(formatEnvironmentValue(['a', 'b'], 'WINDOWS'), 'a;b');
  assert.equal(formatEnvironmentValue(false, 'WINDOWS'), 'false');
});

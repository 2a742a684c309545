import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { layerSettingsFromManifest } from '../../shared/settings/settings-schema';
import { buildFormModel } from '../../renderer/src/settings/settings-form-model';

const description = layerSettingsFromManifest(
  readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8'),
  'VK_LAYER_KHRONOS_validation',
)!;

test('the form: tree order with depth, a search keeps the ancestors of a match, other platforms are counted and left out', () => {
  const all = buildFormModel(description, {}, 'LINUX', '');
  assert.equal(all.total, 18);
  assert.equal(all.otherPlatforms, 0);
  assert.deepEqual(
    all.rows.slice(0, 2).map((r) => [r.state.setting.key, r.depth]),
    [
      ['debug_action', 0],
      ['log_filename', 1],
    ],
  );

  const search = buildFormModel(description, {}, 'LINUX', 'robust');
  assert.deepEqual(
    search.rows.map((r) => [r.state.setting.key, r.match]),
    [
      ['enables', false],
      ['gpuav_buffer_oob', false],
      ['warn_on_robust_oob', true],
    ],
  );

  const mac = buildFormModel(description, { duplicate_message_limit: 3 }, 'MACOS', '');
  assert.equal(mac.otherPlatforms, 9);
  assert.ok(!mac.rows.some((r) => r.state.setting.key.startsWith('printf_')));
  assert.equal(mac.changed, 1);
});

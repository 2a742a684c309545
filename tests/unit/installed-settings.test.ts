import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { INSTALLED_SETTINGS_HEADER, installedSettingsFile } from '../../shared/settings/installed-settings';
import { layerSettingsFromManifest } from '../../shared/settings/settings-schema';

// shared/settings/installed-settings.ts: the vk_layer_settings.txt Strata installs with an override.
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const d = layerSettingsFromManifest(readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8'), VALIDATION)!;
const describe = (name: string) => (name === VALIDATION ? d : null);

test('no settings, or only empty layers: no file', () => {
  assert.equal(installedSettingsFile(undefined, describe, 'LINUX').text, null);
  assert.deepEqual(installedSettingsFile({ [VALIDATION]: {} }, describe, 'LINUX'), { text: null, problems: [], inputs: [] });
});

test('the file: header, then each layer’s lines with its prefix; problems named per layer; an unknown layer written as given', () => {
  const r = installedSettingsFile(
    { [VALIDATION]: { report_flags: ['error', 'warn'], duplicate_message_limit: 0 }, VK_LAYER_future: { level: '3' } },
    describe,
    'LINUX',
  );
  assert.ok(r.text?.startsWith(`${INSTALLED_SETTINGS_HEADER.join('\n')}\n`));
  assert.match(r.text ?? '', /^khronos_validation\.report_flags = error,warn$/m);
  assert.match(r.text ?? '', /^future\.level = 3$/m);
  assert.match(r.text ?? '', /# VK_LAYER_future \(no settings description: keys as given\)/);
  assert.deepEqual(r.problems, [
    { key: 'duplicate_message_limit', message: 'Max Duplicated Messages (duplicate_message_limit): must be at least 1', layer: VALIDATION },
  ]);
  assert.equal(r.inputs.length, 2);
  assert.equal(r.inputs[1]?.description.described, false);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { settingsFromFileText } from '../../shared/configurator/installed-settings-read';
import { installedSettingsFile } from '../../shared/settings/installed-settings';
import { layerSettingsFromManifest } from '../../shared/settings/settings-schema';

/**
 * What Strata installs as vk_layer_settings.txt reads back as the same draft settings, with the real
 * settings description of Debian's validation layer: the Layers editor starts from what is installed.
 */
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const manifest = readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8');
const description = layerSettingsFromManifest(manifest, VALIDATION);
const describe = (name: string) => (name === VALIDATION ? description : null);

test('installed settings round-trip: only the changed values come back, typed by the description', () => {
  assert.ok(description?.described, 'the validation layer has a settings description');
  const settings = {
    [VALIDATION]: { report_flags: ['error', 'warn'], duplicate_message_limit: 25, fine_grained_locking: false, message_id_filter: ['0x1', '0x2'] },
  };
  const file = installedSettingsFile(settings, describe, 'LINUX');
  assert.deepEqual(file.problems, []);
  assert.ok(file.text);
  const back = settingsFromFileText(file.text, [VALIDATION, 'VK_LAYER_MESA_overlay'], describe);
  assert.deepEqual(back, settings);
});

test('a layer without a description keeps its keys as text; unknown prefixes, comments and junk are skipped', () => {
  const text = ['# a comment', 'mesa_overlay.position = top-left', 'unknown_layer.x = 1', 'not a setting line', ''].join('\n');
  assert.deepEqual(
    settingsFromFileText(text, ['VK_LAYER_MESA_overlay'], () => null),
    { VK_LAYER_MESA_overlay: { position: 'top-left' } },
  );
  assert.deepEqual(settingsFromFileText(null, [VALIDATION], describe), {});
});

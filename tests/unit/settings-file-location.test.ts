import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hiddenByUserFile, settingsPathVariableFile, userSettingsFile, userSettingsFolder } from '../../shared/settings/settings-file-location';

// shared/settings/settings-file-location.ts: where the validation layer 1.3.239 looks for
// vk_layer_settings.txt (ConfigFile::FindSettings; proven in tests/integration/settings-writer.test.ts).
test('the per-user file: $XDG_DATA_HOME, else $HOME/.local/share, else the home given; empty counts as unset', () => {
  assert.equal(userSettingsFile({ XDG_DATA_HOME: '/d/' }, '/h'), '/d/vulkan/settings.d/vk_layer_settings.txt');
  assert.equal(userSettingsFolder({ XDG_DATA_HOME: '', HOME: '/home/u' }, '/h'), '/home/u/.local/share/vulkan/settings.d');
  assert.equal(userSettingsFolder({}, '/h'), '/h/.local/share/vulkan/settings.d');
  assert.equal(userSettingsFolder({ XDG_DATA_HOME: 'rel' }, '/h'), 'rel/vulkan/settings.d', 'the layer uses a relative XDG_DATA_HOME as is');
});

test('VK_LAYER_SETTINGS_PATH: the file, or vk_layer_settings.txt in the folder; unset or empty: none', () => {
  assert.equal(
    settingsPathVariableFile({}, () => true),
    null,
  );
  assert.equal(
    settingsPathVariableFile({ VK_LAYER_SETTINGS_PATH: '' }, () => true),
    null,
  );
  assert.equal(
    settingsPathVariableFile({ VK_LAYER_SETTINGS_PATH: '/s/' }, () => true),
    '/s/vk_layer_settings.txt',
  );
  assert.equal(
    settingsPathVariableFile({ VK_LAYER_SETTINGS_PATH: '/s/my.txt' }, () => false),
    '/s/my.txt',
  );
});

test('a file hidden by the per-user one says why', () => {
  const h = hiddenByUserFile('/s/my.txt');
  assert.equal(h.origin, 'VK_LAYER_SETTINGS_PATH');
  assert.match(h.reason, /per-user settings file first.*ignore \/s\/my\.txt/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingsFileSearch } from '../../shared/loader/settings-file-locations';

// The real loaders prove the order (tests/integration/settings-file-search-vs-loader.test.ts); these pin each era.
const env = { HOME: '/h', XDG_CONFIG_HOME: '/h/cfg', XDG_DATA_HOME: '/h/data', XDG_CONFIG_DIRS: '/a:/b', XDG_DATA_DIRS: '/c:/d' };

test('no settings file before 1.3.251; settings.d until 1.3.252; loader_settings.d after', () => {
  assert.deepEqual(settingsFileSearch({ env, loaderVersion: '1.3.239' }), []);
  assert.deepEqual(settingsFileSearch({ env, loaderVersion: '1.3.251' }), [
    '/h/.local/share/vulkan/settings.d/vk_loader_settings.json',
    '/h/data/vulkan/settings.d/vk_loader_settings.json',
    '/etc/vulkan/settings.d/vk_loader_settings.json',
  ]);
  assert.equal(settingsFileSearch({ env, loaderVersion: '1.4.321' })[0], '/h/.local/share/vulkan/loader_settings.d/vk_loader_settings.json');
});

test('1.4.324+: the XDG order, the home folders only when their XDG variable is unset, the first entry of each list', () => {
  const f = (d: string) => `${d}/vulkan/loader_settings.d/vk_loader_settings.json`;
  assert.deepEqual(settingsFileSearch({ env, loaderVersion: '1.4.359' }), [f('/h/cfg'), f('/h/data'), f('/a'), f('/etc'), f('/c')]);
  assert.deepEqual(settingsFileSearch({ env: { HOME: '/h' }, loaderVersion: '1.4.359' }), [
    f('/h/.config'),
    f('/h/.local/share'),
    f('/etc/xdg'),
    f('/etc'),
    f('/usr/local/share'),
  ]);
  assert.deepEqual(
    settingsFileSearch({ env, loaderVersion: '1.4.359', elevated: true }),
    [f('/etc/xdg'), f('/etc'), f('/usr/local/share')],
    'elevated: secure_getenv hides every variable',
  );
});

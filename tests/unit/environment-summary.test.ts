import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeEnvironment } from '../../shared/loader/environment-summary';
import { resolveXdgDirectories } from '../../shared/loader/xdg-directories';

test('keeps only Vulkan-related variables, sorted, labelled loader or related', () => {
  const s = summarizeEnvironment(
    {
      PATH: '/bin',
      VK_LAYER_PATH: '/a',
      VK_KHRONOS_VALIDATION_DEBUG_ACTION: 'VK_DBG_LAYER_ACTION_LOG_MSG',
      DISABLE_MESA_DEVICE_SELECT: '1',
      VK_ADD_LAYER_PATH: '/b',
      EDITOR: 'vi',
    },
    '/home/u',
    'linux',
  );
  assert.deepEqual(
    s.variables.map((v) => [v.name, v.kind]),
    [
      ['DISABLE_MESA_DEVICE_SELECT', 'related'],
      ['VK_ADD_LAYER_PATH', 'loader'],
      ['VK_KHRONOS_VALIDATION_DEBUG_ACTION', 'related'],
      ['VK_LAYER_PATH', 'loader'],
    ],
  );
  const layerPath = s.variables.find((v) => v.name === 'VK_LAYER_PATH')!;
  assert.equal(layerPath.ignoredWhenElevated, true);
  assert.ok(layerPath.summary && layerPath.summary.length > 10);
});

test('XDG: unset and empty variables both fall back to the defaults', () => {
  for (const env of [{}, { XDG_CONFIG_HOME: '', XDG_DATA_DIRS: '' }]) {
    const x = resolveXdgDirectories(env, '/home/u');
    assert.deepEqual(x.configHome, { value: '/home/u/.config', source: 'default' });
    assert.deepEqual(x.dataHome, { value: '/home/u/.local/share', source: 'default' });
    assert.deepEqual(x.configDirs, { value: ['/etc/xdg'], source: 'default' });
    assert.deepEqual(x.dataDirs, { value: ['/usr/local/share', '/usr/share'], source: 'default' });
    assert.equal(x.runtimeDir, null);
  }
});

test('XDG: set variables win; empty list entries are skipped', () => {
  const x = resolveXdgDirectories({ XDG_CONFIG_HOME: '/c', XDG_DATA_DIRS: '/d1::/d2:', XDG_RUNTIME_DIR: '/run/user/1' }, '/home/u');
  assert.deepEqual(x.configHome, { value: '/c', source: 'environment' });
  assert.deepEqual(x.dataDirs, { value: ['/d1', '/d2'], source: 'environment' });
  assert.equal(x.runtimeDir, '/run/user/1');
});

test('XDG: a list of only separators counts as unset', () => {
  assert.equal(resolveXdgDirectories({ XDG_CONFIG_DIRS: '::' }, '/h').configDirs.source, 'default');
});

test('Windows has no XDG folders', () => {
  assert.equal(summarizeEnvironment({ VK_LAYER_PATH: 'C:\\x' }, 'C:\\Users\\u', 'win32').xdg, null);
});

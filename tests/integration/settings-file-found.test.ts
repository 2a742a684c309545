import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { foundSettingsFile, loaderSettingsRegistry, settingsFileFor } from '../../main/chain/settings-file-found';
import type { RegistryReader } from '../../main/discovery/windows-registry';
import { withTempHome } from '../helpers/temp-home';

/**
 * main/chain/settings-file-found.ts on real files in a temporary home: the vk_loader_settings.json a
 * loader of each version reads (search order: shared/loader/settings-file-locations.ts, proven per
 * version by settings-file-search-vs-loader.test.ts), and the Windows registry values it reads them from.
 */
const put = (path: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '{"file_format_version":"1.0.0","settings_array":[]}');
  return path;
};

test(
  'the first file that exists in the loader’s order; none before 1.3.251; settings.d until 1.3.252',
  withTempHome((home) => {
    const env = { ...home.env, XDG_DATA_DIRS: join(home.dir, 'share'), XDG_CONFIG_DIRS: join(home.dir, 'etc') };
    assert.equal(foundSettingsFile(env, '1.4.341'), null, 'no file anywhere');
    const data = put(join(home.dir, '.local', 'share', 'vulkan', 'loader_settings.d', 'vk_loader_settings.json'));
    assert.equal(foundSettingsFile(env, '1.4.341'), data);
    const config = put(join(home.dir, '.config', 'vulkan', 'loader_settings.d', 'vk_loader_settings.json'));
    assert.equal(foundSettingsFile(env, '1.4.341'), config, '$XDG_CONFIG_HOME comes first');
    assert.equal(foundSettingsFile(env, '1.3.239'), null, 'loader 1.3.239 reads no settings file');
    assert.equal(foundSettingsFile(env, '1.3.251'), null, '1.3.251 looks in settings.d');
    const early = put(join(home.dir, '.local', 'share', 'vulkan', 'settings.d', 'vk_loader_settings.json'));
    assert.equal(foundSettingsFile(env, '1.3.251'), early);
    assert.equal(foundSettingsFile(env, null), null, 'an unknown loader: the rules version (RULES_VERSION, 1.3.239) reads none');
  }),
);

test('the LoaderSettings registry values, HKCU and HKLM, only for a loader that reads a settings file', async () => {
  const asked: string[] = [];
  const reader: RegistryReader = {
    async values(key) {
      asked.push(key);
      return key.startsWith('HKCU') ? [{ name: 'C:\\u\\vk_loader_settings.json', type: 'REG_DWORD', data: 0 }] : [];
    },
    async subkeys() {
      return [];
    },
  };
  assert.equal(await loaderSettingsRegistry('1.3.250', reader), null);
  assert.equal(await loaderSettingsRegistry('1.4.341', null), null, 'no registry (not Windows)');
  const r = await loaderSettingsRegistry('1.4.341', reader);
  assert.equal(r?.hkcu.length, 1);
  assert.deepEqual(r?.hklm, []);
  assert.deepEqual(asked, ['HKCU\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings', 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings']);
});

test(
  'settingsFileFor, the one locator of explain, lint and the status: the folder search off Windows, the LoaderSettings walk on Windows (elevated: HKLM only), nothing on Windows without a registry',
  withTempHome(async (home) => {
    const env = { ...home.env, XDG_DATA_DIRS: join(home.dir, 'share'), XDG_CONFIG_DIRS: join(home.dir, 'etc') };
    const data = put(join(home.dir, '.local', 'share', 'vulkan', 'loader_settings.d', 'vk_loader_settings.json'));
    // Real files stand for the Windows paths the registry names (the lookup checks that they exist,
    // 1.3.302+); a backslash in the file's name makes its last part vk_loader_settings.json, as on Windows.
    const user = put(join(home.dir, 'u\\vk_loader_settings.json'));
    const machine = put(join(home.dir, 'm\\vk_loader_settings.json'));
    const reader: RegistryReader = {
      async values(key) {
        return [{ name: key.startsWith('HKCU') ? user : machine, type: 'REG_DWORD', data: 0 }];
      },
      async subkeys() {
        return [];
      },
    };
    assert.equal(await settingsFileFor({ env, loaderVersion: '1.4.341', windows: false, registry: reader }), data, 'off Windows the registry is not read');
    assert.equal(await settingsFileFor({ env, loaderVersion: '1.4.341', windows: true, elevated: false, registry: reader }), user, 'HKCU first');
    assert.equal(await settingsFileFor({ env, loaderVersion: '1.4.341', windows: true, elevated: true, registry: reader }), machine, 'elevated: HKLM only');
    assert.equal(
      await settingsFileFor({ env, loaderVersion: '1.3.239', windows: true, elevated: true, registry: reader }),
      null,
      'no settings file before 1.3.251',
    );
    assert.equal(
      await settingsFileFor({ env, loaderVersion: '1.4.341', windows: true, elevated: true, registry: null }),
      null,
      'no registry: no folder search either',
    );
  }),
);

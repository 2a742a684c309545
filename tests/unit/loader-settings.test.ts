import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLoaderSettings, loaderSettingsFolder, loaderSettingsPath } from '../../shared/profiles/loader-settings';
import { loaderAtLeast } from '../../shared/profiles/loader-features';
import type { Profile } from '../../shared/profiles/profile-schema';
import { explicitLayer, fakeInventory, implicitLayer } from '../helpers/profile-inventory';

/**
 * vk_loader_settings.json for per-application profiles (shared/profiles/loader-settings.ts), pure.
 * How each real loader reads what is written here: tests/integration/profile-bindings-matrix.test.ts.
 */
const p = (name: string, layers: Profile['layers'], extra: Partial<Profile> = {}): Profile => ({ schemaVersion: 2, name, layers, ...extra });

test('vk_loader_settings.json: refused before 1.3.251; per-app entries first, in profile order, with the application layers position; folder by version', () => {
  const inv = fakeInventory({
    implicit: [implicitLayer('VK_LAYER_MESA_device_select', 'NODEVICE_SELECT')],
    explicit: [explicitLayer('VK_LAYER_KHRONOS_validation')],
    drivers: ['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/share/vulkan/icd.d/radeon_icd.x86_64.json'],
  });
  const profile = p(
    'Sync',
    [
      { name: 'VK_LAYER_KHRONOS_validation', state: 'on' },
      { name: 'VK_LAYER_MESA_device_select', state: 'off' },
      { name: 'VK_LAYER_GONE', state: 'on' },
    ],
    {
      applicationLayersAt: 1,
      loaderMessages: ['error', 'validation'],
      drivers: { select: ['lvp*'] },
    },
  );
  const old = buildLoaderSettings([{ profile, appKeys: ['/bin/app'] }], { inventory: inv, loaderVersion: '1.3.239' });
  assert.equal(old.ok, false);
  if (!old.ok) assert.equal(old.error.code, 'profile/loader-settings-unsupported');

  const r = buildLoaderSettings(
    [
      { profile: p('Global', [{ name: 'VK_LAYER_MESA_device_select', state: 'off' }]), appKeys: null },
      { profile, appKeys: ['/bin/app'] },
    ],
    { inventory: inv, loaderVersion: '1.3.260' },
  );
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.deepEqual(r.json, {
    file_format_version: '1.0.0',
    settings_array: [
      {
        app_keys: ['/bin/app'],
        layers: [
          {
            control: 'on',
            name: 'VK_LAYER_KHRONOS_validation',
            path: '/usr/share/vulkan/explicit_layer.d/VK_LAYER_KHRONOS_validation.json',
            treat_as_implicit_manifest: false,
          },
          { control: 'unordered_layer_location' },
          {
            control: 'off',
            name: 'VK_LAYER_MESA_device_select',
            path: '/usr/share/vulkan/implicit_layer.d/VK_LAYER_MESA_device_select.json',
            treat_as_implicit_manifest: true,
          },
        ],
        stderr_log: ['error', 'validation'],
      },
      {
        layers: [
          {
            control: 'off',
            name: 'VK_LAYER_MESA_device_select',
            path: '/usr/share/vulkan/implicit_layer.d/VK_LAYER_MESA_device_select.json',
            treat_as_implicit_manifest: true,
          },
          { control: 'unordered_layer_location' },
        ],
      },
    ],
  });
  assert.ok(r.notes.some((n) => /VK_LAYER_GONE is not installed here/.test(n)));
  assert.ok(r.notes.some((n) => /reads no driver section from the settings file \(1\.4\.323\+\)/.test(n)));

  const drivers = buildLoaderSettings([{ profile, appKeys: null }], { inventory: inv, loaderVersion: '1.4.323' });
  assert.ok(drivers.ok);
  if (drivers.ok) {
    const entry = (drivers.json as { settings_array: Record<string, unknown>[] }).settings_array[0]!;
    assert.equal(entry['additional_drivers_use_exclusively'], true);
    assert.deepEqual(entry['additional_drivers'], [{ path: '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json' }]);
  }
  assert.equal(loaderSettingsPath('/home/u', '1.3.251'), '/home/u/.local/share/vulkan/settings.d/vk_loader_settings.json');
  assert.equal(loaderSettingsPath('/home/u/', '1.3.260'), '/home/u/.local/share/vulkan/loader_settings.d/vk_loader_settings.json');
  assert.ok(loaderAtLeast('1.3.251', '1.3.251') && loaderAtLeast('1.4.0', '1.3.300') && !loaderAtLeast('1.3.239', '1.3.251'));
});

test('a bound application’s entry turns every installed override meta-layer off, unless its profile names it; the global entry does not', () => {
  const inv = fakeInventory({
    implicit: [
      {
        path: '/home/u/.local/share/vulkan/implicit_layer.d/VkLayer_override.json',
        layer: { name: 'VK_LAYER_LUNARG_override', type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'o', component_layers: [] },
      },
    ],
    explicit: [explicitLayer('VK_LAYER_KHRONOS_validation')],
  });
  const profile = p('Val', [{ name: 'VK_LAYER_KHRONOS_validation', state: 'on' }]);
  const r = buildLoaderSettings(
    [
      { profile, appKeys: ['/bin/a'] },
      { profile, appKeys: null },
      { profile: p('Second global', []), appKeys: null },
    ],
    { inventory: inv, loaderVersion: '1.4.341' },
  );
  assert.ok(r.ok);
  if (!r.ok) return;
  const entries = (r.json as { settings_array: { layers: { control: string; name?: string }[] }[] }).settings_array;
  assert.equal(entries.length, 2, 'the loader uses the first global entry only: a second is not written');
  assert.deepEqual(entries[0]?.layers[0], {
    control: 'off',
    name: 'VK_LAYER_LUNARG_override',
    path: '/home/u/.local/share/vulkan/implicit_layer.d/VkLayer_override.json',
    treat_as_implicit_manifest: true,
  });
  assert.ok(!entries[1]?.layers.some((l) => l.name === 'VK_LAYER_LUNARG_override'));
  assert.ok(r.text.endsWith('}\n'));
});

test('the folder and the user’s file by loader version (loader-rules.ts: settings.d until 1.3.252; ~/.config from 1.4.324)', () => {
  assert.equal(loaderSettingsFolder('1.3.252'), 'settings.d');
  assert.equal(loaderSettingsFolder('1.3.253'), 'loader_settings.d');
  assert.equal(loaderSettingsPath('/home/u', '1.4.341'), '/home/u/.config/vulkan/loader_settings.d/vk_loader_settings.json');
  assert.equal(loaderSettingsPath('/home/u', '1.4.341', { XDG_CONFIG_HOME: '/cfg' }), '/cfg/vulkan/loader_settings.d/vk_loader_settings.json');
});

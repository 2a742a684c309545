import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayerChain } from '../../shared/loader/chain';
import { cumulativeAppKeys, planAppOverrides } from '../../shared/profiles/app-overrides';
import { buildLoaderSettings, loaderSettingsPath } from '../../shared/profiles/loader-settings';
import { loaderAtLeast } from '../../shared/profiles/loader-features';
import type { Profile } from '../../shared/profiles/profile-schema';
import { explicitLayer, fakeInventory, implicitLayer } from '../helpers/profile-inventory';

/**
 * Per-application profiles, pure: the override files with accumulated app_keys (checked against the
 * chain model, itself checked against loader 1.3.239, for every order the loader may read them in),
 * and the vk_loader_settings.json model for loaders 1.3.251+ (not readable by the loader here).
 */
const p = (name: string, layers: Profile['layers'], extra: Partial<Profile> = {}): Profile => ({ schemaVersion: 2, name, layers, ...extra });
const groups = [
  { profile: p('One', [{ name: 'VK_LAYER_A', state: 'on' }]), apps: ['/bin/one'] },
  {
    profile: p('Two', [
      { name: 'VK_LAYER_B', state: 'on' },
      { name: 'VK_LAYER_C', state: 'on' },
    ]),
    apps: ['/bin/two', '/bin/two-b'],
  },
  {
    profile: p('Three', [
      { name: 'VK_LAYER_C', state: 'on' },
      { name: 'VK_LAYER_A', state: 'off' },
    ]),
    apps: ['/bin/three'],
  },
];
const own: Record<string, string[]> = {
  '/bin/one': ['VK_LAYER_A'],
  '/bin/two': ['VK_LAYER_B', 'VK_LAYER_C'],
  '/bin/two-b': ['VK_LAYER_B', 'VK_LAYER_C'],
  '/bin/three': ['VK_LAYER_C'],
  '/bin/other': ['VK_LAYER_B'],
};

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

test('cumulativeAppKeys: each file also names the applications of every file read before it', () => {
  assert.deepEqual(cumulativeAppKeys([{ apps: ['a'] }, { apps: ['b', 'c'] }, { apps: ['d'] }]), [['a'], ['b', 'c', 'a'], ['d', 'a', 'b', 'c']]);
});

test('for every order the loader may read the files in, with a global override beside them, each application gets exactly its profile (chain model, loader 1.3.239 rules)', () => {
  const global = {
    path: '/h/.local/share/vulkan/implicit_layer.d/VkLayer_override.json',
    layer: {
      name: 'VK_LAYER_LUNARG_override',
      type: 'GLOBAL',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'g',
      component_layers: ['VK_LAYER_B'],
      disable_environment: { DISABLE_STRATA_OVERRIDE: '1' },
    },
  };
  const names = planAppOverrides(groups).map((f) => f.fileName);
  assert.deepEqual(names.sort(), ['VkLayer_override_strata_One.json', 'VkLayer_override_strata_Three.json', 'VkLayer_override_strata_Two.json']);
  for (const order of permutations(names))
    for (const globalAt of [0, 3]) {
      const files = planAppOverrides(groups, order);
      assert.deepEqual(
        files.map((f) => f.fileName),
        order,
      );
      const overrides = files.map((f) => ({
        path: `/h/.local/share/vulkan/implicit_layer.d/${f.fileName}`,
        layer: (JSON.parse(f.text) as { layer: Record<string, unknown> }).layer,
      }));
      overrides.splice(globalAt, 0, global);
      const inv = fakeInventory({ implicit: overrides, explicit: ['VK_LAYER_A', 'VK_LAYER_B', 'VK_LAYER_C'].map((n) => explicitLayer(n)) });
      for (const app of Object.keys(own)) {
        const chain = computeLayerChain({
          implicit: inv.manifests.implicit_layer,
          explicit: inv.manifests.explicit_layer,
          env: {},
          app: { path: app, requestedLayers: [] },
          loaderVersion: '1.3.239',
        });
        assert.deepEqual(
          chain.chain.map((e) => e.name),
          own[app],
          `order ${order.join(', ')}, global at ${globalAt}: ${app}`,
        );
      }
    }
});

test('a bound profile that forces nothing still gets a file: an empty override that keeps the global one away from its applications', () => {
  const [file] = planAppOverrides([{ profile: p('Plain', [{ name: 'VK_LAYER_A', state: 'auto' }]), apps: ['/bin/plain'] }]);
  const layer = (JSON.parse(file!.text) as { layer: { component_layers: string[]; app_keys: string[] } }).layer;
  assert.deepEqual(layer.component_layers, []);
  assert.deepEqual(layer.app_keys, ['/bin/plain']);
  assert.match(file!.notes[0]!, /get no override at all/);
});

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

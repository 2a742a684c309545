import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayerChain } from '../../shared/loader/chain';
import { appOverrideFileNames, cumulativeAppKeys, planAppOverrides } from '../../shared/profiles/app-overrides';
import type { Profile } from '../../shared/profiles/profile-schema';
import { explicitLayer, fakeInventory } from '../helpers/profile-inventory';

/**
 * Per-application profiles through override layers (shared/profiles/app-overrides.ts), pure: the
 * override files with accumulated app_keys, checked against the chain model (itself checked against
 * loader 1.3.239), for every order the loader may read them in. The vk_loader_settings.json model for
 * loaders 1.3.251+ is in loader-settings.test.ts.
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

test('appOverrideFileNames: one stable file per profile, names that fold to the same file get -2', () => {
  const names = appOverrideFileNames(['sync', 'Sync', 'Other one']);
  assert.equal(names.get('Other one'), 'VkLayer_override_strata_Other-one.json');
  assert.equal(names.get('Sync'), 'VkLayer_override_strata_Sync.json');
  assert.equal(names.get('sync'), 'VkLayer_override_strata_sync-2.json');
  assert.deepEqual(appOverrideFileNames(['Other one', 'Sync', 'sync']), names, 'the order given does not matter');
});

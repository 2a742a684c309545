import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainChain, readChainSettingsSource } from '../../main/chain/chain-service';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/chain/chain-service.ts in a temporary home: discovery of the manifests, then the model
 * (shared/loader/chain.ts), with the parts the service adds: the override layer's override_paths
 * replacing the explicit search, the settings file and the manifests it names, the notes. The model
 * against six real loaders: chain-vs-loader.test.ts.
 */
const layer = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', library_path: `lib${name}.so`, api_version: '1.3.0', implementation_version: '1', description: 'd', ...extra },
  });
function put(path: string, text: string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}
const implicitDir = (home: TempHome) => join(home.dir, '.local', 'share', 'vulkan', 'implicit_layer.d');
const APP = { path: '/opt/app', requestedLayers: [] };
/** The chain's layers of this test (the machine's own implicit layers, Mesa's device-select, are left out). */
const ours = (c: { chain: { name: string }[] }) => c.chain.map((e) => e.name).filter((n) => /^VK_LAYER_[a-c]$/.test(n));

test(
  'an override layer with override_paths: explicit layers are searched there only, VK_LAYER_PATH is not',
  withTempHome(async (home) => {
    const mine = join(home.dir, 'mine');
    const other = join(home.dir, 'other');
    put(join(mine, 'a.json'), layer('VK_LAYER_a'));
    put(join(other, 'b.json'), layer('VK_LAYER_b'));
    put(
      join(implicitDir(home), 'VkLayer_override.json'),
      layer('VK_LAYER_LUNARG_override', {
        library_path: undefined,
        component_layers: ['VK_LAYER_a'],
        override_paths: [mine],
        disable_environment: { DISABLE_O: '1' },
      }),
    );
    const env = { ...home.env, VK_LAYER_PATH: other, VK_INSTANCE_LAYERS: 'VK_LAYER_b' };
    const chain = await explainChain({ env, libraries: false }, { app: APP, loader: { version: '1.3.239' } });
    assert.deepEqual(ours(chain), ['VK_LAYER_a']);
    const off = await explainChain({ env: { ...env, DISABLE_O: '1' }, libraries: false }, { app: APP, loader: { version: '1.3.239' } });
    assert.deepEqual(ours(off), ['VK_LAYER_b'], 'override disabled: VK_LAYER_PATH again');
  }),
);

test(
  'an unknown loader version is noted with why; the settings file and the manifests it names are read (1.3.251+)',
  withTempHome(async (home) => {
    const unknown = await explainChain({ env: home.env, libraries: false }, { app: APP, loader: { version: null, why: 'no loader here' } });
    assert.match(unknown.notes[0] ?? '', /^why the loader's version is unknown: no loader here/);
    const named = put(join(home.dir, 'elsewhere', 'c.json'), layer('VK_LAYER_c'));
    const settings = put(
      join(home.dir, '.config', 'vulkan', 'loader_settings.d', 'vk_loader_settings.json'),
      JSON.stringify({
        file_format_version: '1.0.0',
        settings_array: [
          {
            layers: [
              { control: 'on', name: 'VK_LAYER_c', path: named, treat_as_implicit_manifest: false },
              { control: 'on', name: 'VK_LAYER_gone', path: join(home.dir, 'gone.json') },
            ],
          },
        ],
      }),
    );
    const source = readChainSettingsSource(home.env, '1.4.341', []);
    assert.equal(source?.path, settings);
    assert.deepEqual(
      source?.manifests.map((m) => [m.path, m.problem, m.text === null]),
      [
        [named, null, false],
        [join(home.dir, 'gone.json'), 'missing', true],
      ],
    );
    assert.equal(readChainSettingsSource(home.env, '1.3.239', []), null, '1.3.239 reads no settings file');
    const chain = await explainChain({ env: home.env, libraries: false }, { app: APP, loader: { version: '1.4.341' } });
    assert.deepEqual(ours(chain), ['VK_LAYER_c']);
  }),
);

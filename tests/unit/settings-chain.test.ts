import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayerChain, type ChainManifest, type LayerChain } from '../../shared/loader/chain';
import { chainSettingsFor } from '../../shared/loader/chain-settings';

/**
 * shared/loader/settings-chain.ts: the chain when vk_loader_settings.json configures the layers
 * (settings.c get_settings_layers and what follows), at the version boundaries of loader-rules.ts.
 * chain.test.ts has the basic cases; tests/integration/chain-vs-loader.test.ts proves the model on
 * six real loaders, crashes included.
 */
const APP = '/opt/app/bin/app';
const FILE = '/home/u/.config/vulkan/loader_settings.d/vk_loader_settings.json';
let n = 0;
const layerManifest = (kind: 'implicit_layer' | 'explicit_layer', name: string, extra: Record<string, unknown> = {}): ChainManifest => ({
  path: `/${kind}/${n++}-${name}.json`,
  kind,
  origin: 'test',
  text: JSON.stringify({
    file_format_version: '1.2.0',
    layer: {
      name,
      type: 'GLOBAL',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'd',
      library_path: `lib${name}.so`,
      ...(kind === 'implicit_layer' ? { disable_environment: { [`DISABLE_${name}`]: '1' } } : {}),
      ...extra,
    },
  }),
  problem: null,
});
const entry = (m: ChainManifest | string, control: string, name?: string) =>
  typeof m === 'string'
    ? { control, name: name ?? 'GONE', path: m, treat_as_implicit_manifest: false }
    : { control, name: name ?? (JSON.parse(m.text!).layer.name as string), path: m.path, treat_as_implicit_manifest: m.kind === 'implicit_layer' };

function explain(opts: {
  implicit?: ChainManifest[];
  explicit?: ChainManifest[];
  env?: Record<string, string>;
  requested?: string[];
  layers: unknown[];
  version: string;
}): LayerChain {
  const all = [...(opts.implicit ?? []), ...(opts.explicit ?? [])];
  const source = { path: FILE, text: JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers: opts.layers }] }), manifests: all };
  return computeLayerChain({
    implicit: opts.implicit ?? [],
    explicit: opts.explicit ?? [],
    env: opts.env ?? {},
    app: { path: APP, requestedLayers: opts.requested ?? [] },
    loaderVersion: opts.version,
    settings: chainSettingsFor(source, APP, opts.version),
  });
}
const names = (c: LayerChain) => c.chain.map((e) => e.name);
/** The reason codes of `name`'s excluded entries, less "settings/not-listed" (the discovered copy the file does not list). */
const codes = (c: LayerChain, name: string) =>
  c.excluded
    .filter((e) => e.name === name)
    .flatMap((e) => e.reasons.map((r) => r.code))
    .filter((code) => code !== 'settings/not-listed');

test('"on" in the file beats VK_LOADER_LAYERS_DISABLE; "auto" follows it; the file’s order is the chain’s order', () => {
  const a = layerManifest('explicit_layer', 'VK_LAYER_a');
  const b = layerManifest('explicit_layer', 'VK_LAYER_b');
  const chain = explain({
    explicit: [a, b],
    env: { VK_LOADER_LAYERS_DISABLE: '~all~', VK_INSTANCE_LAYERS: 'VK_LAYER_b' },
    layers: [entry(b, 'on'), entry(a, 'on')],
    version: '1.4.341',
  });
  assert.deepEqual(names(chain), ['VK_LAYER_b', 'VK_LAYER_a']);
  const auto = explain({
    explicit: [a],
    env: { VK_LOADER_LAYERS_DISABLE: '~all~', VK_INSTANCE_LAYERS: 'VK_LAYER_a' },
    layers: [entry(a, 'auto')],
    version: '1.4.341',
  });
  assert.deepEqual(names(auto), []);
});

test('a first entry whose manifest gives no layer crashes loaders before 1.3.302 and is skipped from 1.3.302 (44d99e3d8)', () => {
  const a = layerManifest('explicit_layer', 'VK_LAYER_a');
  const layers = [entry('/nowhere/gone.json', 'on'), entry(a, 'on')];
  assert.equal(explain({ explicit: [a], layers, version: '1.3.301' }).result, 'LOADER_CRASH');
  const fixed = explain({ explicit: [a], layers, version: '1.3.302' });
  assert.equal(fixed.result, 'VK_SUCCESS');
  assert.deepEqual(names(fixed), ['VK_LAYER_a']);
  assert.deepEqual(codes(fixed, 'GONE'), ['settings/manifest-unusable']);
});

test('before 1.3.302 a later such entry with another name removes the two entries before it', () => {
  const a = layerManifest('explicit_layer', 'VK_LAYER_a');
  const b = layerManifest('explicit_layer', 'VK_LAYER_b');
  const c = layerManifest('explicit_layer', 'VK_LAYER_c');
  const layers = [entry(a, 'on'), entry(b, 'on'), entry('/nowhere/gone.json', 'on'), entry(c, 'on')];
  const old = explain({ explicit: [a, b, c], layers, version: '1.3.275' });
  assert.deepEqual(names(old), ['VK_LAYER_c']);
  assert.deepEqual(codes(old, 'VK_LAYER_a'), ['settings/name-mismatch']);
  assert.deepEqual(codes(old, 'VK_LAYER_b'), ['settings/name-mismatch']);
  assert.deepEqual(names(explain({ explicit: [a, b, c], layers, version: '1.4.341' })), ['VK_LAYER_a', 'VK_LAYER_b', 'VK_LAYER_c']);
});

test('a manifest that declares another name than its entry: left out; before 1.4.347 the entry before it goes too', () => {
  const a = layerManifest('explicit_layer', 'VK_LAYER_a');
  const b = layerManifest('explicit_layer', 'VK_LAYER_b');
  const layers = [entry(a, 'on'), entry(b, 'on', 'VK_LAYER_not_b')];
  const old = explain({ explicit: [a, b], layers, version: '1.4.341' });
  assert.deepEqual(names(old), []);
  assert.deepEqual(codes(old, 'VK_LAYER_a'), ['settings/name-mismatch']);
  const fixed = explain({ explicit: [a, b], layers, version: '1.4.347' });
  assert.deepEqual(names(fixed), ['VK_LAYER_a']);
  assert.deepEqual(codes(fixed, 'VK_LAYER_b'), ['settings/name-mismatch']);
});

test('the same layer named twice with the same library: the first entry is kept', () => {
  const a = layerManifest('explicit_layer', 'VK_LAYER_a');
  const chain = explain({ explicit: [a], layers: [entry(a, 'on'), entry(a, 'on')], version: '1.4.341' });
  assert.deepEqual(names(chain), ['VK_LAYER_a']);
  assert.deepEqual(codes(chain, 'VK_LAYER_a'), ['duplicate/shadowed']);
});

test('with no other layer found, a pre-1.3.302 loader takes the unordered_layer_location entry as a layer: Windows fails with VK_ERROR_OUT_OF_HOST_MEMORY, Linux with VK_ERROR_INITIALIZATION_FAILED when it is first in the chain and crashes below a real layer; 1.3.302 skips the entry', () => {
  const c = layerManifest('explicit_layer', 'VK_LAYER_c');
  const run = (version: string, windows: boolean, layers: unknown[] = [{ control: 'unordered_layer_location' }]) => {
    const source = {
      path: FILE,
      text: JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers }] }),
      manifests: [c],
    };
    return computeLayerChain({
      implicit: [],
      explicit: [],
      env: {},
      app: { path: APP, requestedLayers: [] },
      loaderVersion: version,
      settings: chainSettingsFor(source, APP, version),
      ...(windows ? { listSeparator: ';' as const } : {}),
    });
  };
  // Seen on the mingw-built 1.3.275 under Wine: "Failed to open dynamic library "(null)" with error 87", create -1.
  const win = run('1.3.275', true);
  assert.equal(win.result, 'VK_ERROR_OUT_OF_HOST_MEMORY');
  assert.match(win.notes.join('\n'), /LoadLibrary error 87/);
  // Seen on builds of 1.3.251–1.3.301 and the 1.3.275 archive: "Failed to find 'vkCreateInstance'", create -3 …
  const first = run('1.3.275', false);
  assert.equal(first.result, 'VK_ERROR_INITIALIZATION_FAILED');
  assert.match(first.notes.join('\n'), /first in the chain it is the program itself/);
  assert.equal(run('1.3.275', false, [{ control: 'unordered_layer_location' }, entry(c, 'on')]).result, 'VK_ERROR_INITIALIZATION_FAILED');
  // … and a crash when a real layer above it calls down into it.
  assert.equal(run('1.3.275', false, [entry(c, 'on'), { control: 'unordered_layer_location' }]).result, 'LOADER_CRASH');
  assert.equal(run('1.3.302', true).result, 'VK_SUCCESS');
});

test('Windows: VK_INSTANCE_LAYERS is split at ";" while the settings file decides the layers', () => {
  const a = layerManifest('explicit_layer', 'VK_LAYER_a');
  const b = layerManifest('explicit_layer', 'VK_LAYER_b');
  const source = {
    path: FILE,
    text: JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers: [entry(a, 'auto'), entry(b, 'auto')] }] }),
    manifests: [a, b],
  };
  const chain = computeLayerChain({
    implicit: [],
    explicit: [a, b],
    env: { VK_INSTANCE_LAYERS: 'VK_LAYER_b;VK_LAYER_a' },
    app: { path: APP, requestedLayers: [] },
    loaderVersion: '1.4.359',
    settings: chainSettingsFor(source, APP, '1.4.359'),
    listSeparator: ';',
  });
  assert.deepEqual(names(chain), ['VK_LAYER_a', 'VK_LAYER_b']);
});

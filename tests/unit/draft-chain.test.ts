import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInventory, type ManifestInventory, type ScannedManifest } from '../../shared/discovery/manifest-inventory';
import { chainEnvironment, chainVariableNames } from '../../shared/configurator/chain-context';
import { computeDraftChain, inventoryWithOverride } from '../../shared/configurator/draft-chain';
import { createDraft, discoveredLayerNames, draftConfig, moveLayerBy, setLayerState } from '../../shared/configurator/layer-draft';
import { type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import type { ManifestKind } from '../../shared/loader/search-paths';

/**
 * The draft's override put into the discovered inventory must be what discovery would report once
 * the file is written: same place in the implicit list, same chain. Checked by building both.
 */
const CONFIG = '/h/.config/vulkan/implicit_layer.d';
const DATA = '/h/.local/share/vulkan/implicit_layer.d';
const SYS = '/usr/share/vulkan/implicit_layer.d';
const EXPLICIT = '/usr/share/vulkan/explicit_layer.d';
const OVERRIDE_FILE = `${DATA}/VkLayer_override.json`;
const place = { overrideFile: OVERRIDE_FILE, overrideDir: DATA };
const context = { env: {}, loaderVersion: '1.3.239' };
const app = { path: null, requestedLayers: [] as string[] };

const loc = (path: string, origin: string) => ({ path, origin, source: 'default' as const, entry: 'folder' as const, alsoFrom: [], exists: true });
const LOCATIONS: ManifestInventory['locations'] = {
  implicit_layer: [loc(CONFIG, 'XDG_CONFIG_HOME'), loc(DATA, 'XDG_DATA_HOME'), loc(SYS, 'XDG_DATA_DIRS[1]')],
  explicit_layer: [loc(EXPLICIT, 'XDG_DATA_DIRS[1]')],
  driver: [],
};

const layerJson = (name: string, implicit: boolean, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: {
      name,
      type: 'GLOBAL',
      library_path: `lib${name}.so`,
      api_version: '1.3.0',
      implementation_version: '1',
      description: name,
      ...(implicit ? { disable_environment: { [`DISABLE_${name}`]: '1' } } : {}),
      ...extra,
    },
  });

function inventory(files: { dir: string; name: string; text: string }[]): ManifestInventory {
  const scanned: Record<ManifestKind, ScannedManifest[]> = { implicit_layer: [], explicit_layer: [], driver: [] };
  for (const f of files) {
    const kind: ManifestKind = f.dir === EXPLICIT ? 'explicit_layer' : 'implicit_layer';
    const location = LOCATIONS[kind].find((l) => l.path === f.dir)!;
    scanned[kind].push({
      path: `${f.dir}/${f.name}`,
      kind,
      origin: location.origin,
      location: f.dir,
      order: scanned[kind].length,
      readdirOrder: true,
      text: f.text,
      problem: null,
      duplicateOf: null,
    });
  }
  return buildInventory(LOCATIONS, scanned);
}

const BASE = [
  { dir: CONFIG, name: 'a_config.json', text: layerJson('VK_LAYER_I_config', true) },
  { dir: DATA, name: 'b_data.json', text: layerJson('VK_LAYER_I_data', true, { enable_environment: { ENABLE_I_DATA: '1' } }) },
  { dir: SYS, name: 'c_sys.json', text: layerJson('VK_LAYER_I_sys', true) },
  { dir: EXPLICIT, name: 'x.json', text: layerJson('VK_LAYER_X', false) },
  { dir: EXPLICIT, name: 'y.json', text: layerJson('VK_LAYER_Y', false) },
];

test('the draft override goes after the manifests of its folder, and the chain equals the one discovery gives once the file is there', () => {
  const discovered = inventory(BASE);
  let draft = createDraft(null, discoveredLayerNames(discovered));
  draft = setLayerState(draft, 'VK_LAYER_Y', 'on');
  draft = setLayerState(draft, 'VK_LAYER_X', 'on');
  draft = moveLayerBy(draft, 'VK_LAYER_Y', -1);
  draft = setLayerState(draft, 'VK_LAYER_I_sys', 'off');
  const config = draftConfig(draft)!;

  const placed = inventoryWithOverride(discovered, place, config);
  assert.equal(placed.visible, true);
  assert.deepEqual(
    placed.inventory.manifests.implicit_layer.map((m) => `${m.order} ${m.path}`),
    [`0 ${CONFIG}/a_config.json`, `1 ${DATA}/b_data.json`, `2 ${OVERRIDE_FILE}`, `3 ${SYS}/c_sys.json`],
  );
  assert.deepEqual(placed.override?.diagnostics, [], 'a clean override lints clean');

  const written = inventory([...BASE.slice(0, 2), { dir: DATA, name: 'VkLayer_override.json', text: buildOverrideManifest(config) }, ...BASE.slice(2)]);
  const fromDraft = computeDraftChain(placed.inventory, context, app, config);
  const fromDisk = computeDraftChain(written, context, app, config);
  assert.deepEqual(fromDraft, fromDisk);
  assert.deepEqual(
    fromDraft.chain.map((e) => e.name),
    ['VK_LAYER_I_config', 'VK_LAYER_Y', 'VK_LAYER_X'],
    'I_data needs its enable variable; I_sys is blacklisted; the components come in the draft order',
  );
  assert.ok(fromDraft.excluded.some((e) => e.name === 'VK_LAYER_I_sys' && e.reasons.some((r) => r.code === 'override/blacklisted')));
  // The environment the context carries switches the implicit one on, exactly as the variable would.
  const withEnv = computeDraftChain(placed.inventory, { ...context, env: { ENABLE_I_DATA: '1' } }, app, config);
  assert.deepEqual(
    withEnv.chain.map((e) => e.name),
    ['VK_LAYER_I_config', 'VK_LAYER_I_data', 'VK_LAYER_Y', 'VK_LAYER_X'],
  );
});

test('an override already on disk is replaced in place; a draft with nothing on or off removes it', () => {
  const old = { dir: DATA, name: 'VkLayer_override.json', text: buildOverrideManifest({ layers: [{ name: 'VK_LAYER_X', state: 'on' }] }) };
  const discovered = inventory([...BASE.slice(0, 2), old, ...BASE.slice(2)]);
  const config: OverrideConfig = { layers: [{ name: 'VK_LAYER_Y', state: 'on' }] };
  const placed = inventoryWithOverride(discovered, place, config);
  const implicit = placed.inventory.manifests.implicit_layer;
  assert.equal(implicit.length, 4);
  assert.equal(implicit[2]!.path, OVERRIDE_FILE);
  assert.equal(implicit[2]!.text, buildOverrideManifest(config));
  assert.deepEqual(implicit[2]!.layers[0]!.componentLayers, ['VK_LAYER_Y']);
  const removed = inventoryWithOverride(discovered, place, null);
  assert.deepEqual(
    removed.inventory.manifests.implicit_layer.map((m) => m.order),
    [0, 1, 2],
  );
  assert.equal(removed.override, null);
});

test('the draft override is linted: a component that vanished is a layer/component-missing error on the draft file', () => {
  const discovered = inventory(BASE);
  const config: OverrideConfig = {
    layers: [
      { name: 'VK_LAYER_X', state: 'on' },
      { name: 'VK_LAYER_GONE', state: 'on' },
    ],
  };
  const placed = inventoryWithOverride(discovered, place, config);
  const codes = placed.override!.diagnostics.map((d) => d.code);
  assert.deepEqual(codes, ['layer/component-missing']);
  assert.match(String(placed.override!.diagnostics[0]!.message), /VK_LAYER_GONE/);
  // And the model agrees: the loader drops the whole override meta-layer.
  const chain = computeDraftChain(placed.inventory, context, app, config);
  assert.ok(!chain.chain.some((e) => e.name === 'VK_LAYER_X'));
  assert.ok(chain.excluded.some((e) => e.name === 'VK_LAYER_LUNARG_override' && e.reasons.some((r) => r.code === 'meta/component-missing')));
});

test('an override folder the loader does not search: nothing is placed, and the caller is told', () => {
  const discovered = inventory(BASE);
  const placed = inventoryWithOverride(
    discovered,
    { overrideFile: '/elsewhere/VkLayer_override.json', overrideDir: '/elsewhere' },
    { layers: [{ name: 'VK_LAYER_X', state: 'on' }] },
  );
  assert.equal(placed.visible, false);
  assert.equal(placed.override, null);
  assert.equal(placed.inventory.manifests.implicit_layer.length, 3);
});

test('the chain context keeps only VK_* and the variables manifests name, and only those that are set', () => {
  const discovered = inventory(BASE);
  const names = chainVariableNames(discovered);
  assert.ok(names.has('ENABLE_I_DATA') && names.has('DISABLE_VK_LAYER_I_sys') && names.has('DISABLE_STRATA_OVERRIDE'));
  assert.deepEqual(
    chainEnvironment({ VK_INSTANCE_LAYERS: 'VK_LAYER_X', ENABLE_I_DATA: '1', SECRET: 'x', PATH: '/bin', DISABLE_VK_LAYER_I_sys: undefined }, names),
    {
      VK_INSTANCE_LAYERS: 'VK_LAYER_X',
      ENABLE_I_DATA: '1',
    },
  );
});

test('1,000 layers: placing the draft and computing its chain stay well inside an edit’s budget', () => {
  const files = Array.from({ length: 1000 }, (_, i) =>
    i % 20 === 3
      ? { dir: SYS, name: `i${i}.json`, text: layerJson(`VK_LAYER_I_${i}`, true) }
      : { dir: EXPLICIT, name: `e${i}.json`, text: layerJson(`VK_LAYER_E_${i}`, false) },
  );
  const discovered = inventory(files);
  let draft = createDraft(null, discoveredLayerNames(discovered));
  for (let i = 0; i < 1000; i += 50) if (i % 20 !== 3) draft = setLayerState(draft, `VK_LAYER_E_${i}`, 'on');
  const config = draftConfig(draft)!;
  const placed = inventoryWithOverride(discovered, place, config);
  const chain = computeDraftChain(placed.inventory, context, app, config);
  // 50 implicit layers + 20 forced on; no timing asserted here (bench/ui-1k-layers measures it).
  assert.equal(chain.chain.length, 70);
  assert.equal(chain.result, 'VK_SUCCESS');
});

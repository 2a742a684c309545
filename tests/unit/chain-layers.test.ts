import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiOf } from '../../shared/loader/layer-readings';
import {
  availability,
  baseList,
  filtersFor,
  implicitState,
  LayerReasons,
  LayerSet,
  metaProblem,
  overridePathsFor,
  pruneOverrideLayers,
  readLayers,
  varsOf,
  versionNotes,
  type Layer,
} from '../../shared/loader/chain-layers';
import type { ChainManifest } from '../../shared/loader/chain-schema';

/**
 * The steps of the chain model (shared/loader/chain-layers.ts), each against the loader function it
 * follows (loader 1.3.239 loader.c unless a rule of loader-rules.ts says otherwise). The whole model
 * is in chain.test.ts and proven on six real loaders in tests/integration/chain-vs-loader.test.ts.
 */
let n = 0;
const manifest = (layer: Record<string, unknown> | Record<string, unknown>[], implicit = true): ChainManifest => ({
  path: `/m/${n++}.json`,
  kind: implicit ? 'implicit_layer' : 'explicit_layer',
  origin: 'test',
  text: JSON.stringify(Array.isArray(layer) ? { file_format_version: '1.1.0', layers: layer } : { file_format_version: '1.1.0', layer }),
  problem: null,
});
const decl = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'GLOBAL',
  library_path: `lib${name}.so`,
  api_version: '1.3.0',
  implementation_version: '1',
  description: 'd',
  disable_environment: { [`DISABLE_${name}`]: '1' },
  ...extra,
});
const one = (m: ChainManifest, implicit = true): Layer => {
  const base = baseList(implicit ? [m] : [], implicit ? [] : [m]);
  assert.equal(base.all.length, 1, JSON.stringify(base.rejected));
  return base.all[0]!;
};

test('apiOf: "M.m.p" read with strtol per part; a missing or bad part is 0', () => {
  assert.deepEqual(apiOf('1.3.239'), { major: 1, minor: 3 });
  assert.deepEqual(apiOf('1'), { major: 1, minor: 0 });
  assert.deepEqual(apiOf('1.x'), { major: 1, minor: 0 });
  assert.deepEqual(apiOf(undefined), { major: 0, minor: 0 });
});

test('readLayers: the checks of loader_read_layer_json, each rejection with its reason', () => {
  const m = manifest([
    decl('VK_LAYER_ok'),
    decl('VK_LAYER_device', { type: 'DEVICE' }),
    decl('VK_LAYER_nodesc', { description: undefined }),
    { ...decl('VK_LAYER_both'), component_layers: ['VK_LAYER_ok'] },
    decl('VK_LAYER_nolib', { library_path: undefined }),
    decl('VK_LAYER_nodisable', { disable_environment: undefined }),
  ]);
  const r = readLayers(m, true);
  assert.deepEqual(
    r.layers.map((l) => l.name),
    ['VK_LAYER_ok'],
  );
  assert.deepEqual(
    r.rejected.map((x) => [x.name, x.reasons[0]?.message.replace('the loader skips this layer: ', '')]),
    [
      ['VK_LAYER_device', 'type "DEVICE" is not GLOBAL or INSTANCE'],
      ['VK_LAYER_nodesc', 'a required field (api_version, implementation_version, description) is missing'],
      ['VK_LAYER_both', 'it has both library_path and component_layers'],
      ['VK_LAYER_nolib', 'it has no library_path'],
      ['VK_LAYER_nodisable', 'an implicit layer must have a disable_environment (LLP_LAYER_9)'],
    ],
  );
  assert.equal(readLayers(m, false).layers.length, 2, 'an explicit layer needs no disable_environment');
  assert.equal(readLayers(m, true), readLayers(m, true), 'read once per manifest object');
  // blacklisted_layers and app_keys count on the override layer only (1.3.239 ignores them elsewhere).
  const other = readLayers(manifest(decl('VK_LAYER_x', { blacklisted_layers: ['A'], app_keys: ['/bin/a'] })), true).layers[0]!;
  assert.deepEqual([other.blacklist, other.appKeys], [[], []]);
});

test('implicitState: enable_environment needs the exact value; disable_environment wins even when empty; override components win last', () => {
  const l = one(manifest(decl('VK_LAYER_imp', { enable_environment: { ENABLE_IMP: '1' } })));
  const none = filtersFor({}, '1.3.239');
  assert.deepEqual(implicitState(l, varsOf({}), none, null), {
    enabled: false,
    reason: { code: 'implicit/not-enabled', message: 'implicit layer not enabled: ENABLE_IMP unset (enable_environment)' },
  });
  assert.equal(implicitState(l, varsOf({ ENABLE_IMP: 'true' }), none, null).enabled, false);
  assert.equal(implicitState(l, varsOf({ ENABLE_IMP: '1' }), none, null).reason.code, 'implicit/enabled');
  assert.equal(implicitState(l, varsOf({ ENABLE_IMP: '1', DISABLE_VK_LAYER_imp: '' }), none, null).reason.code, 'implicit/disabled-by-env');
  const override = { ...l, components: ['VK_LAYER_imp'], manifest: '/o.json' };
  assert.deepEqual(implicitState(l, varsOf({ DISABLE_VK_LAYER_imp: '1' }), none, override).enabled, true);
  // The filters (1.3.234+): an enable match turns it on, but disable_environment still wins.
  const enable = filtersFor({ VK_LOADER_LAYERS_ENABLE: '*imp' }, '1.3.239');
  assert.equal(implicitState(l, varsOf({}), enable, null).reason.code, 'filter/enabled');
  assert.equal(implicitState(l, varsOf({ DISABLE_VK_LAYER_imp: '1' }), enable, null).enabled, false);
  const disable = filtersFor({ VK_LOADER_LAYERS_DISABLE: '~implicit~' }, '1.3.239');
  assert.equal(implicitState(l, varsOf({ ENABLE_IMP: '1' }), disable, null).reason.code, 'filter/disabled');
});

test('filtersFor: ignored before 1.3.234 (with a note); VK_LOADER_LAYERS_ALLOW read from 1.3.262', () => {
  const env = { VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: 'VK_LAYER_keep' };
  const old = filtersFor(env, '1.3.233');
  assert.equal(old.disable, null);
  assert.equal(old.ignored?.version, '1.3.233');
  assert.ok(versionNotes('1.3.233', env, old).some((s) => s.includes('predates the layer filters (1.3.234)')));
  assert.equal(filtersFor(env, '1.3.261').allow, null);
  assert.ok(versionNotes('1.3.261', env, filtersFor(env, '1.3.261')).some((s) => s.includes('it arrived in 1.3.262')));
  const l = one(manifest(decl('VK_LAYER_keep'), false));
  assert.equal(availability(l, filtersFor(env, '1.3.261')).available, false);
  assert.deepEqual(availability(l, filtersFor(env, '1.3.262')).reason?.code, 'filter/disable-overridden');
  assert.deepEqual(availability(l, filtersFor({}, '1.3.262')), { available: true, reason: null });
});

test('versionNotes: VK_LOADER_DISABLE_INST_EXT_FILTER is read with atoi', () => {
  const f = filtersFor({}, '1.3.239');
  assert.match(versionNotes('1.3.239', { VK_LOADER_DISABLE_INST_EXT_FILTER: ' 1x' }, f).join('\n'), /stops filtering instance extensions/);
  assert.match(versionNotes('1.3.239', { VK_LOADER_DISABLE_INST_EXT_FILTER: 'yes' }, f).join('\n'), /acts only on a non-zero number \(atoi\)/);
});

const override = (extra: Record<string, unknown>) =>
  manifest({ ...decl('VK_LAYER_LUNARG_override', { library_path: undefined }), component_layers: [], disable_environment: { DISABLE_O: '1' }, ...extra });

test('pruneOverrideLayers (remove_all_non_valid_override_layers): app_keys first, then the first global one', () => {
  const global1 = override({});
  const global2 = override({});
  const forApp = override({ app_keys: ['/bin/app'] });
  const base = baseList([global1, forApp, global2], []);
  const removed = new LayerSet(base);
  const why = new LayerReasons(base);
  pruneOverrideLayers(base.implicit, '/bin/app', why, removed);
  assert.deepEqual(
    base.implicit.map((l) => removed.has(l)),
    [true, false, true],
  );
  assert.equal(why.get(base.implicit[0]!)?.[0]?.code, 'override/superseded');
  const other = new LayerSet(base);
  const whyOther = new LayerReasons(base);
  pruneOverrideLayers(base.implicit, '/bin/other', whyOther, other);
  assert.deepEqual(
    base.implicit.map((l) => other.has(l)),
    [false, true, true],
  );
  assert.equal(whyOther.get(base.implicit[1]!)?.[0]?.code, 'override/app-keys-mismatch');
});

test('overridePathsFor: the last surviving enabled override layer on 1.3.239, the first from 1.3.251 (override-paths-first)', () => {
  // Two survive only through the 1.3.239 quirk: once one override layer's app_keys matched, a later
  // one whose app_keys do not match is kept.
  const a = override({ app_keys: ['/bin/app'], override_paths: ['/a'] });
  const b = override({ app_keys: ['/bin/elsewhere'], override_paths: ['/b'] });
  assert.deepEqual(overridePathsFor([a, b], {}, '/bin/app', '1.3.239'), ['/b']);
  assert.deepEqual(overridePathsFor([a, b], {}, '/bin/app', '1.3.251'), ['/a']);
  assert.deepEqual(overridePathsFor([b, a], {}, '/bin/app', '1.3.239'), ['/a'], 'b is dropped: no override layer matched before it');
  const g1 = override({ override_paths: ['/g1'] });
  const g2 = override({ override_paths: ['/g2'] });
  assert.deepEqual(overridePathsFor([g1, g2], {}, null, '1.3.239'), ['/g1'], 'of two global ones the first is used');
  assert.equal(overridePathsFor([g1], { DISABLE_O: '' }, null, '1.3.251'), null, 'a disabled override layer gives no paths');
  assert.equal(overridePathsFor([], {}, null, '1.3.251'), null);
});

test('metaProblem (verify_meta_layer_component_layers): missing, too old, itself, a loop through another meta-layer', () => {
  const comp = one(manifest(decl('VK_LAYER_c', { api_version: '1.2.0' }), false));
  const meta = (name: string, components: string[], api = '1.2.0') =>
    one(manifest({ ...decl(name, { library_path: undefined, api_version: api }), component_layers: components }, false));
  const layers = new Map<string, Layer>([['VK_LAYER_c', comp]]);
  const find = (name: string) => layers.get(name);
  assert.equal(metaProblem(meta('VK_LAYER_m', ['VK_LAYER_c']), find), null);
  assert.equal(metaProblem(meta('VK_LAYER_m', ['VK_LAYER_gone']), find)?.code, 'meta/component-missing');
  assert.equal(metaProblem(meta('VK_LAYER_m', ['VK_LAYER_c'], '1.3.0'), find)?.code, 'meta/component-too-old');
  const self = meta('VK_LAYER_self', ['VK_LAYER_self']);
  layers.set('VK_LAYER_self', self);
  assert.equal(metaProblem(self, find)?.code, 'meta/lists-itself');
  const x = meta('VK_LAYER_x', ['VK_LAYER_y']);
  const y = meta('VK_LAYER_y', ['VK_LAYER_x']);
  layers.set('VK_LAYER_x', x);
  layers.set('VK_LAYER_y', y);
  assert.equal(metaProblem(x, find)?.code, 'meta/lists-itself');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayerChain, overridePathsFor, type ChainManifest, type ChainReasonCode, type LayerChain } from '../../shared/loader/chain';
import { ChainReasonCodeSchema, LayerChainSchema } from '../../shared/loader/chain-schema';
import { readLoaderSettings } from '../../shared/loader/loader-settings-file';

// shared/loader/chain.ts on small hand-written inputs, one rule at a time. The real loader checks
// the same model on generated trees in tests/integration/chain-vs-loader.test.ts.

const APP = '/opt/game/bin/game';
let fileNo = 0;

function manifest(kind: 'implicit_layer' | 'explicit_layer', layer: Record<string, unknown>): ChainManifest {
  const name = String(layer['name']);
  return {
    path: `/${kind}/${fileNo++}-${name}.json`,
    kind,
    origin: kind === 'implicit_layer' ? 'XDG_CONFIG_HOME' : 'VK_LAYER_PATH[0]',
    text: JSON.stringify({ file_format_version: '1.2.0', layer }),
    problem: null,
  };
}
const base = (name: string) => ({ name, type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'test layer' });
const implicit = (name: string, extra: Record<string, unknown> = {}) =>
  manifest('implicit_layer', { ...base(name), library_path: `lib${name}.so`, disable_environment: { [`DISABLE_${name}`]: '1' }, ...extra });
const explicit = (name: string, extra: Record<string, unknown> = {}) => manifest('explicit_layer', { ...base(name), library_path: `lib${name}.so`, ...extra });
const meta = (kind: 'implicit_layer' | 'explicit_layer', name: string, components: string[], extra: Record<string, unknown> = {}) =>
  manifest(kind, {
    ...base(name),
    api_version: '1.0.0',
    component_layers: components,
    ...(kind === 'implicit_layer' ? { disable_environment: { [`DISABLE_${name}`]: '1' } } : {}),
    ...extra,
  });
const override = (extra: Record<string, unknown>) => meta('implicit_layer', 'VK_LAYER_LUNARG_override', [], { api_version: '1.3.0', ...extra });

interface Case {
  implicit?: ChainManifest[];
  explicit?: ChainManifest[];
  env?: Record<string, string>;
  requested?: string[];
  api?: string;
  version?: string | null;
  /** A vk_loader_settings.json's text; its layer entries name manifests of this case (or others) by path. */
  settings?: unknown;
  /** Manifests only the settings file names. */
  settingsOnly?: ChainManifest[];
}

/** Every reason code any test saw, to check that each code of the schema has a test. */
const seen = new Set<ChainReasonCode>();

function explain(c: Case): LayerChain {
  const chain = computeLayerChain({
    implicit: c.implicit ?? [],
    explicit: c.explicit ?? [],
    env: c.env ?? {},
    app: { path: APP, requestedLayers: c.requested ?? [], apiVersion: c.api },
    loaderVersion: c.version === undefined ? '1.3.239' : c.version,
    settings: c.settings === undefined ? null : settingsInput(c),
  });
  LayerChainSchema.parse(chain);
  for (const e of [...chain.chain, ...chain.excluded, ...chain.metaLayers]) for (const r of e.reasons) seen.add(r.code);
  return chain;
}

const SETTINGS_FILE = '/home/u/.local/share/vulkan/loader_settings.d/vk_loader_settings.json';
function settingsInput(c: Case) {
  const version = c.version === undefined ? '1.3.239' : c.version;
  const read = readLoaderSettings(JSON.stringify(c.settings), APP, version);
  const all = [...(c.implicit ?? []), ...(c.explicit ?? []), ...(c.settingsOnly ?? [])];
  const manifests = new Map(all.map((m) => [m.path, m] as const));
  return { path: SETTINGS_FILE, read, manifests };
}

const names = (c: LayerChain) => c.chain.map((e) => e.name);

/** The reasons given for `name` (in the chain, else among the excluded), as "code: message" lines. */
function reasonsOf(c: LayerChain, name: string): string[] {
  const entries = [...c.chain.filter((e) => e.name === name), ...c.excluded.filter((e) => e.name === name)];
  return entries.flatMap((e) => e.reasons.map((r) => `${r.code}: ${r.message}`));
}

function assertChain(c: LayerChain, expected: string[]) {
  assert.deepEqual(
    names(c),
    expected,
    `chain ${JSON.stringify(names(c))}, expected ${JSON.stringify(expected)}\nexcluded:\n${c.excluded.map((e) => `  ${e.name}: ${e.reasons.map((r) => r.code).join(', ')}`).join('\n')}`,
  );
}

/** `name` has a reason with `code` (and, when given, a message matching `message`). */
function assertReason(c: LayerChain, name: string, code: ChainReasonCode, message?: RegExp) {
  const all = reasonsOf(c, name);
  const hit = all.some((r) => r.startsWith(`${code}: `) && (!message || message.test(r)));
  assert.ok(hit, `${name}: expected a reason ${code}${message ? ` matching ${message}` : ''}; it has:\n  ${all.join('\n  ') || '(no entry at all)'}`);
}

test('implicit layers: on by default, enable_environment needs its exact value, disable_environment wins even when empty', () => {
  const c = explain({
    implicit: [
      implicit('A'),
      implicit('B', { enable_environment: { ENABLE_B: '1' } }),
      implicit('C', { enable_environment: { ENABLE_C: '1' } }),
      implicit('D'),
    ],
    env: { ENABLE_B: '1', ENABLE_C: 'yes', DISABLE_D: '' },
  });
  assertChain(c, ['A', 'B']);
  assertReason(c, 'A', 'implicit/enabled', /by default/);
  assertReason(c, 'B', 'implicit/enabled', /ENABLE_B=1/);
  assertReason(c, 'C', 'implicit/not-enabled', /"yes", not "1"/);
  assertReason(c, 'D', 'implicit/disabled-by-env', /DISABLE_D= set/);
});

test("explicit layers: VK_INSTANCE_LAYERS in list order, then the application's; unknown names are reported", () => {
  const c = explain({ explicit: [explicit('X'), explicit('Y'), explicit('Z'), explicit('W')], env: { VK_INSTANCE_LAYERS: 'Y:NOPE:X' }, requested: ['Z', 'X'] });
  assertChain(c, ['X', 'Y', 'Z']);
  assertReason(c, 'X', 'explicit/vk-instance-layers');
  assertReason(c, 'Z', 'explicit/requested-by-app', /ppEnabledLayerNames\[0\]/);
  assertReason(c, 'W', 'explicit/not-requested');
  assertReason(c, 'NOPE', 'explicit/not-found', /VK_INSTANCE_LAYERS/);
});

test('a requested layer that does not exist: VK_ERROR_LAYER_NOT_PRESENT and no chain', () => {
  const c = explain({ implicit: [implicit('A')], explicit: [explicit('X')], requested: ['X', 'MISSING'] });
  assert.equal(c.result, 'VK_ERROR_LAYER_NOT_PRESENT');
  assertChain(c, []);
  assertReason(c, 'MISSING', 'explicit/not-found', /VK_ERROR_LAYER_NOT_PRESENT/);
});

test('meta-layers: expanded in place; missing, too-old and self-listing components remove them', () => {
  const c = explain({
    explicit: [
      explicit('X'),
      explicit('Y', { api_version: '1.0.0' }),
      meta('explicit_layer', 'M_OK', ['X']),
      meta('explicit_layer', 'M_MISSING', ['X', 'GONE']),
      meta('explicit_layer', 'M_OLD', ['Y'], { api_version: '1.3.0' }),
      meta('explicit_layer', 'M_SELF', ['M_SELF']),
    ],
    env: { VK_INSTANCE_LAYERS: 'M_OK' },
  });
  assertChain(c, ['X']);
  assertReason(c, 'X', 'meta/expanded', /M_OK at position 1/);
  assertReason(c, 'M_MISSING', 'meta/component-missing', /GONE/);
  assertReason(c, 'M_OLD', 'meta/component-too-old', /1\.0, older than the meta-layer's 1\.3/);
  assertReason(c, 'M_SELF', 'meta/lists-itself');
});

test('a nested meta-layer with a component gone still counts as complete (loader 1.3.239), so a later request for the outer one is skipped', () => {
  const c = explain({
    explicit: [explicit('A'), explicit('B'), explicit('C'), meta('explicit_layer', 'M1', ['A', 'B']), meta('explicit_layer', 'M2', ['M1'])],
    env: { VK_INSTANCE_LAYERS: 'M2', VK_LOADER_LAYERS_DISABLE: 'B' },
    requested: ['C', 'M2'],
  });
  assertChain(c, ['A', 'C']);
  assertReason(c, 'B', 'meta/incomplete');
  assertReason(c, 'B', 'filter/disabled');
});

test('the override layer: components forced on, blacklist removes, app_keys decide which override applies', () => {
  const c = explain({
    implicit: [
      implicit('A', { enable_environment: { ENABLE_A: '1' } }),
      override({ component_layers: ['A'], blacklisted_layers: ['X'], app_keys: ['/usr/bin/other'] }),
      override({ component_layers: ['A'], blacklisted_layers: ['X'] }),
      override({ component_layers: [] }),
    ],
    explicit: [explicit('X')],
    env: { VK_INSTANCE_LAYERS: 'X' },
  });
  assertChain(c, ['A']);
  assertReason(c, 'A', 'implicit/enabled-by-override', /overrides: implicit layer not enabled: ENABLE_A unset/);
  assertReason(c, 'A', 'override/component', /component #1/);
  assertReason(c, 'X', 'override/blacklisted');
  assertReason(c, 'VK_LAYER_LUNARG_override', 'override/app-keys-mismatch', /\/usr\/bin\/other/);
  assertReason(c, 'VK_LAYER_LUNARG_override', 'override/superseded', /global override layer was found earlier/);
  assert.ok(c.metaLayers.some((m) => m.name === 'VK_LAYER_LUNARG_override' && m.reasons.some((r) => r.code === 'override/active')));
});

test('override_paths come from an enabled override layer, and a filter can switch that off', () => {
  const implicitSet = [override({ component_layers: [], override_paths: ['/opt/layers'] })];
  assert.deepEqual(overridePathsFor(implicitSet, {}, APP, '1.3.239'), ['/opt/layers']);
  assert.equal(overridePathsFor(implicitSet, { DISABLE_VK_LAYER_LUNARG_override: '1' }, APP, '1.3.239'), null);
  assert.equal(overridePathsFor(implicitSet, { VK_LOADER_LAYERS_DISABLE: '~implicit~' }, APP, '1.3.239'), null);
  assert.deepEqual(
    overridePathsFor(implicitSet, { VK_LOADER_LAYERS_DISABLE: '~implicit~' }, APP, '1.3.200'),
    ['/opt/layers'],
    'a loader older than 1.3.234 ignores the filter',
  );
});

test('duplicates: the first manifest of a name shadows the others; of repeated activations the one nearest the driver wins', () => {
  const first = explicit('X');
  const second = explicit('X');
  const c = explain({ explicit: [first, second, explicit('Y')], env: { VK_INSTANCE_LAYERS: 'X' }, requested: ['Y', 'X'] });
  // VK_INSTANCE_LAYERS adds both manifests named X; the app's X is skipped (already on).
  assertChain(c, ['X', 'Y']);
  assertReason(c, 'X', 'duplicate/later-occurrence-wins', new RegExp(second.path.replaceAll('.', '\\.')));
  const d = explain({ explicit: [first, second], requested: ['X'] });
  assert.equal(d.chain[0]!.manifest, first.path);
  assertReason(d, 'X', 'duplicate/shadowed', new RegExp(`shadowed by ${first.path.replaceAll('.', '\\.')}`));
  const e = explain({ explicit: [explicit('Z'), meta('explicit_layer', 'MZ', ['Z']), explicit('W')], env: { VK_INSTANCE_LAYERS: 'Z:MZ' }, requested: ['W'] });
  assertReason(e, 'Z', 'duplicate/later-occurrence-wins');
  // The first X was enabled too (by VK_INSTANCE_LAYERS), but the second one is nearer the driver.
  assertReason(c, 'X', 'duplicate/earlier-occurrence-dropped');
  const f = explain({
    explicit: [explicit('P'), meta('explicit_layer', 'MP', ['P']), explicit('Q')],
    env: { VK_INSTANCE_LAYERS: 'P' },
    requested: ['Q', 'MP'],
  });
  assertChain(f, ['Q', 'P']);
});

test("a layer older than the application's API version: loader 1.3.239 only warns", () => {
  const c = explain({ explicit: [explicit('OLD', { api_version: '1.0.0' })], requested: ['OLD'], api: '1.3' });
  assertChain(c, ['OLD']);
  assertReason(c, 'OLD', 'api-version/older-than-app', /1\.0\.0 is older than the application's 1\.3/);
});

test('manifests the loader skips say why', () => {
  const c = explain({
    implicit: [manifest('implicit_layer', { ...base('NO_DISABLE'), library_path: 'x.so' })],
    explicit: [manifest('explicit_layer', { ...base('BAD_TYPE'), type: 'DEVICE', library_path: 'x.so' })],
  });
  assertReason(c, 'NO_DISABLE', 'manifest/rejected', /disable_environment/);
  assertReason(c, 'BAD_TYPE', 'manifest/rejected', /"DEVICE"/);
});

test('VK_LOADER_LAYERS_DISABLE: ~implicit~, ~explicit~, ~all~ and name globs take layers out of the list; asking for one then fails', () => {
  const layers = { implicit: [implicit('VK_LAYER_A_one'), implicit('VK_LAYER_A_two')], explicit: [explicit('VK_LAYER_B_one'), explicit('VK_LAYER_B_two')] };
  const imp = explain({ ...layers, env: { VK_LOADER_LAYERS_DISABLE: '~IMPLICIT~' }, requested: ['VK_LAYER_B_one'] });
  assertChain(imp, ['VK_LAYER_B_one']);
  assertReason(imp, 'VK_LAYER_A_one', 'filter/disabled', /~IMPLICIT~ disables every implicit layer/);
  const exp = explain({ ...layers, env: { VK_LOADER_LAYERS_DISABLE: '~explicit~' }, requested: ['VK_LAYER_B_one'] });
  assert.equal(exp.result, 'VK_ERROR_LAYER_NOT_PRESENT');
  assertReason(exp, 'VK_LAYER_B_one', 'filter/disabled', /~explicit~ disables every explicit layer/);
  const glob = explain({ ...layers, env: { VK_LOADER_LAYERS_DISABLE: '*_one,vk_layer_b_*' } });
  assertChain(glob, ['VK_LAYER_A_two']);
  assertReason(glob, 'VK_LAYER_A_one', 'filter/disabled', /filter "\*_one" matches the name \(suffix/);
  const all = explain({ ...layers, env: { VK_LOADER_LAYERS_DISABLE: '~all~' } });
  assertChain(all, []);
});

test('VK_LOADER_LAYERS_ENABLE: adds matching explicit layers with VK_INSTANCE_LAYERS, forces implicit ones on, beats DISABLE but not disable_environment', () => {
  const c = explain({
    implicit: [implicit('VK_LAYER_I_off', { enable_environment: { ENABLE_I: '1' } }), implicit('VK_LAYER_I_envoff'), implicit('VK_LAYER_I_plain')],
    explicit: [explicit('VK_LAYER_E_x'), explicit('VK_LAYER_E_y'), explicit('VK_LAYER_E_z')],
    env: {
      VK_LOADER_LAYERS_ENABLE: '*_i_*,VK_LAYER_E_Y',
      VK_LOADER_LAYERS_DISABLE: '~all~',
      DISABLE_VK_LAYER_I_envoff: '1',
      VK_INSTANCE_LAYERS: 'VK_LAYER_E_z',
    },
  });
  assertChain(c, ['VK_LAYER_I_off', 'VK_LAYER_I_plain', 'VK_LAYER_E_y']);
  assertReason(c, 'VK_LAYER_I_off', 'filter/enabled', /without it: implicit layer not enabled: ENABLE_I unset/);
  assertReason(c, 'VK_LAYER_I_off', 'filter/disable-overridden', /the enable filter wins/);
  assertReason(c, 'VK_LAYER_I_envoff', 'implicit/disabled-by-env', /wins over VK_LOADER_LAYERS_ENABLE/);
  assertReason(c, 'VK_LAYER_E_y', 'filter/enabled', /filter "VK_LAYER_E_Y" matches the name \(full name, case-insensitive\)/);
  assertReason(c, 'VK_LAYER_E_z', 'filter/disabled', /~all~/);
  const named = c.excluded.find((e) => e.name === 'VK_LAYER_E_z' && e.manifest === null);
  assert.deepEqual(
    named?.reasons.map((r) => r.code),
    ['explicit/not-found', 'filter/disabled'],
    'the VK_INSTANCE_LAYERS name says why its layer is gone',
  );
});

test("VK_LOADER_LAYERS_ENABLE works without VK_INSTANCE_LAYERS and keeps the loader's list order", () => {
  const c = explain({ explicit: [explicit('VK_LAYER_Z'), explicit('VK_LAYER_A')], env: { VK_LOADER_LAYERS_ENABLE: 'vk_layer_a,vk_layer_z' } });
  assertChain(c, ['VK_LAYER_Z', 'VK_LAYER_A']);
});

test('filters against the override layer: disabling it drops its components and blacklist; disabling a component leaves it incomplete', () => {
  const implicitSet = [implicit('A', { enable_environment: { ENABLE_A: '1' } }), override({ component_layers: ['A', 'B'], blacklisted_layers: ['X'] })];
  const explicitSet = [explicit('X'), explicit('B')];
  const off = explain({ implicit: implicitSet, explicit: explicitSet, env: { VK_LOADER_LAYERS_DISABLE: '*override' }, requested: ['X'] });
  assertChain(off, ['X']);
  assertReason(off, 'VK_LAYER_LUNARG_override', 'filter/disabled');
  const comp = explain({ implicit: implicitSet, explicit: explicitSet, env: { VK_LOADER_LAYERS_DISABLE: 'B' } });
  assertChain(comp, ['A']);
  assertReason(comp, 'B', 'meta/incomplete');
  assertReason(comp, 'B', 'filter/disabled');
});

test('loaders before 1.3.234 ignore the filters, and the answer says so', () => {
  const c = explain({
    explicit: [explicit('X')],
    env: { VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ENABLE: 'Y' },
    requested: ['X'],
    version: '1.3.231',
  });
  assertChain(c, ['X']);
  assertReason(c, 'X', 'filter/unsupported', /1\.3\.231 predates the layer filters/);
  assert.ok(
    c.notes.some((n) => /VK_LOADER_LAYERS_DISABLE is set, but loader 1\.3\.231 predates/.test(n)),
    c.notes.join('\n'),
  );
  assert.deepEqual(
    c.rules.filter((r) => r.applied).map((r) => r.id),
    ['layer-chain'],
  );
});

test('the answer names the loader version and the rules; unknown versions and other variables get notes', () => {
  const known = explain({ version: '1.3.239' });
  assert.equal(known.loaderVersion, '1.3.239');
  assert.equal(known.rulesVersion, '1.3.239');
  assert.deepEqual(known.notes, []);
  assert.ok(known.rules.find((r) => r.id === 'layer-filters')!.applied);
  const unknown = explain({ version: null, env: { VK_LOADER_DISABLE_INST_EXT_FILTER: '1' } });
  assert.equal(unknown.loaderVersion, null);
  assert.match(unknown.notes.join('\n'), /version is unknown; the rules of loader 1\.3\.239 were applied/);
  assert.match(unknown.notes.join('\n'), /VK_LOADER_DISABLE_INST_EXT_FILTER=1: the loader stops filtering instance extensions.*the layer chain is the same/);
  assert.match(explain({ env: { VK_LOADER_DISABLE_INST_EXT_FILTER: '0' } }).notes.join('\n'), /only on a non-zero number/);
  assert.deepEqual(explain({ version: '1.3.250' }).notes, [], 'a version inside the proven range applies its own rules, without a note');
  assert.equal(explain({ version: '1.4.341' }).rulesVersion, '1.4.341');
  assert.match(explain({ version: '1.4.400' }).notes.join('\n'), /newer than the newest loader Strata is checked against \(1\.4\.359\)/);
  assert.match(explain({ env: { VK_LOADER_LAYERS_ALLOW: 'x' } }).notes.join('\n'), /does not read it \(it arrived in 1\.3\.262\)/);
  assert.match(explain({ env: { VK_LOADER_LAYERS_DISABLE: '**' } }).notes.join('\n'), /"\*\*" as "names ending in \*"/);
});

// ---- rules that changed between loader releases (shared/loader/loader-rules.ts), each on both sides of its boundary ----

test('first-occurrence-wins (1.3.247): a layer enabled twice keeps the occurrence nearest the application', () => {
  const [a1, b, a2] = [explicit('A'), explicit('B'), explicit('A')];
  const i = { explicit: [a1, b, a2], env: { VK_INSTANCE_LAYERS: 'A:B' } };
  // 1.3.239 adds both manifests of A in list order and the one nearest the driver wins.
  const old = explain({ ...i, version: '1.3.239' });
  assert.deepEqual(
    old.chain.map((e) => e.manifest),
    [b.path, a2.path],
  );
  assertReason(old, 'A', 'duplicate/later-occurrence-wins');
  assert.deepEqual(
    explain({ ...i, version: '1.3.275' }).chain.map((e) => e.manifest),
    [a1.path, b.path],
  );
});

test('instance-layers-ordered (1.3.247): VK_INSTANCE_LAYERS in its own order, before the enable filter; it may name an implicit layer', () => {
  const i = {
    implicit: [implicit('I', { enable_environment: { ENABLE_I: '1' } })],
    explicit: [explicit('A'), explicit('B'), explicit('F')],
    env: { VK_INSTANCE_LAYERS: 'B:A:I', VK_LOADER_LAYERS_ENABLE: 'F' },
  };
  assertChain(explain({ ...i, version: '1.3.239' }), ['A', 'B', 'F']);
  const modern = explain({ ...i, version: '1.3.275' });
  assertChain(modern, ['B', 'A', 'I', 'F']);
  assertReason(modern, 'I', 'explicit/vk-instance-layers', /whatever its enable_environment says/);
});

test('meta-no-duplicates (1.3.251): a component already enabled is not added again', () => {
  const i = { explicit: [explicit('A'), explicit('B'), meta('explicit_layer', 'M', ['A', 'B'])], requested: ['B', 'M'] };
  assertChain(explain({ ...i, version: '1.3.239' }), ['A', 'B']);
  assertChain(explain({ ...i, version: '1.3.275' }), ['B', 'A']);
});

test("override-paths-first (1.3.251): explicit layers come from the first enabled override layer's override_paths", () => {
  const implicitList = [override({ app_keys: [APP], override_paths: ['/first'] }), override({ app_keys: ['/other/app'], override_paths: ['/last'] })];
  assert.deepEqual(overridePathsFor(implicitList, {}, APP, '1.3.239'), ['/last']);
  assert.deepEqual(overridePathsFor(implicitList, {}, APP, '1.3.251'), ['/first']);
});

test('layers-allow (1.3.262): VK_LOADER_LAYERS_ALLOW exempts a layer from the disable filter', () => {
  const i = {
    implicit: [implicit('A')],
    explicit: [explicit('B')],
    requested: ['B'],
    env: { VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: 'a,*b' },
  };
  assert.equal(explain({ ...i, version: '1.3.261' }).result, 'VK_ERROR_LAYER_NOT_PRESENT');
  const allowed = explain({ ...i, version: '1.3.262' });
  assertChain(allowed, ['A', 'B']);
  assertReason(allowed, 'B', 'filter/disable-overridden', /VK_LOADER_LAYERS_ALLOW=a,\*b/);
});

test('instance-layers-order-implicit (1.4.326): an implicit layer named in VK_INSTANCE_LAYERS moves to its place; one inside a longer name is dropped', () => {
  const i = { implicit: [implicit('I'), implicit('J')], explicit: [explicit('A')], env: { VK_INSTANCE_LAYERS: 'A:I:Jx' } };
  assertChain(explain({ ...i, version: '1.4.321' }), ['I', 'J', 'A']);
  const modern = explain({ ...i, version: '1.4.326' });
  assertChain(modern, ['A', 'I']);
  assertReason(modern, 'J', 'implicit/not-enabled', /inside a longer one/);
});

test('remove-duplicate-layers (1.4.340): the second copy of a name leaves the list, a third stays', () => {
  const off = implicit('A', { enable_environment: { ENABLE_A: '1' } });
  const i = { implicit: [off, implicit('A'), implicit('A')] };
  assert.deepEqual(
    explain({ ...i, version: '1.4.321' }).chain.map((e) => e.manifest),
    [i.implicit[1]!.path],
  );
  const modern = explain({ ...i, version: '1.4.341' });
  assert.deepEqual(
    modern.chain.map((e) => e.manifest),
    [i.implicit[2]!.path],
  );
  assert.match(reasonsOf(modern, 'A').join('\n'), /duplicate\/shadowed: removed from the loader's layer list as a duplicate/);
});

test('filter-whole-wildcards (1.4.359): "**" disables every layer and "v*" is a prefix', () => {
  const i = { explicit: [explicit('VK_LAYER_A')], requested: ['VK_LAYER_A'] };
  for (const value of ['**', 'v*']) {
    assert.equal(explain({ ...i, env: { VK_LOADER_LAYERS_DISABLE: value }, version: '1.4.341' }).result, 'VK_SUCCESS', value);
    assert.equal(explain({ ...i, env: { VK_LOADER_LAYERS_DISABLE: value }, version: '1.4.359' }).result, 'VK_ERROR_LAYER_NOT_PRESENT', value);
  }
});

test('parsed manifests are reused between calls, but an array or a manifest changed in place is read again', () => {
  const explicitSet = [explicit('X')];
  assertChain(explain({ explicit: explicitSet, requested: ['X'] }), ['X']);
  explicitSet.push(explicit('Y'));
  assertChain(explain({ explicit: explicitSet, requested: ['X', 'Y'] }), ['X', 'Y']);
  const m = explicitSet[1]!;
  m.text = m.text!.replace('"name":"Y"', '"name":"Z"');
  assertChain(explain({ explicit: explicitSet, requested: ['X', 'Z'] }), ['X', 'Z']);
});

// ---- vk_loader_settings.json (settings-chain.ts; the matrix proves it on 1.4.309–1.4.359) ----

const entry = (m: ChainManifest, control: string, extra: Record<string, unknown> = {}) => ({
  control,
  name: JSON.parse(m.text!).layer.name as string,
  path: m.path,
  treat_as_implicit_manifest: m.kind === 'implicit_layer',
  ...extra,
});
const settingsFile = (...layers: unknown[]) => ({ file_format_version: '1.0.0', settings_array: [{ layers }] });

test('settings file: its layers in its order, "on" whatever else says, "off" refused to the application, the others at the unordered location', () => {
  const a = implicit('A');
  const b = explicit('B');
  const c = explicit('C');
  const d = implicit('D', { enable_environment: { ENABLE_D: '1' } });
  const chain = explain({
    implicit: [a, d],
    explicit: [b, c],
    requested: ['C'],
    version: '1.4.359',
    settings: settingsFile(entry(b, 'on'), { control: 'unordered_layer_location' }, entry(a, 'auto'), entry(d, 'auto')),
  });
  assertChain(chain, ['B', 'C', 'A']);
  assert.match(reasonsOf(chain, 'B').join('\n'), /settings\/on: turned on by .*vk_loader_settings\.json \(the global entry \(settings_array\[0\]\)\)/);
  assert.match(reasonsOf(chain, 'C').join('\n'), /settings\/order: placed at the unordered_layer_location/);
  assert.match(reasonsOf(chain, 'A').join('\n'), /settings\/superseded/, 'the discovered A is replaced by the listed one');
  assert.match(reasonsOf(chain, 'D').join('\n'), /implicit\/not-enabled[\s\S]*settings\/auto/);
  assert.equal(chain.settingsFile, SETTINGS_FILE);

  const off = explain({
    explicit: [b, c],
    requested: ['B'],
    version: '1.4.359',
    settings: settingsFile(entry(b, 'off'), { control: 'unordered_layer_location' }),
  });
  assert.equal(off.result, 'VK_ERROR_LAYER_NOT_PRESENT');
  assert.match(reasonsOf(off, 'B').join('\n'), /settings\/off: requested by the application, but .* turns it off/);
});

test('settings file: without an unordered location only its layers count; a wrong name or a missing manifest is left out', () => {
  const a = implicit('A');
  const b = explicit('B');
  const other = explicit('OTHER');
  const chain = explain({
    implicit: [a],
    explicit: [b],
    version: '1.4.359',
    settings: settingsFile(entry(b, 'on'), { ...entry(other, 'on'), name: 'NOT_OTHER' }, { control: 'on', name: 'GONE', path: '/nowhere/gone.json' }),
    settingsOnly: [other],
  });
  assertChain(chain, ['B']);
  assert.match(reasonsOf(chain, 'A').join('\n'), /settings\/not-listed/);
  assert.match(reasonsOf(chain, 'OTHER').join('\n'), /settings\/name-mismatch/);
  assert.match(reasonsOf(chain, 'GONE').join('\n'), /settings\/manifest-unusable: .*no file there/);
  assert.equal(chain.result, 'VK_SUCCESS');
});

test('settings file versions: the last matching entry before 1.4.303; no "layers" empties the chain 1.4.309–1.4.335; a layer after its own "off" entry crashes before 1.4.326', () => {
  const b = explicit('B');
  const c = explicit('C');
  const twoEntries = {
    file_format_version: '1.0.0',
    settings_array: [
      { app_keys: [APP], layers: [entry(b, 'on')] },
      { app_keys: [APP], layers: [entry(c, 'on')] },
    ],
  };
  assertChain(explain({ explicit: [b, c], version: '1.3.275', settings: twoEntries }), ['C']);
  assertChain(explain({ explicit: [b, c], version: '1.4.309', settings: twoEntries }), ['B']);

  const noLayers = { file_format_version: '1.0.0', settings: { stderr_log: ['error'] } };
  const i = { explicit: [b], requested: ['B'], settings: noLayers };
  assert.equal(explain({ ...i, version: '1.3.275' }).result, 'VK_SUCCESS', 'ignored: "layers" is required');
  assert.equal(explain({ ...i, version: '1.4.321' }).result, 'VK_ERROR_LAYER_NOT_PRESENT', 'active with no layers at all');
  assertChain(explain({ ...i, version: '1.4.341' }), ['B']);

  const offThenOn = settingsFile(entry(b, 'off'), entry(b, 'on'));
  assert.equal(explain({ explicit: [b], version: '1.4.321', settings: offThenOn }).result, 'LOADER_CRASH');
  assert.match(explain({ explicit: [b], version: '1.4.321', settings: offThenOn }).notes.join('\n'), /crashes \(or hangs\)/);
  assert.equal(explain({ explicit: [b], version: '1.4.341', settings: offThenOn }).result, 'VK_SUCCESS');
});

// Codes in the schema that the model does not produce (kept for stable JSON consumers).
const NOT_PRODUCED = new Set<ChainReasonCode>(['meta/component', 'override/paths']);

test('every reason code the model gives is produced by a test above (tests run in order)', () => {
  const untested = ChainReasonCodeSchema.options.filter((code) => !seen.has(code) && !NOT_PRODUCED.has(code));
  assert.deepEqual(untested, [], `reason codes no unit test produced: ${untested.join(', ')}`);
});

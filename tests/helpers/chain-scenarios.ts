import { seededRandom } from './seeded-random';

/**
 * Seeded layer-chain scenarios for tests/integration/chain-vs-loader.test.ts: implicit and explicit
 * recording layers in several search folders, enable/disable variables, VK_INSTANCE_LAYERS, requested
 * layers, meta-layers (nested too), the override layer (components, blacklist, app_keys, override_paths),
 * duplicate names across folders, and in about half of them VK_LOADER_LAYERS_ENABLE / _DISABLE
 * (globs, ~all~ / ~implicit~ / ~explicit~, both together, against all of the above). Paths are written with placeholders the test fills in:
 * `$HOME` (the scenario's temp HOME), `$APP` (the probe's path), `$LIB` (the library copy for the manifest).
 */

/** Folders relative to the scenario's HOME; the test sets XDG_DATA_DIRS to $HOME/data-dirs. */
export const FOLDERS = {
  'config-implicit': '.config/vulkan/implicit_layer.d',
  'data-implicit': '.local/share/vulkan/implicit_layer.d',
  'sys-implicit': 'data-dirs/vulkan/implicit_layer.d',
  'config-explicit': '.config/vulkan/explicit_layer.d',
  'sys-explicit': 'data-dirs/vulkan/explicit_layer.d',
  'layer-path-0': 'layer-path-0',
  'layer-path-1': 'layer-path-1',
  override: 'override-paths',
  /** Manifests only a settings file names (no search path covers this folder). */
  'settings-only': 'settings-layers',
} as const;
export type Folder = keyof typeof FOLDERS;

/** Layers with a library: each is built once as a recording layer. */
export const RECORDING_LAYERS = [
  'VK_LAYER_STRATA_a',
  'VK_LAYER_STRATA_b',
  'VK_LAYER_STRATA_c',
  'VK_LAYER_STRATA_d',
  'VK_LAYER_STRATA_e',
  'VK_LAYER_STRATA_f',
] as const;
const METAS = ['VK_LAYER_STRATA_meta1', 'VK_LAYER_STRATA_meta2'];
const MISSING = 'VK_LAYER_STRATA_missing';
const OVERRIDE = 'VK_LAYER_LUNARG_override';

export interface ScenarioManifest {
  folder: Folder;
  file: string;
  /** The manifest's "layer" object; library_path "$LIB" means a copy of the recording layer of that name. */
  layer: Record<string, unknown>;
  /**
   * More layers in the same file: the manifest is written with a "layers" array (file format 1.0.1)
   * holding `layer` at index `at` among these (settings-multi-layer-manifests, 1.4.347).
   */
  extraLayers?: { at: number; layers: Record<string, unknown>[] };
}

/** The manifest file's JSON ("layer", or "layers" when it has several), placeholders left in. */
export function manifestJson(m: ScenarioManifest): Record<string, unknown> {
  if (!m.extraLayers) return { file_format_version: '1.2.0', layer: m.layer };
  const layers = [...m.extraLayers.layers];
  layers.splice(m.extraLayers.at, 0, m.layer);
  return { file_format_version: '1.2.0', layers };
}

/** Every layer object of the manifest, in file order. */
export function manifestLayers(m: ScenarioManifest): Record<string, unknown>[] {
  const json = manifestJson(m);
  return (json['layers'] as Record<string, unknown>[] | undefined) ?? [m.layer];
}

export interface Scenario {
  /** The seed, or 0 for a pinned (hand-written) scenario. */
  seed: number;
  /** What a pinned scenario pins down. */
  title?: string;
  manifests: ScenarioManifest[];
  /** Variables to set ("" included); VK_LAYER_PATH uses $HOME. */
  env: Record<string, string>;
  requested: string[];
  apiVersion: string;
  /** A vk_loader_settings.json for the scenario (the test writes it where the loader looks). */
  settings?: SettingsFileScenario;
}

/** A layer entry of the settings file; `ref` names a manifest of the scenario (the test writes its absolute path). */
export interface SettingsLayerScenario {
  control: 'on' | 'off' | 'auto' | 'unordered_layer_location';
  name?: string;
  ref?: { folder: Folder; file: string };
  treat_as_implicit_manifest?: boolean;
}
export interface SettingsFileScenario {
  /** "settings_array", or the single "settings" object (the first entry). */
  form: 'array' | 'single';
  entries: { app_keys?: string[]; layers?: SettingsLayerScenario[]; stderr_log?: string[] }[];
}

/** The settings file's JSON, with $HOME / $APP placeholders. */
export function settingsFileJson(s: SettingsFileScenario): unknown {
  const entry = (e: SettingsFileScenario['entries'][number]) => ({
    ...(e.app_keys ? { app_keys: e.app_keys } : {}),
    ...(e.stderr_log ? { stderr_log: e.stderr_log } : {}),
    ...(e.layers
      ? {
          layers: e.layers.map((l) => ({
            control: l.control,
            ...(l.name !== undefined ? { name: l.name } : {}),
            ...(l.ref ? { path: `$HOME/${FOLDERS[l.ref.folder]}/${l.ref.file}` } : {}),
            ...(l.treat_as_implicit_manifest !== undefined ? { treat_as_implicit_manifest: l.treat_as_implicit_manifest } : {}),
          })),
        }
      : {}),
  });
  return s.form === 'single'
    ? { file_format_version: '1.0.0', settings: entry(s.entries[0]!) }
    : { file_format_version: '1.0.0', settings_array: s.entries.map(entry) };
}

export function makeScenario(seed: number): Scenario {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const chance = (p: number) => rnd() < p;
  const some = <T>(xs: readonly T[], max: number): T[] => {
    const pool = [...xs];
    const out: T[] = [];
    const n = Math.floor(rnd() * (max + 1));
    while (out.length < n && pool.length) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]!);
    return out;
  };
  const api = () => pick(['1.0.0', '1.1.0', '1.3.0']);
  const env: Record<string, string> = {};
  const manifests: ScenarioManifest[] = [];
  let fileNo = 0;
  const file = () => `m${fileNo++}-${Math.floor(rnd() * 1e6).toString(36)}.json`;

  const useLayerPath = chance(0.5);
  if (useLayerPath) env['VK_LAYER_PATH'] = '$HOME/layer-path-0:$HOME/layer-path-1';
  const explicitFolders: Folder[] = useLayerPath ? ['layer-path-0', 'layer-path-1'] : ['config-explicit', 'sys-explicit'];
  const implicitFolders: Folder[] = ['config-implicit', 'data-implicit', 'sys-implicit'];

  const names = [...RECORDING_LAYERS].sort(() => rnd() - 0.5);
  const implicitNames = names.slice(0, Math.floor(rnd() * 3));
  const explicitNames = names.slice(implicitNames.length, implicitNames.length + 1 + Math.floor(rnd() * 3));
  const suffix = (n: string) => n.replace('VK_LAYER_STRATA_', '').toUpperCase();

  const implicitLayer = (name: string): Record<string, unknown> => {
    const layer: Record<string, unknown> = {
      name,
      type: 'GLOBAL',
      library_path: '$LIB',
      api_version: api(),
      implementation_version: '1',
      description: 'recording layer',
      disable_environment: { [`DISABLE_${suffix(name)}`]: '1' },
    };
    if (chance(0.35)) {
      layer['enable_environment'] = { [`ENABLE_${suffix(name)}`]: '1' };
      if (chance(0.6)) env[`ENABLE_${suffix(name)}`] = '1';
      else if (chance(0.4)) env[`ENABLE_${suffix(name)}`] = '0';
    }
    if (chance(0.25)) env[`DISABLE_${suffix(name)}`] = pick(['1', '', 'yes']);
    return layer;
  };
  const explicitLayer = (name: string): Record<string, unknown> => ({
    name,
    type: pick(['GLOBAL', 'INSTANCE']),
    library_path: '$LIB',
    api_version: api(),
    implementation_version: '1',
    description: 'recording layer',
  });

  for (const n of implicitNames) manifests.push({ folder: pick(implicitFolders), file: file(), layer: implicitLayer(n) });
  for (const n of explicitNames) manifests.push({ folder: pick(explicitFolders), file: file(), layer: explicitLayer(n) });
  // Duplicates: the same name again, in another (or the same) folder of either kind.
  for (const n of [...implicitNames, ...explicitNames]) {
    if (!chance(0.2)) continue;
    const asImplicit = chance(0.4);
    manifests.push({ folder: pick(asImplicit ? implicitFolders : explicitFolders), file: file(), layer: asImplicit ? implicitLayer(n) : explicitLayer(n) });
  }

  const known = [...implicitNames, ...explicitNames];
  const metaNames: string[] = [];
  for (const meta of METAS) {
    if (!chance(0.3)) continue;
    const pool = [...known, ...metaNames, ...(chance(0.1) ? [MISSING] : [])];
    const components = some(pool, 3);
    if (components.length === 0 && pool.length) components.push(pick(pool));
    const implicit = chance(0.35);
    const layer: Record<string, unknown> = {
      name: meta,
      type: 'GLOBAL',
      api_version: pick(['1.0.0', '1.0.0', '1.3.0']),
      implementation_version: '1',
      description: 'meta',
      component_layers: components,
    };
    if (implicit) layer['disable_environment'] = { [`DISABLE_${suffix(meta)}`]: '1' };
    if (implicit && chance(0.2)) env[`DISABLE_${suffix(meta)}`] = '1';
    manifests.push({ folder: pick(implicit ? implicitFolders : explicitFolders), file: file(), layer });
    metaNames.push(meta);
  }

  if (chance(0.4)) {
    const layer: Record<string, unknown> = {
      name: OVERRIDE,
      type: 'GLOBAL',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'override',
      disable_environment: { DISABLE_OVERRIDE: '1' },
    };
    const pool = [...known, ...metaNames, ...(chance(0.08) ? [MISSING] : [])];
    layer['component_layers'] = some(pool, 2);
    if (chance(0.5)) layer['blacklisted_layers'] = some([...known, ...metaNames], 2);
    const keys = rnd();
    if (keys < 0.35) layer['app_keys'] = ['$APP'];
    else if (keys < 0.55) layer['app_keys'] = ['/usr/bin/some-other-app'];
    else if (keys < 0.65) layer['app_keys'] = ['/usr/bin/some-other-app', '$APP'];
    if (chance(0.35)) {
      layer['override_paths'] = ['$HOME/override-paths'];
      for (const n of explicitNames) if (chance(0.6)) manifests.push({ folder: 'override', file: file(), layer: explicitLayer(n) });
    }
    if (chance(0.1)) env['DISABLE_OVERRIDE'] = '1';
    manifests.push({ folder: pick(implicitFolders), file: file(), layer });
  }

  if (chance(0.3)) env['VK_INSTANCE_LAYERS'] = some([...explicitNames, ...metaNames, ...implicitNames, MISSING], 3).join(':');
  const requestable = [...explicitNames, ...metaNames, ...(chance(0.3) ? implicitNames : [])];
  const requested = some(requestable, 3);
  if (chance(0.08)) requested.push(MISSING);
  if (chance(0.1) && requested.length) requested.push(requested[0]!);
  const apiVersion = pick(['1.0', '1.1', '1.3']);

  // Drawn last, so the scenarios above stay what they were before the filters came.
  const filterNames = [...known, ...metaNames, ...(manifests.some((m) => m.layer['name'] === OVERRIDE) ? [OVERRIDE] : [])];
  const filter = () => filterValue(rnd, filterNames);
  const which = rnd();
  if (which < 0.2) env['VK_LOADER_LAYERS_DISABLE'] = filter();
  else if (which < 0.35) env['VK_LOADER_LAYERS_ENABLE'] = filter();
  else if (which < 0.5) {
    env['VK_LOADER_LAYERS_DISABLE'] = chance(0.5) ? pick(['~all~', '~implicit~', '~explicit~', '*strata*', 'VK_LAYER_STRATA_*']) : filter();
    env['VK_LOADER_LAYERS_ENABLE'] = chance(0.5) ? pick(filterNames) : filter();
  }
  if (chance(0.05)) env['VK_LOADER_DISABLE_INST_EXT_FILTER'] = pick(['1', '0']);
  // VK_LOADER_LAYERS_ALLOW (1.3.262+) mostly where something is disabled; drawn after everything else.
  if (chance(env['VK_LOADER_LAYERS_DISABLE'] !== undefined ? 0.45 : 0.05)) env['VK_LOADER_LAYERS_ALLOW'] = filter();
  // A loader settings file (vkconfig 3 writes one per user), drawn after everything else.
  const settings = chance(0.4) ? makeSettingsFile(rnd, manifests, implicitLayer, explicitLayer, file) : undefined;
  // A manifest with several layers ("layers") that a settings entry names, drawn last of all.
  if (settings && chance(0.35)) addLayersToNamedManifest(rnd, settings, manifests, implicitLayer, explicitLayer);
  return { seed, manifests, env, requested, apiVersion, ...(settings ? { settings } : {}) };
}

/**
 * A settings file over the scenario's manifests: one to three entries (global, for this application,
 * for another one), each listing some layers on / off / auto with their manifest paths, sometimes an
 * unordered_layer_location, a manifest no search path reaches, a wrong name or kind, no "layers" or
 * an empty list.
 */
function makeSettingsFile(
  rnd: () => number,
  manifests: ScenarioManifest[],
  implicitLayer: (name: string) => Record<string, unknown>,
  explicitLayer: (name: string) => Record<string, unknown>,
  file: () => string,
): SettingsFileScenario {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const chance = (p: number) => rnd() < p;
  // Manifests only the settings file names: a recording layer of any name, implicit or explicit.
  for (let i = Math.floor(rnd() * 3); i > 0; i--) {
    const name = pick(RECORDING_LAYERS);
    manifests.push({ folder: 'settings-only', file: file(), layer: chance(0.4) ? implicitLayer(name) : explicitLayer(name) });
  }
  const listed = manifests.filter((m) => m.layer['name'] !== OVERRIDE || chance(0.5));
  const layers = (): SettingsLayerScenario[] | undefined => {
    const r = rnd();
    if (r < 0.07) return undefined;
    if (r < 0.12) return [];
    const out: SettingsLayerScenario[] = [];
    const pool = [...listed].sort(() => rnd() - 0.5).slice(0, 1 + Math.floor(rnd() * 4));
    for (const m of pool) {
      const implicit = m.folder.endsWith('implicit') || m.layer['disable_environment'] !== undefined;
      out.push({
        control: pick(['on', 'on', 'off', 'auto', 'auto'] as const),
        name: chance(0.94) ? String(m.layer['name']) : pick(RECORDING_LAYERS),
        ref: { folder: m.folder, file: m.file },
        treat_as_implicit_manifest: chance(0.9) ? implicit : !implicit,
      });
    }
    if (chance(0.7)) out.splice(Math.floor(rnd() * (out.length + 1)), 0, { control: 'unordered_layer_location' });
    return out;
  };
  const entries: SettingsFileScenario['entries'] = [];
  for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
    const k = rnd();
    const app_keys = k < 0.4 ? undefined : k < 0.75 ? ['$APP'] : k < 0.9 ? ['/usr/bin/some-other-app'] : ['/usr/bin/some-other-app', '$APP'];
    const l = layers();
    entries.push({ ...(app_keys ? { app_keys } : {}), ...(l ? { layers: l } : { stderr_log: ['error'] }) });
  }
  return { form: chance(0.85) ? 'array' : 'single', entries };
}

/**
 * Turns one recording-layer manifest a settings entry names into a manifest of 2–3 layers: the named
 * layer first, last or between, and recording layers of other (sometimes the same) names, implicit
 * or explicit like the manifest. Loaders before 1.4.347 check only the manifest's last layer against
 * the entry; later ones check every layer (settings-multi-layer-manifests).
 */
function addLayersToNamedManifest(
  rnd: () => number,
  settings: SettingsFileScenario,
  manifests: ScenarioManifest[],
  implicitLayer: (name: string) => Record<string, unknown>,
  explicitLayer: (name: string) => Record<string, unknown>,
): void {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const refs = settings.entries.flatMap((e) => e.layers ?? []).flatMap((l) => (l.ref ? [l.ref] : []));
  const named = manifests.filter((m) => m.layer['library_path'] === '$LIB' && refs.some((r) => r.folder === m.folder && r.file === m.file));
  if (named.length === 0) return;
  const m = pick(named);
  const implicit = m.layer['disable_environment'] !== undefined;
  const layers = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => {
    const name = rnd() < 0.15 ? String(m.layer['name']) : pick(RECORDING_LAYERS.filter((n) => n !== m.layer['name']));
    return implicit ? implicitLayer(name) : explicitLayer(name);
  });
  m.extraLayers = { at: Math.floor(rnd() * (layers.length + 1)), layers };
}

/**
 * A VK_LOADER_LAYERS_ENABLE / _DISABLE value: 1–3 comma-separated items over the scenario's names,
 * in any case: full names, prefix/suffix/substring globs, ~all~ / ~implicit~ / ~explicit~, and the
 * items loader 1.3.239 reads oddly ("**", two-character "v*", an unknown ~special~, spaces).
 */
function filterValue(rnd: () => number, names: readonly string[]): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const cased = (s: string) => pick([s, s, s.toUpperCase(), s.toLowerCase()]);
  const name = () => (names.length ? pick(names) : 'VK_LAYER_STRATA_a');
  const item = (): string => {
    const r = rnd();
    const n = name();
    if (r < 0.3) return cased(n);
    if (r < 0.42) return `${cased(n.slice(0, 3 + Math.floor(rnd() * (n.length - 3))))}*`;
    if (r < 0.52) return `*${cased(n.slice(n.length - 1 - Math.floor(rnd() * 4)))}`;
    if (r < 0.62) {
      const from = Math.floor(rnd() * (n.length - 2));
      return `*${cased(n.slice(from, from + 1 + Math.floor(rnd() * 5)))}*`;
    }
    if (r < 0.72) return pick(['VK_LAYER_STRATA_meta*', '*meta*', '*override*', 'VK_LAYER_LUNARG_*', '*_a', '*strata_b*']);
    if (r < 0.9) return pick(['~all~', '~ALL~', '~implicit~', '~explicit~', '*', '**']);
    return pick(['v*', '~bogus~', ` ${n}`, `${n} `]);
  };
  const count = 1 + Math.floor(rnd() * 3);
  const out = Array.from({ length: count }, item);
  if (rnd() < 0.1) out.push('');
  return out.join(',');
}

/**
 * Hand-written scenarios for loader 1.3.239 behaviour a random draw rarely reaches; they run with
 * the seeded ones against the real loader.
 */
export function pinnedScenarios(): Scenario[] {
  const explicit = (name: string): ScenarioManifest => ({
    folder: 'layer-path-0',
    file: `${name}.json`,
    layer: { name, type: 'GLOBAL', library_path: '$LIB', api_version: '1.3.0', implementation_version: '1', description: 'recording layer' },
  });
  const implicit = (name: string, extra: Record<string, unknown> = {}): ScenarioManifest => ({
    folder: 'config-implicit',
    file: `${name}.json`,
    layer: {
      name,
      type: 'GLOBAL',
      library_path: '$LIB',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'recording layer',
      disable_environment: { [`DISABLE_${name}`]: '1' },
      ...extra,
    },
  });
  const meta = (name: string, components: string[]): ScenarioManifest => ({
    folder: 'layer-path-0',
    file: `${name}.json`,
    layer: { name, type: 'GLOBAL', api_version: '1.0.0', implementation_version: '1', description: 'meta', component_layers: components },
  });
  const [a, b, c, d] = RECORDING_LAYERS;
  const [meta1, meta2] = METAS as [string, string];
  const layerPath = { VK_LAYER_PATH: '$HOME/layer-path-0' };
  const base = { seed: 0, apiVersion: '1.0' };
  return [
    {
      ...base,
      title: "a nested meta-layer's missing component does not make the outer one incomplete, so the app's request for it is skipped",
      manifests: [explicit(a), explicit(b), explicit(c), meta(meta1, [a, b]), meta(meta2, [meta1])],
      env: { ...layerPath, VK_INSTANCE_LAYERS: meta2, VK_LOADER_LAYERS_DISABLE: b },
      requested: [c, meta2],
    },
    {
      ...base,
      title: 'ENABLE turns on an implicit layer without its enable_environment, not one whose disable_environment is set; ~implicit~ yields to ENABLE',
      manifests: [implicit(a, { enable_environment: { ENABLE_A: '1' } }), implicit(b), implicit(c), explicit(d)],
      env: { ...layerPath, VK_LOADER_LAYERS_DISABLE: '~implicit~', VK_LOADER_LAYERS_ENABLE: `${a.toUpperCase()},*strata_b,*_d`, [`DISABLE_${b}`]: '' },
      requested: [],
    },
    {
      ...base,
      title: '"**", the two-character "v*", an unknown ~special~ and an item with a space disable nothing',
      manifests: [implicit(a), explicit(b), explicit(c)],
      env: { ...layerPath, VK_LOADER_LAYERS_DISABLE: `**,v*,~bogus~, ${a},${b} ` },
      requested: [b, c],
    },
    {
      ...base,
      title: 'the override layer disabled by a filter: its components are not forced on and its blacklist does not apply',
      manifests: [
        implicit(a, { enable_environment: { ENABLE_A: '1' } }),
        explicit(b),
        {
          folder: 'data-implicit',
          file: 'override.json',
          layer: {
            name: OVERRIDE,
            type: 'GLOBAL',
            api_version: '1.3.0',
            implementation_version: '1',
            description: 'override',
            disable_environment: { DISABLE_OVERRIDE: '1' },
            component_layers: [a],
            blacklisted_layers: [b],
          },
        },
      ],
      env: { ...layerPath, VK_LOADER_LAYERS_DISABLE: '*LUNARG_over*' },
      requested: [b],
    },
    {
      ...base,
      title: 'the loader reads 16 name filters and stops: a ~implicit~ or a name after them does nothing',
      manifests: [implicit(a), explicit(b)],
      env: { ...layerPath, VK_LOADER_LAYERS_DISABLE: [...Array.from({ length: 16 }, (_, i) => `VK_LAYER_NONE_${i}`), '~implicit~', b].join(',') },
      requested: [b],
    },
    {
      ...base,
      title: 'VK_INSTANCE_LAYERS names implicit layers: 1.3.247+ adds one whose enable_environment is unset, 1.4.326+ places them in its order',
      manifests: [implicit(a), implicit(b, { enable_environment: { ENABLE_B: '1' } }), explicit(c)],
      env: { ...layerPath, VK_INSTANCE_LAYERS: `${c}:${b}:${a}` },
      requested: [],
    },
    {
      ...base,
      title: 'an implicit layer whose name occurs only inside a longer VK_INSTANCE_LAYERS name is dropped by 1.4.326+',
      manifests: [implicit(a), explicit(c)],
      env: { ...layerPath, VK_INSTANCE_LAYERS: `${a}_longer:${c}` },
      requested: [],
    },
    {
      ...base,
      title: 'three implicit copies of one name (off, on, on): 1.3.239 keeps the last, 1.3.247+ the first enabled, 1.4.340+ drops the second copy',
      manifests: [
        { ...implicit(a, { enable_environment: { ENABLE_A1: '1' } }), folder: 'config-implicit', file: 'a1.json' },
        { ...implicit(a), folder: 'data-implicit', file: 'a2.json' },
        { ...implicit(a), folder: 'sys-implicit', file: 'a3.json' },
        explicit(b),
      ],
      env: { ...layerPath },
      requested: [b],
    },
    {
      ...base,
      title: "two override layers survive app_keys with override_paths: 1.3.239 searches the last one's paths, 1.3.251+ the first one's",
      manifests: [
        {
          folder: 'config-implicit',
          file: 'override-1.json',
          layer: {
            name: OVERRIDE,
            type: 'GLOBAL',
            api_version: '1.3.0',
            implementation_version: '1',
            description: 'override',
            disable_environment: { DISABLE_OVERRIDE: '1' },
            component_layers: [],
            app_keys: ['$APP'],
            override_paths: ['$HOME/override-paths'],
          },
        },
        {
          folder: 'data-implicit',
          file: 'override-2.json',
          layer: {
            name: OVERRIDE,
            type: 'GLOBAL',
            api_version: '1.3.0',
            implementation_version: '1',
            description: 'override',
            disable_environment: { DISABLE_OVERRIDE: '1' },
            component_layers: [],
            app_keys: ['/usr/bin/some-other-app'],
            override_paths: ['$HOME/layer-path-1'],
          },
        },
        { ...explicit(b), folder: 'override' },
        { ...explicit(c), folder: 'layer-path-1' },
      ],
      env: {},
      requested: [b],
    },
    {
      ...base,
      title: 'VK_LOADER_LAYERS_ALLOW exempts layers from ~all~ (1.3.262+)',
      manifests: [implicit(a), explicit(b), explicit(c)],
      env: { ...layerPath, VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: `*strata_a,${b}` },
      requested: [b],
    },
    {
      ...base,
      title:
        "a settings file another tool wrote (vkconfig 3's shape): this application's entry turns b on and the override off, the other layers go to the unordered location",
      manifests: [
        implicit(a),
        explicit(b),
        explicit(c),
        {
          folder: 'data-implicit',
          file: 'override.json',
          layer: {
            name: OVERRIDE,
            type: 'GLOBAL',
            api_version: '1.3.0',
            implementation_version: '1',
            description: 'override',
            disable_environment: { DISABLE_OVERRIDE: '1' },
            component_layers: [c],
          },
        },
      ],
      env: { ...layerPath },
      requested: [c],
      settings: {
        form: 'array',
        entries: [
          { layers: [{ control: 'off', name: b, ref: { folder: 'layer-path-0', file: `${b}.json` }, treat_as_implicit_manifest: false }] },
          {
            app_keys: ['$APP'],
            layers: [
              { control: 'on', name: b, ref: { folder: 'layer-path-0', file: `${b}.json` }, treat_as_implicit_manifest: false },
              { control: 'off', name: OVERRIDE, ref: { folder: 'data-implicit', file: 'override.json' }, treat_as_implicit_manifest: true },
              { control: 'unordered_layer_location' },
            ],
          },
        ],
      },
    },
    {
      ...base,
      title: 'a settings file that lists a layer after its own "off" entry: loaders 1.3.302–1.4.325 crash, the others use the "off"',
      manifests: [explicit(a), explicit(b)],
      env: { ...layerPath },
      requested: [a],
      settings: {
        form: 'single',
        entries: [
          {
            layers: [
              { control: 'off', name: b, ref: { folder: 'layer-path-0', file: `${b}.json` }, treat_as_implicit_manifest: false },
              { control: 'on', name: b, ref: { folder: 'layer-path-0', file: `${b}.json` }, treat_as_implicit_manifest: false },
              { control: 'auto', name: a, ref: { folder: 'layer-path-0', file: `${a}.json` }, treat_as_implicit_manifest: false },
            ],
          },
        ],
      },
    },
    {
      ...base,
      title: "a meta-layer's component the application already enabled: 1.3.239 adds it again (the copy nearest the driver wins), 1.3.251+ keeps the first",
      manifests: [explicit(a), explicit(b), meta(meta1, [a, b])],
      env: { ...layerPath },
      requested: [b, meta1],
    },
    {
      ...base,
      apiVersion: '1.3',
      title:
        'a settings file turns on a meta-layer and turns its component off: 1.4.309–1.4.323 fail with VK_ERROR_INITIALIZATION_FAILED for an API 1.3 application, 1.4.324+ crash',
      manifests: [explicit(a), explicit(b), meta(meta1, [a, b])],
      env: { ...layerPath },
      requested: [],
      settings: {
        form: 'array',
        entries: [
          {
            layers: [
              { control: 'on', name: meta1, ref: { folder: 'layer-path-0', file: `${meta1}.json` }, treat_as_implicit_manifest: false },
              { control: 'off', name: a, ref: { folder: 'layer-path-0', file: `${a}.json` }, treat_as_implicit_manifest: false },
              { control: 'auto', name: b, ref: { folder: 'layer-path-0', file: `${b}.json` }, treat_as_implicit_manifest: false },
            ],
          },
        ],
      },
    },
    {
      ...base,
      title: 'a requested layer that DISABLE removes is missing: VK_ERROR_LAYER_NOT_PRESENT',
      manifests: [explicit(a), explicit(b)],
      env: { ...layerPath, VK_LOADER_LAYERS_DISABLE: '~explicit~', VK_LOADER_LAYERS_ENABLE: b },
      requested: [b, a],
    },
  ];
}

/** A one-screen account of a scenario, for failure messages. */
export function describeScenario(s: Scenario): string {
  const lines = [
    `${s.title ? `pinned: ${s.title}` : `seed ${s.seed}`}: app apiVersion ${s.apiVersion}, requests [${s.requested.join(', ')}]`,
    `env ${JSON.stringify(s.env)}`,
  ];
  for (const m of s.manifests) lines.push(`  ${FOLDERS[m.folder]}/${m.file}: ${JSON.stringify(m.extraLayers ? manifestLayers(m) : m.layer)}`);
  if (s.settings) lines.push(`  vk_loader_settings.json: ${JSON.stringify(settingsFileJson(s.settings))}`);
  return lines.join('\n');
}

import { seededRandom } from './seeded-random';

/**
 * Seeded layer-chain scenarios for tests/integration/chain-vs-loader.test.ts: implicit and explicit
 * recording layers in several search folders, enable/disable variables, VK_INSTANCE_LAYERS, requested
 * layers, meta-layers (nested too), the override layer (components, blacklist, app_keys, override_paths)
 * and duplicate names across folders. Paths are written with placeholders the test fills in:
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
} as const;
export type Folder = keyof typeof FOLDERS;

/** Layers with a library: each is built once as a recording layer. */
export const RECORDING_LAYERS = ['VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_b', 'VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_d', 'VK_LAYER_STRATA_e', 'VK_LAYER_STRATA_f'] as const;
const METAS = ['VK_LAYER_STRATA_meta1', 'VK_LAYER_STRATA_meta2'];
const MISSING = 'VK_LAYER_STRATA_missing';
const OVERRIDE = 'VK_LAYER_LUNARG_override';

export interface ScenarioManifest {
  folder: Folder;
  file: string;
  /** The manifest's "layer" object; library_path "$LIB" means a copy of the recording layer of that name. */
  layer: Record<string, unknown>;
}

export interface Scenario {
  seed: number;
  manifests: ScenarioManifest[];
  /** Variables to set ("" included); VK_LAYER_PATH uses $HOME. */
  env: Record<string, string>;
  requested: string[];
  apiVersion: string;
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
    const layer: Record<string, unknown> = { name, type: 'GLOBAL', library_path: '$LIB', api_version: api(), implementation_version: '1', description: 'recording layer', disable_environment: { [`DISABLE_${suffix(name)}`]: '1' } };
    if (chance(0.35)) {
      layer['enable_environment'] = { [`ENABLE_${suffix(name)}`]: '1' };
      if (chance(0.6)) env[`ENABLE_${suffix(name)}`] = '1';
      else if (chance(0.4)) env[`ENABLE_${suffix(name)}`] = '0';
    }
    if (chance(0.25)) env[`DISABLE_${suffix(name)}`] = pick(['1', '', 'yes']);
    return layer;
  };
  const explicitLayer = (name: string): Record<string, unknown> => ({ name, type: pick(['GLOBAL', 'INSTANCE']), library_path: '$LIB', api_version: api(), implementation_version: '1', description: 'recording layer' });

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
    const layer: Record<string, unknown> = { name: meta, type: 'GLOBAL', api_version: pick(['1.0.0', '1.0.0', '1.3.0']), implementation_version: '1', description: 'meta', component_layers: components };
    if (implicit) layer['disable_environment'] = { [`DISABLE_${suffix(meta)}`]: '1' };
    if (implicit && chance(0.2)) env[`DISABLE_${suffix(meta)}`] = '1';
    manifests.push({ folder: pick(implicit ? implicitFolders : explicitFolders), file: file(), layer });
    metaNames.push(meta);
  }

  if (chance(0.4)) {
    const layer: Record<string, unknown> = { name: OVERRIDE, type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'override', disable_environment: { DISABLE_OVERRIDE: '1' } };
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
  return { seed, manifests, env, requested, apiVersion: pick(['1.0', '1.1', '1.3']) };
}

/** A one-screen account of a scenario, for failure messages. */
export function describeScenario(s: Scenario): string {
  const lines = [`seed ${s.seed}: app apiVersion ${s.apiVersion}, requests [${s.requested.join(', ')}]`, `env ${JSON.stringify(s.env)}`];
  for (const m of s.manifests) lines.push(`  ${FOLDERS[m.folder]}/${m.file}: ${JSON.stringify(m.layer)}`);
  return lines.join('\n');
}

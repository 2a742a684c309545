import { z } from 'zod';
import type { DiscoveredManifest } from '../discovery/manifest-inventory';
import { parseManifest } from '../manifest/manifest-parser';
import type { LayerEntry } from '../manifest/manifest-model';
import type { Environment } from './xdg-directories';

/**
 * The effective instance layer chain: which layers the loader puts between the application and the
 * driver, in which order, and why each layer is in or out. Pure; the real loader is its oracle
 * (tests/integration/chain-vs-loader.test.ts).
 *
 * Sources: LoaderLayerInterface.md "Layer Manifest File Format", "Meta-layers", "Override Meta-Layer",
 * "Loader and Layer Interface Policy" (LLP_LOADER_6/7/10/11/12). Where Debian's loader 1.3.239
 * (loader.c, loader_environment.c at tag v1.3.239) does something else, the loader wins and the rule
 * says "loader 1.3.239:". VK_LOADER_LAYERS_ENABLE / VK_LOADER_LAYERS_DISABLE (1.3.234+) are not
 * modeled yet: when set, the answer says so in `notes`.
 */

export const RULES_VERSION = '1.3.239';
export const OVERRIDE_LAYER_NAME = 'VK_LAYER_LUNARG_override';

export const ChainReasonCodeSchema = z.enum([
  'implicit/enabled',
  'implicit/not-enabled',
  'implicit/disabled-by-env',
  'implicit/enabled-by-override',
  'explicit/requested-by-app',
  'explicit/vk-instance-layers',
  'explicit/not-requested',
  'explicit/not-found',
  'meta/expanded',
  'meta/component',
  'meta/component-missing',
  'meta/component-too-old',
  'meta/lists-itself',
  'meta/incomplete',
  'override/active',
  'override/component',
  'override/blacklisted',
  'override/app-keys-mismatch',
  'override/superseded',
  'override/paths',
  'duplicate/shadowed',
  'duplicate/later-occurrence-wins',
  'duplicate/earlier-occurrence-dropped',
  'api-version/older-than-app',
  'manifest/rejected',
]);
export type ChainReasonCode = z.infer<typeof ChainReasonCodeSchema>;

export const ChainReasonSchema = z.object({ code: ChainReasonCodeSchema, message: z.string() });
export type ChainReason = z.infer<typeof ChainReasonSchema>;

export const ChainEntrySchema = z.object({
  name: z.string(),
  type: z.enum(['implicit', 'explicit']),
  manifest: z.string(),
  libraryPath: z.string().nullable(),
  reasons: z.array(ChainReasonSchema),
});
export type ChainEntry = z.infer<typeof ChainEntrySchema>;

export const ExcludedLayerSchema = z.object({
  name: z.string(),
  /** null for a name that was asked for but matches no manifest. */
  manifest: z.string().nullable(),
  reasons: z.array(ChainReasonSchema),
});
export type ExcludedLayer = z.infer<typeof ExcludedLayerSchema>;

export const MetaLayerUseSchema = z.object({
  name: z.string(),
  manifest: z.string(),
  components: z.array(z.string()),
  reasons: z.array(ChainReasonSchema),
});

export const LayerChainSchema = z.object({
  /** The loader version the caller named (or detected). */
  loaderVersion: z.string(),
  /** Whose rules were applied: always loader 1.3.239's for now. */
  rulesVersion: z.string(),
  result: z.enum(['VK_SUCCESS', 'VK_ERROR_LAYER_NOT_PRESENT']),
  /** Application side first, driver side last. */
  chain: z.array(ChainEntrySchema),
  /** Meta-layers that were expanded into the chain (they have no library of their own). */
  metaLayers: z.array(MetaLayerUseSchema),
  excluded: z.array(ExcludedLayerSchema),
  notes: z.array(z.string()),
});
export type LayerChain = z.infer<typeof LayerChainSchema>;

export interface ChainApplication {
  /** The executable's absolute path (what the override layer's app_keys are compared with). */
  path: string | null;
  requestedLayers: string[];
  /** "MAJOR.MINOR" (or "M.m.p") of VkApplicationInfo::apiVersion; default 1.0. */
  apiVersion?: string | undefined;
}

export type ChainManifest = Pick<DiscoveredManifest, 'path' | 'kind' | 'origin' | 'text' | 'problem'>;

export interface ChainInput {
  /** Implicit layer manifests in the loader's order. */
  implicit: readonly ChainManifest[];
  /** Explicit layer manifests in the loader's order (searched in the override layer's override_paths when it has some; see overridePathsFor). */
  explicit: readonly ChainManifest[];
  env: Environment;
  app: ChainApplication;
  loaderVersion: string;
}

/** One layer as the loader holds it in its instance layer list. */
interface Layer {
  name: string;
  implicit: boolean;
  manifest: string;
  origin: string;
  libraryPath: string | null;
  api: { major: number; minor: number };
  apiText: string;
  meta: boolean;
  components: string[];
  enableEnv: { name: string; value: string } | null;
  disableEnv: string | null;
  blacklist: string[];
  appKeys: string[];
  overridePaths: string[];
  reasons: ChainReason[];
}

const str = (f: { value?: string | undefined } | undefined) => f?.value;
const items = (f: { value?: { value: string | undefined }[] | undefined } | undefined) => (f?.value ?? []).flatMap((i) => (i.value === undefined ? [] : [i.value]));

function apiOf(text: string | undefined): { major: number; minor: number } {
  // Loader 1.3.239 reads "M.m.p" with strtol on each part; a missing part is 0.
  const [major = 0, minor = 0] = (text ?? '').split('.').map((p) => Number.parseInt(p, 10) || 0);
  return { major, minor };
}
const meets = (required: { major: number; minor: number }, v: { major: number; minor: number }) => v.major > required.major || (v.major === required.major && v.minor >= required.minor);
const fmt = (v: { major: number; minor: number }) => `${v.major}.${v.minor}`;

/** The layers of one manifest the loader keeps, or why it drops each (a subset of loader_read_layer_json's checks). */
function readLayers(m: ChainManifest, implicit: boolean, rejected: ExcludedLayer[]): Layer[] {
  if (m.problem || m.text === null) return [];
  const parsed = parseManifest(m.text).manifest;
  if (parsed?.kind !== 'layer') return [];
  const out: Layer[] = [];
  for (const l of parsed.layers) {
    if (!l.isObject) continue;
    const name = str(l.name);
    const reject = (why: string) => rejected.push({ name: name ?? '(no name)', manifest: m.path, reasons: [{ code: 'manifest/rejected', message: `the loader skips this layer: ${why}` }] });
    if (name === undefined) continue;
    const type = str(l.type);
    if (type !== 'GLOBAL' && type !== 'INSTANCE') {
      reject(`type ${JSON.stringify(type ?? null)} is not GLOBAL or INSTANCE`);
      continue;
    }
    if (str(l.api_version) === undefined || str(l.implementation_version) === undefined || str(l.description) === undefined) {
      reject('a required field (api_version, implementation_version, description) is missing');
      continue;
    }
    const meta = l.component_layers !== undefined;
    if (meta && l.library_path !== undefined) {
      reject('it has both library_path and component_layers');
      continue;
    }
    if (!meta && str(l.library_path) === undefined) {
      reject('it has no library_path');
      continue;
    }
    const disable = firstEntry(l.disable_environment);
    if (implicit && !disable) {
      reject('an implicit layer must have a disable_environment (LLP_LAYER_9)');
      continue;
    }
    const enable = firstEntry(l.enable_environment);
    const isOverride = name === OVERRIDE_LAYER_NAME;
    out.push({
      name,
      implicit,
      manifest: m.path,
      origin: m.origin,
      libraryPath: str(l.library_path) ?? null,
      api: apiOf(str(l.api_version)),
      apiText: str(l.api_version)!,
      meta,
      components: items(l.component_layers),
      enableEnv: implicit && enable ? enable : null,
      disableEnv: implicit && disable ? disable.name : null,
      // Loader 1.3.239 reads blacklisted_layers and app_keys only from the override layer (it warns and ignores them elsewhere).
      blacklist: isOverride ? items(l.blacklisted_layers) : [],
      appKeys: isOverride ? items(l.app_keys) : [],
      overridePaths: items(l.override_paths),
      reasons: [],
    });
  }
  return out;
}

function firstEntry(f: LayerEntry['enable_environment']): { name: string; value: string } | null {
  const e = f?.value?.[0];
  return e ? { name: e.key, value: e.value.value ?? '' } : null;
}

const isSet = (env: Environment, name: string) => env[name] !== undefined;

function implicitState(l: Layer, env: Environment): { enabled: boolean; reason: ChainReason } {
  // LLP_LOADER_6: with an enable_environment the layer is off unless the variable is set; loader
  // 1.3.239 wants it set to exactly the manifest's value (strcmp), as the format table says.
  let enabled = true;
  let reason: ChainReason = { code: 'implicit/enabled', message: 'implicit layer, enabled by default (no enable_environment)' };
  if (l.enableEnv) {
    enabled = env[l.enableEnv.name] === l.enableEnv.value;
    reason = enabled
      ? { code: 'implicit/enabled', message: `implicit layer enabled: ${l.enableEnv.name}=${l.enableEnv.value} set (enable_environment)` }
      : {
          code: 'implicit/not-enabled',
          message: isSet(env, l.enableEnv.name)
            ? `implicit layer not enabled: ${l.enableEnv.name} is "${env[l.enableEnv.name]}", not "${l.enableEnv.value}" (enable_environment)`
            : `implicit layer not enabled: ${l.enableEnv.name} unset (enable_environment)`,
        };
  }
  // The disable variable wins when set to anything, even "" (loader 1.3.239: getenv() != NULL).
  if (l.disableEnv && isSet(env, l.disableEnv)) {
    enabled = false;
    reason = { code: 'implicit/disabled-by-env', message: `implicit layer disabled: ${l.disableEnv}=${env[l.disableEnv]} set (disable_environment)` };
  }
  return { enabled, reason };
}

/** The override layers that survive app_keys (loader 1.3.239 remove_all_non_valid_override_layers). */
function pruneOverrideLayers(list: Layer[], appPath: string | null, excluded: Map<Layer, ChainReason[]>): Layer[] {
  const removed = new Set<Layer>();
  let foundActive = false;
  let global: Layer | null = null;
  for (const l of list) {
    if (l.name !== OVERRIDE_LAYER_NAME) continue;
    if (l.appKeys.length > 0) {
      for (const key of l.appKeys) {
        if (appPath !== null && key === appPath) {
          if (!foundActive) foundActive = true;
          else {
            addReason(excluded, l, 'override/superseded', 'an override layer whose app_keys list this application was found first');
            removed.add(l);
            break;
          }
        }
      }
      // Loader 1.3.239 quirk: this tests "some override layer so far matched", not "this one did".
      if (!foundActive && !removed.has(l)) {
        addReason(excluded, l, 'override/app-keys-mismatch', `override layer not used: the application ${appPath ?? '(unknown path)'} is not in app_keys [${l.appKeys.join(', ')}]`);
        removed.add(l);
      }
    } else if (global === null) global = l;
    else {
      addReason(excluded, l, 'override/superseded', 'a global override layer was found earlier; the loader uses the first');
      removed.add(l);
    }
  }
  if (foundActive && global) {
    addReason(excluded, global, 'override/superseded', 'an override layer whose app_keys list this application is used instead of the global one');
    removed.add(global);
  }
  return list.filter((l) => !removed.has(l));
}

function addReason(map: Map<Layer, ChainReason[]>, l: Layer, code: ChainReasonCode, message: string) {
  const list = map.get(l) ?? [];
  list.push({ code, message });
  map.set(l, list);
}

/**
 * The override_paths the loader searches for explicit layers instead of VK_LAYER_PATH and the
 * standard folders, or null. Loader 1.3.239 takes them from an override layer that survives
 * app_keys and whose enable/disable variables allow it, before checking that its components exist.
 */
export function overridePathsFor(implicit: readonly ChainManifest[], env: Environment, appPath: string | null): string[] | null {
  const list = pruneOverrideLayers(implicit.flatMap((m) => readLayers(m, true, [])), appPath, new Map());
  let paths: string[] | null = null;
  for (const l of list) if (l.name === OVERRIDE_LAYER_NAME && implicitState(l, env).enabled && l.overridePaths.length > 0) paths = l.overridePaths;
  return paths;
}

/** Why a meta-layer is invalid (loader 1.3.239 verify_meta_layer_component_layers), or null. */
function metaProblem(meta: Layer, list: Layer[], seen: Set<Layer> = new Set()): ChainReason | null {
  for (const [i, c] of meta.components.entries()) {
    const comp = list.find((l) => l.name === c);
    if (!comp) return { code: 'meta/component-missing', message: `meta-layer removed: component ${c} (#${i + 1}) is not found (LLP_LAYER_7)` };
    if (!meets(meta.api, comp.api))
      return { code: 'meta/component-too-old', message: `meta-layer removed: component ${c} has API version ${fmt(comp.api)}, older than the meta-layer's ${fmt(meta.api)} (LLP_LAYER_8)` };
    if (c === meta.name) return { code: 'meta/lists-itself', message: `meta-layer removed: it lists itself as component #${i + 1}` };
    if (comp.meta) {
      if (seen.has(comp)) return { code: 'meta/lists-itself', message: `meta-layer removed: component ${c} leads back to it` };
      const inner = metaProblem(comp, list, new Set([...seen, meta]));
      if (inner) return { code: inner.code, message: `meta-layer removed: its component meta-layer ${c} is invalid (${inner.message})` };
    }
  }
  return null;
}

interface Activation {
  layer: Layer;
  reasons: ChainReason[];
}

export function computeLayerChain(input: ChainInput): LayerChain {
  const { env, app } = input;
  const notes: string[] = [];
  if (input.loaderVersion !== RULES_VERSION) notes.push(`loader ${input.loaderVersion}: the rules of loader ${RULES_VERSION} were applied`);
  for (const v of ['VK_LOADER_LAYERS_ENABLE', 'VK_LOADER_LAYERS_DISABLE'])
    if (isSet(env, v)) notes.push(`${v} is set; its filters are not modeled yet, so this answer may differ from the loader`);

  const rejected: ExcludedLayer[] = [];
  const removedWhy = new Map<Layer, ChainReason[]>();
  // Implicit layers first (loader_scan_for_layers), then the override layers pruned by app_keys, then explicit.
  let list = pruneOverrideLayers(input.implicit.flatMap((m) => readLayers(m, true, rejected)), app.path, removedWhy);
  const overridePaths = overridePathsFor(input.implicit, env, app.path);
  list = [...list, ...input.explicit.flatMap((m) => readLayers(m, false, rejected))];
  const everything = [...list, ...removedWhy.keys()];

  // Meta-layers must be complete (LLP_LOADER_10); invalid ones leave the list, in list order.
  let overridePresent = false;
  for (let i = 0; i < list.length; i++) {
    const l = list[i]!;
    const problem = l.meta ? metaProblem(l, list) : null;
    if (problem) {
      addReason(removedWhy, l, problem.code, problem.message);
      list.splice(i--, 1);
    } else if (l.name === OVERRIDE_LAYER_NAME && implicitState(l, env).enabled) overridePresent = true;
  }
  const override = overridePresent ? list.find((l) => l.name === OVERRIDE_LAYER_NAME) ?? null : null;
  if (override) {
    // LLP_LOADER_12: every layer named in the blacklist leaves the list, implicit or explicit.
    list = list.filter((l) => {
      if (l.name === OVERRIDE_LAYER_NAME || !override.blacklist.includes(l.name)) return true;
      addReason(removedWhy, l, 'override/blacklisted', `blacklisted by the override layer ${override.manifest} (blacklisted_layers)`);
      return false;
    });
  }
  const find = (name: string) => list.find((l) => l.name === name);

  const excludedExtra: ExcludedLayer[] = [];
  const missing = app.requestedLayers.filter((n) => !find(n));
  const appApi = apiOf(app.apiVersion ?? '1.0');

  const expanded: Activation[] = [];
  const activatedNames: string[] = [];
  const metaUses: LayerChain['metaLayers'] = [];

  const isEnabled = (l: Layer): { enabled: boolean; reason: ChainReason } => {
    const state = implicitState(l, env);
    // Loader 1.3.239: a component of the active override layer is enabled whatever its variables say.
    if (override?.components.includes(l.name))
      return { enabled: true, reason: { code: 'implicit/enabled-by-override', message: `implicit layer enabled: component of the override layer ${override.manifest}${state.enabled ? '' : ` (overrides: ${state.reason.message})`}` } };
    return state;
  };

  const addImplicit = (l: Layer, via: ChainReason[]) => {
    const state = isEnabled(l);
    if (!state.enabled) {
      addReason(removedWhy, l, state.reason.code, via.length ? `${state.reason.message}; ${via.map((v) => v.message).join('; ')}` : state.reason.message);
      return;
    }
    // The meta-layer's own reason travels with its components: name it, so it is not read as the component's.
    if (l.meta) addMeta(l, [...via, { code: state.reason.code, message: `${l.name}: ${state.reason.message}` }]);
    else {
      activatedNames.push(l.name);
      expanded.push({ layer: l, reasons: [...via, state.reason] });
    }
  };

  const addMeta = (meta: Layer, via: ChainReason[]): boolean => {
    let all = true;
    const isOverride = meta === override;
    for (const [i, c] of meta.components.entries()) {
      const comp = find(c);
      const here: ChainReason = isOverride
        ? { code: 'override/component', message: `component #${i + 1} of the override layer ${meta.manifest}` }
        : { code: 'meta/expanded', message: `expanded from meta-layer ${meta.name} at position ${i + 1}` };
      if (!comp) {
        // Loader 1.3.239: a component removed after the meta-layer was verified (blacklisted) is skipped; the others stay.
        all = false;
        excludedExtra.push({ name: c, manifest: null, reasons: [{ code: 'meta/incomplete', message: `component of ${meta.name} not found when the chain was built; the other components are still used` }] });
        continue;
      }
      if (comp.implicit) addImplicit(comp, [...via, here]);
      else if (comp.meta) {
        if (!addMeta(comp, [...via, here])) all = false;
      } else {
        activatedNames.push(comp.name);
        expanded.push({ layer: comp, reasons: [...via, here] });
      }
    }
    if (all) activatedNames.push(meta.name);
    metaUses.push({
      name: meta.name,
      manifest: meta.manifest,
      components: meta.components,
      reasons: [...via, ...(isOverride ? [{ code: 'override/active' as const, message: 'override meta-layer active (LLP_LOADER_11)' }] : [])],
    });
    return all;
  };

  if (missing.length === 0) {
    // 1. implicit layers in the loader's order (loader_add_implicit_layers).
    for (const l of list) if (l.implicit) addImplicit(l, []);
    // 2. VK_INSTANCE_LAYERS. Loader 1.3.239 walks its layer list, not the variable: the layers come in
    // discovery order, every explicit manifest with a listed name is added (duplicates too), names
    // that match nothing are ignored silently, implicit layers named there are not added.
    const instanceLayers = env['VK_INSTANCE_LAYERS'];
    if (instanceLayers !== undefined) {
      const names = instanceLayers.split(':').filter((n) => n.length > 0);
      for (const l of list) {
        if (l.implicit || !names.includes(l.name)) continue;
        const why: ChainReason = { code: 'explicit/vk-instance-layers', message: `named in VK_INSTANCE_LAYERS` };
        if (l.meta) addMeta(l, [why]);
        else {
          activatedNames.push(l.name);
          expanded.push({ layer: l, reasons: [why] });
        }
      }
      for (const n of names)
        if (!list.some((l) => !l.implicit && l.name === n))
          excludedExtra.push({ name: n, manifest: null, reasons: [{ code: 'explicit/not-found', message: 'named in VK_INSTANCE_LAYERS but no explicit layer has this name; the loader ignores it' }] });
    }
    // 3. The application's layers, the first layer of each name; one already enabled is skipped.
    for (const [i, n] of app.requestedLayers.entries()) {
      const l = find(n)!;
      if (activatedNames.includes(n)) continue;
      const why: ChainReason = { code: 'explicit/requested-by-app', message: `requested by the application (ppEnabledLayerNames[${i}])` };
      if (l.meta) addMeta(l, [why]);
      else {
        activatedNames.push(n);
        expanded.push({ layer: l, reasons: [why] });
      }
    }
  } else {
    for (const n of missing) {
      const why = removedWhy.size ? [...removedWhy.entries()].find(([l]) => l.name === n)?.[1] ?? [] : [];
      excludedExtra.push({
        name: n,
        manifest: null,
        reasons: [{ code: 'explicit/not-found', message: `requested by the application but not among the loader's layers: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT` }, ...why],
      });
    }
  }

  // loader_create_instance_chain walks the list from the driver side and skips a name it has
  // already placed: of repeated layers, the occurrence nearest the driver wins.
  const chosen: Activation[] = [];
  const byName = new Map<string, Activation[]>();
  for (const a of expanded) byName.set(a.layer.name, [...(byName.get(a.layer.name) ?? []), a]);
  const placed = new Set<string>();
  for (let i = expanded.length - 1; i >= 0; i--) {
    const a = expanded[i]!;
    if (placed.has(a.layer.name)) continue;
    placed.add(a.layer.name);
    chosen.unshift(a);
  }
  const chain: ChainEntry[] = chosen.map((a) => {
    const reasons = [...a.reasons];
    const all = byName.get(a.layer.name)!;
    if (all.length > 1)
      reasons.push({
        code: 'duplicate/later-occurrence-wins',
        message: `enabled ${all.length} times; the loader keeps the occurrence nearest the driver (${a.layer.manifest}) and drops: ${all
          .filter((x) => x !== a)
          .map((x) => `${x.layer.manifest} (${x.reasons.map((r) => r.code).join(', ')})`)
          .join('; ')}`,
      });
    if (!meets(appApi, a.layer.api))
      reasons.push({
        code: 'api-version/older-than-app',
        message: `layer API version ${a.layer.apiText} is older than the application's ${fmt(appApi)}; loader 1.3.239 only warns and keeps it (the spec says an implicit one is not enabled)`,
      });
    return { name: a.layer.name, type: a.layer.implicit ? 'implicit' : 'explicit', manifest: a.layer.manifest, libraryPath: a.layer.libraryPath, reasons };
  });

  const inChain = new Set(chosen.map((a) => a.layer));
  const usedMeta = new Set(metaUses.map((m) => m.manifest + '\0' + m.name));
  const excluded: ExcludedLayer[] = [...rejected];
  for (const l of everything) {
    if (inChain.has(l) || (l.meta && usedMeta.has(l.manifest + '\0' + l.name))) continue;
    const reasons = [...(removedWhy.get(l) ?? [])];
    const first = list.find((x) => x.name === l.name);
    if (first && first !== l)
      reasons.push({ code: 'duplicate/shadowed', message: `shadowed by ${first.manifest} found earlier (${first.origin}); lookups by name take the first` });
    if (expanded.some((a) => a.layer === l))
      reasons.push({ code: 'duplicate/earlier-occurrence-dropped', message: 'enabled more than once; the loader keeps a later occurrence' });
    if (reasons.length === 0 && missing.length)
      reasons.push({ code: l.implicit ? 'implicit/not-enabled' : 'explicit/not-requested', message: `not loaded: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT (missing: ${missing.join(', ')}) before any layer is enabled` });
    if (reasons.length === 0) reasons.push(l.implicit ? { code: 'implicit/not-enabled', message: 'implicit layer not enabled' } : { code: 'explicit/not-requested', message: 'explicit layer: not requested by the application nor in VK_INSTANCE_LAYERS' });
    excluded.push({ name: l.name, manifest: l.manifest, reasons });
  }
  excluded.push(...excludedExtra);
  if (overridePaths) notes.push(`explicit layers are searched only in the override layer's override_paths: ${overridePaths.join(', ')} (VK_LAYER_PATH is ignored)`);

  return {
    loaderVersion: input.loaderVersion,
    rulesVersion: RULES_VERSION,
    result: missing.length ? 'VK_ERROR_LAYER_NOT_PRESENT' : 'VK_SUCCESS',
    chain: missing.length ? [] : chain,
    metaLayers: metaUses,
    excluded,
    notes,
  };
}

// ---- chain.explain (IPC) ----

export const ChainExplainRequestSchema = z
  .object({
    /** Variables to set (a string) or unset (null) on top of the environment Strata reasons about. */
    env: z.record(z.string(), z.string().nullable()).optional(),
    /** The application's executable (compared with the override layer's app_keys). */
    appPath: z.string().min(1).optional(),
    /** VkInstanceCreateInfo::ppEnabledLayerNames, in order. */
    requestedLayers: z.array(z.string().min(1)).optional(),
    /** VkApplicationInfo::apiVersion as "MAJOR.MINOR"; default 1.0. */
    apiVersion: z.string().regex(/^\d+\.\d+(\.\d+)?$/).optional(),
  })
  .strict();
export type ChainExplainRequest = z.infer<typeof ChainExplainRequestSchema>;

/** The environment after a request's overrides (null unsets). */
export function applyEnvOverrides(base: Environment, overrides: Record<string, string | null> | undefined): Environment {
  const env: Record<string, string | undefined> = { ...base };
  for (const [k, v] of Object.entries(overrides ?? {})) {
    if (v === null) delete env[k];
    else env[k] = v;
  }
  return env;
}

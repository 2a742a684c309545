import { z } from 'zod';
import type { DiscoveredManifest } from '../discovery/manifest-inventory';
import { parseManifest } from '../manifest/manifest-parser';
import type { LayerEntry } from '../manifest/manifest-model';
import type { Environment } from './xdg-directories';
import {
  asciiLower,
  disableMatch,
  enableMatch,
  LAYERS_ALLOW_VAR,
  LAYERS_DISABLE_VAR,
  LAYERS_ENABLE_VAR,
  parseAllowFilter,
  parseDisableFilter,
  parseEnableFilter,
  type DisableFilter,
  type EnableFilter,
  type FilterMatch,
} from './layer-filters';
import { LoaderRuleUseSchema, loaderHas, provenNote, rulesFor, RULES_VERSION } from './loader-rules';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';

/**
 * The effective instance layer chain: which layers the loader puts between the application and the
 * driver, in which order, and why each layer is in or out. Pure; the real loader is its oracle
 * (tests/integration/chain-vs-loader.test.ts).
 *
 * Sources: LoaderLayerInterface.md "Layer Manifest File Format", "Meta-layers", "Override Meta-Layer",
 * "Loader and Layer Interface Policy" (LLP_LOADER_6/7/10/11/12). Where a loader's code does
 * something else, the loader wins. The base behaviour is Debian 12's loader 1.3.239 (loader.c,
 * loader_environment.c at tag v1.3.239); every later change is a row of the rules table
 * (loader-rules.ts: first version and commit) that this model asks with `loaderHas`, and the six
 * real loaders of the matrix are its oracle. VK_LOADER_LAYERS_ENABLE / _DISABLE / _ALLOW follow
 * loader_environment.c; see layer-filters.ts.
 */

export { RULES_VERSION } from './loader-rules';
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
  /** VK_LOADER_LAYERS_DISABLE removed the layer from the loader's layer list. */
  'filter/disabled',
  /** VK_LOADER_LAYERS_ENABLE turned the layer on (an explicit one, or an implicit one that was off). */
  'filter/enabled',
  /** VK_LOADER_LAYERS_DISABLE matched, but VK_LOADER_LAYERS_ENABLE matched too and wins. */
  'filter/disable-overridden',
  /** A filter would match, but the loader is older than the filters (1.3.234). */
  'filter/unsupported',
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
  /** The version the real loader reports (vkEnumerateInstanceVersion); null when it could not be asked. */
  loaderVersion: z.string().nullable(),
  /** The loader version whose rules the model applied (the unknown-version default when loaderVersion is null). */
  rulesVersion: z.string(),
  /** Each version-keyed rule, and whether it was applied for `loaderVersion`. */
  rules: z.array(LoaderRuleUseSchema),
  result: z.enum(['VK_SUCCESS', 'VK_ERROR_LAYER_NOT_PRESENT']),
  /** Application side first, driver side last. */
  chain: z.array(ChainEntrySchema),
  /** Meta-layers that were expanded into the chain (they have no library of their own). */
  metaLayers: z.array(MetaLayerUseSchema),
  excluded: z.array(ExcludedLayerSchema),
  notes: z.array(z.string()),
  /**
   * The vk_loader_settings.json this loader reads, when one is there (settings-file-locations.ts).
   * Its layer configuration decides the chain on loaders that read it; the model does not follow it
   * yet, and the answer says so.
   */
  settingsFile: z.string().nullable().optional(),
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
  /** The real loader's version ("1.3.239"); null when unknown (the rules of RULES_VERSION are applied). */
  loaderVersion: string | null;
}

type Api = { major: number; minor: number };

/** One layer as its manifest declares it: parsed once per manifest object, then shared and never changed. */
interface LayerDecl {
  name: string;
  /** For the case-insensitive layer filters. */
  lower: string;
  implicit: boolean;
  manifest: string;
  origin: string;
  libraryPath: string | null;
  api: Api;
  apiText: string;
  meta: boolean;
  components: string[];
  enableEnv: { name: string; value: string } | null;
  disableEnv: string | null;
  blacklist: string[];
  appKeys: string[];
  overridePaths: string[];
}

/** One layer as the loader holds it in its instance layer list (a BaseList's own copy, never changed). */
interface Layer extends LayerDecl {
  /** Position in its BaseList: a computation keeps its own state per layer in arrays (LayerSet, LayerReasons). */
  pos: number;
}

const str = (f: { value?: string | undefined } | undefined) => f?.value;
const items = (f: { value?: { value: string | undefined }[] | undefined } | undefined) =>
  (f?.value ?? []).flatMap((i) => (i.value === undefined ? [] : [i.value]));

function apiOf(text: string | undefined): Api {
  // Loader 1.3.239 reads "M.m.p" with strtol on each part; a missing part is 0.
  const [major = 0, minor = 0] = (text ?? '').split('.').map((p) => Number.parseInt(p, 10) || 0);
  return { major, minor };
}
const meets = (required: Api, v: Api) => v.major > required.major || (v.major === required.major && v.minor >= required.minor);
const fmt = (v: Api) => `${v.major}.${v.minor}`;

interface ReadLayers {
  layers: LayerDecl[];
  rejected: ExcludedLayer[];
}

// Parsing is most of the cost of a computation; the renderer and bench recompute on the same
// manifest objects, so each is read once. The text is kept to notice a manifest object changed since.
const readCache = new WeakMap<ChainManifest, { text: string | null; problem: ChainManifest['problem']; implicit?: ReadLayers; explicit?: ReadLayers }>();

function readLayers(m: ChainManifest, implicit: boolean): ReadLayers {
  let cached = readCache.get(m);
  if (cached && (cached.text !== m.text || cached.problem !== m.problem)) cached = undefined;
  const hit = implicit ? cached?.implicit : cached?.explicit;
  if (hit) return hit;
  const read = readLayersUncached(m, implicit);
  readCache.set(m, { ...cached, text: m.text, problem: m.problem, [implicit ? 'implicit' : 'explicit']: read });
  return read;
}

/** The layers of one manifest the loader keeps, or why it drops each (a subset of loader_read_layer_json's checks). */
function readLayersUncached(m: ChainManifest, implicit: boolean): ReadLayers {
  const out: ReadLayers = { layers: [], rejected: [] };
  if (m.problem || m.text === null) return out;
  const parsed = parseManifest(m.text).manifest;
  if (parsed?.kind !== 'layer') return out;
  for (const l of parsed.layers) {
    if (!l.isObject) continue;
    const name = str(l.name);
    const reject = (why: string) =>
      out.rejected.push({
        name: name ?? '(no name)',
        manifest: m.path,
        reasons: [{ code: 'manifest/rejected', message: `the loader skips this layer: ${why}` }],
      });
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
    out.layers.push({
      name,
      lower: asciiLower(name),
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
    });
  }
  return out;
}

function firstEntry(f: LayerEntry['enable_environment']): { name: string; value: string } | null {
  const e = f?.value?.[0];
  return e ? { name: e.key, value: e.value.value ?? '' } : null;
}

/** The loader's layer list before anything is removed, with what every computation on it needs. */
interface BaseList {
  implicit: Layer[];
  explicit: Layer[];
  /** Implicit layers first, then explicit (loader_scan_for_layers). */
  all: Layer[];
  rejected: ExcludedLayer[];
  index: NameIndex;
  /** The manifests it was built from (object and text), to notice an array or a manifest changed in place since. */
  from: { implicit: ManifestSeen[]; explicit: ManifestSeen[] };
}

/** A literal, not a spread: every Layer gets one hidden class, and the hot loops read them fast. */
function layerAt(d: LayerDecl, pos: number): Layer {
  return {
    name: d.name,
    lower: d.lower,
    implicit: d.implicit,
    manifest: d.manifest,
    origin: d.origin,
    libraryPath: d.libraryPath,
    api: d.api,
    apiText: d.apiText,
    meta: d.meta,
    components: d.components,
    enableEnv: d.enableEnv,
    disableEnv: d.disableEnv,
    blacklist: d.blacklist,
    appKeys: d.appKeys,
    overridePaths: d.overridePaths,
    pos,
  };
}

/** A set of the layers of one BaseList, by position: the hot loops test every layer several times. */
class LayerSet {
  private readonly bits: Uint8Array;
  size = 0;
  constructor(base: BaseList) {
    this.bits = new Uint8Array(base.all.length);
  }
  has(l: Layer): boolean {
    return this.bits[l.pos] === 1;
  }
  add(l: Layer): void {
    if (this.bits[l.pos] === 1) return;
    this.bits[l.pos] = 1;
    this.size++;
  }
}

/** Reasons per layer of one BaseList, by position. */
class LayerReasons {
  private readonly lists: (ChainReason[] | undefined)[];
  size = 0;
  constructor(base: BaseList) {
    this.lists = new Array<ChainReason[] | undefined>(base.all.length);
  }
  get(l: Layer): ChainReason[] | undefined {
    return this.lists[l.pos];
  }
  add(l: Layer, code: ChainReasonCode, message: string): void {
    const list = this.lists[l.pos];
    if (list) list.push({ code, message });
    else {
      this.lists[l.pos] = [{ code, message }];
      this.size++;
    }
  }
}

// The same manifest lists are asked about again and again (100 applications, a draft edited live),
// so the list built from a pair of manifest arrays is kept with them; a hit is checked element by
// element (pointer compares), so an array changed in place is read again.
const baseCache = new WeakMap<readonly ChainManifest[], WeakMap<readonly ChainManifest[], BaseList>>();
const NO_MANIFESTS: readonly ChainManifest[] = [];

function baseList(implicit: readonly ChainManifest[], explicit: readonly ChainManifest[]): BaseList {
  let byExplicit = baseCache.get(implicit);
  const hit = byExplicit?.get(explicit);
  if (hit && sameManifests(hit.from.implicit, implicit) && sameManifests(hit.from.explicit, explicit)) return hit;
  const rejected: ExcludedLayer[] = [];
  const all: Layer[] = [];
  const read = (manifests: readonly ChainManifest[], isImplicit: boolean): Layer[] => {
    const out: Layer[] = [];
    for (const m of manifests) {
      const layers = readLayers(m, isImplicit);
      rejected.push(...layers.rejected);
      // Every entry gets its own object, also when a manifest object is listed twice (the loader reads such a file twice).
      for (const d of layers.layers) {
        const l = layerAt(d, all.length);
        all.push(l);
        out.push(l);
      }
    }
    return out;
  };
  const imp = read(implicit, true);
  const exp = read(explicit, false);
  const base: BaseList = {
    implicit: imp,
    explicit: exp,
    all,
    rejected,
    index: indexByName(all),
    from: { implicit: implicit.map(seenAs), explicit: explicit.map(seenAs) },
  };
  if (!byExplicit) baseCache.set(implicit, (byExplicit = new WeakMap()));
  byExplicit.set(explicit, base);
  return base;
}

type ManifestSeen = { m: ChainManifest; text: string | null };
const seenAs = (m: ChainManifest): ManifestSeen => ({ m, text: m.text });

/** Pointer compares only: the same objects with the same text strings. */
function sameManifests(seen: readonly ManifestSeen[], now: readonly ChainManifest[]): boolean {
  if (seen.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) if (seen[i]!.m !== now[i] || seen[i]!.text !== now[i]!.text) return false;
  return true;
}

const isSet = (env: Environment, name: string) => env[name] !== undefined;

/** The variables that are set, as a Map: hundreds of implicit layers look theirs up in every computation. */
type Vars = ReadonlyMap<string, string>;
function varsOf(env: Environment): Vars {
  const vars = new Map<string, string>();
  for (const k in env) {
    const v = env[k];
    if (v !== undefined) vars.set(k, v);
  }
  return vars;
}

/** The layer filters the loader applies; `ignored` holds them when the loader predates them. */
interface Filters {
  enable: EnableFilter | null;
  disable: DisableFilter | null;
  /** VK_LOADER_LAYERS_ALLOW (1.3.262+): exempts names from the disable filter. */
  allow: EnableFilter | null;
  ignored: { enable: EnableFilter | null; disable: DisableFilter | null; version: string } | null;
}

function filtersFor(env: Environment, loaderVersion: string | null): Filters {
  const enable = parseEnableFilter(env[LAYERS_ENABLE_VAR], loaderVersion);
  const disable = parseDisableFilter(env[LAYERS_DISABLE_VAR], loaderVersion);
  const allow = loaderHas(loaderVersion, 'layers-allow') ? parseAllowFilter(env[LAYERS_ALLOW_VAR], loaderVersion) : null;
  if (loaderHas(loaderVersion, 'layer-filters')) return { enable, disable, allow, ignored: null };
  return { enable: null, disable: null, allow: null, ignored: enable || disable ? { enable, disable, version: loaderVersion! } : null };
}

/** The disable filter's match, unless VK_LOADER_LAYERS_ALLOW names the layer (then null, and `allowed` says why). */
function disableFilterMatch(filters: Filters, l: Layer): { off: FilterMatch | null; allowed: FilterMatch | null } {
  const off = disableMatch(filters.disable, l.name, l.implicit, l.lower);
  if (!off) return { off: null, allowed: null };
  const allowed = enableMatch(filters.allow, l.name, l.lower);
  return allowed ? { off: null, allowed } : { off, allowed: null };
}

/**
 * loader_implicit_layer_is_enabled. Its order matters: the layer filters first (an enable match
 * turns the layer on; a disable match turns off a layer that was on and ends the check), then
 * disable_environment (wins over everything so far), then the override layer's components (on,
 * whatever the rest said).
 */
function implicitState(l: Layer, env: Vars, filters: Filters, override: Layer | null): { enabled: boolean; reason: ChainReason } {
  // LLP_LOADER_6: with an enable_environment the layer is off unless the variable is set; loader
  // 1.3.239 wants it set to exactly the manifest's value (strcmp), as the format table says.
  let enabled = true;
  let reason: ChainReason = { code: 'implicit/enabled', message: 'implicit layer, enabled by default (no enable_environment)' };
  if (l.enableEnv) {
    const value = env.get(l.enableEnv.name);
    enabled = value === l.enableEnv.value;
    reason = enabled
      ? { code: 'implicit/enabled', message: `implicit layer enabled: ${l.enableEnv.name}=${l.enableEnv.value} set (enable_environment)` }
      : {
          code: 'implicit/not-enabled',
          message:
            value !== undefined
              ? `implicit layer not enabled: ${l.enableEnv.name} is "${value}", not "${l.enableEnv.value}" (enable_environment)`
              : `implicit layer not enabled: ${l.enableEnv.name} unset (enable_environment)`,
        };
  }
  const on = enableMatch(filters.enable, l.name, l.lower);
  if (on) {
    if (!enabled) {
      enabled = true;
      reason = { code: 'filter/enabled', message: `implicit layer enabled by ${on.variable}=${on.raw}: ${on.why} (without it: ${reason.message})` };
    }
  } else if (enabled) {
    const { off } = disableFilterMatch(filters, l);
    if (off) return { enabled: false, reason: { code: 'filter/disabled', message: `implicit layer disabled by ${off.variable}=${off.raw}: ${off.why}` } };
  }
  // The disable variable wins when set to anything, even "" (loader 1.3.239: getenv() != NULL).
  const disabledBy = l.disableEnv === null ? undefined : env.get(l.disableEnv);
  if (disabledBy !== undefined) {
    enabled = false;
    reason = {
      code: 'implicit/disabled-by-env',
      message: `implicit layer disabled: ${l.disableEnv}=${disabledBy} set (disable_environment)${on ? `; it wins over ${on.variable}` : ''}`,
    };
  }
  // Loader 1.3.239: a component of the active override layer is enabled whatever the rest says.
  if (override?.components.includes(l.name))
    return {
      enabled: true,
      reason: {
        code: 'implicit/enabled-by-override',
        message: `implicit layer enabled: component of the override layer ${override.manifest}${enabled ? '' : ` (overrides: ${reason.message})`}`,
      },
    };
  return { enabled, reason };
}

/**
 * loader_layer_is_available: VK_LOADER_LAYERS_DISABLE (~all~, ~implicit~/~explicit~ by the layer's
 * kind, name filters) takes a layer out unless VK_LOADER_LAYERS_ENABLE names it too.
 */
function availability(l: Layer, filters: Filters): { available: boolean; reason: ChainReason | null } {
  const { off, allowed } = disableFilterMatch(filters, l);
  if (allowed)
    return {
      available: true,
      reason: {
        code: 'filter/disable-overridden',
        message: `${LAYERS_DISABLE_VAR} matches, but ${allowed.variable}=${allowed.raw}: ${allowed.why}, which exempts it`,
      },
    };
  if (!off) return { available: true, reason: null };
  const on = enableMatch(filters.enable, l.name, l.lower);
  if (on)
    return {
      available: true,
      reason: {
        code: 'filter/disable-overridden',
        message: `${off.variable}=${off.raw}: ${off.why}; but ${on.variable}=${on.raw}: ${on.why}, and the enable filter wins`,
      },
    };
  return { available: false, reason: { code: 'filter/disabled', message: `removed from the loader's layer list by ${off.variable}=${off.raw}: ${off.why}` } };
}

/** Adds to `removed` the override layers that do not survive app_keys (loader 1.3.239 remove_all_non_valid_override_layers). */
function pruneOverrideLayers(list: readonly Layer[], appPath: string | null, excluded: LayerReasons, removed: LayerSet): void {
  let foundActive = false;
  let global: Layer | null = null;
  for (const l of list) {
    if (l.name !== OVERRIDE_LAYER_NAME) continue;
    if (l.appKeys.length > 0) {
      for (const key of l.appKeys) {
        if (appPath !== null && key === appPath) {
          if (!foundActive) foundActive = true;
          else {
            excluded.add(l, 'override/superseded', 'an override layer whose app_keys list this application was found first');
            removed.add(l);
            break;
          }
        }
      }
      // Loader 1.3.239 quirk: this tests "some override layer so far matched", not "this one did".
      if (!foundActive && !removed.has(l)) {
        excluded.add(
          l,
          'override/app-keys-mismatch',
          `override layer not used: the application ${appPath ?? '(unknown path)'} is not in app_keys [${l.appKeys.join(', ')}]`,
        );
        removed.add(l);
      }
    } else if (global === null) global = l;
    else {
      excluded.add(l, 'override/superseded', 'a global override layer was found earlier; the loader uses the first');
      removed.add(l);
    }
  }
  if (foundActive && global) {
    excluded.add(global, 'override/superseded', 'an override layer whose app_keys list this application is used instead of the global one');
    removed.add(global);
  }
}

/**
 * The override_paths of the override layer that survives app_keys and is enabled (filters included),
 * or null: loader 1.3.239 takes the last such layer, 1.3.251+ the first (rule override-paths-first).
 */
function overridePathsOf(list: readonly Layer[], pruned: LayerSet, env: Vars, filters: Filters, version: string | null): string[] | null {
  const first = loaderHas(version, 'override-paths-first');
  let paths: string[] | null = null;
  for (const l of list) {
    if (l.name === OVERRIDE_LAYER_NAME && !pruned.has(l) && l.overridePaths.length > 0 && implicitState(l, env, filters, null).enabled) {
      paths = l.overridePaths;
      if (first) break;
    }
  }
  return paths;
}

/**
 * The override_paths the loader searches for explicit layers instead of VK_LAYER_PATH and the
 * standard folders, or null. Loader 1.3.239 takes them from an override layer that survives
 * app_keys and whose enable/disable variables (and the layer filters) allow it, before checking
 * that its components exist.
 */
export function overridePathsFor(implicit: readonly ChainManifest[], env: Environment, appPath: string | null, loaderVersion: string | null): string[] | null {
  const base = baseList(implicit, NO_MANIFESTS);
  const pruned = new LayerSet(base);
  pruneOverrideLayers(base.implicit, appPath, new LayerReasons(base), pruned);
  return overridePathsOf(base.implicit, pruned, varsOf(env), filtersFor(env, loaderVersion), loaderVersion);
}

type Lookup = (name: string) => Layer | undefined;

/** Why a meta-layer is invalid (loader 1.3.239 verify_meta_layer_component_layers), or null. */
function metaProblem(meta: Layer, find: Lookup, seen: Set<Layer> = new Set()): ChainReason | null {
  for (const [i, c] of meta.components.entries()) {
    const comp = find(c);
    if (!comp) return { code: 'meta/component-missing', message: `meta-layer removed: component ${c} (#${i + 1}) is not found (LLP_LAYER_7)` };
    if (!meets(meta.api, comp.api))
      return {
        code: 'meta/component-too-old',
        message: `meta-layer removed: component ${c} has API version ${fmt(comp.api)}, older than the meta-layer's ${fmt(meta.api)} (LLP_LAYER_8)`,
      };
    if (c === meta.name) return { code: 'meta/lists-itself', message: `meta-layer removed: it lists itself as component #${i + 1}` };
    if (comp.meta) {
      if (seen.has(comp)) return { code: 'meta/lists-itself', message: `meta-layer removed: component ${c} leads back to it` };
      const inner = metaProblem(comp, find, new Set([...seen, meta]));
      if (inner) return { code: inner.code, message: `meta-layer removed: its component meta-layer ${c} is invalid (${inner.message})` };
    }
  }
  return null;
}

/** Layers by name, in list order: the first of each, and the later ones of names that repeat. */
interface NameIndex {
  first: Map<string, Layer>;
  later: Map<string, Layer[]>;
}

function indexByName(list: readonly Layer[]): NameIndex {
  const first = new Map<string, Layer>();
  const later = new Map<string, Layer[]>();
  for (const l of list) {
    if (!first.has(l.name)) first.set(l.name, l);
    else {
      const more = later.get(l.name);
      if (more) more.push(l);
      else later.set(l.name, [l]);
    }
  }
  return { first, later };
}

/** The first layer of each name among the indexed list minus `gone` (loader_find_layer_property on a list that shrinks). */
function liveLookup(index: NameIndex, gone: LayerSet): Lookup {
  return (name) => {
    const l = index.first.get(name);
    if (l === undefined || !gone.has(l)) return l;
    return index.later.get(name)?.find((x) => !gone.has(x));
  };
}

interface Activation {
  layer: Layer;
  reasons: ChainReason[];
}

function versionNotes(version: string | null, env: Environment, filters: Filters): string[] {
  const notes: string[] = [];
  const proven = provenNote(version);
  if (proven) notes.push(proven);
  if (filters.ignored)
    for (const v of [LAYERS_ENABLE_VAR, LAYERS_DISABLE_VAR])
      if (isSet(env, v)) notes.push(`${v} is set, but loader ${filters.ignored.version} predates the layer filters (1.3.234) and ignores it`);
  for (const f of [filters.enable, filters.disable, filters.allow]) if (f) notes.push(...f.notes);
  if (isSet(env, LAYERS_ALLOW_VAR) && !loaderHas(version, 'layers-allow'))
    notes.push(`${LAYERS_ALLOW_VAR} is set, but loader ${version ?? RULES_VERSION} does not read it (it arrived in 1.3.262)`);
  const extFilter = env['VK_LOADER_DISABLE_INST_EXT_FILTER'];
  if (extFilter !== undefined)
    notes.push(
      cAtoi(extFilter) !== 0
        ? `VK_LOADER_DISABLE_INST_EXT_FILTER=${extFilter}: the loader stops filtering instance extensions, so drivers' instance extensions it does not know are listed and can be enabled; the layer chain is the same`
        : `VK_LOADER_DISABLE_INST_EXT_FILTER=${extFilter} is set, but the loader acts only on a non-zero number (atoi); it filters instance extensions as usual`,
    );
  return notes;
}

/** C atoi: optional leading white space and sign, then digits; anything else is 0. */
function cAtoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  return m ? Number.parseInt(m[1]!, 10) : 0;
}

export function computeLayerChain(input: ChainInput): LayerChain {
  const { env, app } = input;
  const version = input.loaderVersion;
  const filters = filtersFor(env, version);
  const notes = versionNotes(version, env, filters);
  const vars = varsOf(env);

  // Implicit layers first (loader_scan_for_layers), then the override layers pruned by app_keys, then explicit.
  // The loader's list shrinks step by step; `gone` holds what has left it so far, and lookups by name
  // (loader_find_layer_property: the first of that name) skip it.
  const base = baseList(input.implicit, input.explicit);
  const everything = base.all;
  const removedWhy = new LayerReasons(base);
  /** Reasons that do not decide anything on their own (a filter overridden or ignored), shown with the layer. */
  const remarks = new LayerReasons(base);
  const gone = new LayerSet(base);
  const find = liveLookup(base.index, gone);
  pruneOverrideLayers(base.implicit, app.path, removedWhy, gone);
  const overridePaths = overridePathsOf(base.implicit, gone, vars, filters, version);

  // Meta-layers must be complete (LLP_LOADER_10); invalid ones leave the list, in list order, and
  // later checks see the shorter list (verify_all_meta_layers). Filters do not act yet.
  let overridePresent = false;
  for (const l of everything) {
    if (gone.has(l)) continue;
    const problem = l.meta ? metaProblem(l, find) : null;
    if (problem) {
      removedWhy.add(l, problem.code, problem.message);
      gone.add(l);
    } else if (l.name === OVERRIDE_LAYER_NAME && implicitState(l, vars, filters, null).enabled) overridePresent = true;
  }
  const override = overridePresent ? (find(OVERRIDE_LAYER_NAME) ?? null) : null;
  if (override && override.blacklist.length) {
    // LLP_LOADER_12: every layer named in the blacklist leaves the list, implicit or explicit.
    for (const l of everything) {
      if (gone.has(l) || l.name === OVERRIDE_LAYER_NAME || !override.blacklist.includes(l.name)) continue;
      removedWhy.add(l, 'override/blacklisted', `blacklisted by the override layer ${override.manifest} (blacklisted_layers)`);
      gone.add(l);
    }
  }
  // Loader 1.3.239 loader_scan_for_layers, last step: layers the filters disable leave the list, so
  // asking for one by name fails like asking for a missing layer.
  if (filters.disable) {
    for (const l of everything) {
      if (gone.has(l)) continue;
      const a = availability(l, filters);
      if (a.reason) (a.available ? remarks : removedWhy).add(l, a.reason.code, a.reason.message);
      if (!a.available) gone.add(l);
    }
  }
  // Loader 1.4.340+ (remove-duplicate-layers), last step of loader_scan_for_layers: for each layer
  // in list order the next one with the same name leaves the list. One is removed per earlier
  // layer, so of a name's copies the 1st, 3rd, 5th … stay.
  if (loaderHas(version, 'remove-duplicate-layers') && base.index.later.size) {
    const seen = new Map<string, { first: Layer; count: number }>();
    for (const l of everything) {
      if (gone.has(l)) continue;
      const s = seen.get(l.name);
      if (!s) seen.set(l.name, { first: l, count: 1 });
      else if (s.count++ % 2 === 1) {
        removedWhy.add(
          l,
          'duplicate/shadowed',
          `removed from the loader's layer list as a duplicate of ${s.first.manifest} (loader 1.4.340+ keeps the first of a name)`,
        );
        gone.add(l);
      }
    }
  }
  const list = gone.size ? everything.filter((l) => !gone.has(l)) : everything;
  if (filters.ignored) {
    for (const l of everything) {
      const off = disableMatch(filters.ignored.disable, l.name, l.implicit, l.lower);
      const on = enableMatch(filters.ignored.enable, l.name, l.lower);
      for (const m of [off, on])
        if (m)
          remarks.add(
            l,
            'filter/unsupported',
            `${m.variable}=${m.raw}: ${m.why}, but loader ${filters.ignored.version} predates the layer filters (1.3.234) and ignores them`,
          );
    }
  }

  const excludedExtra: ExcludedLayer[] = [];
  const missing = app.requestedLayers.filter((n) => !find(n));
  const appApi = apiOf(app.apiVersion ?? '1.0');

  const expanded: Activation[] = [];
  /** app_activated_layer_list by name: layers and complete meta-layers added so far. */
  const activatedNames = new Set<string>();
  const metaUses: LayerChain['metaLayers'] = [];
  const expandedMetas = new LayerSet(base);
  const activate = (l: Layer, reasons: ChainReason[]) => {
    activatedNames.add(l.name);
    expanded.push({ layer: l, reasons });
  };

  // Version-keyed enabling rules (loader-rules.ts).
  const firstWins = loaderHas(version, 'first-occurrence-wins');
  const orderedInstanceLayers = loaderHas(version, 'instance-layers-ordered');
  const metaNoDuplicates = loaderHas(version, 'meta-no-duplicates');
  const instanceLayersOrderImplicit = loaderHas(version, 'instance-layers-order-implicit');
  /** Loader 1.3.247+: a name already in app_activated_layer_list is not added again. */
  const alreadyEnabled = (l: Layer): boolean => {
    if (!firstWins || !activatedNames.has(l.name)) return false;
    remarks.add(l, 'duplicate/shadowed', `a layer named ${l.name} is already enabled; loader 1.3.247+ keeps the first occurrence`);
    return true;
  };

  const addImplicit = (l: Layer, via: ChainReason[]) => {
    const state = implicitState(l, vars, filters, override);
    if (!state.enabled) {
      removedWhy.add(l, state.reason.code, via.length ? `${state.reason.message}; ${via.map((v) => v.message).join('; ')}` : state.reason.message);
      return;
    }
    // The meta-layer's own reason travels with its components: name it, so it is not read as the component's.
    if (l.meta) addMeta(l, [...via, { code: state.reason.code, message: `${l.name}: ${state.reason.message}` }]);
    else if (!alreadyEnabled(l)) activate(l, [...via, state.reason]);
  };

  const addMeta = (meta: Layer, via: ChainReason[]): void => {
    let all = true;
    const isOverride = meta === override;
    for (const [i, c] of meta.components.entries()) {
      const comp = find(c);
      const here: ChainReason = isOverride
        ? { code: 'override/component', message: `component #${i + 1} of the override layer ${meta.manifest}` }
        : { code: 'meta/expanded', message: `expanded from meta-layer ${meta.name} at position ${i + 1}` };
      if (!comp) {
        // A component removed after the meta-layer was verified (blacklisted, or disabled by
        // VK_LOADER_LAYERS_DISABLE) is skipped; the others stay.
        all = false;
        const why = everything.filter((l) => l.name === c).flatMap((l) => removedWhy.get(l) ?? []);
        excludedExtra.push({
          name: c,
          manifest: null,
          reasons: [
            { code: 'meta/incomplete', message: `component of ${meta.name} not found when the chain was built; the other components are still used` },
            ...why,
          ],
        });
        continue;
      }
      if (comp.implicit) addImplicit(comp, [...via, here]);
      // Every loader of the matrix never passes a nested meta-layer's missing component up
      // (loader_add_meta_layer writes its "found all" flag only when it is true), so the outer one
      // still counts as complete.
      // (Cycles never get here: metaProblem removed them, as verification does from 1.4.304; older
      // loaders overflow their stack on one, which the model does not predict.)
      else if (comp.meta) addMeta(comp, [...via, here]);
      // Loader 1.3.251+: a component already enabled is not added again.
      else if (!(metaNoDuplicates && alreadyEnabled(comp))) activate(comp, [...via, here]);
    }
    if (all) activatedNames.add(meta.name);
    expandedMetas.add(meta);
    metaUses.push({
      name: meta.name,
      manifest: meta.manifest,
      components: meta.components,
      reasons: [...via, ...(isOverride ? [{ code: 'override/active' as const, message: 'override meta-layer active (LLP_LOADER_11)' }] : [])],
    });
  };
  /** Adds a layer named by a variable or the application: a meta-layer expands, any other joins the chain. */
  const addNamed = (l: Layer, why: ChainReason) => {
    if (l.meta) addMeta(l, [why]);
    else activate(l, [why]);
  };

  if (missing.length === 0) {
    const instanceLayers = env['VK_INSTANCE_LAYERS'];
    const instanceNames = (instanceLayers ?? '').split(':').filter((n) => n.length > 0);
    // 1. implicit layers in the loader's order (loader_add_implicit_layers). Loader 1.4.326+ leaves
    // an implicit layer whose name occurs in VK_INSTANCE_LAYERS (strstr: a substring counts) to step 2.
    for (const l of list) {
      if (!l.implicit) continue;
      if (instanceLayersOrderImplicit && instanceLayers !== undefined && instanceLayers.includes(l.name)) {
        if (!instanceNames.includes(l.name))
          removedWhy.add(
            l,
            'implicit/not-enabled',
            `VK_INSTANCE_LAYERS contains its name inside a longer one ("${instanceLayers}"): loader 1.4.326+ leaves the layer to VK_INSTANCE_LAYERS, which does not name it exactly`,
          );
        continue;
      }
      addImplicit(l, []);
    }
    // 2. loader_add_environment_layers: VK_INSTANCE_LAYERS and VK_LOADER_LAYERS_ENABLE.
    if (orderedInstanceLayers) {
      // Loader 1.3.247+: VK_INSTANCE_LAYERS in the order written, the first layer of each name of
      // any kind (an implicit one too, without its enable checks), then the explicit layers the
      // enable filter names, in the loader's layer order.
      for (const n of instanceNames) {
        const l = find(n);
        if (!l) {
          const why = everything.filter((x) => x.name === n).flatMap((x) => removedWhy.get(x) ?? []);
          excludedExtra.push({
            name: n,
            manifest: null,
            reasons: [
              { code: 'explicit/not-found', message: 'named in VK_INSTANCE_LAYERS but no layer has this name; the loader logs an error and goes on' },
              ...why,
            ],
          });
          continue;
        }
        if (activatedNames.has(n)) continue;
        addNamed(l, {
          code: 'explicit/vk-instance-layers',
          message: l.implicit
            ? 'named in VK_INSTANCE_LAYERS, which adds an implicit layer whatever its enable_environment says'
            : 'named in VK_INSTANCE_LAYERS',
        });
      }
      if (filters.enable)
        for (const l of list) {
          if (l.implicit) continue;
          const on = enableMatch(filters.enable, l.name, l.lower);
          if (!on || alreadyEnabled(l)) continue;
          addNamed(l, {
            code: 'filter/enabled',
            message: `enabled by ${on.variable}=${on.raw}: ${on.why} (added after VK_INSTANCE_LAYERS, in the loader's layer order)`,
          });
        }
    } else if (instanceLayers !== undefined || filters.enable) {
      // Loader 1.3.239 walks its layer list, not the variables: the layers come in discovery order,
      // every explicit manifest that matches is added (duplicates too), names that match nothing are
      // ignored silently, implicit layers named there are not added.
      const names = new Set(instanceNames);
      for (const l of list) {
        if (l.implicit) continue;
        const on = enableMatch(filters.enable, l.name, l.lower);
        let why: ChainReason;
        if (on)
          why = {
            code: 'filter/enabled',
            message: `enabled by ${on.variable}=${on.raw}: ${on.why} (added with VK_INSTANCE_LAYERS, in the loader's layer order)`,
          };
        else if (names.has(l.name)) why = { code: 'explicit/vk-instance-layers', message: `named in VK_INSTANCE_LAYERS` };
        else continue;
        addNamed(l, why);
      }
      for (const n of names)
        if (!list.some((l) => !l.implicit && l.name === n)) {
          const why = everything.filter((l) => l.name === n && !l.implicit).flatMap((l) => removedWhy.get(l) ?? []);
          excludedExtra.push({
            name: n,
            manifest: null,
            reasons: [
              { code: 'explicit/not-found', message: 'named in VK_INSTANCE_LAYERS but no explicit layer has this name; the loader ignores it' },
              ...why,
            ],
          });
        }
    }
    // 3. The application's layers, the first layer of each name; one already enabled is skipped.
    for (const [i, n] of app.requestedLayers.entries()) {
      const l = find(n)!;
      if (activatedNames.has(n)) continue;
      addNamed(l, { code: 'explicit/requested-by-app', message: `requested by the application (ppEnabledLayerNames[${i}])` });
    }
  } else {
    for (const n of missing) {
      const why = everything.filter((l) => l.name === n).flatMap((l) => removedWhy.get(l) ?? []);
      excludedExtra.push({
        name: n,
        manifest: null,
        reasons: [
          {
            code: 'explicit/not-found',
            message: `requested by the application but not among the loader's layers: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT`,
          },
          ...why,
        ],
      });
    }
  }

  // loader_create_instance_chain walks the list from the driver side and skips a name it has
  // already placed: of repeated layers, the occurrence nearest the driver wins.
  const chosen: Activation[] = [];
  const byName = new Map<string, Activation[]>();
  for (const a of expanded) {
    const same = byName.get(a.layer.name);
    if (same) same.push(a);
    else byName.set(a.layer.name, [a]);
  }
  const placed = new Set<string>();
  for (let i = expanded.length - 1; i >= 0; i--) {
    const a = expanded[i]!;
    if (placed.has(a.layer.name)) continue;
    placed.add(a.layer.name);
    chosen.push(a);
  }
  chosen.reverse();
  const chain: ChainEntry[] = chosen.map((a) => {
    const reasons = [...a.reasons, ...(remarks.get(a.layer) ?? [])];
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

  const inChain = new LayerSet(base);
  for (const a of chosen) inChain.add(a.layer);
  const expandedLayers = new LayerSet(base);
  for (const a of expanded) expandedLayers.add(a.layer);
  const excluded: ExcludedLayer[] = base.rejected.map((r) => ({ ...r, reasons: [...r.reasons] }));
  for (const l of everything) {
    if (inChain.has(l) || expandedMetas.has(l)) continue;
    const reasons = removedWhy.get(l) ?? [];
    // Only a layer found earlier shadows: one that came later is first now only because the
    // earlier ones left the list. (Most names are unique: no lookup for them.)
    const first = base.index.later.has(l.name) ? find(l.name) : undefined;
    if (first && first !== l && first.pos < l.pos)
      reasons.push({ code: 'duplicate/shadowed', message: `shadowed by ${first.manifest} found earlier (${first.origin}); lookups by name take the first` });
    if (expandedLayers.has(l))
      reasons.push({ code: 'duplicate/earlier-occurrence-dropped', message: 'enabled more than once; the loader keeps a later occurrence' });
    if (reasons.length === 0 && missing.length)
      reasons.push({
        code: l.implicit ? 'implicit/not-enabled' : 'explicit/not-requested',
        message: `not loaded: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT (missing: ${missing.join(', ')}) before any layer is enabled`,
      });
    if (reasons.length === 0)
      reasons.push(
        l.implicit
          ? { code: 'implicit/not-enabled', message: 'implicit layer not enabled' }
          : { code: 'explicit/not-requested', message: 'explicit layer: not requested by the application nor in VK_INSTANCE_LAYERS' },
      );
    const remark = remarks.size ? remarks.get(l) : undefined;
    if (remark) reasons.push(...remark);
    excluded.push({ name: l.name, manifest: l.manifest, reasons });
  }
  excluded.push(...excludedExtra);
  if (overridePaths)
    notes.push(`explicit layers are searched only in the override layer's override_paths: ${overridePaths.join(', ')} (VK_LAYER_PATH is ignored)`);

  return {
    loaderVersion: version,
    rulesVersion: version ?? RULES_VERSION,
    rules: rulesFor(version),
    result: missing.length ? 'VK_ERROR_LAYER_NOT_PRESENT' : 'VK_SUCCESS',
    chain: missing.length ? [] : chain,
    metaLayers: metaUses,
    excluded,
    notes,
  };
}

// ---- chain.explain (IPC) ----

/** A loader version as the loader reports it ("1.4.359"). */
export const LoaderVersionTextSchema = z.string().regex(/^\d{1,3}\.\d{1,3}\.\d{1,4}$/, 'expected a loader version such as 1.4.309');

export const ChainExplainRequestSchema = z
  .object({
    /** Variables to set (a string) or unset (null) on top of the environment Strata reasons about. */
    env: z.record(z.string(), z.string().nullable()).optional(),
    /** The application's executable (compared with the override layer's app_keys). */
    appPath: z.string().min(1).optional(),
    /** VkInstanceCreateInfo::ppEnabledLayerNames, in order. */
    requestedLayers: z.array(z.string().min(1)).max(REQUEST_LIMITS.requestedLayers, tooMany('requested layers', REQUEST_LIMITS.requestedLayers)).optional(),
    /** VkApplicationInfo::apiVersion as "MAJOR.MINOR"; default 1.0. */
    apiVersion: z
      .string()
      .regex(/^\d+\.\d+(\.\d+)?$/)
      .optional(),
    /** Model the chain for this loader version instead of asking the installed loader (the model alone). */
    loaderVersion: LoaderVersionTextSchema.optional(),
    /** Ask this loader library (a libvulkan / vulkan-1.dll) for its version, then model the chain for it. */
    loaderPath: z.string().min(1).max(4096).optional(),
  })
  .strict()
  .refine((r) => !(r.loaderVersion && r.loaderPath), { message: 'give loaderVersion or loaderPath, not both' });
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

import type { Environment } from './xdg-directories';
import {
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
import { loaderHas, provenNote, RULES_VERSION } from './loader-rules';
import { layerReadings, type Api, type LayerReadingEntry } from './layer-readings';
import type { ChainEntry, ChainManifest, ChainReason, ChainReasonCode, ExcludedLayer } from './chain-schema';
import { OVERRIDE_LAYER_NAME } from '../override/override-names';

/**
 * The loader's layer list as the chain model holds it (chain.ts, settings-chain.ts): manifests read
 * into layers, the filters, the implicit-layer and availability checks, override and meta-layer
 * checks. Internal to shared/loader/: what the rest of Strata reads is chain.ts.
 */

/** One layer as its manifest declares it, where that manifest is: built once per manifest object from its text's reading, then shared and never changed. */
interface LayerDecl extends LayerReadingEntry {
  manifest: string;
  origin: string;
}

/** One layer as the loader holds it in its instance layer list (a BaseList's own copy, never changed). */
export interface Layer extends LayerDecl {
  /** Position in its BaseList: a computation keeps its own state per layer in arrays (LayerSet, LayerReasons). */
  pos: number;
}

const meets = (required: Api, v: Api) => v.major > required.major || (v.major === required.major && v.minor >= required.minor);
const fmt = (v: Api) => `${v.major}.${v.minor}`;

interface ReadLayers {
  layers: LayerDecl[];
  rejected: ExcludedLayer[];
}

// The renderer and the bench recompute on the same manifest objects: each object's layers are placed
// once (the text's reading is layerReadings' own). The text is kept to notice an object changed since.
const readCache = new WeakMap<ChainManifest, { text: string | null; problem: ChainManifest['problem']; implicit?: ReadLayers; explicit?: ReadLayers }>();

export function readLayers(m: ChainManifest, implicit: boolean): ReadLayers {
  let cached = readCache.get(m);
  if (cached && (cached.text !== m.text || cached.problem !== m.problem)) cached = undefined;
  const hit = implicit ? cached?.implicit : cached?.explicit;
  if (hit) return hit;
  const read = readLayersUncached(m, implicit);
  readCache.set(m, Object.assign({}, cached, { text: m.text, problem: m.problem, [implicit ? 'implicit' : 'explicit']: read }));
  return read;
}

/** The layers of one manifest the loader keeps, or why it drops each: its text's reading (layer-readings.ts), placed at its path. */
function readLayersUncached(m: ChainManifest, implicit: boolean): ReadLayers {
  if (m.problem || m.text === null) return { layers: [], rejected: [] };
  const reading = layerReadings.of(m.text, implicit);
  return {
    // Object.assign, not `{ ...l, manifest, origin }`: one hidden class for every layer on Node 20 (docs/architecture.md, "Object shapes on Node 20").
    layers: reading.layers.map((l) => Object.assign({}, l, { manifest: m.path, origin: m.origin })),
    rejected: reading.rejected.map(({ name, why }) => ({
      name,
      manifest: m.path,
      reasons: [{ code: 'manifest/rejected', message: `the loader skips this layer: ${why}` }],
    })),
  };
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
export function layerAt(d: LayerDecl, pos: number): Layer {
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
export class LayerSet {
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
export class LayerReasons {
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

export function baseList(implicit: readonly ChainManifest[], explicit: readonly ChainManifest[]): BaseList {
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
export type Vars = ReadonlyMap<string, string>;
export function varsOf(env: Environment): Vars {
  const vars = new Map<string, string>();
  for (const k in env) {
    const v = env[k];
    if (v !== undefined) vars.set(k, v);
  }
  return vars;
}

/** The layer filters the loader applies; `ignored` holds them when the loader predates them. */
export interface Filters {
  enable: EnableFilter | null;
  disable: DisableFilter | null;
  /** VK_LOADER_LAYERS_ALLOW (1.3.262+): exempts names from the disable filter. */
  allow: EnableFilter | null;
  ignored: { enable: EnableFilter | null; disable: DisableFilter | null; version: string } | null;
}

export function filtersFor(env: Environment, loaderVersion: string | null): Filters {
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
export function implicitState(l: Layer, env: Vars, filters: Filters, override: Layer | null): { enabled: boolean; reason: ChainReason } {
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
export function availability(l: Layer, filters: Filters): { available: boolean; reason: ChainReason | null } {
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
export function pruneOverrideLayers(list: readonly Layer[], appPath: string | null, excluded: LayerReasons, removed: LayerSet): void {
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
export function overridePathsOf(list: readonly Layer[], pruned: LayerSet, env: Vars, filters: Filters, version: string | null): string[] | null {
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
export function metaProblem(meta: Layer, find: Lookup, seen: Set<Layer> = new Set()): ChainReason | null {
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
export function liveLookup(index: NameIndex, gone: LayerSet): Lookup {
  return (name) => {
    const l = index.first.get(name);
    if (l === undefined || !gone.has(l)) return l;
    return index.later.get(name)?.find((x) => !gone.has(x));
  };
}

export interface Activation {
  layer: Layer;
  reasons: ChainReason[];
}

export function versionNotes(version: string | null, env: Environment, filters: Filters): string[] {
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

/**
 * loader_create_instance_chain walks the activated list from the driver side and skips a name it has
 * already placed: of repeated layers, the occurrence nearest the driver wins. The chain, application
 * side first, with each layer's reasons (plus `remarksOf`) and what the repetition and API version say.
 */
export function placeLayers(
  expanded: readonly Activation[],
  remarksOf: (l: Layer) => readonly ChainReason[] | undefined,
  appApi: Api,
): { chosen: Activation[]; chain: ChainEntry[] } {
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
    const reasons = [...a.reasons, ...(remarksOf(a.layer) ?? [])];
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
  return { chosen, chain };
}

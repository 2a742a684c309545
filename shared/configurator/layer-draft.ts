import type { ManifestInventory } from '../discovery/manifest-inventory';
import { inventoryLayers } from '../profiles/inventory-layers';
import {
  DEFAULT_OVERRIDE_API_VERSION,
  forcesLayers,
  hasLayerSettings,
  OVERRIDE_LAYER_NAME,
  type LayerControl,
  type OverrideConfig,
  type OverrideLayer,
} from '../override/override-config';
import type { SettingValue, SettingsByLayer } from '../settings/setting-values';

/**
 * The Layers editor's draft: an OverrideConfig whose `layers` lists every layer the editor shows, in
 * the editor's order, each with its state (vkconfig's Auto / On / Off), plus what only the UI needs
 * to know. Pure functions, each returning a new draft (the same object when nothing changed, so a
 * store can skip a render). Written to disk only through the override writer (override.apply).
 *
 * Order only matters for 'on' layers: they become the override meta-layer's component_layers in this
 * order (LoaderLayerInterface § Override Meta-Layer). 'auto' layers are not written at all; their
 * place in the list is kept so a layer turned on later lands where the user put it.
 */
export interface LayerDraft {
  config: OverrideConfig;
  /** Layers the draft names ('on' or 'off') that discovery no longer finds: the loader would drop the whole override for a missing component (LLP_LAYER_7). */
  vanished: readonly string[];
}

/** A layer name discovery found, first occurrence in the loader's order (implicit before explicit). */
export interface DiscoveredLayerName {
  name: string;
  implicit: boolean;
}

/** A name the override file can hold (override-config.ts: no spaces, not the override itself). */
const configurable = (name: string | null): name is string => !!name && /^\S+$/.test(name) && name !== OVERRIDE_LAYER_NAME;

/** Every layer name once, in the loader's order: implicit manifests first, then explicit (LLP_LOADER_2's list order). */
export function discoveredLayerNames(inventory: ManifestInventory): DiscoveredLayerName[] {
  // The one "first of a name wins" walk of the inventory (shared/profiles/inventory-layers.ts).
  return [...inventoryLayers(inventory).values()].filter((l) => configurable(l.name)).map((l) => ({ name: l.name, implicit: l.implicit }));
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0) : []);

/**
 * The configuration an override file on disk asks for (whoever wrote it): component_layers → on in
 * their order, blacklisted_layers → off. A name in both is off: the loader removes blacklisted layers
 * before it expands the override (loader 1.3.239). null when the text is no override layer.
 */
export function configFromOverrideText(text: string | null, settings?: SettingsByLayer): OverrideConfig | null {
  if (text === null) return null;
  let layer: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(text) as { layer?: unknown; layers?: unknown };
    const candidates = Array.isArray(parsed.layers) ? parsed.layers : [parsed.layer];
    layer = candidates.find(
      (l): l is Record<string, unknown> => !!l && typeof l === 'object' && (l as Record<string, unknown>)['name'] === OVERRIDE_LAYER_NAME,
    );
  } catch {
    return null;
  }
  if (!layer) return null;
  const off = new Set(strings(layer['blacklisted_layers']).filter(configurable));
  const layers: OverrideLayer[] = [];
  const listed = new Set<string>();
  for (const name of strings(layer['component_layers']).filter(configurable)) {
    if (listed.has(name)) continue;
    listed.add(name);
    layers.push({ name, state: off.has(name) ? 'off' : 'on' });
  }
  for (const name of off) if (!listed.has(name)) layers.push({ name, state: 'off' });
  const appKeys = strings(layer['app_keys']);
  const overridePaths = strings(layer['override_paths']);
  const api = typeof layer['api_version'] === 'string' && /^\d+\.\d+\.\d+$/.test(layer['api_version']) ? layer['api_version'] : undefined;
  return {
    layers,
    ...(appKeys.length ? { appKeys } : {}),
    ...(overridePaths.length ? { overridePaths } : {}),
    ...(api && api !== DEFAULT_OVERRIDE_API_VERSION ? { apiVersion: api } : {}),
    ...(settings && Object.keys(settings).length ? { settings } : {}),
  };
}

function vanishedOf(layers: readonly OverrideLayer[], discovered: ReadonlySet<string>): string[] {
  return layers.filter((l) => l.state !== 'auto' && !discovered.has(l.name)).map((l) => l.name);
}

/**
 * A draft from what is installed and what discovery found. Every discovered layer is listed in the
 * loader's order with its installed state, except that the 'on' layers keep their relative order (it
 * is the component order): they take the places their names hold in discovery order, in the order
 * installed. An installed layer that is not discovered is kept (flagged as vanished) right after the
 * installed layer before it.
 */
export function createDraft(installed: OverrideConfig | null, discovered: readonly DiscoveredLayerName[]): LayerDraft {
  const listed = (installed?.layers ?? []).filter((l) => configurable(l.name));
  const found = new Set(discovered.map((d) => d.name));
  const byName = new Map(listed.map((l) => [l.name, l]));
  const onFound = listed.filter((l) => l.state === 'on' && found.has(l.name));
  let next = 0;
  const layers: OverrideLayer[] = discovered.map((d) => {
    const l = byName.get(d.name);
    if (!l) return { name: d.name, state: 'auto' };
    return l.state === 'on' ? onFound[next++]! : l;
  });
  let after = -1;
  for (const l of listed) {
    if (found.has(l.name)) {
      after = layers.indexOf(l);
      continue;
    }
    if (l.state === 'auto') continue;
    const at =
      after >= 0
        ? after + 1
        : Math.max(
            0,
            layers.findIndex((x) => byName.has(x.name)),
          );
    layers.splice(at, 0, l);
    after = at;
  }
  const config: OverrideConfig = { ...(installed ?? {}), layers };
  return { config, vanished: vanishedOf(layers, found) };
}

/**
 * The draft after discovery changed (a manifest added, edited or removed while the editor is open):
 * the user's order and states stay; layers that are new appear as application-controlled next to the
 * layer before them in discovery order; 'auto' layers that went are dropped, 'on'/'off' ones stay,
 * flagged as vanished.
 */
export function rebaseDraft(draft: LayerDraft, discovered: readonly DiscoveredLayerName[]): LayerDraft {
  const found = new Set(discovered.map((d) => d.name));
  const layers = draft.config.layers.filter((l) => l.state !== 'auto' || found.has(l.name));
  const present = new Set(layers.map((l) => l.name));
  discovered.forEach((d, i) => {
    if (present.has(d.name)) return;
    let at = layers.length;
    for (let j = i - 1; j >= 0; j--) {
      const k = layers.findIndex((l) => l.name === discovered[j]!.name);
      if (k >= 0) {
        at = k + 1;
        break;
      }
    }
    if (at === layers.length && i === 0) at = 0;
    layers.splice(at, 0, { name: d.name, state: 'auto' });
    present.add(d.name);
  });
  const vanished = vanishedOf(layers, found);
  const same =
    layers.length === draft.config.layers.length && layers.every((l, i) => l === draft.config.layers[i]) && vanished.join('\n') === draft.vanished.join('\n');
  return same ? draft : { config: { ...draft.config, layers }, vanished };
}

const withLayers = (draft: LayerDraft, layers: OverrideLayer[], vanished = draft.vanished): LayerDraft => ({ config: { ...draft.config, layers }, vanished });

/** The layer at `from` moved to index `to` (both clamped); the others keep their order. */
export function moveLayer(draft: LayerDraft, from: number, to: number): LayerDraft {
  const n = draft.config.layers.length;
  if (from < 0 || from >= n) return draft;
  const target = Math.min(Math.max(0, to), n - 1);
  if (target === from) return draft;
  const layers = [...draft.config.layers];
  const [moved] = layers.splice(from, 1);
  layers.splice(target, 0, moved!);
  return withLayers(draft, layers);
}

/** `name` moved `delta` places (−1: one up, towards the application). */
export function moveLayerBy(draft: LayerDraft, name: string, delta: number): LayerDraft {
  const from = draft.config.layers.findIndex((l) => l.name === name);
  return from < 0 ? draft : moveLayer(draft, from, from + delta);
}

/** `name` moved to where `over` is now (what a drop on another row means). */
export function moveLayerTo(draft: LayerDraft, name: string, over: string): LayerDraft {
  const layers = draft.config.layers;
  return moveLayer(
    draft,
    layers.findIndex((l) => l.name === name),
    layers.findIndex((l) => l.name === over),
  );
}

/** A layer's new state. A vanished layer set back to 'auto' leaves the draft: nothing names it any more. */
export function setLayerState(draft: LayerDraft, name: string, state: LayerControl): LayerDraft {
  const i = draft.config.layers.findIndex((l) => l.name === name);
  if (i < 0 || draft.config.layers[i]!.state === state) return draft;
  if (state === 'auto' && draft.vanished.includes(name))
    return withLayers(
      draft,
      draft.config.layers.filter((l) => l.name !== name),
      draft.vanished.filter((n) => n !== name),
    );
  const layers = [...draft.config.layers];
  layers[i] = { name, state };
  return withLayers(draft, layers);
}

/** One setting of one layer; undefined goes back to the layer's default (the key is removed). */
export function setLayerSetting(draft: LayerDraft, layer: string, key: string, value: SettingValue | undefined): LayerDraft {
  const settings: SettingsByLayer = { ...(draft.config.settings ?? {}) };
  const values = { ...(settings[layer] ?? {}) };
  if (value === undefined) {
    if (!(key in values)) return draft;
    delete values[key];
  } else values[key] = value;
  if (Object.keys(values).length) settings[layer] = values;
  else delete settings[layer];
  const { settings: _old, ...rest } = draft.config;
  return { ...draft, config: Object.keys(settings).length ? { ...rest, settings } : rest };
}

/**
 * What override.apply should install for this draft: the 'on' and 'off' layers in order (the 'auto'
 * ones are not written) and the changed settings; null when no layer is 'on' or 'off' and no setting
 * is changed (there would be nothing to install: applying means removing Strata's files, and
 * OverrideConfigSchema refuses such a configuration).
 */
export function draftConfig(draft: LayerDraft): OverrideConfig | null {
  const layers = draft.config.layers.filter((l) => l.state !== 'auto');
  const config = { ...draft.config, layers };
  return forcesLayers(config) || hasLayerSettings(config) ? config : null;
}

/** A canonical key of what a configuration asks of the loader and the layers: equal keys, equal files. */
function effectKey(config: OverrideConfig | null): string {
  if (!config || (!forcesLayers(config) && !hasLayerSettings(config))) return 'none';
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sortKeys)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, sortKeys(x)]),
          )
        : v;
  return JSON.stringify({
    on: config.layers.filter((l) => l.state === 'on').map((l) => l.name),
    off: config.layers
      .filter((l) => l.state === 'off')
      .map((l) => l.name)
      .sort(),
    appKeys: config.appKeys ?? [],
    overridePaths: config.overridePaths ?? [],
    apiVersion: config.apiVersion ?? DEFAULT_OVERRIDE_API_VERSION,
    settings: sortKeys(config.settings ?? {}),
  });
}

/** Whether applying the draft would change what is installed (order of 'auto' layers does not count). */
export function isDraftDirty(draft: LayerDraft, installed: OverrideConfig | null): boolean {
  return effectKey(draftConfig(draft)) !== effectKey(installed);
}

export interface StateChange {
  name: string;
  from: LayerControl;
  to: LayerControl;
}

/** Per layer, what the draft changes against what is installed; and whether the order of the 'on' layers changed. */
export function draftChanges(draft: LayerDraft, installed: OverrideConfig | null): { states: StateChange[]; reordered: boolean } {
  const before = new Map((installed?.layers ?? []).map((l) => [l.name, l.state]));
  const states: StateChange[] = [];
  const names = new Set([...draft.config.layers.map((l) => l.name), ...before.keys()]);
  const after = new Map(draft.config.layers.map((l) => [l.name, l.state]));
  for (const name of names) {
    const from = before.get(name) ?? 'auto';
    const to = after.get(name) ?? 'auto';
    if (from !== to) states.push({ name, from, to });
  }
  const onBefore = (installed?.layers ?? []).filter((l) => l.state === 'on').map((l) => l.name);
  const onAfter = draft.config.layers.filter((l) => l.state === 'on').map((l) => l.name);
  const common = (xs: string[], ys: string[]) => xs.filter((x) => ys.includes(x));
  const reordered = common(onBefore, onAfter).join('\n') !== common(onAfter, onBefore).join('\n');
  return { states, reordered };
}

export const LAYER_CONTROL_LABELS: Readonly<Record<LayerControl, string>> = {
  auto: 'Application-controlled',
  on: 'On',
  off: 'Off (forced, blacklisted)',
};

/** What each state does, in one sentence (the state control's description). */
export const LAYER_CONTROL_DESCRIPTIONS: Readonly<Record<LayerControl, string>> = {
  auto: 'The application and the environment decide; Strata does not name this layer.',
  on: "Forced on for every application: a component of Strata's override layer, in this list's order.",
  off: "Forced off: blacklisted by Strata's override layer, even when an application asks for it.",
};

export interface Orderability {
  orderable: boolean;
  /** Why not, for a tooltip and the row's accessible description. */
  reason: string | null;
}

/**
 * Whether the list position of a layer matters, so the editor lets the user move it. Only 'on' layers
 * are placed by Strata (as components, in order). An implicit layer that is not forced on is placed
 * by the loader itself, in its search order, before the layers applications ask for (loader
 * 1.3.239 loader_add_implicit_layers); an explicit one keeps its place for when it is turned on.
 */
export function layerOrderability(layer: { implicit: boolean; state: LayerControl; vanished?: boolean }): Orderability {
  if (layer.vanished) return { orderable: true, reason: null };
  if (layer.implicit && layer.state === 'auto')
    return {
      orderable: false,
      reason: 'Implicit layer: the loader places it itself, in its search order, whenever it is enabled. Set it to On to give it a place in this order.',
    };
  if (layer.implicit && layer.state === 'off') return { orderable: false, reason: 'Forced off: the loader does not load it, so it has no place in the chain.' };
  return { orderable: true, reason: null };
}

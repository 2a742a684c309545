import type { Diagnostic } from 'vscode-languageserver-types';
import type { DiscoveredManifest, LayerSummary, ManifestInventory } from '../discovery/manifest-inventory';
import { lintManifest } from '../lint/manifest-lint';
import { lintManifestSet, type LayerInSet, type ManifestInSet } from '../lint/manifest-set-lint';
import { computeLayerChain, type ChainApplication, type LayerChain } from '../loader/chain';
import { chainSettingsFor } from '../loader/chain-settings';
import { parseManifest } from '../manifest/manifest-parser';
import { OVERRIDE_LAYER_NAME, overrideManifestObject, overrideManifestText, type OverrideConfig } from '../override/override-config';
import type { ChainContext } from './chain-context';

/**
 * The live chain of the Layers editor: the draft's override manifest put where Strata writes it, in
 * the loader's list of implicit manifests (replacing the file there), linted like any discovered
 * manifest, then the same chain model `strata explain` uses. Pure; nothing touches the disk.
 */

/** "/a//b/" and "/a/b" name the same folder (the loader spells a folder given as "d/" as "d//x.json"). */
export const normalizePath = (p: string) => p.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');

export type OverridePlace = Pick<ChainContext, 'overrideFile' | 'overrideDir'>;

export interface DraftInventory {
  /** The discovered inventory with Strata's override file as the draft would leave it. */
  inventory: ManifestInventory;
  /** The draft's override manifest as placed (null: the draft writes none). */
  override: DiscoveredManifest | null;
  /** false: Strata's override folder is not among the loader's implicit layer folders, so the file would not be read. */
  visible: boolean;
}

function overrideSummary(config: OverrideConfig): LayerSummary {
  const l = overrideManifestObject(config).layer;
  return {
    name: l.name,
    type: l.type,
    meta: true,
    apiVersion: l.api_version,
    implementationVersion: l.implementation_version,
    description: l.description,
    libraryPath: null,
    componentLayers: l.component_layers,
    disableEnvironment: Object.keys(l.disable_environment),
    enableEnvironment: [],
  };
}

/**
 * The set rules (duplicate names, missing components, component API versions, cycles) for the draft's
 * file among the others. The other files are described by their summaries: the set rules read only
 * a layer's name, api_version and component_layers, and report ranges only in the file they flag,
 * which here is always the draft's.
 */
const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
// One description per discovered manifest object, kept across edits (the inventory's objects do not change).
const inSet = new WeakMap<DiscoveredManifest, ManifestInSet>();

/** An override layer's app_keys (the summaries leave them out; the set rules need them: per-application overrides are not duplicates). */
function overrideAppKeys(f: DiscoveredManifest): string[] {
  if (!f.text || !f.layers.some((l) => l.name === OVERRIDE_LAYER_NAME)) return [];
  try {
    const keys = (JSON.parse(f.text) as { layer?: { app_keys?: unknown } }).layer?.app_keys;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}
function manifestInSet(f: DiscoveredManifest): ManifestInSet {
  let found = inSet.get(f);
  if (!found) {
    const field = (value: string | null) => (value === null ? undefined : { value, range: ZERO });
    const keys = overrideAppKeys(f);
    const layers = f.layers.map((l): LayerInSet => ({
      name: field(l.name),
      api_version: field(l.apiVersion),
      component_layers: l.meta ? { value: l.componentLayers.map((c) => ({ value: c, range: ZERO })) } : undefined,
      app_keys: l.name === OVERRIDE_LAYER_NAME && keys.length ? { value: keys } : undefined,
    }));
    inSet.set(f, (found = { uri: f.path, parsed: { manifest: { kind: 'layer', layers } } }));
  }
  return found;
}

function setDiagnostics(files: readonly DiscoveredManifest[], draftPath: string, draftParsed: ManifestInSet['parsed']): Diagnostic[] {
  const set: ManifestInSet[] = files
    .filter((f) => f.duplicateOf === null && f.problem === null)
    .map((f) => (f.path === draftPath ? { uri: f.path, parsed: draftParsed } : manifestInSet(f)));
  return lintManifestSet(set)
    .filter((d) => d.uri === draftPath)
    .map((d) => d.diagnostic);
}

/**
 * Strata's override file replaced by `config`'s manifest (null: no file there). A file already at that
 * path keeps its place; a new one goes after the other manifests of its folder (the loader reads a
 * folder in directory order, which a file not yet written does not have; last is the usual place).
 */
export function inventoryWithOverride(inventory: ManifestInventory, place: OverridePlace, config: OverrideConfig | null): DraftInventory {
  const file = normalizePath(place.overrideFile);
  const dir = normalizePath(place.overrideDir);
  const implicit = [...(inventory.manifests.implicit_layer ?? [])].sort((a, b) => a.order - b.order);
  const existing = implicit.findIndex((m) => normalizePath(m.path) === file);
  const locations = inventory.locations.implicit_layer ?? [];
  // A folder on Linux and macOS; on Windows the registry key whose values name implicit manifests (the override's value goes last, as a new file goes last in its folder).
  const locIndex = locations.findIndex((l) => l.entry !== 'file' && normalizePath(l.path) === dir);
  const visible = existing >= 0 || locIndex >= 0;
  const rest = existing >= 0 ? implicit.filter((_, i) => i !== existing) : implicit;

  let override: DiscoveredManifest | null = null;
  let list = rest;
  if (config && visible) {
    const text = overrideManifestText(config);
    const at = existing >= 0 ? existing : insertionIndex(rest, locations, locIndex);
    const base = existing >= 0 ? implicit[existing]! : null;
    const parsed = parseManifest(text);
    const draft: DiscoveredManifest = {
      path: base?.path ?? place.overrideFile,
      kind: 'implicit_layer',
      origin: base?.origin ?? locations[locIndex]!.origin,
      location: base?.location ?? locations[locIndex]!.path,
      order: at,
      readdirOrder: base?.readdirOrder ?? true,
      problem: null,
      duplicateOf: null,
      text,
      fileFormatVersion: '1.2.0',
      layers: [overrideSummary(config)],
      driver: null,
      diagnostics: [],
    };
    list = [...rest.slice(0, at), draft, ...rest.slice(at)];
    const m = parsed.manifest;
    const forSet: ManifestInSet['parsed'] = { manifest: m?.kind === 'layer' ? { kind: 'layer', layers: m.layers } : m };
    draft.diagnostics = [
      ...lintManifest(parsed, { role: 'implicit-layer' }),
      ...setDiagnostics([...list, ...(inventory.manifests.explicit_layer ?? [])], draft.path, forSet),
    ];
    override = draft;
  }
  // `order` is the place in the loader's list: renumber what moved. The same copy for the same
  // place every time, so the chain model's per-manifest cache (chain.ts) keeps its hits across edits.
  const renumbered = list.map((m, i) => (m.order === i || m === override ? m : renumberedCopy(m, i)));
  return { inventory: { ...inventory, manifests: { ...inventory.manifests, implicit_layer: renumbered } }, override, visible };
}

const copies = new WeakMap<DiscoveredManifest, Map<number, DiscoveredManifest>>();
function renumberedCopy(m: DiscoveredManifest, order: number): DiscoveredManifest {
  let byOrder = copies.get(m);
  if (!byOrder) copies.set(m, (byOrder = new Map()));
  let copy = byOrder.get(order);
  if (!copy) byOrder.set(order, (copy = { ...m, order }));
  return copy;
}

/** After the last manifest found in a folder at or before the override's folder in the search order. */
function insertionIndex(implicit: readonly DiscoveredManifest[], locations: ManifestInventory['locations']['implicit_layer'], locIndex: number): number {
  const rank = new Map<string, number>();
  locations.forEach((l, i) => {
    const key = normalizePath(l.path);
    if (!rank.has(key)) rank.set(key, i);
  });
  let at = 0;
  implicit.forEach((m, i) => {
    const r = rank.get(normalizePath(m.location));
    if (r !== undefined && r <= locIndex) at = i + 1;
  });
  return at;
}

/**
 * The chain an application gets with this inventory (a draft's or the discovered one), in the
 * context's environment. When the override names override_paths, the loader searches explicit layers
 * only there; the editor does not re-discover those folders, so it says so in the notes.
 */
export function computeDraftChain(
  inventory: ManifestInventory,
  context: Pick<ChainContext, 'env' | 'loaderVersion' | 'settings'>,
  app: ChainApplication,
  config?: OverrideConfig | null,
): LayerChain {
  const chain = computeLayerChain({
    implicit: inventory.manifests.implicit_layer ?? [],
    explicit: inventory.manifests.explicit_layer ?? [],
    env: context.env,
    app,
    loaderVersion: context.loaderVersion,
    settings: context.settings ? chainSettingsFor(context.settings, app.path, context.loaderVersion) : null,
  });
  if (config?.overridePaths?.length)
    chain.notes.push(
      `the override's override_paths (${config.overridePaths.join(', ')}) limit where the loader looks for explicit layers; this preview lists the layers of the usual folders — Apply, then the Chain panel's strata explain shows the exact answer`,
    );
  return chain;
}

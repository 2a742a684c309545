import { layerOrderability, type LayerDraft, type Orderability } from '../../../shared/configurator/layer-draft';
import type { LayerChain } from '../../../shared/loader/chain';
import type { LayerControl } from '../../../shared/override/override-config';
import { OVERRIDE_LAYER_NAME } from '../../../shared/override/override-names';
import { matchesQuery, matchesType, queryWords, type LayerKind, type LayerRow, type LayerTypeFilter } from './layer-rows';

/**
 * The Layers editor's rows: the draft's layers in the draft's order, each with the manifest row
 * discovery gave (the first of its name; later copies follow it, shadowed), then the manifests the
 * draft cannot name (no readable layer, the override layer itself). Pure; unit-tested.
 */
export interface EditorRow {
  key: string;
  /** The layer's name; null for a manifest with no readable layer. */
  name: string | null;
  /** Discovery's row; null for a layer the draft names that discovery no longer finds. */
  row: LayerRow | null;
  kind: LayerKind;
  /** The draft's state for this layer; null: not a layer the editor controls (see `note`). */
  state: LayerControl | null;
  /** 0-based place in the draft (-1: not in it). */
  draftIndex: number;
  orderability: Orderability;
  vanished: boolean;
  /** Another manifest with this name is found first; this copy is never used (the path of that one). */
  shadowedBy: string | null;
  /** 1-based place in the chain shown, or null when it is not loaded. */
  chainPosition: number | null;
  /** Why a row has no state control, for people. */
  note: string | null;
  /** Why its place in the chain is not its place in this list (null: they agree, or it is not loaded). */
  chainOrder: ChainOrderNote | null;
}

export interface ChainOrderNote {
  /** A few words for the row's chip ("loader's order"). */
  short: string;
  /** The sentence, for the tooltip and the details pane. */
  full: string;
}

/**
 * Why a loaded layer's place in the chain differs from its place in the list: the list is the
 * draft's order, which only decides the order of the layers that are On (the override's
 * components). The loader puts implicit layers in its search order, the override's components where
 * the override layer falls among them, and the layers the application asks for after the implicit
 * ones, in the order asked (loader 1.3.239 loader_enable_instance_layers).
 */
export function chainOrderNote(kind: LayerKind, state: LayerControl | null, listPosition: number, chainPosition: number | null): ChainOrderNote | null {
  if (chainPosition === null || chainPosition === listPosition) return null;
  if (state === 'on')
    return {
      short: 'override’s place',
      full: `#${chainPosition} in the chain, #${listPosition} in this list: layers that are On load where the loader puts Strata’s override layer among the implicit layers; this list decides only their order among themselves.`,
    };
  if (kind === 'implicit')
    return {
      short: 'loader’s order',
      full: `#${chainPosition} in the chain, #${listPosition} in this list: the loader places implicit layers itself, in its search order.`,
    };
  return {
    short: 'asked by the app',
    full: `#${chainPosition} in the chain, #${listPosition} in this list: an application-controlled layer is loaded because the application (or VK_INSTANCE_LAYERS) asks for it, after the implicit layers, in the order asked.`,
  };
}

const FIXED: Orderability = { orderable: false, reason: null };

export function editorRows(rows: readonly LayerRow[], draft: LayerDraft, chain: LayerChain | null): EditorRow[] {
  const byName = new Map<string, LayerRow[]>();
  const rest: LayerRow[] = [];
  for (const r of rows) {
    const name = r.layer?.name;
    if (!name) {
      rest.push(r);
      continue;
    }
    const list = byName.get(name);
    if (list) list.push(r);
    else byName.set(name, [r]);
  }
  const placeInChain = new Map<string, number>();
  chain?.chain.forEach((e, i) => placeInChain.set(`${e.name}\0${e.manifest}`, i + 1));
  const vanished = new Set(draft.vanished);
  const out: EditorRow[] = [];
  draft.config.layers.forEach((layer, draftIndex) => {
    const found = byName.get(layer.name);
    byName.delete(layer.name);
    if (!found) {
      out.push({
        key: `vanished:${layer.name}`,
        name: layer.name,
        row: null,
        kind: 'explicit',
        state: layer.state,
        draftIndex,
        orderability: layerOrderability({ implicit: false, state: layer.state, vanished: true }),
        vanished: vanished.has(layer.name),
        shadowedBy: null,
        chainPosition: null,
        chainOrder: null,
        note: 'Discovery no longer finds this layer; while Strata’s override names it, the loader drops the whole override (a missing component).',
      });
      return;
    }
    const first = found[0]!;
    found.forEach((r, i) => {
      out.push({
        key: r.key,
        name: layer.name,
        row: r,
        kind: r.kind,
        state: i === 0 ? layer.state : null,
        draftIndex,
        orderability: i === 0 ? layerOrderability({ implicit: r.kind === 'implicit', state: layer.state }) : FIXED,
        vanished: false,
        shadowedBy: i === 0 ? null : first.manifest.path,
        chainPosition: placeInChain.get(`${layer.name}\0${r.manifest.path}`) ?? null,
        chainOrder: i === 0 ? chainOrderNote(r.kind, layer.state, draftIndex + 1, placeInChain.get(`${layer.name}\0${r.manifest.path}`) ?? null) : null,
        note: i === 0 ? null : `Shadowed: the loader uses the copy in ${first.manifest.path}, found first`,
      });
    });
  });
  // Names the draft cannot hold (the override layer, names with spaces) and files with no layer.
  for (const list of byName.values()) rest.push(...list);
  rest.sort((a, b) => (a.kind === b.kind ? a.manifest.order - b.manifest.order : a.kind === 'implicit' ? -1 : 1));
  for (const r of rest)
    out.push({
      key: r.key,
      name: r.layer?.name ?? null,
      row: r,
      kind: r.kind,
      state: null,
      draftIndex: -1,
      orderability: FIXED,
      vanished: false,
      shadowedBy: null,
      chainPosition: r.layer?.name ? (placeInChain.get(`${r.layer.name}\0${r.manifest.path}`) ?? null) : null,
      chainOrder: null,
      note: !r.layer
        ? 'No layer could be read from this manifest, so there is nothing to switch on or off'
        : r.layer.name === OVERRIDE_LAYER_NAME
          ? 'The override layer itself: Strata writes it from the states chosen here'
          : 'This name cannot be put in an override file (it has a space or is empty)',
    });
  return out;
}

/** The rows the filter shows: the query matches a vanished layer by its name. */
export function filterEditorRows(rows: readonly EditorRow[], query: string, type: LayerTypeFilter): EditorRow[] {
  const words = queryWords(query);
  return rows.filter((r) => {
    if (r.row) return matchesType(r.row, type) && matchesQuery(r.row, words);
    if (type === 'implicit' || type === 'meta') return false;
    return words.every((w) => r.name!.toLowerCase().includes(w));
  });
}

/** "VK_LAYER_X moved to position 3 of 7" (what the live region says after a move). */
export function moveAnnouncement(name: string, place: { position: number; total: number }): string {
  return `${name} moved to position ${place.position} of ${place.total}`;
}

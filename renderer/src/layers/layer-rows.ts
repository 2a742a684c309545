import type { DiscoveredManifest, LayerSummary, ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import { countSeverities, type SeverityCounts } from '../problems/diagnostic-severity';

/** How the Layers panel classes a layer: where the loader found it, or a meta-layer (components, no library). */
export type LayerKind = 'implicit' | 'explicit';
export type LayerTypeFilter = 'all' | 'implicit' | 'explicit' | 'meta';

export const LAYER_TYPE_FILTERS: readonly LayerTypeFilter[] = ['all', 'implicit', 'explicit', 'meta'];
export const LAYER_TYPE_FILTER_LABELS: Readonly<Record<LayerTypeFilter, string>> = {
  all: 'All',
  implicit: 'Implicit',
  explicit: 'Explicit',
  meta: 'Meta',
};

/** One row of the Layers list: a layer of a manifest, or a manifest from which no layer could be read. */
export interface LayerRow {
  key: string;
  kind: LayerKind;
  /** null when the manifest defines no layer Strata could read (broken JSON, not a manifest, unreadable). */
  layer: LayerSummary | null;
  manifest: DiscoveredManifest;
  /** The layer's diagnostics are its manifest's: lint reports per file. */
  counts: SeverityCounts;
  /** 1-based place among the manifests of its kind, in the loader's order. */
  position: number;
}

/** Every layer in the loader's order: implicit manifests first, then explicit, `order` within each. */
export function layerRows(inventory: ManifestInventory): LayerRow[] {
  const rows: LayerRow[] = [];
  for (const [kind, manifestKind] of [
    ['implicit', 'implicit_layer'],
    ['explicit', 'explicit_layer'],
  ] as const) {
    const manifests = [...(inventory.manifests[manifestKind] ?? [])].sort((a, b) => a.order - b.order);
    for (const manifest of manifests) {
      const counts = countSeverities(manifest.diagnostics);
      const base = { kind, manifest, counts, position: manifest.order + 1 };
      // Keyed by path, not place: a draft's override put into the list moves the places after it,
      // and the selection must stay on its layer. A file the loader reads twice gets its place too.
      const file = `${manifestKind}:${manifest.path}${manifest.duplicateOf === null ? '' : `@${manifest.order}`}`;
      if (manifest.layers.length === 0) rows.push({ ...base, key: `${file}:-`, layer: null });
      manifest.layers.forEach((layer, i) => rows.push({ ...base, key: `${file}:${i}`, layer }));
    }
  }
  return rows;
}

export function matchesType(row: LayerRow, filter: LayerTypeFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'meta') return row.layer?.meta === true;
  return row.kind === filter;
}

/** A filter query's words, lower-case: split once per filtering, not once per row (1,000 rows a keystroke). */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Every word of the query (queryWords) must appear (case-insensitive) in the layer's name, its
 * manifest's path or its description: "khronos valid" finds VK_LAYER_KHRONOS_validation.
 */
export function matchesQuery(row: LayerRow, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const haystack = [row.layer?.name, row.manifest.path, row.layer?.description]
    .filter((s): s is string => !!s)
    .join('\n')
    .toLowerCase();
  return words.every((w) => haystack.includes(w));
}

export function filterLayerRows(rows: readonly LayerRow[], query: string, type: LayerTypeFilter): LayerRow[] {
  const words = queryWords(query);
  return rows.filter((r) => matchesType(r, type) && matchesQuery(r, words));
}

/** How many rows each type filter would show (for the counts on the filter's buttons). */
export function typeCounts(rows: readonly LayerRow[]): Record<LayerTypeFilter, number> {
  return {
    all: rows.length,
    implicit: rows.filter((r) => matchesType(r, 'implicit')).length,
    explicit: rows.filter((r) => matchesType(r, 'explicit')).length,
    meta: rows.filter((r) => matchesType(r, 'meta')).length,
  };
}

/**
 * `/` focuses the filter box, as in many list UIs, unless the user is typing somewhere already or
 * holds a modifier (Shift is allowed: some layouts need it for "/").
 */
export function isFilterShortcut(event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean }, targetIsEditable: boolean): boolean {
  return event.key === '/' && !event.altKey && !event.ctrlKey && !event.metaKey && !targetIsEditable;
}

/** A layer's display name; a manifest with no readable layer is named by its file. */
export function rowTitle(row: LayerRow): string {
  if (!row.layer) return row.manifest.path.slice(row.manifest.path.lastIndexOf('/') + 1);
  return row.layer.name ?? '(unnamed layer)';
}

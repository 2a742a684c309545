import type { DiscoveredManifest, ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import type { ManifestKind } from '../../../shared/loader/search-paths';
import { countSeverities, messageText, severityName, splitFix, SEVERITY_ORDER, type SeverityCounts } from './diagnostic-severity';

type InventoryDiagnostic = DiscoveredManifest['diagnostics'][number];

/** One diagnostic as a row of the Problems list; `index` is its place in the manifest's own list. */
export interface ProblemRow {
  key: string;
  path: string;
  index: number;
  diagnostic: InventoryDiagnostic;
}

/** The diagnostics of one manifest file. */
export interface ProblemGroup {
  path: string;
  kind: ManifestKind;
  origin: string;
  counts: SeverityCounts;
  rows: ProblemRow[];
}

/** Files in the loader's order: implicit layers, explicit layers, then drivers (as `strata lint` prints them). */
export const KIND_ORDER: readonly ManifestKind[] = ['implicit_layer', 'explicit_layer', 'driver'];

export const problemKey = (path: string, index: number) => `${path}#${index}`;

export function manifestsInLoaderOrder(inventory: ManifestInventory): DiscoveredManifest[] {
  return KIND_ORDER.flatMap((kind) => [...(inventory.manifests[kind] ?? [])].sort((a, b) => a.order - b.order));
}

const severityRank = (d: InventoryDiagnostic) => SEVERITY_ORDER.indexOf(severityName(d.severity));

/**
 * The Problems list: one group per manifest with diagnostics, in loader order; inside a file the
 * worst first, then by position, as an editor's problem list sorts them.
 */
export function groupProblems(inventory: ManifestInventory): ProblemGroup[] {
  return manifestsInLoaderOrder(inventory)
    .filter((m) => m.diagnostics.length > 0)
    .map((m) => ({
      path: m.path,
      kind: m.kind,
      origin: m.origin,
      counts: countSeverities(m.diagnostics),
      rows: m.diagnostics
        .map((diagnostic, index) => ({ key: problemKey(m.path, index), path: m.path, index, diagnostic }))
        .sort(
          (a, b) =>
            severityRank(a.diagnostic) - severityRank(b.diagnostic) ||
            a.diagnostic.range.start.line - b.diagnostic.range.start.line ||
            a.diagnostic.range.start.character - b.diagnostic.range.start.character ||
            a.index - b.index,
        ),
    }));
}

export function totalCounts(groups: readonly ProblemGroup[]): SeverityCounts {
  return countSeverities(groups.flatMap((g) => g.rows.map((r) => r.diagnostic)));
}

export function manifestCount(inventory: ManifestInventory): number {
  return KIND_ORDER.reduce((n, kind) => n + (inventory.manifests[kind]?.length ?? 0), 0);
}

/** The rows in the order they are drawn: what arrow keys walk through. */
export function flatRows(groups: readonly ProblemGroup[]): ProblemRow[] {
  return groups.flatMap((g) => g.rows);
}

/** The manifest and diagnostic a problem key names, or null when a refresh made it disappear. */
export function findProblem(inventory: ManifestInventory, key: string): { manifest: DiscoveredManifest; diagnostic: InventoryDiagnostic } | null {
  for (const manifest of manifestsInLoaderOrder(inventory)) {
    const index = manifest.diagnostics.findIndex((_, i) => problemKey(manifest.path, i) === key);
    if (index >= 0) return { manifest, diagnostic: manifest.diagnostics[index]! };
  }
  return null;
}

/** "/usr/share/vulkan/icd.d/x.json" → { folder: "/usr/share/vulkan/icd.d/", name: "x.json" }. */
export function splitPath(path: string): { folder: string; name: string } {
  const at = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return { folder: path.slice(0, at + 1), name: path.slice(at + 1) };
}

export const KIND_LABELS: Readonly<Record<ManifestKind, string>> = {
  implicit_layer: 'Implicit layer',
  explicit_layer: 'Explicit layer',
  driver: 'Driver',
};

export type ProblemOrder = 'loader' | 'severity';

export const PROBLEM_ORDER_LABELS: Readonly<Record<ProblemOrder, string>> = {
  loader: 'Loader order',
  severity: 'Severity, worst first',
};

/** The worst severity in a group, as a rank (0 = error). */
const worst = (g: ProblemGroup) => SEVERITY_ORDER.findIndex((s) => g.counts[s] > 0);

/**
 * The groups in the order the user picked: the loader's (as `strata lint`), or the worst first — files
 * with errors before files with only warnings, more of the worst kind first, the loader's order on ties.
 */
export function sortGroups(groups: readonly ProblemGroup[], order: ProblemOrder): ProblemGroup[] {
  if (order === 'loader') return [...groups];
  return groups
    .map((g, i) => ({ g, i }))
    .sort((a, b) => worst(a.g) - worst(b.g) || b.g.counts[SEVERITY_ORDER[worst(b.g)]!] - a.g.counts[SEVERITY_ORDER[worst(a.g)]!] || a.i - b.i)
    .map(({ g }) => g);
}

/**
 * A file's group height in pixels before it has been on screen (the virtualised list replaces it by
 * the measured one): the header, and per row its padding, the message and fix lines at
 * `columns` characters a line, and the code line. Must follow problems.css (8px padding and 13px
 * text in the header, 10px padding, 13px text with ~19.5px lines and a 22px meta line per row).
 */
export function estimateGroupHeight(group: ProblemGroup, columns: number): number {
  const width = Math.max(20, Math.floor(columns));
  const lines = (text: string) => Math.max(1, Math.ceil(text.length / width));
  let height = 37;
  for (const row of group.rows) {
    const { text, fix } = splitFix(messageText(row.diagnostic.message));
    height += 21 + 19.5 * lines(text) + (fix === null ? 0 : 4 + 19.5 * lines(`Fix: ${fix}`)) + 22;
  }
  return Math.round(height);
}

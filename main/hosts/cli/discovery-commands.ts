import { DiagnosticSeverity } from '../../../shared/lint/diagnostic-severity';
import type { DiscoveredManifest, ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import type { FileDiagnostics } from '../../../shared/lint/diagnostic-schema';
import { formatTable, severityName } from './cli-output';

function problemsCell(m: DiscoveredManifest): string {
  const errors = m.diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).length;
  const warnings = m.diagnostics.filter((d) => d.severity === DiagnosticSeverity.Warning).length;
  return (
    [errors ? `${errors} error${errors > 1 ? 's' : ''}` : '', warnings ? `${warnings} warning${warnings > 1 ? 's' : ''}` : ''].filter(Boolean).join(', ') ||
    'ok'
  );
}

export type LayerFilter = 'all' | 'implicit' | 'explicit';

/** `strata layer list`: one row per layer, in the loader's order, implicit before explicit. */
export function formatLayers(inv: ManifestInventory, filter: LayerFilter = 'all'): string {
  const kinds =
    filter === 'implicit'
      ? (['implicit_layer'] as const)
      : filter === 'explicit'
        ? (['explicit_layer'] as const)
        : (['implicit_layer', 'explicit_layer'] as const);
  const rows: string[][] = [];
  for (const kind of kinds)
    for (const m of inv.manifests[kind]) {
      const type = kind === 'implicit_layer' ? 'implicit' : 'explicit';
      if (m.layers.length === 0) rows.push(['—', type, '', '', m.origin, problemsCell(m), m.path]);
      for (const l of m.layers)
        rows.push([
          l.name ?? '(no name)',
          l.meta ? `${type} meta` : type,
          l.apiVersion ?? '',
          l.implementationVersion ?? '',
          m.origin,
          problemsCell(m),
          m.path,
        ]);
    }
  if (rows.length === 0) return 'No layer manifests found. Run `strata path list` to see where the loader looks.';
  return formatTable(['NAME', 'TYPE', 'API', 'VERSION', 'ORIGIN', 'PROBLEMS', 'MANIFEST'], rows);
}

/** `strata driver list`: one row per driver manifest, in the loader's order. */
export function formatDrivers(inv: ManifestInventory): string {
  const rows = inv.manifests.driver.map((m) => [
    m.driver?.libraryPath ?? '—',
    m.driver?.apiVersion ?? '',
    m.driver?.isPortabilityDriver ? 'yes' : '',
    m.origin,
    problemsCell(m),
    m.path,
  ]);
  // What vk_loader_settings.json does to the list (additional_drivers and the rest: shared/loader/settings-drivers.ts).
  const notes = (inv.driverNotes ?? []).map((n) => `note: ${n}`);
  if (rows.length === 0) return ['No driver manifests found. Run `strata path list` to see where the loader looks.', ...notes].join('\n');
  return [formatTable(['LIBRARY', 'API', 'PORTABILITY', 'ORIGIN', 'PROBLEMS', 'MANIFEST'], rows), ...notes].join('\n');
}

/** Compiler-style lines (`path:line:col: error [code] message`, 1-based) and a count. */
export function formatLint(results: readonly FileDiagnostics[]): string {
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (const r of results)
    for (const d of r.diagnostics) {
      if (d.severity === DiagnosticSeverity.Error) errors++;
      if (d.severity === DiagnosticSeverity.Warning) warnings++;
      const message = typeof d.message === 'string' ? d.message : d.message.value;
      lines.push(`${r.uri}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${severityName(d.severity)} [${String(d.code)}] ${message}`);
    }
  lines.push(
    `${results.length} file${results.length === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`,
  );
  return lines.join('\n');
}

export function inventoryAsLint(inv: ManifestInventory): FileDiagnostics[] {
  return [...inv.manifests.implicit_layer, ...inv.manifests.explicit_layer, ...inv.manifests.driver].map((m) => ({ uri: m.path, diagnostics: m.diagnostics }));
}

export const lintHasErrors = (results: readonly FileDiagnostics[]) => results.some((r) => r.diagnostics.some((d) => d.severity === DiagnosticSeverity.Error));

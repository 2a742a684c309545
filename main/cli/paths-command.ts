import { formatTable } from './cli-output';
import type { DiscoveryPaths, LocationStatus, ManifestKind } from '../../shared/loader/search-paths';

const TITLE: Record<ManifestKind, string> = {
  implicit_layer: 'Implicit layers',
  explicit_layer: 'Explicit layers',
  driver: 'Drivers',
};

function existsMark(l: LocationStatus): string {
  if (l.exists === null) return '?';
  return l.exists ? 'yes' : 'no';
}

/** `strata paths`: one table per kind — order, exists, path, origin (with the dropped duplicates). */
export function formatDiscoveryPaths(paths: DiscoveryPaths): string {
  const out: string[] = [];
  if (paths.elevated) out.push('Running elevated: VK_* and XDG_* variables are ignored, as the loader ignores them.', '');
  for (const kind of ['implicit_layer', 'explicit_layer', 'driver'] as const) {
    const rows = paths.locations[kind].map((l, i) => {
      const origin = l.origin + (l.source === 'default' ? ' (default)' : '') + (l.alsoFrom.length ? `, also ${l.alsoFrom.join(', ')}` : '');
      return [String(i + 1), existsMark(l), l.entry === 'file' ? `${l.path} (file)` : l.path, origin] as const;
    });
    out.push(`${TITLE[kind]}:`, formatTable(['#', 'exists', 'path', 'origin'], rows, '  '), '');
  }
  return out.join('\n').trimEnd();
}

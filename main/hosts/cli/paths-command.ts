import { formatTable } from './cli-output';
import type { DiscoveryPaths, LocationStatus, ManifestKind } from '../../../shared/loader/search-paths';

const TITLE: Record<ManifestKind, string> = {
  implicit_layer: 'Implicit layers',
  explicit_layer: 'Explicit layers',
  driver: 'Drivers',
};

function existsMark(l: LocationStatus): string {
  if (l.exists === null) return '?';
  return l.exists ? 'yes' : 'no';
}

/** `strata path list`: one table per kind — order, exists, path, origin (with the dropped duplicates). */
export function formatDiscoveryPaths(paths: DiscoveryPaths): string {
  const out: string[] = [];
  if (paths.elevated)
    out.push(
      // "Exception for Elevated Privileges": the loader reads these through secure_getenv, which answers nothing when elevated.
      `Elevated: the loader ignores VK_LAYER_PATH, VK_ADD_LAYER_PATH, VK_DRIVER_FILES, VK_ICD_FILENAMES, VK_ADD_DRIVER_FILES${
        paths.platform.os === 'windows' ? ' and the HKEY_CURRENT_USER keys' : ', the XDG_* variables and the home folders'
      }.`,
      // Windows: is_high_integrity() — an Administrator's elevated process, and every process under Wine.
      ...(paths.platform.os === 'windows'
        ? [
            '(On Windows the loader counts a process as elevated when its integrity level is High or above: "Run as administrator", a service, and every process under Wine.)',
          ]
        : []),
      '',
    );
  for (const kind of ['implicit_layer', 'explicit_layer', 'driver'] as const) {
    const rows = paths.locations[kind].map((l, i) => {
      const origin = l.origin + (l.source === 'default' ? ' (default)' : '') + (l.alsoFrom.length ? `, also ${l.alsoFrom.join(', ')}` : '');
      return [String(i + 1), existsMark(l), l.entry === 'file' ? `${l.path} (file)` : l.path, origin] as const;
    });
    out.push(`${TITLE[kind]}:`, formatTable(['#', 'exists', 'path', 'origin'], rows, '  '), '');
  }
  return out.join('\n').trimEnd();
}

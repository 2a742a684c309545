import type { ChainSettingsSource } from './chain-settings-schema';
import type { ChainManifest, ChainSettingsInput } from './chain-schema';
import { readLoaderSettings, settingsObjects } from './loader-settings-file';

export type { ChainSettingsSource } from './chain-settings-schema';

/** How many manifests a settings file may name before the rest are left unread (hostile files). */
export const SETTINGS_MANIFEST_LIMIT = 256;

/** The file as this loader reads it for the application at `appPath`. */
export function chainSettingsFor(source: ChainSettingsSource, appPath: string | null, loaderVersion: string | null): ChainSettingsInput {
  const manifests = new Map<string, ChainManifest | null>(source.manifests.map((m) => [m.path, m]));
  if (source.text === null) return { path: source.path, read: { active: false, why: source.why ?? 'it cannot be read' }, manifests };
  return { path: source.path, read: readLoaderSettings(source.text, appPath, loaderVersion), manifests };
}

/** Every manifest path the file's layer entries name, in any entry, once each (at most SETTINGS_MANIFEST_LIMIT). */
export function settingsManifestPaths(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const out = new Set<string>();
  const objects = typeof json === 'object' && json !== null && !Array.isArray(json) ? (settingsObjects(json as Record<string, unknown>) ?? []) : [];
  for (const o of objects) {
    const layers = (o as { layers?: unknown } | null)?.layers;
    if (!Array.isArray(layers)) continue;
    for (const l of layers) {
      const p = (l as { path?: unknown } | null)?.path;
      if (typeof p === 'string' && out.size < SETTINGS_MANIFEST_LIMIT) out.add(p);
    }
  }
  return [...out];
}

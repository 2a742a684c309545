import type { ManifestInventory } from '../discovery/manifest-inventory';
import type { LayerSettingsDescription } from './setting-types';
import { layerSettingsFromManifest } from './settings-schema';

/**
 * A layer's settings description, found in discovery's answer: the first manifest (implicit layers,
 * then explicit ones, each in the loader's order) that defines a layer of that name; a file read
 * twice or unreadable is skipped. Pure.
 */
export interface DescribedLayer {
  description: LayerSettingsDescription;
  manifestPath: string;
  manifestText: string;
}

export function findLayerDescription(inventory: ManifestInventory, layerName: string): DescribedLayer | null {
  for (const kind of ['implicit_layer', 'explicit_layer'] as const)
    for (const m of inventory.manifests[kind] ?? []) {
      if (m.text === null || m.duplicateOf !== null || !m.layers.some((l) => l.name === layerName)) continue;
      const description = layerSettingsFromManifest(m.text, layerName);
      if (description) return { description, manifestPath: m.path, manifestText: m.text };
    }
  return null;
}

/** Every layer name discovery found, once each, for "did you mean" and listings. */
export function discoveredLayerNames(inventory: ManifestInventory): string[] {
  const names = new Set<string>();
  for (const kind of ['implicit_layer', 'explicit_layer'] as const)
    for (const m of inventory.manifests[kind] ?? []) for (const l of m.layers) if (l.name) names.add(l.name);
  return [...names];
}

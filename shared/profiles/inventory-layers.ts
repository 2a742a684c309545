import type { ManifestInventory } from '../discovery/manifest-inventory';

/**
 * The layers of a discovery inventory by name, as profiles need them: where the first manifest of
 * that name is (lookups by name take the first, LoaderLayerInterface "Layer Manifest File Format"),
 * whether it is implicit, and its enable / disable variables. Pure; built from what discovery sent.
 */
export interface InventoryLayer {
  name: string;
  implicit: boolean;
  meta: boolean;
  manifest: string;
  enableEnvironment: string[];
  disableEnvironment: string[];
}

export type InventoryLayers = Map<string, InventoryLayer>;

/** Implicit layers first, then explicit, each in the loader's order; the first of a name wins. */
export function inventoryLayers(inventory: Pick<ManifestInventory, 'manifests'> | null | undefined): InventoryLayers {
  const out: InventoryLayers = new Map();
  if (!inventory) return out;
  for (const kind of ['implicit_layer', 'explicit_layer'] as const)
    for (const m of [...(inventory.manifests[kind] ?? [])].sort((a, b) => a.order - b.order))
      for (const l of m.layers) {
        if (!l.name || out.has(l.name)) continue;
        out.set(l.name, {
          name: l.name,
          implicit: kind === 'implicit_layer',
          meta: l.meta,
          manifest: m.path,
          enableEnvironment: l.enableEnvironment,
          disableEnvironment: l.disableEnvironment,
        });
      }
  return out;
}

/** Driver manifests in the loader's order (their file names are what the driver filters match). */
export function inventoryDrivers(inventory: Pick<ManifestInventory, 'manifests'> | null | undefined): string[] {
  return (inventory?.manifests.driver ?? []).filter((m) => m.problem === null).map((m) => m.path);
}

export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

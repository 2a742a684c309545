import type { ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import { flattenSettings, type LayerSettingsDescription } from '../../../shared/settings/setting-types';
import { layerSettingsFromManifest, mayDescribeSettings } from '../../../shared/settings/settings-schema';

/** A layer's settings description as its manifest text gives it, and how many settings (not groups) it describes. */
interface KeptDescription {
  description: LayerSettingsDescription | null;
  described: number;
}

/** Texts kept at most (a refresh that changes every manifest starts again rather than growing without end). */
const MAX_TEXTS = 512;

/**
 * Each manifest's settings descriptions, by text and layer name: parsed once per text, however often
 * the Settings view opens or its list is worked out again (issue #19: switching to a view not yet
 * opened). A real layer's description is large (the Khronos validation layer's: ~15–25 ms to read
 * on a loaded machine), and the view parsed it again at each opening. Pure input, pure output:
 * callers read a description and never change it.
 */
const kept = new Map<string, Map<string, KeptDescription>>();

/** `layerSettingsFromManifest(text, layerName)`, kept. */
export function settingsDescription(text: string, layerName: string): KeptDescription {
  let byName = kept.get(text);
  const hit = byName?.get(layerName);
  if (hit) return hit;
  const description = layerSettingsFromManifest(text, layerName);
  const described = description?.described ? flattenSettings(description.settings).filter((s) => s.type !== 'GROUP').length : 0;
  const entry = { description, described };
  if (!byName) {
    if (kept.size >= MAX_TEXTS) kept.clear();
    kept.set(text, (byName = new Map()));
  }
  byName.set(layerName, entry);
  return entry;
}

const NONE: KeptDescription = { description: null, described: 0 };

/** What the Settings view's list needs of one layer: nothing to parse when the text cannot hold settings. */
export function listedDescription(text: string, layerName: string): KeptDescription {
  return mayDescribeSettings(text) ? settingsDescription(text, layerName) : NONE;
}

/**
 * Reads the descriptions of every discovered layer whose manifest may hold settings, so that opening
 * the Settings view finds them read (panel-views.ts calls it while the page is idle, after the first view).
 */
export function readDescriptionsAhead(inventory: ManifestInventory): void {
  for (const kind of ['implicit_layer', 'explicit_layer'] as const)
    for (const m of inventory.manifests[kind] ?? []) {
      if (m.text === null) continue;
      for (const l of m.layers) if (l.name) listedDescription(m.text, l.name);
    }
}

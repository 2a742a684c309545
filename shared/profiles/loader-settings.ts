import type { ManifestInventory } from '../discovery/manifest-inventory';
import { strataError, type StrataError } from '../errors/strata-error';
import { inventoryDrivers, inventoryLayers } from './inventory-layers';
import { LOADER_FEATURES, loaderAtLeast } from './loader-features';
import { chooseDrivers } from './loader-filters';
import type { Profile } from './profile-schema';
import { SETTINGS_FILE_NAME, settingsFileSearch } from '../loader/settings-file-locations';
import type { Environment } from '../loader/xdg-directories';
import { OVERRIDE_LAYER_NAME } from '../override/override-names';

/**
 * The loader settings file, vk_loader_settings.json, for loaders that read it (1.3.251+; Debian's
 * 1.3.239 does not): one settings object per group of applications (app_keys) plus an optional
 * global one, each with its layer configurations in order, where "unordered_layer_location" is
 * vkconfig's application layers position: every layer the file does not name goes there. How each
 * loader reads it is shared/loader/settings-chain.ts, proven against the six real loaders by
 * tests/integration/chain-vs-loader.test.ts; what Strata writes here by profile-bindings-matrix.
 *
 *   { "file_format_version": "1.0.0",
 *     "settings_array": [ { "app_keys": ["/usr/bin/app"], "stderr_log": ["error"],
 *                           "layers": [ { "control": "on", "name": "VK_LAYER_X", "path": "/…/x.json",
 *                                         "treat_as_implicit_manifest": false },
 *                                       { "control": "unordered_layer_location" } ] } ] }
 */
export const LOADER_SETTINGS_FILE_NAME = SETTINGS_FILE_NAME;

export interface LoaderSettingsEntry {
  profile: Profile;
  /** Executables (full paths) this entry is for; null: every application (the global entry). */
  appKeys: string[] | null;
}

export interface LoaderSettingsContext {
  inventory: Pick<ManifestInventory, 'manifests'> | null;
  loaderVersion: string;
}

export type LoaderSettingsResult = { ok: true; text: string; json: unknown; notes: string[] } | { ok: false; error: StrataError };

/** The folder under $HOME/.local/share/vulkan (searched first), $XDG_DATA_HOME/vulkan and /etc/vulkan. */
export function loaderSettingsFolder(loaderVersion: string): string {
  return loaderAtLeast(loaderVersion, LOADER_FEATURES.settingsFolderRenamed) ? 'loader_settings.d' : 'settings.d';
}

/**
 * Where a user's file goes: the first place this loader version looks (settings-file-locations.ts):
 * $HOME/.local/share/vulkan/… before 1.4.324; $XDG_CONFIG_HOME (else ~/.config)/vulkan/… from 1.4.324,
 * which does not look in ~/.local/share when XDG_DATA_HOME is set.
 */
export function loaderSettingsPath(home: string, loaderVersion: string, env: Environment = {}): string {
  const first = settingsFileSearch({ env: { ...env, HOME: home }, loaderVersion })[0];
  return first ?? `${home.replace(/\/+$/, '')}/.local/share/vulkan/${loaderSettingsFolder(loaderVersion)}/${LOADER_SETTINGS_FILE_NAME}`;
}

function entryObject(entry: LoaderSettingsEntry, context: LoaderSettingsContext, notes: string[]): Record<string, unknown> {
  const layers = inventoryLayers(context.inventory);
  const p = entry.profile;
  const configs: Record<string, unknown>[] = [];
  const at = p.applicationLayersAt ?? p.layers.length;
  p.layers.forEach((l, i) => {
    if (i === at) configs.push({ control: 'unordered_layer_location' });
    if (l.state === 'auto') return;
    const found = layers.get(l.name);
    // Each configuration needs the manifest's path (settings.c parse_layer_configuration fails without it).
    if (!found) {
      notes.push(`"${p.name}": ${l.name} is not installed here, so the settings file cannot name its manifest; it is left out`);
      return;
    }
    configs.push({ control: l.state, name: l.name, path: found.manifest, treat_as_implicit_manifest: found.implicit });
  });
  if (at >= p.layers.length) configs.push({ control: 'unordered_layer_location' });
  // A bound application gets its profile instead of the global one, as with override layers scoped by
  // app_keys: every installed override meta-layer (Strata's global one included) is turned off for it,
  // or "unordered_layer_location" would let it in beside the profile (seen on loaders 1.3.275–1.4.359:
  // tests/integration/profile-bindings-matrix.test.ts).
  if (entry.appKeys)
    for (const path of overrideManifests(context.inventory))
      if (!p.layers.some((l) => l.name === OVERRIDE_LAYER_NAME))
        configs.unshift({ control: 'off', name: OVERRIDE_LAYER_NAME, path, treat_as_implicit_manifest: true });
  const out: Record<string, unknown> = {};
  if (entry.appKeys) out['app_keys'] = entry.appKeys;
  out['layers'] = configs;
  if (p.loaderMessages?.length) out['stderr_log'] = [...p.loaderMessages];
  const d = p.drivers;
  if (d && (d.select?.length || d.disable?.length || d.order?.length)) {
    if (loaderAtLeast(context.loaderVersion, LOADER_FEATURES.settingsDrivers)) {
      const kept = chooseDrivers(d, inventoryDrivers(context.inventory)).filter((c) => c.kept);
      out['additional_drivers_use_exclusively'] = true;
      out['additional_drivers'] = kept.map((c) => ({ path: c.path }));
      if (d.order?.length)
        notes.push(
          `"${p.name}": the driver order is written as the order of additional_drivers; the loader orders physical devices only through device_configurations (device UUIDs), which Strata does not write`,
        );
    } else
      notes.push(
        `"${p.name}": loader ${context.loaderVersion} reads no driver section from the settings file (${LOADER_FEATURES.settingsDrivers}+); the driver choices apply to launches from Strata only`,
      );
  }
  return out;
}

/** Every implicit manifest that declares the override meta-layer, in the loader's order. */
function overrideManifests(inventory: Pick<ManifestInventory, 'manifests'> | null): string[] {
  return (inventory?.manifests.implicit_layer ?? []).filter((m) => m.layers.some((l) => l.name === OVERRIDE_LAYER_NAME)).map((m) => m.path);
}

export function buildLoaderSettings(entries: readonly LoaderSettingsEntry[], context: LoaderSettingsContext): LoaderSettingsResult {
  if (!loaderAtLeast(context.loaderVersion, LOADER_FEATURES.settingsFile))
    return {
      ok: false,
      error: strataError(
        'profile/loader-settings-unsupported',
        `Loader ${context.loaderVersion} does not read ${LOADER_SETTINGS_FILE_NAME} (loader ${LOADER_FEATURES.settingsFile} and later do)`,
        {
          where: 'vk_loader_settings.json',
          fix: 'Strata uses override layers with app_keys for this loader instead (`strata profile bind`)',
        },
      ),
    };
  const notes: string[] = [];
  // The loader uses the first global entry and the first entry whose app_keys name the executable.
  const ordered = [...entries.filter((e) => e.appKeys), ...entries.filter((e) => !e.appKeys).slice(0, 1)];
  const json = { file_format_version: '1.0.0', settings_array: ordered.map((e) => entryObject(e, context, notes)) };
  return { ok: true, text: `${JSON.stringify(json, null, 2)}\n`, json, notes };
}

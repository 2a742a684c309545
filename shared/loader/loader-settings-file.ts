import { excessiveNesting } from '../json/json-nesting';
import { loaderHas } from './loader-rules';
import { readSettingsDrivers, stderrLogFilters, type SettingsDrivers } from './settings-drivers';

/**
 * What a loader makes of a vk_loader_settings.json for one application: which settings object it
 * uses and the layer configurations in it (settings.c get_loader_settings, parse_layer_configurations
 * at each tag of the matrix). Pure: the caller found the file (settings-file-locations.ts) and reads it.
 *
 * - The object is the first of "settings_array" whose "app_keys" has the executable's path (strcmp;
 *   before 1.4.303 the last such object: `settings-first-app-match`), else the first without
 *   "app_keys". A single "settings" object is read as an array of one. No object: nothing is active.
 * - "layers" left out: before 1.4.309 the file is invalid and ignored; 1.4.309–1.4.335 the settings
 *   are active with no layer at all (the bug 002a13d8f fixed); from 1.4.336 the usual rules decide
 *   the layers (`settings-layers-optional`, `settings-layer-configurations`).
 * - 1.4.323–1.4.335: an entry with no stderr_log filter, layer entry, additional driver or device
 *   configuration ("layers": [] or left out) is not active, so the file is ignored
 *   (`settings-empty-entry-ignored`, found on builds of v1.4.322 and v1.4.323).
 * - A layer entry that is not an object, or lacks "control", or (unless it is the
 *   unordered_layer_location) "name" or "path": before 1.4.336 the whole file is ignored; from
 *   1.4.336 the layers are left to the usual rules while the rest of the file still applies.
 * - An unknown "control" string is "auto" (parse_control_string).
 */

export type SettingsControl = 'on' | 'off' | 'auto' | 'unordered_layer_location';

export interface SettingsLayerConfig {
  control: SettingsControl;
  /** Absent only for unordered_layer_location. */
  name: string | null;
  /** The manifest the loader reads for this layer (absent only for unordered_layer_location). */
  path: string | null;
  treatAsImplicit: boolean;
}

export type LoaderSettingsRead =
  | { active: false; why: string }
  | {
      active: true;
      /** Which object applies: "the entry for /usr/bin/app (settings_array[2])" or "the global entry (settings_array[0])". */
      entry: string;
      /** The layer configurations in order; null: the layers follow the usual rules. */
      layers: SettingsLayerConfig[] | null;
      /** The log filters stderr_log turns on (the names the loader knows, up to its first non-string). */
      stderrLog: string[];
      /** additional_drivers and device_configurations (settings-drivers.ts); null: this loader reads none. */
      drivers: SettingsDrivers | null;
    };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function controlOf(text: string): SettingsControl {
  return text === 'on' || text === 'off' || text === 'unordered_layer_location' ? text : 'auto';
}

/** One layer entry, or why the loader refuses it. */
function layerConfig(v: unknown, i: number): SettingsLayerConfig | string {
  if (!isObject(v)) return `layers[${i}] is not an object`;
  if (typeof v['control'] !== 'string') return `layers[${i}] has no "control" string`;
  const control = controlOf(v['control']);
  if (control === 'unordered_layer_location') return { control, name: null, path: null, treatAsImplicit: false };
  if (typeof v['name'] !== 'string') return `layers[${i}] has no "name" string`;
  if (typeof v['path'] !== 'string') return `layers[${i}] (${v['name']}) has no "path" string`;
  return { control, name: v['name'], path: v['path'], treatAsImplicit: v['treat_as_implicit_manifest'] === true };
}

/** The settings objects as the loader iterates them: "settings_array" (a non-array: none), else the single "settings"; null: neither. */
export function settingsObjects(json: Record<string, unknown>): unknown[] | null {
  const array = json['settings_array'];
  const single = json['settings'];
  return array !== undefined ? (Array.isArray(array) ? array : []) : single !== undefined ? [single] : null;
}

export function readLoaderSettings(text: string, exePath: string | null, loaderVersion: string | null): LoaderSettingsRead {
  if (!loaderHas(loaderVersion, 'settings-file')) return { active: false, why: 'this loader does not read a settings file' };
  if (excessiveNesting(text) !== null) return { active: false, why: 'it nests deeper than the loader parses' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { active: false, why: `it is not valid JSON (${(e as Error).message})` };
  }
  if (!isObject(json)) return { active: false, why: 'its top level is not an object' };
  if (typeof json['file_format_version'] !== 'string') return { active: false, why: 'it has no "file_format_version" string' };
  const objects = settingsObjects(json);
  const where = json['settings_array'] !== undefined ? (i: number) => `settings_array[${i}]` : () => 'settings';
  if (!objects) return { active: false, why: 'it has neither "settings" nor "settings_array"' };

  // The first entry whose app_keys name the executable (1.4.303+; before, the last such entry), else the first without app_keys.
  const firstMatch = loaderHas(loaderVersion, 'settings-first-app-match');
  let global: number | null = null;
  let chosen: number | null = null;
  for (const [i, o] of objects.entries()) {
    // An element that is not an object ends the search (1.4.309+ logs and breaks).
    if (!isObject(o)) break;
    const keys = o['app_keys'];
    if (keys === undefined) {
      global ??= i;
      continue;
    }
    if (exePath === null || !Array.isArray(keys) || !keys.includes(exePath)) continue;
    chosen = i;
    if (firstMatch) break;
  }
  const index = chosen ?? global;
  if (index === null) return { active: false, why: 'no entry names this application in app_keys and there is no global entry' };
  const o = objects[index] as Record<string, unknown>;
  const entry = chosen !== null ? `the entry for ${exePath} (${where(index)})` : `the global entry (${where(index)})`;
  const stderrLog = stderrLogFilters(o['stderr_log']);
  // get_loader_settings (1.4.323+): the settings are active only with log filters, layers, drivers or
  // devices; 1.4.323–1.4.335 count the layers only when there are some (002a13d8f).
  const drivers = (layersActive: boolean) => readSettingsDrivers(o, loaderVersion, stderrLog.length > 0 || layersActive);

  // 1.4.323–1.4.335: an entry with no log filter, layer entry, driver or device is not active at all, so the
  // file is ignored (`settings-empty-entry-ignored`); 1.4.336+ count a "layers" array even when it is empty.
  const ignoredAsEmpty = (d: SettingsDrivers | null, layerCount: number) =>
    loaderHas(loaderVersion, 'settings-empty-entry-ignored') &&
    !loaderHas(loaderVersion, 'settings-layer-configurations') &&
    !(d ? d.active : stderrLog.length > 0 || layerCount > 0);
  const empty = {
    active: false as const,
    why: `${entry} has no stderr_log filter, layer, additional driver or device configuration, so this loader ignores the file`,
  };

  const layers = o['layers'];
  if (layers === undefined) {
    if (!loaderHas(loaderVersion, 'settings-layers-optional')) return { active: false, why: `${entry} has no "layers", which this loader requires` };
    const d = drivers(false);
    if (ignoredAsEmpty(d, 0)) return empty;
    return { active: true, entry, layers: loaderHas(loaderVersion, 'settings-layer-configurations') ? null : [], stderrLog, drivers: d };
  }
  const list = Array.isArray(layers) ? layers : [];
  const configs: SettingsLayerConfig[] = [];
  for (const [i, v] of list.entries()) {
    const c = layerConfig(v, i);
    if (typeof c === 'string') {
      if (!loaderHas(loaderVersion, 'settings-layer-configurations')) return { active: false, why: `${c}, so this loader ignores the file` };
      return { active: true, entry, layers: null, stderrLog, drivers: drivers(false) };
    }
    configs.push(c);
  }
  const d = drivers(loaderHas(loaderVersion, 'settings-layer-configurations') || configs.length > 0);
  if (ignoredAsEmpty(d, configs.length)) return empty;
  return { active: true, entry, layers: configs, stderrLog, drivers: d };
}

/** Where an application's loader log on stderr takes its filters from. */
export type StderrLogSource = { source: 'environment' } | { source: 'settings'; filters: string[] };

/**
 * Which filters decide what the loader writes to stderr for an application (log.c loader_log,
 * settings.c update_global_loader_settings): an active settings entry's stderr_log filters replace
 * VK_LOADER_DEBUG; an active entry without any silences the log before 1.3.302
 * (`settings-stderr-log-fallback`: filters [] — fatal errors only) and leaves it to VK_LOADER_DEBUG after.
 */
export function stderrLogFor(read: LoaderSettingsRead | null, loaderVersion: string | null): StderrLogSource {
  if (!read?.active || (read.drivers !== null && !read.drivers.active)) return { source: 'environment' };
  if (read.stderrLog.length > 0) return { source: 'settings', filters: read.stderrLog };
  return loaderHas(loaderVersion, 'settings-stderr-log-fallback') ? { source: 'environment' } : { source: 'settings', filters: [] };
}

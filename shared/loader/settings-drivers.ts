import { loaderHas } from './loader-rules';

/**
 * What one settings object of vk_loader_settings.json does to the driver list and the physical
 * devices (settings.c parse_additional_drivers, parse_device_configurations, get_loader_settings;
 * loader.c loader_icd_scan, loader_settings_get_additional_driver_files). Pure: the caller chose
 * the object (loader-settings-file.ts) and scans the manifests.
 *
 * Found in the loader source and proven on the matrix builds (tests/integration/settings-drivers-vs-loader.test.ts):
 * - `settings-drivers` (1.4.323, 1d2a2fdb5): each "additional_drivers" path that ends in ".json" is
 *   put at the *front* of the driver manifest list, one after the other, so the file's last driver
 *   comes first; the list is whatever the usual search found (VK_DRIVER_FILES / VK_ICD_FILENAMES /
 *   VK_ADD_DRIVER_FILES included: the variables do not turn the file's drivers off, nor the file the
 *   variables). A path found twice is read twice. "additional_drivers_use_exclusively": true drops
 *   the searched list first (only a JSON `true`). The paths are used as written: a relative path is
 *   relative to the application's working directory.
 * - Quirks of the same code: only the *last* path's result is returned, so when the last path does
 *   not end in ".json" the scan stops with no driver at all (earlier such paths are just skipped);
 *   an element that is not an object, or has no "path" string, drops every additional driver (the
 *   "use exclusively" flag stays); the file's drivers only count when the settings are active, which
 *   needs stderr_log filters, layers, additional drivers or device configurations (so
 *   "use exclusively" alone does nothing, and with only "layers" it leaves no driver at all).
 * - `settings-device-configurations` (1.4.323, 1d2a2fdb5): a "device_configurations" entry turns the driver
 *   variables off (loader_settings_should_use_driver_environment_variables): VK_DRIVER_FILES,
 *   VK_ICD_FILENAMES and VK_ADD_DRIVER_FILES (the usual folders are searched) and the filters
 *   VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE,
 *   and makes vkEnumeratePhysicalDevices report only the listed devices, in the file's order,
 *   matched by deviceUUID (+ driverUUID + driverVersion from 1.4.329). Until 1.4.335 only a non-empty
 *   list counts; from 1.4.336 (002a13d8f) an empty list is active too: no device at all. A malformed
 *   entry is skipped, except before 1.4.358 when it is the last one: then no device at all.
 */

export interface SettingsAdditionalDriver {
  /** The path as written in the file. */
  path: string;
  /** Its index in "additional_drivers". */
  index: number;
}

export interface SettingsDeviceConfiguration {
  index: number;
  deviceName: string | null;
  /** 32 hex digits. */
  deviceUUID: string;
  /** 32 hex digits; null before 1.4.329, which matches on deviceUUID alone. */
  driverUUID: string | null;
  driverVersion: number | null;
}

export interface SettingsDrivers {
  /** The loader counts the settings as active (get_loader_settings, 1.4.323+: log filters, layers, drivers or devices). */
  active: boolean;
  /** The additional drivers the loader keeps, in the file's order (it lists them reversed). */
  additional: SettingsAdditionalDriver[];
  useExclusively: boolean;
  /** Why the loader dropped every additional driver (a malformed entry), or null. */
  dropped: string | null;
  /** device_configurations is active: the driver filters are off and the device list is the file's. */
  devicesActive: boolean;
  devices: SettingsDeviceConfiguration[];
  /** How many configurations vkEnumeratePhysicalDevices counts: before 1.4.358 the skipped malformed ones too (the array's length). */
  deviceCount: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The children cJSON iterates (cJSON_ArrayForEach): an array's items or an object's values. */
function children(v: unknown): unknown[] {
  return Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [];
}

/** The filters a "stderr_log" array turns on (settings.c parse_log_filters_from_strings); empty: none. */
export function stderrLogFilters(v: unknown): string[] {
  const known = new Set(['all', 'info', 'warn', 'perf', 'error', 'debug', 'layer', 'driver', 'validation']);
  const out: string[] = [];
  // loader_parse_json_array_of_strings stops at the first non-string but keeps what it read before.
  for (const s of children(v)) {
    if (typeof s !== 'string') break;
    if (known.has(s)) out.push(s);
  }
  return out;
}

const HEX = (n: number) => n.toString(16).padStart(2, '0');

/** A 16-number array of 0–255, as parse_uuid_array accepts it, in hex; null otherwise. */
function uuidOf(v: unknown): string | null {
  if (!Array.isArray(v) || v.length !== 16) return null;
  if (!v.every((x) => typeof x === 'number' && Number.isFinite(x) && Math.trunc(x) >= 0 && Math.trunc(x) <= 255)) return null;
  return (v as number[]).map((x) => HEX(Math.trunc(x))).join('');
}

function deviceConfigurations(
  o: Record<string, unknown>,
  loaderVersion: string | null,
): { active: boolean; devices: SettingsDeviceConfiguration[]; counted?: number } {
  const v = o['device_configurations'];
  if (v === undefined || !loaderHas(loaderVersion, 'settings-device-configurations')) return { active: false, devices: [] };
  const items = children(v);
  // An empty list: active from 1.4.336 (002a13d8f), which reports no device; before, nothing.
  if (items.length === 0) return { active: loaderHas(loaderVersion, 'settings-layer-configurations'), devices: [] };
  // driverUUID and driverVersion are required from 1.4.329 (74047e496); before, deviceUUID alone.
  const needsDriver = loaderHas(loaderVersion, 'settings-device-driver-uuid');
  const devices: SettingsDeviceConfiguration[] = [];
  let lastMalformed = false;
  for (const [index, d] of items.entries()) {
    // An element that is not an object fails the whole list (and leaves it inactive).
    if (!isObject(d)) return { active: false, devices: [] };
    const deviceUUID = uuidOf(d['deviceUUID']);
    const driverUUID = needsDriver ? uuidOf(d['driverUUID']) : null;
    const driverVersion = needsDriver && typeof d['driverVersion'] === 'number' ? Math.trunc(d['driverVersion']) : null;
    const ok = deviceUUID !== null && (!needsDriver || (driverUUID !== null && driverVersion !== null));
    // 1.4.323–1.4.324 stop at a malformed entry and drop the list (434131b09 skips it instead).
    if (!ok && !loaderHas(loaderVersion, 'settings-device-malformed-continue')) return { active: false, devices: [] };
    lastMalformed = !ok;
    if (ok) devices.push({ index, deviceName: typeof d['deviceName'] === 'string' ? d['deviceName'] : null, deviceUUID, driverUUID, driverVersion });
  }
  // Before 1.4.358 (89df12056) a malformed *last* entry left its error behind, which freed every
  // configuration: 1.4.336–1.4.357 keep the list active, so no device at all; before 1.4.336 a list
  // counts only while it has entries (002a13d8f), so the file's devices are ignored.
  if (lastMalformed && !loaderHas(loaderVersion, 'settings-device-malformed-skipped'))
    return { active: loaderHas(loaderVersion, 'settings-layer-configurations'), devices: [] };
  // 1.4.325–1.4.357 skip a malformed entry but keep the array's length as the count (89df12056 counts the kept ones).
  return { active: true, devices, counted: loaderHas(loaderVersion, 'settings-device-malformed-skipped') ? devices.length : items.length };
}

/**
 * The driver and device parts of the settings object `o` for this loader; null when the loader
 * has none (before 1.4.323). `othersActive`: the object's layers or stderr_log make the settings
 * active by themselves (get_loader_settings: layers, debug level, drivers or devices).
 */
export function readSettingsDrivers(o: Record<string, unknown>, loaderVersion: string | null, othersActive: boolean): SettingsDrivers | null {
  if (!loaderHas(loaderVersion, 'settings-drivers')) return null;
  const useExclusively = o['additional_drivers_use_exclusively'] === true;
  const list = o['additional_drivers'];
  const additional: SettingsAdditionalDriver[] = [];
  let dropped: string | null = null;
  for (const [index, d] of children(list).entries()) {
    if (!isObject(d)) {
      dropped = `additional_drivers[${index}] is not an object`;
      break;
    }
    if (typeof d['path'] !== 'string') {
      dropped = `additional_drivers[${index}] has no "path" string`;
      break;
    }
    additional.push({ path: d['path'], index });
  }
  if (dropped) additional.length = 0;
  const devices = deviceConfigurations(o, loaderVersion);
  const active = othersActive || additional.length > 0 || devices.active;
  if (!active) return { active, additional: [], useExclusively: false, dropped, devicesActive: false, devices: [], deviceCount: 0 };
  return {
    active,
    additional,
    useExclusively,
    dropped,
    devicesActive: devices.active,
    devices: devices.devices,
    deviceCount: devices.counted ?? devices.devices.length,
  };
}

/** The driver search variables the loader stops reading while device_configurations is active. */
export const DRIVER_SEARCH_VARIABLES = ['VK_DRIVER_FILES', 'VK_ICD_FILENAMES', 'VK_ADD_DRIVER_FILES'] as const;

/** One entry of the loader's driver manifest list. */
export type DriverListEntry<T> = { from: 'settings'; driver: SettingsAdditionalDriver } | { from: 'search'; item: T };

export interface DriverListResult<T> {
  entries: DriverListEntry<T>[];
  /** What the settings file did to the list, for people (empty: nothing). */
  notes: string[];
}

const endsInJson = (p: string) => p.length >= 5 && p.endsWith('.json');

/**
 * The driver manifest list loader_icd_scan reads: the settings file's additional drivers in front
 * (reversed), then the searched list (`searched`, in its order) unless "use exclusively" dropped it.
 * `file` names the settings file in the notes.
 */
export function driverListWithSettings<T>(searched: readonly T[], drivers: SettingsDrivers | null, file: string): DriverListResult<T> {
  const base: DriverListEntry<T>[] = searched.map((item) => ({ from: 'search', item }));
  if (!drivers) return { entries: base, notes: [] };
  const notes: string[] = [];
  if (drivers.dropped) notes.push(`${file}: ${drivers.dropped}, so the loader ignores every additional driver in it`);
  const last = drivers.additional.at(-1);
  if (last && !endsInJson(last.path)) {
    notes.push(
      `${file}: additional_drivers[${last.index}] ("${last.path}") does not end in ".json", and it is the last one, so the loader stops the driver scan with no driver at all (fix: name a manifest file, or move the entry)`,
    );
    return { entries: [], notes };
  }
  const front: DriverListEntry<T>[] = [];
  for (const d of drivers.additional) {
    if (!endsInJson(d.path)) {
      notes.push(`${file}: additional_drivers[${d.index}] ("${d.path}") does not end in ".json"; the loader skips it`);
      continue;
    }
    front.unshift({ from: 'settings', driver: d });
  }
  if (drivers.useExclusively) notes.push(`${file}: additional_drivers_use_exclusively is true, so the loader uses only the drivers the file names`);
  if (drivers.devicesActive)
    notes.push(
      `${file}: device_configurations is set, so the loader ignores ${DRIVER_SEARCH_VARIABLES.join(', ')}, VK_LOADER_DRIVERS_SELECT and VK_LOADER_DRIVERS_DISABLE, and reports only the devices the file lists, in its order`,
    );
  return { entries: [...front, ...(drivers.useExclusively ? [] : base)], notes };
}

const VK_API_VERSION_1_1 = (1 << 22) | (1 << 12);

/** A physical device as the loader's terminator sees it (VkPhysicalDeviceProperties, VkPhysicalDeviceIDProperties). */
export interface PhysicalDeviceIds {
  name: string;
  /** VK_MAKE_API_VERSION value; below 1.1 a device has no UUIDs to match. */
  apiVersion: number;
  deviceUUID: string;
  driverUUID: string;
  driverVersion: number;
}

export interface DevicesWithSettings<T> {
  /** What vkEnumeratePhysicalDevices answers when asked for the count: min(configurations, devices). */
  count: number;
  /** The devices written by a second call with room for `count`, in the file's order (a device two entries match, twice). */
  devices: T[];
  result: 'VK_SUCCESS' | 'VK_INCOMPLETE' | 'VK_ERROR_INITIALIZATION_FAILED';
}

/**
 * vkEnumeratePhysicalDevices with device_configurations active (loader.c
 * loader_apply_settings_device_configurations), for an application that asks for the count and then
 * for that many: each configuration in order takes the first device (Vulkan 1.1 or later) whose
 * deviceUUID (and from 1.4.329 driverUUID and driverVersion) match; the count is
 * min(configurations, devices) whatever matches; no match at all fails with VK_ERROR_INITIALIZATION_FAILED
 * (from 1.4.325: `settings-device-none-matched-fails`).
 */
export function devicesWithSettings<T extends PhysicalDeviceIds>(
  all: readonly T[],
  configs: readonly SettingsDeviceConfiguration[],
  loaderVersion: string | null,
  /** SettingsDrivers.deviceCount: how many configurations the loader counts (default: `configs`). */
  counted = configs.length,
): DevicesWithSettings<T> {
  const count = Math.min(counted, all.length);
  // The application makes no second call for zero devices.
  if (count === 0) return { count, devices: [], result: 'VK_SUCCESS' };
  const out: T[] = [];
  for (const c of configs) {
    const match = all.find(
      (d) =>
        d.apiVersion >= VK_API_VERSION_1_1 &&
        d.deviceUUID === c.deviceUUID &&
        (c.driverUUID === null || (d.driverUUID === c.driverUUID && d.driverVersion === c.driverVersion)),
    );
    if (!match) continue;
    if (out.length >= count) return { count, devices: out, result: 'VK_INCOMPLETE' };
    out.push(match);
  }
  // 1.4.323–1.4.324 answer VK_SUCCESS and no device (c3394a6c8 made it a failure).
  if (out.length === 0)
    return { count, devices: [], result: loaderHas(loaderVersion, 'settings-device-none-matched-fails') ? 'VK_ERROR_INITIALIZATION_FAILED' : 'VK_SUCCESS' };
  return { count, devices: out, result: 'VK_SUCCESS' };
}

import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { parseLocatedJson, property, toPlain, type LocatedJson } from '../manifest/located-json';
import { parseManifest } from '../manifest/manifest-parser';
import { loaderHas } from '../loader/loader-rules';
import { readSettingsDrivers, stderrLogFilters } from '../loader/settings-drivers';
import { diagnosticCodes, type DiagnosticCode } from './diagnostic-codes';
import { strataDiagnostic } from './strata-diagnostic';

/**
 * Lint of a vk_loader_settings.json (another tool's, such as vkconfig 3's, or Strata's own) for the
 * loader that reads it: what that loader ignores, misreads, or crashes on. The behaviours are the
 * rows of shared/loader/loader-rules.ts that settings-chain.ts models, proven against the six real
 * loaders by tests/integration/chain-vs-loader.test.ts.
 */

export interface SettingsLintOptions {
  /** The loader that reads the file (null: unknown, the rules of the newest proven loader are assumed). */
  loaderVersion: string | null;
  /** The text of each manifest the file names, by path (null: missing or unreadable). */
  manifests: ReadonlyMap<string, string | null>;
}

const NEWEST = '1.4.359';
const CONTROLS = new Set(['on', 'off', 'auto', 'unordered_layer_location']);

export function lintLoaderSettings(text: string, options: SettingsLintOptions): Diagnostic[] {
  const version = options.loaderVersion ?? NEWEST;
  const out: Diagnostic[] = [];
  const report = (code: DiagnosticCode, range: Range, message: string) => out.push(strataDiagnostic(diagnosticCodes, code, range, message));
  const parsed = parseLocatedJson(text);
  const whole = parsed.lines.range(0, text.length);
  if (!loaderHas(options.loaderVersion, 'settings-file')) {
    report(
      'settings/ignored-by-loader',
      parsed.lines.range(0, 0),
      `Loader ${options.loaderVersion ?? 'of unknown version'} reads no vk_loader_settings.json (1.3.251 and later do), so this file changes nothing for it.`,
    );
    return out;
  }
  if (parsed.errors.length || !parsed.root) {
    const e = parsed.errors[0];
    report('settings/not-read', e?.range ?? whole, `The file is not valid JSON (${e?.error ?? 'empty'}), so the loader ignores it. Fix: correct the JSON.`);
    return out;
  }
  const root = parsed.root;
  if (root.kind !== 'object' || property(root, 'file_format_version')?.value.kind !== 'string') {
    report(
      'settings/not-read',
      root.range,
      'The file has no "file_format_version" string at its top level, so the loader ignores it. Fix: add "file_format_version": "1.0.0".',
    );
    return out;
  }
  const array = property(root, 'settings_array');
  const single = property(root, 'settings');
  const entries = array ? (array.value.kind === 'array' ? array.value.items : []) : single ? [single.value] : null;
  if (!entries) {
    report(
      'settings/not-read',
      root.range,
      'The file has neither "settings" nor "settings_array", so no settings apply. Fix: put the settings in a "settings_array".',
    );
    return out;
  }
  for (const entry of entries) {
    if (entry.kind !== 'object') {
      report(
        'settings/invalid-layer-entry',
        entry.range,
        'An element of "settings_array" that is not an object ends the loader\'s search: the entries after it are never used. Fix: remove it.',
      );
      break;
    }
    lintEntry(entry, version, options, report);
  }
  return out;
}

type Report = (code: DiagnosticCode, range: Range, message: string) => void;

const LOG_FILTERS = new Set(['all', 'info', 'warn', 'perf', 'error', 'debug', 'layer', 'driver', 'validation']);

/** Whether this entry's layers make the settings active by themselves (get_loader_settings). */
function layersActive(entry: LocatedJson & { kind: 'object' }, version: string): boolean {
  const layers = property(entry, 'layers')?.value;
  if (!layers) return false;
  const items = layers.kind === 'array' ? layers.items : [];
  const valid = items.every((i) => i.kind === 'object' && property(i, 'control')?.value.kind === 'string');
  return loaderHas(version, 'settings-layer-configurations') ? valid : valid && items.length > 0;
}

/** stderr_log: unknown filter names, and the loaders an active file without it silences (before 1.3.302). */
function lintLog(entry: LocatedJson & { kind: 'object' }, version: string, report: Report) {
  const log = property(entry, 'stderr_log');
  if (log?.value.kind === 'array')
    for (const item of log.value.items)
      if (item.kind !== 'string' || !LOG_FILTERS.has(item.value))
        report(
          'settings/unknown-log-filter',
          item.range,
          `${item.kind === 'string' ? `"${item.value}" is not a log filter the loader knows; it is ignored` : 'A stderr_log element that is not a string ends the list: it and the names after it are ignored'}. Fix: use ${[...LOG_FILTERS].join(', ')}.`,
        );
  const filters = stderrLogFilters(log ? toPlain(log.value) : undefined);
  if (filters.length === 0 && !loaderHas(version, 'settings-stderr-log-fallback') && layersActive(entry, version))
    report(
      'settings/log-silenced',
      (log ?? property(entry, 'layers'))?.keyRange ?? entry.range,
      `Loader ${version} takes its stderr log filters from this entry, which has none: the applications it applies to log nothing on stderr, whatever VK_LOADER_DEBUG says (1.3.302 falls back to VK_LOADER_DEBUG). Fix: add "stderr_log": ["error", "warn"].`,
    );
  else if (filters.length > 0)
    report(
      'settings/log-filters',
      log!.keyRange,
      `The loader's stderr log for the applications this entry applies to is ${filters.join(', ')}, in place of VK_LOADER_DEBUG: a Strata session's loader log shows only those messages.`,
    );
}

/** additional_drivers, additional_drivers_use_exclusively and device_configurations (1.4.323+). */
function lintDriversAndDevices(entry: LocatedJson & { kind: 'object' }, version: string, report: Report) {
  const drivers = property(entry, 'additional_drivers');
  const exclusive = property(entry, 'additional_drivers_use_exclusively');
  const devices = property(entry, 'device_configurations');
  if (!loaderHas(version, 'settings-drivers')) {
    for (const p of [drivers, exclusive, devices])
      if (p)
        report(
          'settings/ignored-by-loader',
          p.keyRange,
          `Loader ${version} does not read "${p.key}" (1.4.323 and later do): it changes nothing for this loader.`,
        );
    return;
  }
  const o = toPlain(entry) as Record<string, unknown>;
  const othersActive = stderrLogFilters(o['stderr_log']).length > 0 || layersActive(entry, version);
  const read = readSettingsDrivers(o, version, othersActive)!;
  const items = drivers
    ? drivers.value.kind === 'array'
      ? drivers.value.items
      : drivers.value.kind === 'object'
        ? drivers.value.properties.map((p) => p.value)
        : []
    : [];
  const bad = items.findIndex((i) => i.kind !== 'object' || property(i, 'path')?.value.kind !== 'string');
  if (bad >= 0)
    report(
      'settings/invalid-driver-entry',
      items[bad]!.range,
      `An additional driver needs to be an object with a "path" string: the loader then ignores every additional driver of this entry${
        exclusive?.value.kind === 'boolean' && exclusive.value.value && othersActive
          ? ', and with additional_drivers_use_exclusively the application gets no driver at all'
          : ''
      }. Fix: write { "path": "/path/to/driver.json" }.`,
    );
  else
    items.forEach((item, i) => {
      const path = item.kind === 'object' ? property(item, 'path')?.value : undefined;
      if (path?.kind !== 'string' || path.value.endsWith('.json')) return;
      const last = i === items.length - 1;
      report(
        last ? 'settings/no-drivers' : 'settings/driver-not-json',
        path.range,
        last
          ? `"${path.value}" does not end in ".json" and is the last additional driver: loader ${version} then stops its driver scan with no driver at all, so vkCreateInstance fails with VK_ERROR_INCOMPATIBLE_DRIVER. Fix: name the driver's manifest file.`
          : `"${path.value}" does not end in ".json": the loader skips it (it reads no folder here). Fix: name the driver's manifest file.`,
      );
    });
  if (exclusive?.value.kind === 'boolean' && exclusive.value.value && read.additional.length === 0 && bad < 0 && othersActive)
    report(
      'settings/no-drivers',
      exclusive.keyRange,
      'additional_drivers_use_exclusively is true but the entry names no additional driver: the applications it applies to get no driver at all (vkCreateInstance fails with VK_ERROR_INCOMPATIBLE_DRIVER). Fix: list the drivers in "additional_drivers", or remove the flag.',
    );
  if (exclusive && exclusive.value.kind !== 'boolean')
    report(
      'settings/invalid-driver-entry',
      exclusive.value.range,
      'additional_drivers_use_exclusively is not a JSON boolean: the loader reads it as false. Fix: write true or false.',
    );
  if (!devices) return;
  const list = devices.value.kind === 'array' ? devices.value.items : devices.value.kind === 'object' ? devices.value.properties.map((p) => p.value) : [];
  if (list.some((d) => d.kind !== 'object')) {
    report(
      'settings/invalid-device-entry',
      list.find((d) => d.kind !== 'object')!.range,
      'A device configuration that is not an object: the loader ignores device_configurations altogether. Fix: write an object with deviceUUID, driverUUID and driverVersion.',
    );
    return;
  }
  if (!read.devicesActive) return;
  if (read.devices.length === 0)
    report(
      'settings/no-devices',
      devices.keyRange,
      list.length === 0
        ? `device_configurations is empty: loader ${version} then reports no physical device at all to the applications this entry applies to. Fix: list the devices (strata device list shows their UUIDs), or remove the key.`
        : `The last device configuration is malformed: loader ${version} then drops them all and reports no physical device (1.4.358 skips only the bad entry). Fix: complete or remove it.`,
    );
  else
    report(
      'settings/devices-filtered',
      devices.keyRange,
      `Applications this entry applies to see only the ${read.devices.length} device${read.devices.length === 1 ? '' : 's'} listed here (${read.devices
        .map((d) => d.deviceName ?? d.deviceUUID)
        .join(
          ', ',
        )}), in this order, and the loader ignores VK_DRIVER_FILES, VK_ICD_FILENAMES, VK_ADD_DRIVER_FILES, VK_LOADER_DRIVERS_SELECT and VK_LOADER_DRIVERS_DISABLE.`,
    );
  const needsDriver = loaderHas(version, 'settings-device-driver-uuid');
  for (const d of list) {
    if (d.kind !== 'object') continue;
    const fields = needsDriver ? ['deviceUUID', 'driverUUID', 'driverVersion'] : ['deviceUUID'];
    const missing = fields.filter((f) => {
      const v = property(d, f)?.value;
      if (f === 'driverVersion') return v?.kind !== 'number';
      return !(v?.kind === 'array' && v.items.length === 16 && v.items.every((x) => x.kind === 'number' && x.value >= 0 && x.value <= 255));
    });
    if (missing.length)
      report(
        'settings/invalid-device-entry',
        d.range,
        `This device configuration lacks a valid ${missing.join(', ')} (UUIDs are 16 numbers 0–255): the loader skips it. Fix: copy the values from \`strata device list --json\`.`,
      );
  }
}

function lintEntry(entry: LocatedJson & { kind: 'object' }, version: string, options: SettingsLintOptions, report: Report) {
  lintLayers(entry, version, options, report);
  // The rest of an entry the loader ignores with the whole file (no "layers" before 1.4.309, an invalid layer entry before 1.4.336) does nothing.
  const layers = property(entry, 'layers')?.value;
  const invalidLayer = layers?.kind === 'array' && layers.items.some((i) => i.kind !== 'object' || property(i, 'control')?.value.kind !== 'string');
  if ((!layers && !loaderHas(version, 'settings-layers-optional')) || (invalidLayer && !loaderHas(version, 'settings-layer-configurations'))) return;
  lintLog(entry, version, report);
  lintDriversAndDevices(entry, version, report);
}

function lintLayers(
  entry: LocatedJson & { kind: 'object' },
  version: string,
  options: SettingsLintOptions,
  report: (code: DiagnosticCode, range: Range, message: string) => void,
) {
  const layers = property(entry, 'layers');
  if (!layers) {
    if (!loaderHas(version, 'settings-layers-optional'))
      report(
        'settings/no-layers',
        entry.range,
        `Loader ${version} ignores the whole file because this entry has no "layers". Fix: add "layers": [{ "control": "unordered_layer_location" }].`,
      );
    else if (!loaderHas(version, 'settings-layer-configurations'))
      report(
        'settings/no-layers',
        entry.range,
        // 1.4.323–1.4.335 count an entry only with a log filter, layers, drivers or devices (settings-empty-entry-ignored).
        loaderHas(version, 'settings-empty-entry-ignored') && !['stderr_log', 'additional_drivers', 'device_configurations'].some((k) => property(entry, k))
          ? `Loader ${version} ignores the file for the applications this entry applies to: it has no "layers", stderr_log, additional_drivers or device_configurations, so nothing in it counts. Fix: add "layers": [{ "control": "unordered_layer_location" }].`
          : `On loader ${version} the applications this entry applies to get no layers at all, because it has no "layers" (1.4.336 leaves them to the usual rules). Fix: add "layers": [{ "control": "unordered_layer_location" }].`,
      );
    return;
  }
  if (layers.value.kind !== 'array') return;
  const seen: { name: string; control: string }[] = [];
  for (const item of layers.value.items) {
    const control = item.kind === 'object' ? property(item, 'control')?.value : undefined;
    const name = item.kind === 'object' ? property(item, 'name')?.value : undefined;
    const path = item.kind === 'object' ? property(item, 'path')?.value : undefined;
    const unordered = control?.kind === 'string' && control.value === 'unordered_layer_location';
    if (item.kind !== 'object' || control?.kind !== 'string' || (!unordered && (name?.kind !== 'string' || path?.kind !== 'string'))) {
      report(
        'settings/invalid-layer-entry',
        item.range,
        `A layer entry needs "control" and, unless it is the unordered_layer_location, "name" and "path" strings. ${
          loaderHas(version, 'settings-layer-configurations')
            ? `Loader ${version} then leaves this entry's layers to the usual rules.`
            : `Loader ${version} then ignores the whole file.`
        } Fix: complete the entry or remove it.`,
      );
      continue;
    }
    if (!CONTROLS.has(control.value))
      report(
        'settings/unknown-control',
        control.range,
        `"${control.value}" is not on, off, auto or unordered_layer_location; the loader reads it as "auto". Fix: use one of those four.`,
      );
    if (unordered || name?.kind !== 'string' || path?.kind !== 'string') continue;
    const mode = CONTROLS.has(control.value) ? control.value : 'auto';
    if (mode !== 'off') {
      const earlierOff = seen.find((s) => s.name === name.value && s.control === 'off');
      if (earlierOff && !loaderHas(version, 'settings-null-check'))
        report(
          'settings/crashes-loader',
          item.range,
          `${name.value} is listed after an "off" entry of the same name: loader ${version} crashes in vkCreateInstance on this file (fixed in 1.4.326). Fix: remove one of the two entries.`,
        );
      lintManifestOf(name.value, path, version, options, seen, report);
    }
    seen.push({ name: name.value, control: mode });
  }
}

function lintManifestOf(
  name: string,
  path: LocatedJson & { kind: 'string' },
  version: string,
  options: SettingsLintOptions,
  seen: readonly { name: string; control: string }[],
  report: (code: DiagnosticCode, range: Range, message: string) => void,
) {
  const text = options.manifests.get(path.value);
  if (text === undefined) return;
  if (text === null) {
    report(
      'settings/manifest-unusable',
      path.range,
      `No readable manifest at ${path.value}: the loader leaves ${name} out${loaderHas(version, 'settings-failed-manifest') ? '' : `, and loader ${version} takes the entry before it in its place`}. Fix: point "path" at the layer's manifest.`,
    );
    return;
  }
  const m = parseManifest(text).manifest;
  const layers = m?.kind === 'layer' ? m.layers : [];
  const declared = layers.flatMap((l) => (l.name?.value === undefined ? [] : [l.name.value]));
  if (!declared.includes(name)) {
    report(
      'settings/name-mismatch',
      path.range,
      `${path.value} declares ${declared.join(', ') || 'no layer'}, not ${name}: the loader leaves it out${
        loaderHas(version, 'settings-multi-layer-manifests') ? '' : `, and loader ${version} removes the entry before it too`
      }. Fix: correct "name" or "path".`,
    );
    return;
  }
  // A meta-layer whose component the same entry turns off: the loader takes the "off" entry as the component.
  const meta = layers.find((l) => l.name?.value === name && l.component_layers !== undefined);
  const offComponent = (meta?.component_layers?.value ?? []).map((c) => c.value).find((c) => seen.some((s) => s.name === c && s.control === 'off'));
  if (offComponent)
    report(
      'settings/crashes-loader',
      path.range,
      `The meta-layer ${name} has ${offComponent} as a component, which this entry turns off: ${
        loaderHas(version, 'settings-off-component-crash')
          ? `loader ${version} crashes in vkCreateInstance`
          : `loader ${version} calls into itself in vkCreateInstance (it crashes, hangs or fails with VK_ERROR_INITIALIZATION_FAILED)`
      } when it enables ${name}. Fix: turn ${name} off too, or leave ${offComponent} out of the file.`,
    );
}

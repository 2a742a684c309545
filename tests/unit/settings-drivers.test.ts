import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  devicesWithSettings,
  driverListWithSettings,
  readSettingsDrivers,
  stderrLogFilters,
  type PhysicalDeviceIds,
} from '../../shared/loader/settings-drivers';
import { readLoaderSettings, stderrLogFor } from '../../shared/loader/loader-settings-file';
import { lintLoaderSettings } from '../../shared/lint/loader-settings-lint';
import { computeLayerChain } from '../../shared/loader/chain';
import { chainSettingsFor } from '../../shared/loader/chain-settings';

// shared/loader/settings-drivers.ts, one test per row of the rules table it reads (settings-drivers,
// settings-device-configurations, settings-device-driver-uuid, settings-device-malformed-skipped,
// settings-stderr-log-fallback). The real loaders prove the same: tests/integration/settings-drivers-vs-loader.test.ts.

const FILE = '/home/u/.config/vulkan/loader_settings.d/vk_loader_settings.json';
const list = (o: Record<string, unknown>, version: string, searched = ['/usr/share/vulkan/icd.d/lvp.json']) => {
  const r = driverListWithSettings(searched, readSettingsDrivers(o, version, true), FILE);
  return { paths: r.entries.map((e) => (e.from === 'search' ? e.item : e.driver.path)), notes: r.notes };
};

test('settings-drivers (1.4.323): additional drivers in front, the last first; older loaders ignore them', () => {
  const o = { additional_drivers: [{ path: '/a.json' }, { path: '/b.json' }] };
  assert.deepEqual(list(o, '1.4.341').paths, ['/b.json', '/a.json', '/usr/share/vulkan/icd.d/lvp.json']);
  assert.deepEqual(list(o, '1.4.321').paths, ['/usr/share/vulkan/icd.d/lvp.json']);
  assert.equal(readSettingsDrivers(o, '1.4.322', true), null);
  assert.deepEqual(list({ ...o, additional_drivers_use_exclusively: true }, '1.4.323').paths, ['/b.json', '/a.json']);
  assert.deepEqual(list({ ...o, additional_drivers_use_exclusively: 'true' }, '1.4.359').paths.length, 3, 'only a JSON true');
});

test('settings-drivers quirks: the last path not .json leaves nothing; an earlier one is skipped; a bad entry drops all', () => {
  const last = list({ additional_drivers: [{ path: '/a.json' }, { path: '/icds' }] }, '1.4.359');
  assert.deepEqual(last.paths, []);
  assert.match(last.notes.join('\n'), /additional_drivers\[1\] \("\/icds"\) does not end in "\.json", and it is the last one/);
  assert.deepEqual(list({ additional_drivers: [{ path: '/icds' }, { path: '/a.json' }] }, '1.4.359').paths, ['/a.json', '/usr/share/vulkan/icd.d/lvp.json']);
  const bad = list({ additional_drivers: [{ path: '/a.json' }, 'x'] }, '1.4.359');
  assert.deepEqual(bad.paths, ['/usr/share/vulkan/icd.d/lvp.json']);
  assert.match(bad.notes.join('\n'), /additional_drivers\[1\] is not an object/);
  assert.deepEqual(list({ additional_drivers: { x: { path: '/a.json' } } }, '1.4.359').paths[0], '/a.json', 'an object is iterated like an array');
});

test('the settings are active only with log filters, layers, drivers or devices (1.4.323+)', () => {
  assert.equal(readSettingsDrivers({ additional_drivers_use_exclusively: true }, '1.4.341', false)!.active, false);
  assert.equal(readSettingsDrivers({ additional_drivers_use_exclusively: true }, '1.4.341', true)!.useExclusively, true);
  // Through the reader: "use exclusively" alone does nothing; with "layers": [] it leaves no driver.
  const read = (o: object, v: string) => readLoaderSettings(JSON.stringify({ file_format_version: '1.0.0', settings: o }), null, v);
  const alone = read({ additional_drivers_use_exclusively: true }, '1.4.341');
  assert.ok(alone.active && alone.drivers && !alone.drivers.active);
  const withLayers = read({ layers: [], additional_drivers_use_exclusively: true }, '1.4.341');
  assert.ok(withLayers.active && withLayers.drivers?.active && withLayers.drivers.useExclusively);
  assert.deepEqual(driverListWithSettings(['/x.json'], withLayers.drivers, FILE).entries, []);
  // 1.4.323–1.4.335: an empty "layers" does not count (002a13d8f), so nothing is active and the file is ignored (settings-empty-entry-ignored).
  const old = read({ layers: [], additional_drivers_use_exclusively: true }, '1.4.330');
  assert.equal(old.active, false);
});

const UUID = Array.from({ length: 16 }, (_, i) => i);
const hex = UUID.map((x) => x.toString(16).padStart(2, '0')).join('');
const cfg = (extra: object = {}) => ({ deviceName: 'GPU', deviceUUID: UUID, driverUUID: UUID, driverVersion: 7, ...extra });
const device = (name: string, extra: Partial<PhysicalDeviceIds> = {}): PhysicalDeviceIds => ({
  name,
  apiVersion: (1 << 22) | (3 << 12),
  deviceUUID: hex,
  driverUUID: hex,
  driverVersion: 7,
  ...extra,
});

test('settings-device-configurations (1.4.323): active devices turn the driver variables off; an empty list counts from 1.4.336', () => {
  assert.equal(readSettingsDrivers({ device_configurations: [cfg()] }, '1.4.341', false)!.devicesActive, true);
  assert.equal(readSettingsDrivers({ device_configurations: [] }, '1.4.341', false)!.devicesActive, true);
  assert.equal(readSettingsDrivers({ device_configurations: [] }, '1.4.330', false)!.devicesActive, false);
  assert.equal(readSettingsDrivers({ device_configurations: [cfg(), 3] }, '1.4.359', false)!.devicesActive, false, 'a non-object element: none');
  const notes = driverListWithSettings([], readSettingsDrivers({ device_configurations: [] }, '1.4.359', false), FILE).notes.join('\n');
  assert.match(notes, /ignores VK_DRIVER_FILES, VK_ICD_FILENAMES, VK_ADD_DRIVER_FILES, VK_LOADER_DRIVERS_SELECT and VK_LOADER_DRIVERS_DISABLE/);
});

test('settings-device-driver-uuid (1.4.329) and settings-device-malformed-skipped (1.4.358)', () => {
  const noDriver = { deviceUUID: UUID };
  assert.equal(readSettingsDrivers({ device_configurations: [noDriver] }, '1.4.328', false)!.devices.length, 1);
  assert.equal(readSettingsDrivers({ device_configurations: [noDriver, cfg()] }, '1.4.341', false)!.devices.length, 1, 'skipped when not last');
  assert.deepEqual(readSettingsDrivers({ device_configurations: [cfg(), noDriver] }, '1.4.341', false)!.devices, [], 'a malformed last entry drops all');
  assert.equal(readSettingsDrivers({ device_configurations: [cfg(), noDriver] }, '1.4.358', false)!.devices.length, 1);
  assert.equal(readSettingsDrivers({ device_configurations: [cfg({ deviceUUID: [...UUID.slice(1), 256] })] }, '1.4.359', false)!.devices.length, 0);
});

test('settings-device-malformed-continue (1.4.325): before, any malformed entry drops the list; a malformed last entry leaves it inactive before 1.4.336', () => {
  const broken = { deviceName: 'broken', deviceUUID: [1, 2] };
  const at = (list: unknown[], v: string) => readSettingsDrivers({ device_configurations: list }, v, false)!;
  assert.deepEqual([at([broken, cfg()], '1.4.324').devicesActive, at([broken, cfg()], '1.4.324').devices], [false, []]);
  assert.deepEqual([at([broken, cfg()], '1.4.325').devices.length, at([broken, cfg()], '1.4.325').deviceCount], [1, 2], 'skipped, but counted until 1.4.358');
  assert.equal(at([broken, cfg()], '1.4.358').deviceCount, 1);
  assert.equal(at([cfg(), broken], '1.4.335').devicesActive, false, 'no device list: every device is reported');
  assert.deepEqual([at([cfg(), broken], '1.4.336').devicesActive, at([cfg(), broken], '1.4.336').devices], [true, []], 'an active, empty list: no device');
});

test('devicesWithSettings: first match per entry, in the file order; the count is min(entries, devices); no match fails', () => {
  const a = device('A', { deviceUUID: 'aa'.repeat(16) });
  const b = device('B');
  const configs = readSettingsDrivers({ device_configurations: [cfg(), cfg({ deviceUUID: Array(16).fill(0xaa) })] }, '1.4.359', false)!.devices;
  assert.deepEqual(
    devicesWithSettings([a, b], configs, '1.4.359').devices.map((d) => d.name),
    ['B', 'A'],
  );
  const one = devicesWithSettings([a, b], configs.slice(0, 1), '1.4.359');
  assert.deepEqual([one.count, one.devices.map((d) => d.name), one.result], [1, ['B'], 'VK_SUCCESS']);
  const none = devicesWithSettings([a], configs.slice(0, 1), '1.4.325');
  assert.deepEqual([none.count, none.result], [1, 'VK_ERROR_INITIALIZATION_FAILED']);
  // 1.4.323–1.4.324: no match is no device, and VK_SUCCESS (c3394a6c8).
  const noneBefore = devicesWithSettings([a], configs.slice(0, 1), '1.4.324');
  assert.deepEqual([noneBefore.count, noneBefore.devices, noneBefore.result], [1, [], 'VK_SUCCESS']);
  assert.equal(
    devicesWithSettings([device('old', { apiVersion: 1 << 22 })], configs, '1.4.359').result,
    'VK_ERROR_INITIALIZATION_FAILED',
    'a 1.0 device has no UUID to match',
  );
  const twice = devicesWithSettings([b, a], [configs[0]!, configs[0]!], '1.4.359');
  assert.deepEqual(
    twice.devices.map((d) => d.name),
    ['B', 'B'],
  );
});

test('settings-stderr-log-fallback (1.3.302): stderr_log replaces VK_LOADER_DEBUG; without it, older loaders are silent', () => {
  const read = (o: object, v: string) => readLoaderSettings(JSON.stringify({ file_format_version: '1.0.0', settings: o }), null, v);
  assert.deepEqual(stderrLogFor(read({ layers: [] }, '1.3.275'), '1.3.275'), { source: 'settings', filters: [] });
  assert.deepEqual(stderrLogFor(read({ layers: [] }, '1.3.302'), '1.3.302'), { source: 'environment' });
  assert.deepEqual(stderrLogFor(read({ layers: [], stderr_log: ['error', 'nope', 'warn'] }, '1.4.359'), '1.4.359'), {
    source: 'settings',
    filters: ['error', 'warn'],
  });
  assert.deepEqual(stderrLogFilters(['error', 3, 'warn']), ['error'], 'the list ends at the first non-string');
  assert.deepEqual(stderrLogFor(read({ layers: [] }, '1.3.239'), '1.3.239'), { source: 'environment' }, 'no settings file before 1.3.251');
});

test('lint: the drivers, devices and log of a settings entry, per loader', () => {
  const codes = (o: object, v: string) =>
    lintLoaderSettings(JSON.stringify({ file_format_version: '1.0.0', settings_array: [o] }, null, 2), { loaderVersion: v, manifests: new Map() }).map(
      (d) => d.code,
    );
  assert.deepEqual(codes({ layers: [], additional_drivers: [{ path: '/a.json' }, { path: '/icds' }] }, '1.4.341'), ['settings/no-drivers']);
  assert.deepEqual(codes({ layers: [], additional_drivers: [{ path: '/icds' }, { path: '/a.json' }] }, '1.4.341'), ['settings/driver-not-json']);
  assert.deepEqual(codes({ layers: [], additional_drivers: ['/a.json'] }, '1.4.341'), ['settings/invalid-driver-entry']);
  assert.deepEqual(codes({ layers: [], additional_drivers_use_exclusively: true }, '1.4.341'), ['settings/no-drivers']);
  assert.deepEqual(codes({ additional_drivers_use_exclusively: true }, '1.4.341'), [], 'alone, the flag does nothing');
  assert.deepEqual(codes({ layers: [], additional_drivers: [{ path: '/a.json' }] }, '1.4.321'), ['settings/ignored-by-loader']);
  assert.deepEqual(codes({ device_configurations: [] }, '1.4.341'), ['settings/no-devices']);
  assert.deepEqual(codes({ device_configurations: [cfg()] }, '1.4.341'), ['settings/devices-filtered']);
  assert.deepEqual(codes({ device_configurations: [cfg(), { deviceUUID: UUID }] }, '1.4.341'), ['settings/no-devices', 'settings/invalid-device-entry']);
  assert.deepEqual(codes({ device_configurations: [cfg(), { deviceUUID: UUID }] }, '1.4.359'), ['settings/devices-filtered', 'settings/invalid-device-entry']);
  assert.deepEqual(codes({ layers: [], stderr_log: ['warning'] }, '1.4.359'), ['settings/unknown-log-filter']);
  assert.deepEqual(codes({ layers: [{ control: 'unordered_layer_location' }] }, '1.3.275'), ['settings/log-silenced']);
  assert.deepEqual(codes({ layers: [{ control: 'unordered_layer_location' }] }, '1.3.302'), []);
});

test('strata explain: the chain notes name the settings file for its drivers, devices and stderr log', () => {
  const text = JSON.stringify({
    file_format_version: '1.0.0',
    settings_array: [
      { app_keys: ['/bin/app'], stderr_log: ['error'], additional_drivers: [{ path: '/a.json' }, { path: '/b.json' }], device_configurations: [] },
    ],
  });
  const notesAt = (version: string) =>
    computeLayerChain({
      implicit: [],
      explicit: [],
      env: {},
      app: { path: '/bin/app', requestedLayers: [], apiVersion: '1.3' },
      loaderVersion: version,
      settings: chainSettingsFor({ path: FILE, text, manifests: [] }, '/bin/app', version),
    }).notes.join('\n');
  const recent = notesAt('1.4.359');
  assert.match(recent, /vk_loader_settings\.json adds 2 drivers \(\/a\.json, \/b\.json\) in front of the drivers the loader finds/);
  assert.match(recent, /device_configurations is set, so the loader ignores VK_DRIVER_FILES/);
  assert.match(recent, /stderr log follows .*vk_loader_settings\.json's stderr_log \(error\), not VK_LOADER_DEBUG/);
  const old = notesAt('1.4.321');
  assert.doesNotMatch(old, /adds 2 drivers|device_configurations/, '1.4.321 reads neither');
  assert.match(old, /stderr_log \(error\)/);
});

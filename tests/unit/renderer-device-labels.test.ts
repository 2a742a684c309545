import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  baseName,
  countLabel,
  deviceLocalBytes,
  deviceTypeLabel,
  driverSourceLabel,
  filterExtensions,
  flagLabel,
  formatBytes,
  formatElapsed,
  heapSummaries,
  hexId,
  interfaceVersionText,
  queueFamilyLabels,
  refreshAnnouncement,
  summarizeDrivers,
  vendorLabel,
} from '../../renderer/src/devices/device-labels';
import { DEVICE_TYPES, flagNames, QUEUE_FLAGS, type DevicesReport } from '../../shared/vulkan/devices';
import { failedNegotiation, type DriverNegotiation } from '../../shared/vulkan/driver-negotiation';
import { strataError } from '../../shared/errors/strata-error';

test('formatBytes: binary units, one decimal at most, none when it is .0', () => {
  const cases: [number, string][] = [
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [1024 * 1024 - 1, '1 MiB'], // 1023.999 KiB rounds up into the next unit, not "1024 KiB"
    [256 * 1024 * 1024, '256 MiB'],
    [2 ** 31, '2 GiB'], // lavapipe's heap
    [80 * 2 ** 30, '80 GiB'], // an H100's device-local heap
    [15.6 * 2 ** 30, '15.6 GiB'],
    [3 * 2 ** 40, '3 TiB'],
    [2 ** 60, '1024 PiB'], // the largest unit keeps counting
  ];
  for (const [bytes, text] of cases) assert.equal(formatBytes(bytes), text, String(bytes));
  assert.equal(formatBytes(-1), 'unknown size');
  assert.equal(formatBytes(Number.NaN), 'unknown size');
});

test('queue-flag labels: every token of the shared table reads as words; unnamed bits stay visible', () => {
  assert.deepEqual(queueFamilyLabels(['graphics', 'compute', 'transfer']), ['Graphics', 'Compute', 'Transfer']);
  assert.deepEqual(queueFamilyLabels(flagNames(0x8 | 0x10 | 0x20 | 0x40 | 0x100 | 0x200, QUEUE_FLAGS)), [
    'Sparse binding',
    'Protected',
    'Video decode',
    'Video encode',
    'Optical flow',
    'Unknown bit 0x200',
  ]);
  assert.equal(flagLabel('multi-instance'), 'Multi instance');
  assert.deepEqual(queueFamilyLabels([]), []);
});

test('device types: every VkPhysicalDeviceType has a label', () => {
  assert.deepEqual(DEVICE_TYPES.map(deviceTypeLabel), ['Other', 'Integrated GPU', 'Discrete GPU', 'Virtual GPU', 'CPU']);
});

test('ids: at least four hex digits, vendor with its name or "Unknown vendor"', () => {
  assert.equal(hexId(0), '0x0000');
  assert.equal(hexId(0x10de), '0x10de');
  assert.equal(hexId(0x10005), '0x10005');
  assert.equal(hexId(1, 8), '0x00000001');
  assert.equal(hexId(0xffffffff, 8), '0xffffffff');
  assert.equal(vendorLabel({ vendorID: 0x10005, vendorName: 'Mesa' }), 'Mesa (0x10005)');
  assert.equal(vendorLabel({ vendorID: 0x1234, vendorName: null }), 'Unknown vendor (0x1234)');
});

test('memory heaps: sizes, the device-local flag apart from the others, and the device-local total', () => {
  const heaps = [
    { size: 80 * 2 ** 30, flags: ['device-local'] },
    { size: 2 ** 30 * 1.5, flags: [] },
    { size: 2 ** 28, flags: ['device-local', 'multi-instance'] },
  ];
  assert.deepEqual(heapSummaries(heaps), [
    { index: 0, size: '80 GiB', deviceLocal: true, otherFlags: [] },
    { index: 1, size: '1.5 GiB', deviceLocal: false, otherFlags: [] },
    { index: 2, size: '256 MiB', deviceLocal: true, otherFlags: ['Multi instance'] },
  ]);
  assert.equal(deviceLocalBytes(heaps), 80 * 2 ** 30 + 2 ** 28);
  assert.equal(deviceLocalBytes([]), 0);
});

test('filterExtensions: every word, any order, any case; empty keeps all', () => {
  const exts = ['VK_KHR_8bit_storage', 'VK_KHR_16bit_storage', 'VK_KHR_driver_properties', 'VK_EXT_memory_budget'].map((name) => ({ name, specVersion: 1 }));
  const names = (q: string) => filterExtensions(exts, q).map((e) => e.name);
  assert.deepEqual(
    names(''),
    exts.map((e) => e.name),
  );
  assert.deepEqual(
    names('   '),
    exts.map((e) => e.name),
  );
  assert.deepEqual(names('storage khr'), ['VK_KHR_8bit_storage', 'VK_KHR_16bit_storage']);
  assert.deepEqual(names('DRIVER_prop'), ['VK_KHR_driver_properties']);
  assert.deepEqual(names('ext khr'), []);
  assert.notEqual(filterExtensions(exts, ''), exts, 'a copy, so callers may sort it');
});

test('times, counts, names', () => {
  assert.equal(formatElapsed(0.42), '0.4 ms');
  assert.equal(formatElapsed(33.227), '33 ms');
  assert.equal(formatElapsed(1250), '1.25 s');
  assert.equal(formatElapsed(-1), '—');
  assert.equal(countLabel(1, 'queue'), '1 queue');
  assert.equal(countLabel(16, 'queue'), '16 queues');
  assert.equal(countLabel(0, 'physical device'), '0 physical devices');
  assert.equal(baseName('/usr/share/vulkan/icd.d/lvp_icd.x86_64.json'), 'lvp_icd.x86_64.json');
  assert.equal(baseName('C:\\Windows\\System32\\nv-vk64.json'), 'nv-vk64.json');
  assert.equal(baseName('bare.json'), 'bare.json');
  assert.equal(driverSourceLabel('default-folders'), 'the default driver folders');
  assert.equal(driverSourceLabel('VK_DRIVER_FILES'), 'VK_DRIVER_FILES');
});

const okDriver: DriverNegotiation = {
  ...failedNegotiation('/icd/lvp.json', strataError('x', 'y'), 30),
  ok: true,
  error: null,
  interfaceVersion: 5,
  negotiateResult: 'VK_SUCCESS',
};
const brokenDriver = failedNegotiation('/icd/broken.json', strataError('driver/library-not-found', 'the library does not exist', { fix: 'reinstall' }), 2);

test('driver summary and interface version text', () => {
  assert.deepEqual(summarizeDrivers([okDriver, brokenDriver, brokenDriver]), { total: 3, ok: 1, failed: 2 });
  assert.deepEqual(summarizeDrivers([]), { total: 0, ok: 0, failed: 0 });
  assert.equal(interfaceVersionText(okDriver), '5 (of 7 offered)');
  assert.equal(interfaceVersionText(brokenDriver), 'not negotiated');
});

test('refreshAnnouncement: counts what came back, names what did not', () => {
  const report = { requestedApiVersion: '1.1.0', enabledExtensions: [], devices: [{}] } as unknown as DevicesReport;
  assert.equal(refreshAnnouncement({ devices: report, drivers: [okDriver], failed: [] }), 'Updated: 1 driver; 1 physical device.');
  assert.equal(
    refreshAnnouncement({ devices: null, drivers: [okDriver, brokenDriver], failed: ['physical devices'] }),
    'Updated: 2 drivers, 1 failed. Could not load: physical devices.',
  );
  assert.equal(
    refreshAnnouncement({ devices: null, drivers: null, failed: ['drivers', 'physical devices'] }),
    'Updated. Could not load: drivers, physical devices.',
  );
});

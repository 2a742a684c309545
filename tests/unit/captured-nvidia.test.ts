import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseVulkaninfoSummary } from '../helpers/real-vulkan';
import { APP_ROOT } from '../helpers/strata-cli';
import { DevicesReportSchema } from '../../shared/vulkan/devices';
import { DriversNegotiateReportSchema } from '../../shared/vulkan/driver-negotiation';

/**
 * What Strata and vulkaninfo said on the NVIDIA H100 machine lent to the project (driver 580.159.04,
 * Debian's loader 1.3.239 carried there; captured by `strata devices --json`, `strata drivers
 * negotiate --json` and `vulkaninfo --summary / --json` in one run). These are recorded outputs of
 * the real driver; the test checks that the two agree, field by field, and that Strata's files
 * still parse with today's schemas.
 */
const dir = join(APP_ROOT, 'tests', 'fixtures', 'captured', 'nvidia-h100');
const read = (f: string) => readFileSync(join(dir, f), 'utf8');

const strata = DevicesReportSchema.parse(JSON.parse(read('strata-devices.json')));
const summary = parseVulkaninfoSummary(read('vulkaninfo-summary.txt'));
const profile = JSON.parse(read('vulkaninfo.json')) as {
  capabilities: Record<
    string,
    { extensions: Record<string, number>; properties: { VkPhysicalDeviceProperties: { driverVersion: number; pipelineCacheUUID: number[] } } }
  >;
};

test('NVIDIA H100: Strata and vulkaninfo agree on the device', () => {
  assert.equal(strata.devices.length, 1);
  assert.equal(summary.devices.length, 1);
  const s = strata.devices[0]!;
  const v = summary.devices[0]!;
  assert.equal(s.deviceName, v['deviceName']);
  assert.equal(s.apiVersion, v['apiVersion']);
  assert.equal(`0x${s.vendorID.toString(16)}`, v['vendorID']);
  assert.equal(`0x${s.deviceID.toString(16)}`, v['deviceID']);
  assert.equal(`PHYSICAL_DEVICE_TYPE_${s.deviceType.replace('-', '_').toUpperCase()}`, v['deviceType']);
  assert.equal(s.driver?.driverName, v['driverName']);
  assert.equal(s.driver?.driverInfo, v['driverInfo']);
  assert.equal(`DRIVER_ID_${s.driver?.driverIDName}`, v['driverID']);
  assert.equal(s.driver?.conformanceVersion, v['conformanceVersion']);
});

test('NVIDIA H100: raw driverVersion matches; decoded per NVIDIA convention (10.8.8.6 bits)', () => {
  const s = strata.devices[0]!;
  const caps = Object.values(profile.capabilities)[0]!;
  assert.equal(s.driverVersionRaw, caps.properties.VkPhysicalDeviceProperties.driverVersion);
  // vulkaninfo 1.3.239 prints 580.159.4.256: it masks the last field with 10 bits instead of 6.
  // The NVIDIA convention gives 580.159.4.0, which matches driverInfo "580.159.04".
  assert.equal(v0(s.driverVersionRaw), '580.159.4.0');
  assert.equal(s.driverVersion, '580.159.4.0');
  assert.equal(summary.devices[0]!['driverVersion'], '580.159.4.256');
});

test('NVIDIA H100: device extensions are the same set', () => {
  const caps = Object.values(profile.capabilities)[0]!;
  const fromStrata = Object.fromEntries(strata.devices[0]!.extensions.map((e) => [e.name, e.specVersion]));
  assert.deepEqual(fromStrata, caps.extensions);
  assert.ok(Object.keys(fromStrata).length > 200);
});

test('NVIDIA H100: the driver negotiated loader–driver interface 7 and exports the ICD entry points', () => {
  const report = DriversNegotiateReportSchema.parse(JSON.parse(read('strata-negotiate.json')));
  assert.equal(report.drivers.length, 1);
  const d = report.drivers[0]! as (typeof report.drivers)[number] & Record<string, unknown>;
  assert.equal(d['ok'], true);
  assert.equal(d['interfaceVersion'], 7);
  assert.equal(d['negotiateResult'], 'VK_SUCCESS');
  assert.equal(d['createInstanceFound'], true);
  assert.equal(d['libraryPath'], 'libGLX_nvidia.so.0');
  assert.deepEqual(d['exports'], ['vk_icdNegotiateLoaderICDInterfaceVersion', 'vk_icdGetInstanceProcAddr', 'vk_icdGetPhysicalDeviceProcAddr']);
});

function v0(raw: number): string {
  return `${raw >>> 22}.${(raw >>> 14) & 0xff}.${(raw >>> 6) & 0xff}.${raw & 0x3f}`;
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { DevicesReportSchema } from '../../shared/vulkan/devices';
import { DriversNegotiateReportSchema } from '../../shared/vulkan/driver-negotiation';
import { LayersInspectReportSchema } from '../../shared/vulkan/layer-inspection';

/**
 * Recorded on the lent NVIDIA H100 machine (driver 580.159.04, Debian's loader 1.3.239, libglvnd
 * and libvulkan1 carried there; XDG_DATA_DIRS including /usr/local/nvidia/share): `strata devices
 * --json`, `strata drivers negotiate --json` and `strata layers inspect --json` with no manifest
 * list. That machine has two NVIDIA driver manifests naming the same library, so the real loader
 * lists the one H100 twice; the files must still parse with today's schemas and say so.
 */
const dir = join(APP_ROOT, 'tests', 'fixtures', 'captured', 'nvidia-h100');
const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown;
const LOCAL = '/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json';
const SHARE = '/usr/share/vulkan/icd.d/nvidia_icd.json';

test('NVIDIA H100: two manifests of one driver, the GPU listed twice, one device given to each manifest', () => {
  const report = DevicesReportSchema.parse(read('strata-devices-origins.json'));
  assert.deepEqual(
    report.devices.map((d) => [d.deviceName, d.driver?.driverIDName]),
    [
      ['NVIDIA H100 80GB HBM3', 'NVIDIA_PROPRIETARY'],
      ['NVIDIA H100 80GB HBM3', 'NVIDIA_PROPRIETARY'],
    ],
  );
  assert.deepEqual(report.devices.map((d) => d.origin?.manifest).sort(), [LOCAL, SHARE].sort(), 'not both to the first manifest');
  assert.ok(report.devices.every((d) => d.origin?.match === 'by-order'));
  assert.deepEqual(
    report.driverManifests?.map((m) => [m.manifest, m.deviceCount, m.error]),
    [
      [LOCAL, 1, null],
      [SHARE, 1, null],
    ],
  );
});

test('NVIDIA H100: both manifests negotiate interface 7, the bare library name found through LD_LIBRARY_PATH', () => {
  const report = DriversNegotiateReportSchema.parse(read('strata-negotiate-discovered.json'));
  assert.equal(report.source, 'default-folders');
  const lib = '/usr/local/nvidia/lib64/libGLX_nvidia.so.0';
  assert.deepEqual(
    report.drivers.map((d) => [d.manifest, d.ok, d.interfaceVersion, d.resolution?.via, d.resolution?.path, d.library]),
    [
      [LOCAL, true, 7, 'LD_LIBRARY_PATH', lib, lib],
      [SHARE, true, 7, 'LD_LIBRARY_PATH', lib, lib],
    ],
    'the resolver and the file ld.so mapped (a link to libGLX_nvidia.so.580.159.04) agree',
  );
});

test("NVIDIA H100: the driver's implicit layers: optimus is interface 1 through renamed entry points; present's library is not installed there", () => {
  const report = LayersInspectReportSchema.parse(read('strata-layers-inspect.json'));
  const optimus = report.layers.find((l) => l.name === 'VK_LAYER_NV_optimus')!;
  assert.deepEqual([optimus.ok, optimus.interfaceVersion, optimus.library], [true, 1, '/usr/local/nvidia/lib64/libGLX_nvidia.so.0']);
  assert.deepEqual(
    optimus.symbols.filter((s) => s.exported).map((s) => s.symbol),
    ['vk_optimusGetInstanceProcAddr', 'vk_optimusGetDeviceProcAddr'],
  );
  const present = report.layers.find((l) => l.name === 'VK_LAYER_NV_present')!;
  assert.equal(present.error?.code, 'layer/library-not-found');
  assert.equal(present.resolution?.via, 'not-found');
});

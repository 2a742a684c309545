import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributeDevices, type DeviceFingerprint } from '../../shared/vulkan/device-origin';

const device = (name: string, extra: Partial<DeviceFingerprint> = {}): DeviceFingerprint => ({
  vendorID: 0x10005,
  deviceID: 0,
  deviceType: 'cpu',
  deviceName: name,
  apiVersionRaw: 4206822,
  driverVersionRaw: 1,
  pipelineCacheUUID: '0'.repeat(32),
  driverID: 13,
  driverName: 'llvmpipe',
  driverInfo: 'Mesa',
  ...extra,
});

test('each device goes to the manifest whose driver alone enumerates it', () => {
  const lvp = device('llvmpipe');
  const nv = device('NVIDIA H100', { vendorID: 0x10de, deviceType: 'discrete-gpu', driverID: 4, driverName: 'NVIDIA' });
  const origins = attributeDevices(
    [nv, lvp],
    [
      { manifest: 'lvp.json', devices: [lvp] },
      { manifest: 'radeon.json', devices: [] },
      { manifest: 'nvidia.json', devices: [nv] },
    ],
  );
  assert.deepEqual(origins, [
    { manifest: 'nvidia.json', match: 'unique', candidates: ['nvidia.json'] },
    { manifest: 'lvp.json', match: 'unique', candidates: ['lvp.json'] },
  ]);
});

test('two copies of one manifest: the loader lists the device twice; one device each, never both to the first', () => {
  const lvp = device('llvmpipe');
  const origins = attributeDevices(
    [lvp, lvp],
    [
      { manifest: 'a.json', devices: [lvp] },
      { manifest: 'b.json', devices: [lvp] },
    ],
  );
  assert.deepEqual(
    origins.map((o) => o?.manifest),
    ['a.json', 'b.json'],
  );
  assert.ok(origins.every((o) => o?.match === 'by-order' && o.candidates.join() === 'a.json,b.json'));
});

test("two identical GPUs of one driver are both that driver's; a device no manifest accounts for gets null", () => {
  const gpu = device('GPU', { vendorID: 0x10de });
  assert.deepEqual(
    attributeDevices([gpu, gpu, device('layer-made')], [{ manifest: 'nv.json', devices: [gpu, gpu] }]).map((o) => o && [o.manifest, o.match]),
    [['nv.json', 'unique'], ['nv.json', 'unique'], null],
  );
});

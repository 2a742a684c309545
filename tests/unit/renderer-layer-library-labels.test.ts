import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspectionFor, interfaceText, libraryText, symbolLines } from '../../renderer/src/devices/layer-library-labels';
import { deviceOriginText } from '../../renderer/src/devices/device-labels';
import { emptyInspection, layerSymbols, type LayerInspection } from '../../shared/vulkan/layer-inspection';

const symbols = layerSymbols({
  functions: { vkGetInstanceProcAddr: 'overlay_GetInstanceProcAddr' },
  preInstance: {},
  entrypoints: ['vkCmdA', 'vkCmdB', 'vkCmdA'],
});
const base: LayerInspection = emptyInspection({ name: 'VK_LAYER_X', manifest: '/m/x.json', kind: 'explicit', libraryPath: 'libx.so', symbols });

test('the interface line says negotiated, not negotiated, or unusable', () => {
  const negotiated = {
    ...base,
    ok: true,
    interfaceVersion: 2,
    negotiation: {
      offered: 2,
      result: 'VK_SUCCESS',
      interfaceVersion: 2,
      getInstanceProcAddr: true,
      getDeviceProcAddr: true,
      getPhysicalDeviceProcAddr: false,
    },
  };
  assert.equal(interfaceText(negotiated), 'Interface 2, negotiated (offered 2)');
  assert.equal(interfaceText({ ...base, ok: true, interfaceVersion: 1 }), 'Interface 1, no negotiation');
  assert.equal(interfaceText(base), 'The loader cannot use this library');
  assert.equal(interfaceText({ ...base, libraryPath: null }), 'No library (meta-layer)');
});

test('symbols: renamed ones show their symbol; entrypoints collapse into one count; the library says how it was found', () => {
  const inspected = { ...base, symbols: base.symbols.map((s) => ({ ...s, exported: s.role === 'get-instance-proc-addr' })) };
  const lines = symbolLines(inspected);
  assert.deepEqual(
    lines.map((l) => [l.label, l.symbol, l.state]),
    [
      ['vkNegotiateLoaderLayerInterfaceVersion', null, 'missing'],
      ['vkGetInstanceProcAddr', 'overlay_GetInstanceProcAddr', 'exported'],
      ['vkGetDeviceProcAddr', null, 'missing'],
      ['2 extension entrypoints (0 exported; a layer may hand them out through vkGet*ProcAddr instead)', null, 'info'],
    ],
  );
  assert.equal(symbolLines(base)[0]!.state, 'not-looked-up');
  const resolved = {
    ...base,
    library: '/usr/lib/libx.so',
    resolution: { libraryPath: 'libx.so', path: '/lib/libx.so', via: 'ld.so.cache' as const, outcome: 'ok' as const, tried: [] },
  };
  assert.deepEqual(libraryText(resolved), { path: '/usr/lib/libx.so', how: 'found in the ld.so cache' });
});

test('the result for this manifest, when two manifests define the same name', () => {
  const other = { ...base, manifest: '/n/x.json' };
  const report = { offeredInterfaceVersion: 2, layers: [other, base], notFound: [] };
  assert.equal(inspectionFor(report, '/m/x.json', 'VK_LAYER_X'), base);
  assert.equal(inspectionFor(report, '/z.json', 'VK_LAYER_X'), null);
});

test("a device's manifest, and the other copies it could as well come from", () => {
  assert.deepEqual(deviceOriginText({ manifest: '/a/lvp-a.json', match: 'by-order', candidates: ['/a/lvp-a.json', '/a/lvp-b.json'] }, true), {
    manifest: '/a/lvp-a.json',
    note: 'Or lvp-b.json: identical devices from copies of one driver, told apart only by order',
  });
  assert.deepEqual(deviceOriginText({ manifest: '/a/lvp.json', match: 'unique', candidates: ['/a/lvp.json'] }, true), { manifest: '/a/lvp.json', note: null });
  assert.deepEqual(deviceOriginText(null, true), { manifest: null, note: 'No driver manifest alone enumerates this device' });
  assert.deepEqual(deviceOriginText(null, false), { manifest: null, note: null });
});

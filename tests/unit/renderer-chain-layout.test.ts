import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiVersionProblem,
  chainSentence,
  DIAGRAM,
  driverLabels,
  explicitLayerNames,
  fitText,
  layoutChain,
  parseRequestedLayers,
  reasonSummary,
  reasonTag,
  toggleRequestedLayer,
} from '../../renderer/src/chain/chain-layout';

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('layout: application, N layers in order, loader, then drivers; one edge into each box after the first', () => {
  for (const n of [0, 1, 3, 12]) {
    const l = layoutChain(n, 2);
    assert.deepEqual(
      l.nodes.map((x) => x.key),
      ['application', ...Array.from({ length: n }, (_, i) => `layer-${i}`), 'loader', 'driver-0', 'driver-1'],
    );
    const column = l.nodes.filter((x) => x.kind !== 'driver');
    for (let i = 1; i < column.length; i++) {
      assert.equal(column[i]!.y, column[i - 1]!.y + column[i - 1]!.height + DIAGRAM.gap, `${column[i]!.key} sits one gap under ${column[i - 1]!.key}`);
      assert.equal(column[i]!.x, column[0]!.x);
    }
    assert.equal(l.edges.length, l.nodes.length - 1);
    for (const e of l.edges) assert.match(e.d, /^M[\d.]+ [\d.]+/);
    const layers = l.nodes.filter((x) => x.kind === 'layer');
    assert.deepEqual(
      layers.map((x) => x.index),
      Array.from({ length: n }, (_, i) => i),
    );
  }
});

test('layout: every box is inside the drawing and none overlaps another; the height grows with the layers', () => {
  for (const [layers, drivers] of [
    [0, 0],
    [2, 1],
    [5, 3],
    [4, 7],
  ] as const) {
    const l = layoutChain(layers, drivers);
    for (const a of l.nodes) {
      assert.ok(a.x >= 0 && a.y >= 0 && a.x + a.width <= l.width + 1e-9 && a.y + a.height <= l.height, `${a.key} inside`);
      for (const b of l.nodes) if (a !== b) assert.ok(!overlaps(a, b), `${a.key} / ${b.key}`);
    }
  }
  assert.equal(layoutChain(3, 1).height - layoutChain(2, 1).height, DIAGRAM.layerHeight + DIAGRAM.gap);
});

test('layout: drivers go three to a row, centred; each edge ends at its driver’s top middle', () => {
  const l = layoutChain(1, 4);
  const drivers = l.nodes.filter((x) => x.kind === 'driver');
  assert.equal(new Set(drivers.slice(0, 3).map((d) => d.y)).size, 1);
  assert.ok(drivers[3]!.y > drivers[0]!.y);
  // The lone driver of the second row is centred under the loader.
  const loader = l.nodes.find((x) => x.kind === 'loader')!;
  assert.ok(Math.abs(drivers[3]!.x + drivers[3]!.width / 2 - (loader.x + loader.width / 2)) < 1e-9);
  for (const d of drivers) {
    const e = l.edges.find((x) => x.to === d.key)!;
    assert.equal(e.from, 'loader');
    assert.ok(e.d.endsWith(`H${d.x + d.width / 2}V${d.y}`), e.d);
  }
});

test('layout: a failed vkCreateInstance reaches no driver', () => {
  const l = layoutChain(0, 3, { failed: true });
  assert.deepEqual(
    l.nodes.map((x) => x.kind),
    ['application', 'loader'],
  );
  assert.equal(l.edges.length, 1);
});

test('reason summary: the first reason capitalized, a count of the rest, every message for the tooltip', () => {
  const one = reasonSummary([{ code: 'explicit/requested-by-app', message: 'requested by the application (ppEnabledLayerNames[0])' }]);
  assert.equal(one.first, 'Requested by the application (ppEnabledLayerNames[0])');
  assert.equal(one.more, 0);
  assert.equal(one.moreLabel, '');
  const three = reasonSummary([
    { code: 'meta/expanded', message: 'expanded from meta-layer X at position 1' },
    { code: 'duplicate/later-occurrence-wins', message: 'enabled 2 times' },
    { code: 'api-version/older-than-app', message: 'layer API version 1.0 is older' },
  ]);
  assert.equal(three.more, 2);
  assert.equal(three.moreLabel, '+2 more');
  assert.equal(three.full, 'Expanded from meta-layer X at position 1\nEnabled 2 times\nLayer API version 1.0 is older');
  assert.equal(reasonSummary([]).first, 'no reason recorded');
  assert.equal(reasonTag('explicit/not-requested'), 'not requested');
  assert.equal(reasonTag('manifest/rejected'), 'rejected');
  // A requested layer that is not loaded because vkCreateInstance fails for another one is not "not requested".
  assert.equal(
    reasonTag('explicit/not-requested', 'not loaded: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT (missing: VK_LAYER_x) before any layer is enabled'),
    'instance fails',
  );
  assert.equal(
    reasonTag('explicit/not-found', "requested by the application but not among the loader's layers: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT"),
    'not found',
  );
});

test('fitText cuts long names with an ellipsis and leaves short ones alone', () => {
  assert.equal(fitText('VK_LAYER_KHRONOS_validation', 40), 'VK_LAYER_KHRONOS_validation');
  assert.equal(fitText('abcdefghij', 6), 'abcde…');
  assert.equal(fitText('abcdefghij', 6).length, 6);
});

test('requested layers: commas, spaces or new lines between names; empties and repeats dropped; toggling adds at the end or removes', () => {
  assert.deepEqual(parseRequestedLayers(''), []);
  assert.deepEqual(parseRequestedLayers(' VK_LAYER_A, VK_LAYER_B ,,VK_LAYER_A\nVK_LAYER_C  VK_LAYER_D; '), [
    'VK_LAYER_A',
    'VK_LAYER_B',
    'VK_LAYER_C',
    'VK_LAYER_D',
  ]);
  assert.equal(toggleRequestedLayer('VK_LAYER_A', 'VK_LAYER_B'), 'VK_LAYER_A, VK_LAYER_B');
  assert.equal(toggleRequestedLayer('VK_LAYER_A, VK_LAYER_B', 'VK_LAYER_A'), 'VK_LAYER_B');
  assert.equal(toggleRequestedLayer('', 'VK_LAYER_A'), 'VK_LAYER_A');
});

test('API version: empty or MAJOR.MINOR[.PATCH] is accepted, anything else explains the format', () => {
  for (const ok of ['', '1.0', '1.3', ' 1.3.239 ']) assert.equal(apiVersionProblem(ok), null, ok);
  for (const bad of ['1', 'v1.3', '1.3.x', '1..3']) assert.match(apiVersionProblem(bad) ?? '', /MAJOR\.MINOR/, bad);
});

test('picker names and driver boxes come from discovery, in its order, without repeats', () => {
  assert.deepEqual(explicitLayerNames([{ layers: [{ name: 'B' }, { name: null }] }, { layers: [{ name: 'A' }, { name: 'B' }] }]), ['B', 'A']);
  assert.deepEqual(
    driverLabels([
      {
        path: '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json',
        problem: null,
        duplicateOf: null,
        driver: { libraryPath: '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so' },
      },
      { path: '/etc/vulkan/icd.d/lvp_icd.x86_64.json', problem: null, duplicateOf: 0, driver: { libraryPath: '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so' } },
      { path: '/etc/vulkan/icd.d/gone.json', problem: 'missing', duplicateOf: null, driver: null },
      { path: '/x/broken_icd.json', problem: null, duplicateOf: null, driver: null },
    ]),
    [
      { label: 'libvulkan_lvp.so', manifest: '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json' },
      { label: 'broken_icd.json', manifest: '/x/broken_icd.json' },
    ],
  );
  assert.equal(chainSentence(['A', 'B'], 2, false), 'Application → A → B → Vulkan loader → 2 drivers');
  assert.match(chainSentence([], 0, true), /VK_ERROR_LAYER_NOT_PRESENT$/);
});

test('reasons from a loader settings file say so in their tag; a crash reads as the loader crashing', () => {
  assert.equal(reasonTag('settings/off'), 'settings file: off');
  assert.equal(reasonTag('settings/not-listed'), 'settings file: not listed');
  assert.match(chainSentence([], 1, true, 'LOADER_CRASH'), /the loader crashes or hangs in vkCreateInstance$/);
  assert.match(chainSentence([], 1, true, 'VK_ERROR_INITIALIZATION_FAILED'), /vkCreateInstance fails with VK_ERROR_INITIALIZATION_FAILED$/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  configFromOverrideText,
  createDraft,
  draftChanges,
  draftConfig,
  isDraftDirty,
  layerOrderability,
  moveLayer,
  moveLayerBy,
  moveLayerTo,
  rebaseDraft,
  setLayerSetting,
  setLayerState,
  type DiscoveredLayerName,
  type LayerDraft,
} from '../../shared/configurator/layer-draft';
import { type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';

const found = (...names: string[]): DiscoveredLayerName[] => names.map((n) => ({ name: n, implicit: n.startsWith('I') }));
const order = (d: LayerDraft) => d.config.layers.map((l) => `${l.name}:${l.state}`);

test('a draft lists every discovered layer in discovery order; without an override all are application-controlled', () => {
  const d = createDraft(null, found('I1', 'A', 'B'));
  assert.deepEqual(order(d), ['I1:auto', 'A:auto', 'B:auto']);
  assert.deepEqual(d.vanished, []);
  assert.equal(draftConfig(d), null, 'nothing on or off: no override to write');
  assert.equal(isDraftDirty(d, null), false);
});

test('installed on layers keep their component order in the slots their names hold; the rest stays in discovery order', () => {
  const installed: OverrideConfig = {
    layers: [
      { name: 'C', state: 'on' },
      { name: 'A', state: 'on' },
      { name: 'B', state: 'off' },
    ],
  };
  const d = createDraft(installed, found('I1', 'A', 'X', 'B', 'C'));
  assert.deepEqual(order(d), ['I1:auto', 'C:on', 'X:auto', 'B:off', 'A:on']);
  assert.equal(isDraftDirty(d, installed), false);
});

test('an installed layer that discovery no longer finds stays after its predecessor, flagged as vanished', () => {
  const installed: OverrideConfig = {
    layers: [
      { name: 'A', state: 'on' },
      { name: 'GONE', state: 'on' },
      { name: 'B', state: 'on' },
    ],
  };
  const d = createDraft(installed, found('A', 'B', 'Z'));
  assert.deepEqual(order(d), ['A:on', 'GONE:on', 'B:on', 'Z:auto']);
  assert.deepEqual(d.vanished, ['GONE']);
  // Setting it back to application-controlled removes it: nothing names it any more.
  const cleared = setLayerState(d, 'GONE', 'auto');
  assert.deepEqual(order(cleared), ['A:on', 'B:on', 'Z:auto']);
  assert.deepEqual(cleared.vanished, []);
});

test('move by index, by one place, and onto another row; out-of-range moves change nothing', () => {
  const d = createDraft(null, found('A', 'B', 'C', 'D'));
  assert.deepEqual(
    order(moveLayer(d, 0, 2)).map((s) => s[0]),
    ['B', 'C', 'A', 'D'],
  );
  assert.deepEqual(
    order(moveLayerBy(d, 'C', -1)).map((s) => s[0]),
    ['A', 'C', 'B', 'D'],
  );
  assert.deepEqual(
    order(moveLayerBy(d, 'D', +1)).map((s) => s[0]),
    ['A', 'B', 'C', 'D'],
  );
  assert.equal(moveLayerBy(d, 'A', -1), d, 'the same object when nothing moves');
  assert.equal(moveLayerBy(d, 'nope', 1), d);
  assert.deepEqual(
    order(moveLayerTo(d, 'D', 'A')).map((s) => s[0]),
    ['D', 'A', 'B', 'C'],
  );
  assert.deepEqual(
    order(moveLayer(d, 1, 99)).map((s) => s[0]),
    ['A', 'C', 'D', 'B'],
    'clamped to the end',
  );
});

test('states: dirty against what is installed, the config holds only on/off layers in order, the manifest follows', () => {
  let d = createDraft(null, found('I1', 'A', 'B', 'C'));
  d = setLayerState(d, 'B', 'on');
  d = setLayerState(d, 'A', 'on');
  d = setLayerState(d, 'C', 'off');
  assert.equal(setLayerState(d, 'C', 'off'), d, 'same state: same object');
  assert.equal(isDraftDirty(d, null), true);
  const config = draftConfig(d)!;
  assert.deepEqual(config.layers, [
    { name: 'A', state: 'on' },
    { name: 'B', state: 'on' },
    { name: 'C', state: 'off' },
  ]);
  const manifest = JSON.parse(buildOverrideManifest(config)) as { layer: { component_layers: string[]; blacklisted_layers: string[] } };
  assert.deepEqual(manifest.layer.component_layers, ['A', 'B']);
  assert.deepEqual(manifest.layer.blacklisted_layers, ['C']);
  // Moving an auto layer does not make a clean draft dirty; moving an on layer past another does.
  const installed = draftConfig(d);
  assert.equal(isDraftDirty(moveLayerBy(d, 'I1', 2), installed), false);
  const swapped = moveLayerBy(d, 'B', -1);
  assert.equal(isDraftDirty(swapped, installed), true);
  assert.deepEqual(draftChanges(swapped, installed), { states: [], reordered: true });
  assert.deepEqual(draftChanges(setLayerState(d, 'A', 'off'), installed), { states: [{ name: 'A', from: 'on', to: 'off' }], reordered: false });
});

test('the installed override text round-trips: what Strata wrote reads back as the same configuration', () => {
  const config: OverrideConfig = {
    layers: [
      { name: 'B', state: 'on' },
      { name: 'A', state: 'on' },
      { name: 'C', state: 'off' },
    ],
    appKeys: ['/usr/bin/app'],
    apiVersion: '1.2.0',
  };
  const read = configFromOverrideText(buildOverrideManifest(config));
  assert.deepEqual(read, config);
  assert.equal(isDraftDirty(createDraft(read, found('A', 'B', 'C')), config), false);
  // A foreign override: a name both on and blacklisted is off (the loader blacklists before expanding).
  const foreign = JSON.stringify({
    file_format_version: '1.1.2',
    layer: { name: 'VK_LAYER_LUNARG_override', component_layers: ['X', 'Y'], blacklisted_layers: ['Y', 'Z'] },
  });
  assert.deepEqual(configFromOverrideText(foreign)?.layers, [
    { name: 'X', state: 'on' },
    { name: 'Y', state: 'off' },
    { name: 'Z', state: 'off' },
  ]);
  assert.equal(configFromOverrideText('{ not json'), null);
  assert.equal(configFromOverrideText(JSON.stringify({ layer: { name: 'VK_LAYER_other' } })), null);
});

test('after discovery changes the user’s order stays; new layers appear as application-controlled by their discovery neighbour; vanished ones are flagged', () => {
  let d = createDraft(null, found('A', 'B', 'C'));
  d = setLayerState(d, 'C', 'on');
  d = moveLayerBy(d, 'C', -2);
  assert.deepEqual(order(d), ['C:on', 'A:auto', 'B:auto']);
  const next = rebaseDraft(d, found('A', 'NEW', 'B'));
  assert.deepEqual(order(next), ['C:on', 'A:auto', 'NEW:auto', 'B:auto']);
  assert.deepEqual(next.vanished, ['C']);
  assert.equal(rebaseDraft(next, found('A', 'NEW', 'B')), next, 'nothing new: the same draft');
  // A new first layer goes first; an auto layer that vanished is dropped.
  assert.deepEqual(order(rebaseDraft(next, found('FIRST', 'A', 'NEW'))), ['FIRST:auto', 'C:on', 'A:auto', 'NEW:auto']);
});

test('settings: a value is stored per layer and key; undefined goes back to the default and drops empty layers', () => {
  const d = createDraft(null, found('A'));
  const set = setLayerSetting(d, 'A', 'report_flags', ['error']);
  assert.deepEqual(set.config.settings, { A: { report_flags: ['error'] } });
  assert.equal(isDraftDirty(setLayerState(set, 'A', 'on'), draftConfig(setLayerState(d, 'A', 'on'))), true, 'a setting makes the draft dirty');
  const back = setLayerSetting(set, 'A', 'report_flags', undefined);
  assert.equal(back.config.settings, undefined);
  assert.equal(setLayerSetting(back, 'A', 'report_flags', undefined), back);
});

test('orderability: implicit layers the loader places itself say why; forced on they can be ordered', () => {
  assert.deepEqual(layerOrderability({ implicit: false, state: 'auto' }), { orderable: true, reason: null });
  assert.equal(layerOrderability({ implicit: true, state: 'on' }).orderable, true);
  const auto = layerOrderability({ implicit: true, state: 'auto' });
  assert.equal(auto.orderable, false);
  assert.match(auto.reason!, /loader places it itself/);
  assert.match(layerOrderability({ implicit: true, state: 'off' }).reason!, /Forced off/);
});

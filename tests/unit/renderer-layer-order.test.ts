import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDraft } from '../../shared/configurator/layer-draft';
import { applyPreferredOrder } from '../../renderer/src/layers/preferred-order';
import { chainOrderNote } from '../../renderer/src/layers/editor-rows';

const discovered = [
  { name: 'VK_LAYER_imp', implicit: true },
  { name: 'VK_LAYER_a', implicit: false },
  { name: 'VK_LAYER_b', implicit: false },
  { name: 'VK_LAYER_c', implicit: false },
  { name: 'VK_LAYER_d', implicit: false },
];
const names = (d: { config: { layers: { name: string }[] } }) => d.config.layers.map((l) => l.name);

test('the list order saved at Apply comes back after a reload; the On layers keep the installed (component) order', () => {
  // The user dragged c to the top and turned c and a on, in that order; then reloaded.
  const installed = {
    layers: [
      { name: 'VK_LAYER_c', state: 'on' as const },
      { name: 'VK_LAYER_a', state: 'on' as const },
    ],
  };
  const fresh = createDraft(installed, discovered);
  assert.deepEqual(
    names(fresh),
    ['VK_LAYER_imp', 'VK_LAYER_c', 'VK_LAYER_b', 'VK_LAYER_a', 'VK_LAYER_d'],
    'without a saved order: discovery places, component order',
  );
  const saved = ['VK_LAYER_c', 'VK_LAYER_imp', 'VK_LAYER_a', 'VK_LAYER_d', 'VK_LAYER_b'];
  const restored = applyPreferredOrder(fresh, saved);
  assert.deepEqual(names(restored), saved);
  // Someone else changed the component order since: the installed order wins among the On layers.
  const swapped = createDraft(
    {
      layers: [
        { name: 'VK_LAYER_a', state: 'on' },
        { name: 'VK_LAYER_c', state: 'on' },
      ],
    },
    discovered,
  );
  assert.deepEqual(names(applyPreferredOrder(swapped, saved)), ['VK_LAYER_a', 'VK_LAYER_imp', 'VK_LAYER_c', 'VK_LAYER_d', 'VK_LAYER_b']);
  // A layer new since the save stays right after the layer before it in the fresh draft (here c); nothing saved: the draft itself.
  const withNew = createDraft(installed, [...discovered.slice(0, 2), { name: 'VK_LAYER_new', implicit: false }, ...discovered.slice(2)]);
  assert.deepEqual(names(withNew), ['VK_LAYER_imp', 'VK_LAYER_c', 'VK_LAYER_new', 'VK_LAYER_b', 'VK_LAYER_a', 'VK_LAYER_d']);
  assert.deepEqual(names(applyPreferredOrder(withNew, saved)), ['VK_LAYER_c', 'VK_LAYER_new', 'VK_LAYER_imp', 'VK_LAYER_a', 'VK_LAYER_d', 'VK_LAYER_b']);
  assert.equal(applyPreferredOrder(fresh, []), fresh);
  assert.equal(applyPreferredOrder(restored, saved), restored, 'the same object when nothing moves');
});

test('a layer whose chain place differs from its list place says why: the loader’s order, the override’s place, or the application’s request', () => {
  assert.equal(chainOrderNote('implicit', 'auto', 3, 3), null);
  assert.equal(chainOrderNote('explicit', 'auto', 5, null), null);
  assert.equal(chainOrderNote('implicit', 'auto', 3, 1)?.short, 'loader’s order');
  assert.equal(chainOrderNote('explicit', 'on', 1, 2)?.short, 'override’s place');
  assert.match(chainOrderNote('explicit', 'auto', 5, 2)!.full, /#2 in the chain, #5 in this list: .*application/);
});

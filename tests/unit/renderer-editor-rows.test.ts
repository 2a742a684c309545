import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInventory, type ScannedManifest } from '../../shared/discovery/manifest-inventory';
import type { ManifestKind } from '../../shared/loader/search-paths';
import { computeDraftChain } from '../../shared/configurator/draft-chain';
import { createDraft, discoveredLayerNames, moveLayerBy, setLayerState } from '../../shared/configurator/layer-draft';
import { editorRows, filterEditorRows, moveAnnouncement } from '../../renderer/src/layers/editor-rows';
import { layerRows } from '../../renderer/src/layers/layer-rows';
import { sortGroups, groupProblems } from '../../renderer/src/problems/problem-groups';

const layer = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: {
      name,
      type: 'GLOBAL',
      library_path: `lib${name}.so`,
      api_version: '1.3.239',
      implementation_version: '1',
      description: `${name} does things`,
      ...extra,
    },
  });
const scanned = (kind: ManifestKind, order: number, path: string, text: string | null): ScannedManifest => ({
  path,
  kind,
  origin: 'XDG_DATA_DIRS[0]',
  location: path.slice(0, path.lastIndexOf('/')),
  order,
  readdirOrder: true,
  text,
  problem: text === null ? 'unreadable' : null,
  duplicateOf: null,
});

const inventory = buildInventory(
  { implicit_layer: [], explicit_layer: [], driver: [] },
  {
    implicit_layer: [scanned('implicit_layer', 0, '/i/select.json', layer('VK_LAYER_I', { disable_environment: { NO_I: '1' } }))],
    explicit_layer: [
      scanned('explicit_layer', 0, '/e/a.json', layer('VK_LAYER_A')),
      scanned('explicit_layer', 1, '/e/b.json', layer('VK_LAYER_B')),
      scanned('explicit_layer', 2, '/e2/a-again.json', layer('VK_LAYER_A')),
      scanned('explicit_layer', 3, '/e/broken.json', null),
    ],
    driver: [],
  },
);
const rows = layerRows(inventory);

test('editor rows: the draft order, a shadowed copy right after its layer, files without a layer last; chain places from the model', () => {
  let draft = createDraft(null, discoveredLayerNames(inventory));
  draft = setLayerState(draft, 'VK_LAYER_B', 'on');
  draft = moveLayerBy(draft, 'VK_LAYER_B', -1);
  const chain = computeDraftChain(inventory, { env: {}, loaderVersion: '1.3.239' }, { path: null, requestedLayers: ['VK_LAYER_B'] });
  const out = editorRows(rows, draft, chain);
  assert.deepEqual(
    out.map((r) => [r.name, r.state, r.draftIndex, r.shadowedBy !== null, r.chainPosition]),
    [
      ['VK_LAYER_I', 'auto', 0, false, 1],
      ['VK_LAYER_B', 'on', 1, false, 2],
      ['VK_LAYER_A', 'auto', 2, false, null],
      ['VK_LAYER_A', null, 2, true, null],
      [null, null, -1, false, null],
    ],
  );
  assert.equal(out[0]!.orderability.orderable, false, 'an implicit auto layer is placed by the loader');
  assert.match(out[3]!.note!, /Shadowed: the loader uses the copy in \/e\/a\.json/);
  assert.match(out[4]!.note!, /No layer could be read/);
});

test('a layer the draft names that discovery lost is a row of its own; the filter finds it by name', () => {
  const draft = {
    config: { layers: [...createDraft(null, discoveredLayerNames(inventory)).config.layers, { name: 'VK_LAYER_GONE', state: 'on' as const }] },
    vanished: ['VK_LAYER_GONE'],
  };
  const out = editorRows(rows, draft, null);
  const gone = out.find((r) => r.name === 'VK_LAYER_GONE')!;
  assert.equal(gone.row, null);
  assert.equal(gone.vanished, true);
  assert.match(gone.note!, /drops the whole override/);
  assert.deepEqual(
    filterEditorRows(out, 'gone', 'all').map((r) => r.name),
    ['VK_LAYER_GONE'],
  );
  assert.deepEqual(
    filterEditorRows(out, '', 'implicit').map((r) => r.name),
    ['VK_LAYER_I'],
  );
  assert.equal(moveAnnouncement('VK_LAYER_X', { position: 3, total: 7 }), 'VK_LAYER_X moved to position 3 of 7');
});

test('problems sorted by severity: files with errors first, then the most of the worst kind; loader order on ties', () => {
  const bad = buildInventory(
    { implicit_layer: [], explicit_layer: [], driver: [] },
    {
      implicit_layer: [scanned('implicit_layer', 0, '/i/no-disable.json', layer('VK_LAYER_warn_only', { api_version: '1.3' }))],
      explicit_layer: [
        scanned('explicit_layer', 0, '/e/unreadable.json', null),
        scanned('explicit_layer', 1, '/e/broken.json', '{ "file_format_version": "1.2.0", "layer": { "name": "x", } }'),
      ],
      driver: [],
    },
  );
  const groups = groupProblems(bad);
  const worst = (g: (typeof groups)[number]) => (g.counts.error > 0 ? 0 : g.counts.warning > 0 ? 1 : 2);
  const sorted = sortGroups(groups, 'severity');
  assert.deepEqual([...sorted.map(worst)], [...sorted.map(worst)].sort());
  assert.deepEqual(
    sortGroups(groups, 'loader').map((g) => g.path),
    groups.map((g) => g.path),
  );
  assert.equal(new Set(sorted.map((g) => g.path)).size, groups.length);
});

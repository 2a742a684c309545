import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInventory, type ScannedManifest } from '../../shared/discovery/manifest-inventory';
import type { ManifestKind } from '../../shared/loader/search-paths';
import { filterLayerRows, isFilterShortcut, layerRows, rowTitle, typeCounts } from '../../renderer/src/layers/layer-rows';

const layer = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
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
    },
    null,
    2,
  );

function scanned(kind: ManifestKind, order: number, path: string, text: string | null, origin = 'XDG_DATA_DIRS[1]'): ScannedManifest {
  return {
    path,
    kind,
    origin,
    location: path.slice(0, path.lastIndexOf('/')),
    order,
    readdirOrder: true,
    text,
    problem: text === null ? 'unreadable' : null,
    duplicateOf: null,
  };
}

// Scanned lists deliberately out of order: the rows must follow `order`, implicit first.
const inventory = buildInventory(
  { implicit_layer: [], explicit_layer: [], driver: [] },
  {
    implicit_layer: [
      scanned(
        'implicit_layer',
        1,
        '/usr/share/vulkan/implicit_layer.d/select.json',
        layer('VK_LAYER_MESA_device_select', { disable_environment: { NODEVICE_SELECT: '1' } }),
      ),
      scanned('implicit_layer', 0, '/home/u/.config/vulkan/implicit_layer.d/mine.json', layer('VK_LAYER_mine_implicit'), 'XDG_CONFIG_HOME'),
    ],
    explicit_layer: [
      scanned('explicit_layer', 2, '/usr/share/vulkan/explicit_layer.d/broken.json', '{"file_format_version": "1.2.0", "layer": {,}}'),
      scanned('explicit_layer', 0, '/opt/layers/VkLayer_khronos_validation.json', layer('VK_LAYER_KHRONOS_validation'), 'VK_LAYER_PATH[0]'),
      scanned(
        'explicit_layer',
        1,
        '/usr/share/vulkan/explicit_layer.d/meta.json',
        JSON.stringify({
          file_format_version: '1.2.0',
          layer: {
            name: 'VK_LAYER_x_meta',
            type: 'GLOBAL',
            api_version: '1.3.0',
            implementation_version: '1',
            description: 'A meta-layer',
            component_layers: ['VK_LAYER_KHRONOS_validation'],
          },
        }),
      ),
    ],
    driver: [],
  },
);
const rows = layerRows(inventory);

test('rows follow the loader: implicit before explicit, `order` within each', () => {
  assert.deepEqual(
    rows.map((r) => [r.kind, r.position, r.manifest.origin]),
    [
      ['implicit', 1, 'XDG_CONFIG_HOME'],
      ['implicit', 2, 'XDG_DATA_DIRS[1]'],
      ['explicit', 1, 'VK_LAYER_PATH[0]'],
      ['explicit', 2, 'XDG_DATA_DIRS[1]'],
      ['explicit', 3, 'XDG_DATA_DIRS[1]'],
    ],
  );
  assert.equal(new Set(rows.map((r) => r.key)).size, rows.length, 'keys are unique');
});

test('a row carries its layer, meta flag and its manifest’s problem counts', () => {
  const [mine, select, validation, meta, broken] = rows;
  assert.equal(mine!.layer?.name, 'VK_LAYER_mine_implicit');
  assert.equal(mine!.counts.error, 1, 'implicit without disable_environment is an error');
  assert.equal(select!.counts.error + select!.counts.warning, 0);
  assert.equal(validation!.layer?.apiVersion, '1.3.239');
  assert.equal(meta!.layer?.meta, true);
  assert.deepEqual(meta!.layer?.componentLayers, ['VK_LAYER_KHRONOS_validation']);
  assert.equal(broken!.counts.error, 1);
});

test('a manifest with no readable layer still gets a row, named by its file', () => {
  const unreadable = layerRows(
    buildInventory(
      { implicit_layer: [], explicit_layer: [], driver: [] },
      { implicit_layer: [], explicit_layer: [scanned('explicit_layer', 0, '/x/gone.json', null)], driver: [] },
    ),
  );
  assert.equal(unreadable.length, 1);
  assert.equal(unreadable[0]!.layer, null);
  assert.equal(rowTitle(unreadable[0]!), 'gone.json');
  assert.equal(unreadable[0]!.counts.warning, 1, 'manifest/unreadable');
});

test('the filter matches every word in name, path or description, case-insensitively', () => {
  const names = (q: string, t: Parameters<typeof filterLayerRows>[2] = 'all') => filterLayerRows(rows, q, t).map((r) => rowTitle(r));
  assert.deepEqual(names('khronos VALID'), ['VK_LAYER_KHRONOS_validation']);
  assert.deepEqual(names('/opt/layers'), ['VK_LAYER_KHRONOS_validation'], 'by path');
  assert.deepEqual(names('meta-layer'), ['VK_LAYER_x_meta'], 'by description');
  assert.deepEqual(names('broken.json'), [rowTitle(rows[4]!)], 'a row without a description is still found by path');
  assert.deepEqual(
    names('  '),
    rows.map((r) => rowTitle(r)),
    'blank: everything',
  );
  assert.deepEqual(names('nothing-like-this'), []);
});

test('the type filter: implicit, explicit, meta; counts for each', () => {
  const names = (t: 'implicit' | 'explicit' | 'meta') => filterLayerRows(rows, '', t).map((r) => rowTitle(r));
  assert.deepEqual(names('implicit'), ['VK_LAYER_mine_implicit', 'VK_LAYER_MESA_device_select']);
  assert.equal(names('explicit').length, 3);
  assert.deepEqual(names('meta'), ['VK_LAYER_x_meta']);
  assert.deepEqual(typeCounts(rows), { all: 5, implicit: 2, explicit: 3, meta: 1 });
  assert.deepEqual(filterLayerRows(rows, 'mesa', 'explicit'), [], 'type and query combine');
});

test('"/" focuses the filter unless typing elsewhere or with a modifier', () => {
  const key = (k: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({
    key: k,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    ...mods,
  });
  assert.equal(isFilterShortcut(key('/'), false), true);
  assert.equal(isFilterShortcut(key('/'), true), false);
  assert.equal(isFilterShortcut(key('/', { ctrlKey: true }), false), false);
  assert.equal(isFilterShortcut(key('?'), false), false);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildInventory, type ScannedManifest } from '../../shared/discovery/manifest-inventory';
import { discoveredLayerNames, findLayerDescription } from '../../shared/settings/layer-lookup';

// shared/settings/layer-lookup.ts: the first manifest in the loader's order (implicit, then explicit)
// that defines the layer and is read once.
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const REAL = readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8');
const bare = (name: string) =>
  JSON.stringify({
    file_format_version: '1.1.0',
    layer: { name, type: 'GLOBAL', library_path: 'x.so', api_version: '1.3.0', implementation_version: '1', description: 'd' },
  });

function inventory(implicit: [string, string | null, number | null][], explicit: [string, string | null, number | null][]) {
  const scanned = (kind: ScannedManifest['kind'], list: [string, string | null, number | null][]): ScannedManifest[] =>
    list.map(([path, text, duplicateOf], order) => ({
      path,
      kind,
      origin: 't',
      location: '/',
      order,
      readdirOrder: false,
      text,
      problem: text === null ? 'unreadable' : null,
      duplicateOf,
    }));
  return buildInventory(
    { implicit_layer: [], explicit_layer: [], driver: [] },
    { implicit_layer: scanned('implicit_layer', implicit), explicit_layer: scanned('explicit_layer', explicit), driver: [] },
  );
}

test('findLayerDescription: implicit before explicit; a file read twice or unreadable is skipped', () => {
  const inv = inventory(
    [['/i/dup.json', REAL, 0]],
    [
      ['/e/other.json', bare('VK_LAYER_other'), null],
      ['/e/broken.json', null, null],
      ['/e/validation.json', REAL, null],
      ['/e/second.json', REAL, null],
    ],
  );
  const found = findLayerDescription(inv, VALIDATION);
  assert.equal(found?.manifestPath, '/e/validation.json');
  assert.equal(found?.manifestText, REAL);
  assert.equal(found?.description.layerName, VALIDATION);
  assert.ok(found?.description.byKey.has('report_flags'));
  assert.equal(findLayerDescription(inv, 'VK_LAYER_missing'), null);
  assert.equal(findLayerDescription(inventory([['/i/v.json', REAL, null]], [['/e/v.json', REAL, null]]), VALIDATION)?.manifestPath, '/i/v.json');
});

test('discoveredLayerNames: every name once, implicit first', () => {
  const inv = inventory(
    [['/i/a.json', bare('VK_LAYER_a'), null]],
    [
      ['/e/b.json', bare('VK_LAYER_b'), null],
      ['/e/a.json', bare('VK_LAYER_a'), null],
    ],
  );
  assert.deepEqual(discoveredLayerNames(inv), ['VK_LAYER_a', 'VK_LAYER_b']);
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDrivers, formatLayers, formatLint, inventoryAsLint, lintHasErrors } from '../../main/hosts/cli/discovery-commands';
import { discoveryManifests } from '../../main/discovery/discovery-service';
import type { ManifestInventory } from '../../shared/discovery/manifest-inventory';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/discovery-commands.ts: the human forms of `strata layer list`, `strata driver list` and
 * `strata lint`, over what discovery really finds in a temporary HOME (manifests written to
 * $XDG_DATA_HOME/vulkan/…): one row per layer in the loader's order, implicit first, a manifest's
 * problems counted, compiler-style lint lines with 1-based positions.
 */
let home: TempHome;
let inventory: ManifestInventory;
let layersDir: { implicit: string; explicit: string; icd: string };

const layer = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', library_path: '/nonexistent/lib.so', api_version: '1.3.250', implementation_version: '2', description: 'd', ...extra },
  });

before(async () => {
  home = makeTempHome();
  const data = join(home.env['XDG_DATA_HOME']!, 'vulkan');
  layersDir = { implicit: join(data, 'implicit_layer.d'), explicit: join(data, 'explicit_layer.d'), icd: join(data, 'icd.d') };
  for (const d of Object.values(layersDir)) mkdirSync(d, { recursive: true });
  writeFileSync(join(layersDir.implicit, 'imp.json'), layer('VK_LAYER_TEST_implicit', { disable_environment: { DISABLE_IMP: '1' } }));
  writeFileSync(join(layersDir.explicit, 'a.json'), layer('VK_LAYER_TEST_explicit'));
  writeFileSync(join(layersDir.explicit, 'broken.json'), '{ "file_format_version": "1.2.0", "layer": ');
  writeFileSync(
    join(layersDir.icd, 'fake.json'),
    JSON.stringify({ file_format_version: '1.0.1', ICD: { library_path: '/nonexistent/libfake.so', api_version: '1.3.0', is_portability_driver: true } }),
  );
  // Only the temporary HOME's folders: the machine's own manifests would make the rows unpredictable.
  inventory = await discoveryManifests({ env: { ...home.env, XDG_DATA_DIRS: '/nonexistent', XDG_CONFIG_DIRS: '/nonexistent' }, libraries: false });
});
after(() => home.cleanup());

const rowsOf = (text: string) => text.split('\n').slice(1);

test('layer list: implicit before explicit, one row per layer, problems counted; a broken manifest still has its row', () => {
  const text = formatLayers(inventory);
  assert.match(text.split('\n')[0]!, /^NAME +TYPE +API +VERSION +ORIGIN +PROBLEMS +MANIFEST$/);
  const rows = rowsOf(text);
  assert.equal(rows.length, 3);
  assert.match(rows[0]!, /^VK_LAYER_TEST_implicit +implicit +1\.3\.250 +2 .* ok +.*imp\.json$/);
  const broken = rows.find((r) => r.endsWith('broken.json'))!;
  assert.match(broken, /^— +explicit .* \d+ errors? +/);
  assert.match(
    rows.find((r) => r.endsWith('a.json'))!,
    /^VK_LAYER_TEST_explicit +explicit +1\.3\.250/,
  );
  assert.deepEqual(
    rowsOf(formatLayers(inventory, 'implicit')).map((r) => r.split(/\s+/)[0]),
    ['VK_LAYER_TEST_implicit'],
  );
  assert.ok(rowsOf(formatLayers(inventory, 'explicit')).every((r) => /explicit/.test(r)));
  const none: ManifestInventory = { ...inventory, manifests: { implicit_layer: [], explicit_layer: [], driver: [] } };
  assert.equal(formatLayers(none), 'No layer manifests found. Run `strata path list` to see where the loader looks.');
});

test('driver list: library, API, portability, the manifest; none found says where to look', () => {
  const rows = rowsOf(formatDrivers(inventory));
  assert.equal(rows.length, 1);
  assert.match(rows[0]!, /^\/nonexistent\/libfake\.so +1\.3\.0 +yes .*fake\.json$/);
  const none: ManifestInventory = { ...inventory, manifests: { ...inventory.manifests, driver: [] }, driverNotes: ['the settings file adds none'] };
  assert.equal(formatDrivers(none), 'No driver manifests found. Run `strata path list` to see where the loader looks.\nnote: the settings file adds none');
});

test('lint: path:line:col (1-based) severity [code] message per diagnostic, then the count; errors decide the exit', () => {
  const results = inventoryAsLint(inventory);
  assert.equal(results.length, 4);
  assert.equal(lintHasErrors(results), true);
  const text = formatLint(results);
  const lines = text.split('\n');
  assert.match(lines.at(-1)!, /^4 files checked: [1-9]\d* errors?, \d+ warnings?\.$/);
  const brokenLine = lines.find((l) => l.startsWith(join(layersDir.explicit, 'broken.json')))!;
  assert.match(brokenLine, /^.*broken\.json:1:\d+: error \[[^\]]+\] /);
  assert.equal(lintHasErrors(results.filter((r) => !r.uri.endsWith('broken.json'))), false);
  assert.equal(formatLint([]), '0 files checked: 0 errors, 0 warnings.');
});

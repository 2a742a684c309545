import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiOf, LayerReadings, readingOf } from '../../shared/loader/layer-readings';
import { parseManifest } from '../../shared/manifest/manifest-parser';

/**
 * shared/loader/layer-readings.ts: the loader's reading of a layer manifest's text, held per text so
 * a process parses each distinct text once. The checks themselves are loader_read_layer_json's
 * (tests/unit/chain-layers.test.ts reads them through readLayers; the real loaders agree in
 * tests/integration/chain-vs-loader.test.ts).
 */
const manifest = (layer: Record<string, unknown>) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: { type: 'GLOBAL', library_path: 'libx.so', api_version: '1.3.0', implementation_version: '1', description: 'd', ...layer },
  });

test('readingOf: what an implicit and an explicit manifest keep differs only where the loader says so', () => {
  const parsed = parseManifest(manifest({ name: 'VK_LAYER_x', enable_environment: { ENABLE_X: '1' } }));
  const explicit = readingOf(parsed, false);
  assert.deepEqual(
    explicit.layers.map((l) => [l.name, l.implicit, l.enableEnv]),
    [['VK_LAYER_x', false, null]],
  );
  const implicit = readingOf(parsed, true);
  assert.deepEqual(implicit.layers, []);
  assert.deepEqual(implicit.rejected, [{ name: 'VK_LAYER_x', why: 'an implicit layer must have a disable_environment (LLP_LAYER_9)' }]);
  assert.deepEqual(readingOf(parseManifest('{"ICD": {}}'), false), { layers: [], rejected: [] }, 'a driver manifest has no layers');
  assert.deepEqual(apiOf('1.4.309'), { major: 1, minor: 4 });
});

test('LayerReadings: one parse per distinct text, whichever path or caller asks', () => {
  const readings = new LayerReadings();
  const text = manifest({ name: 'VK_LAYER_once' });
  const first = readings.of(text, false);
  assert.equal(readings.of(text, false), first, 'the same text: the reading held');
  assert.equal(readings.parses, 1);
  readings.of(text, true);
  assert.equal(readings.parses, 2, 'read as an implicit manifest: its own reading (implicit checks differ)');
  readings.of(`${text} `, false);
  assert.equal(readings.parses, 3, 'a changed text is a new reading');
});

test('LayerReadings.remember: a parse made elsewhere (discovery) is the reading later asked for', () => {
  const readings = new LayerReadings();
  const text = manifest({ name: 'VK_LAYER_handed', disable_environment: { NO_X: '1' } });
  const remembered = readings.remember(parseManifest(text), true);
  assert.equal(readings.of(text, true), remembered);
  assert.equal(readings.parses, 0, 'never parsed by the readings themselves');
  assert.equal(readings.remember(parseManifest(text), true), remembered, 'remembered twice: the first reading stays');
});

test('LayerReadings: bounded by the text they hold; the oldest go first, and a text larger than the budget is held alone', () => {
  const a = manifest({ name: 'VK_LAYER_a' });
  const b = manifest({ name: 'VK_LAYER_b' });
  const readings = new LayerReadings(a.length + b.length);
  readings.of(a, false);
  readings.of(b, false);
  assert.equal(readings.parses, 2);
  readings.of(a, false);
  assert.equal(readings.parses, 2, 'both fit the budget');
  const c = manifest({ name: 'VK_LAYER_c' });
  readings.of(c, false);
  readings.of(b, false);
  readings.of(c, false);
  assert.equal(readings.parses, 3, 'b and c are held');
  readings.of(a, false);
  assert.equal(readings.parses, 4, 'a, the oldest, went when c came');
  const huge = manifest({ name: 'VK_LAYER_huge', description: 'x'.repeat(4 * (a.length + b.length)) });
  const hugeReading = readings.of(huge, false);
  assert.equal(readings.of(huge, false), hugeReading, 'held alone, over the budget');
  readings.of(b, false);
  assert.equal(readings.parses, 6, 'everything before it went');
});

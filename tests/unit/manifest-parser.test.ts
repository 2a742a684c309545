import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest, parseVersion } from '../../shared/manifest/manifest-parser';
import { lintManifest } from '../../shared/lint/manifest-lint';

const r = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

const single = [
  '{',
  '  "file_format_version": "1.2.1",',
  '  "layer": {',
  '    "name": "VK_LAYER_test_one",',
  '    "type": "GLOBAL",',
  '    "library_path": "libone.so",',
  '    "api_version": "1.3.239",',
  '    "implementation_version": "1",',
  '    "description": "one",',
  '    "device_extensions": [{ "name": "VK_EXT_debug_marker", "spec_version": "4", "entrypoints": ["vkCmdDebugMarkerBeginEXT"] }],',
  '    "disable_environment": { "DISABLE_ONE": "1" },',
  '    "settings": [{ "key": "x", "value": true }]',
  '  }',
  '}',
].join('\n');

test('"layer" form: each field has its value and the exact range of its token', () => {
  const p = parseManifest(single);
  assert.equal(p.syntaxErrors.length, 0);
  assert.equal(p.manifest?.kind, 'layer');
  if (p.manifest?.kind !== 'layer') return;
  assert.equal(p.manifest.form, 'layer');
  assert.equal(p.manifest.fileFormatVersion?.value, '1.2.1');
  assert.deepEqual(p.manifest.fileFormatVersion?.range, r(1, 25, 1, 32));
  assert.deepEqual(p.manifest.fileFormatVersion?.keyRange, r(1, 2, 1, 23));
  const layer = p.manifest.layers[0]!;
  assert.equal(layer.index, undefined);
  assert.equal(layer.name?.value, 'VK_LAYER_test_one');
  assert.deepEqual(layer.name?.range, r(3, 12, 3, 31));
  assert.deepEqual(layer.library_path?.range, r(5, 20, 5, 31));
  const ext = layer.device_extensions?.value?.[0];
  assert.equal(ext?.name?.value, 'VK_EXT_debug_marker');
  assert.deepEqual(ext?.entrypoints?.value?.[0]?.range, r(9, 96, 9, 122));
  assert.equal(ext?.entrypoints?.value?.[0]?.value, 'vkCmdDebugMarkerBeginEXT');
  const env = layer.disable_environment?.value?.[0];
  assert.equal(env?.key, 'DISABLE_ONE');
  assert.deepEqual(env?.keyRange, r(10, 29, 10, 42));
  assert.equal(env?.value.value, '1');
  assert.equal(layer.settings?.node.kind, 'array');
  assert.deepEqual(layer.settings?.range, r(11, 16, 11, 47));
});

test('"layers" form: several layers, each with its index and ranges', () => {
  const text = '{"file_format_version":"1.0.1","layers":[\n {"name":"VK_LAYER_a"},\n {"name":"VK_LAYER_b","component_layers":["VK_LAYER_a", 3]}\n]}';
  const p = parseManifest(text);
  assert.equal(p.manifest?.kind, 'layer');
  if (p.manifest?.kind !== 'layer') return;
  assert.equal(p.manifest.form, 'layers');
  assert.deepEqual(
    p.manifest.layers.map((l) => [l.index, l.name?.value]),
    [
      [0, 'VK_LAYER_a'],
      [1, 'VK_LAYER_b'],
    ],
  );
  assert.deepEqual(p.manifest.layers[1]!.name?.range, r(2, 9, 2, 21));
  const comps = p.manifest.layers[1]!.component_layers!.value!;
  assert.deepEqual(
    comps.map((c) => c.value),
    ['VK_LAYER_a', undefined],
  );
  assert.deepEqual(comps[1]!.range, r(2, 56, 2, 57));
});

test('driver manifest: ICD fields with ranges; CRLF line ends count as one', () => {
  const text =
    '{\r\n  "file_format_version": "1.0.1",\r\n  "ICD": { "library_path": "libvulkan_x.so", "api_version": "1.3.239", "library_arch": "64", "is_portability_driver": false }\r\n}\r\n';
  const p = parseManifest(text);
  assert.equal(p.manifest?.kind, 'driver');
  if (p.manifest?.kind !== 'driver') return;
  assert.equal(p.manifest.library_path?.value, 'libvulkan_x.so');
  assert.deepEqual(p.manifest.library_path?.range, r(2, 27, 2, 43));
  assert.equal(p.manifest.api_version?.value, '1.3.239');
  assert.equal(p.manifest.library_arch?.value, '64');
  assert.equal(p.manifest.is_portability_driver?.value, false);
  assert.deepEqual(lintManifest(p, { role: 'driver' }), []);
});

test('a wrong type keeps the node and range; the diagnostic points at the offending token', () => {
  const text =
    '{\n  "file_format_version": "1.1.0",\n  "layer": { "name": 42, "type": "GLOBAL", "library_path": "x.so", "api_version": "1.3.0", "implementation_version": "1", "description": "d" }\n}';
  const p = parseManifest(text);
  if (p.manifest?.kind !== 'layer') return assert.fail('not a layer manifest');
  const name = p.manifest.layers[0]!.name!;
  assert.equal(name.value, undefined);
  assert.equal(name.node.kind, 'number');
  const [d, ...rest] = lintManifest(p);
  assert.deepEqual(rest, []);
  assert.equal(d?.code, 'manifest/wrong-type');
  assert.deepEqual(d?.range, r(2, 21, 2, 23));
});

test('a syntax error has the range of the offending token', () => {
  const text = '{\n  "file_format_version": "1.1.0",\n  "layer": { "name": "VK_LAYER_x", }\n}';
  const p = parseManifest(text);
  assert.ok(p.syntaxErrors.length > 0);
  const [d] = lintManifest(p);
  assert.equal(d?.code, 'manifest/invalid-json');
  assert.deepEqual(d?.range, r(2, 35, 2, 36));
});

test('a missing field points at the start of its parent object', () => {
  const text =
    '{\n  "file_format_version": "1.1.0",\n  "layer": { "name": "VK_LAYER_x", "type": "GLOBAL", "library_path": "x.so", "implementation_version": "1", "description": "d" }\n}';
  const ds = lintManifest(parseManifest(text));
  assert.deepEqual(
    ds.map((d) => [d.code, d.range]),
    [['manifest/missing-field', r(2, 11, 2, 12)]],
  );
  assert.match(String(ds[0]!.message), /"api_version"/);
});

test('duplicate keys: the model keeps the first (as cJSON does), lint points at the second', () => {
  const text =
    '{"file_format_version":"1.1.0","layer":{"name":"VK_LAYER_first","name":"VK_LAYER_second","type":"GLOBAL","library_path":"x.so","api_version":"1.3.0","implementation_version":"1","description":"d"}}';
  const p = parseManifest(text);
  if (p.manifest?.kind !== 'layer') return assert.fail('not a layer manifest');
  assert.equal(p.manifest.layers[0]!.name?.value, 'VK_LAYER_first');
  const ds = lintManifest(p);
  assert.deepEqual(
    ds.map((d) => [d.code, d.range]),
    [['manifest/duplicate-key', r(0, 64, 0, 70)]],
  );
});

test('parseVersion reads versions as the loader does', () => {
  assert.deepEqual(parseVersion('1.3.239'), { major: 1, minor: 3, patch: 239, wellFormed: true });
  assert.deepEqual(parseVersion('1.3'), { major: 1, minor: 3, patch: 0, wellFormed: false });
  assert.deepEqual(parseVersion('abc'), { major: 0, minor: 0, patch: 0, wellFormed: false });
});

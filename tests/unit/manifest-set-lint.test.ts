import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifestSet } from '../../shared/lint/manifest-set-lint';

const layer = (name: string, extra: Record<string, unknown> = {}) =>
  parseManifest(
    JSON.stringify({
      file_format_version: '1.1.1',
      layer: { name, type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'd', ...extra },
    }),
  );
const meta = (name: string, components: string[], api = '1.3.0') => layer(name, { component_layers: components, api_version: api });

test('a missing component layer is an error at that component (LLP_LAYER_7)', () => {
  const out = lintManifestSet([{ uri: 'a.json', parsed: meta('VK_LAYER_meta', ['VK_LAYER_absent']) }]);
  assert.deepEqual(
    out.map((o) => [o.uri, o.diagnostic.code]),
    [['a.json', 'layer/component-missing']],
  );
  assert.deepEqual(out[0]!.diagnostic.range.start, { line: 0, character: 168 });
});

test('a cycle of meta-layers is reported once', () => {
  const out = lintManifestSet([
    { uri: 'a.json', parsed: meta('VK_LAYER_a', ['VK_LAYER_b']) },
    { uri: 'b.json', parsed: meta('VK_LAYER_b', ['VK_LAYER_a']) },
  ]);
  assert.deepEqual(
    out.map((o) => o.diagnostic.code),
    ['layer/component-cycle'],
  );
  assert.match(String(out[0]!.diagnostic.message), /VK_LAYER_a → VK_LAYER_b → VK_LAYER_a/);
});

test('the later of two layers with one name is shadowed; an older component API is an error (LLP_LAYER_8)', () => {
  const out = lintManifestSet([
    { uri: 'first.json', parsed: layer('VK_LAYER_x', { library_path: 'x.so', api_version: '1.2.0' }) },
    { uri: 'second.json', parsed: layer('VK_LAYER_x', { library_path: 'y.so' }) },
    { uri: 'meta.json', parsed: meta('VK_LAYER_m', ['VK_LAYER_x'], '1.3.0') },
  ]);
  assert.deepEqual(
    out.map((o) => [o.uri, o.diagnostic.code]),
    [
      ['second.json', 'layer/duplicate-name'],
      ['meta.json', 'layer/component-api-version'],
    ],
  );
});

test('a valid set has no diagnostics', () => {
  assert.deepEqual(
    lintManifestSet([
      { uri: 'x', parsed: layer('VK_LAYER_x', { library_path: 'x.so' }) },
      { uri: 'm', parsed: meta('VK_LAYER_m', ['VK_LAYER_x']) },
    ]),
    [],
  );
});

test('override layers scoped by app_keys are chosen per executable, not shadowed (loader 1.3.239 remove_all_non_valid_override_layers); two global ones are a duplicate', () => {
  const override = (extra: Record<string, unknown>) => layer('VK_LAYER_LUNARG_override', { component_layers: [], ...extra });
  const valid = lintManifestSet([
    { uri: 'VkLayer_override_strata_a.json', parsed: override({ app_keys: ['/usr/bin/vulkaninfo'] }) },
    { uri: 'VkLayer_override.json', parsed: override({}) },
    { uri: 'VkLayer_override_strata_b.json', parsed: override({ app_keys: ['/usr/bin/vkcube', '/usr/bin/vulkaninfo'] }) },
  ]);
  assert.deepEqual(valid, []);
  const twoGlobal = lintManifestSet([
    { uri: 'a.json', parsed: override({}) },
    { uri: 'b.json', parsed: override({ app_keys: ['/x'] }) },
    { uri: 'c.json', parsed: override({}) },
  ]);
  assert.deepEqual(
    twoGlobal.map((o) => [o.uri, o.diagnostic.code]),
    [['c.json', 'layer/duplicate-name']],
  );
});

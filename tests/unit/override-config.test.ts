import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest } from '../../shared/lint/manifest-lint';
import { lintManifestSet } from '../../shared/lint/manifest-set-lint';

const IMPLICIT = '/home/u/.local/share/vulkan/implicit_layer.d/VkLayer_override.json';

const configs: Record<string, OverrideConfig> = {
  'one on': { layers: [{ name: 'VK_LAYER_KHRONOS_validation', state: 'on' }] },
  'blacklist only': { layers: [{ name: 'VK_LAYER_MESA_device_select', state: 'off' }] },
  'every field': {
    layers: [
      { name: 'VK_LAYER_B', state: 'on' },
      { name: 'VK_LAYER_X', state: 'auto' },
      { name: 'VK_LAYER_A', state: 'on' },
      { name: 'VK_LAYER_C', state: 'off' },
    ],
    appKeys: ['/usr/bin/vkcube'],
    overridePaths: ['/opt/layers'],
    apiVersion: '1.3.239',
  },
};

test('the manifest: component_layers = on layers in order, blacklisted_layers = off layers, auto layers absent', () => {
  const m = JSON.parse(buildOverrideManifest(configs['every field']!));
  assert.deepEqual(m, {
    file_format_version: '1.2.0',
    layer: {
      name: 'VK_LAYER_LUNARG_override',
      type: 'GLOBAL',
      api_version: '1.3.239',
      implementation_version: '1',
      description: "Strata's override layer",
      component_layers: ['VK_LAYER_B', 'VK_LAYER_A'],
      blacklisted_layers: ['VK_LAYER_C'],
      app_keys: ['/usr/bin/vkcube'],
      override_paths: ['/opt/layers'],
      disable_environment: { DISABLE_STRATA_OVERRIDE: '1' },
    },
  });
  assert.ok(!buildOverrideManifest(configs['every field']!).includes('VK_LAYER_X'));
});

test('optional fields are left out when not given; the text is stable and ends in a newline', () => {
  const text = buildOverrideManifest(configs['one on']!);
  assert.equal(text, buildOverrideManifest(structuredClone(configs['one on']!)));
  assert.ok(text.endsWith('}\n'));
  const layer = JSON.parse(text).layer;
  for (const k of ['blacklisted_layers', 'app_keys', 'override_paths']) assert.ok(!(k in layer), k);
  assert.equal(layer.api_version, '1.3.0');
});

for (const [name, config] of Object.entries(configs))
  test(`lint: the manifest (${name}) has no error, warning or note as an implicit layer`, () => {
    const diagnostics = lintManifest(parseManifest(buildOverrideManifest(config)), { role: 'implicit-layer' });
    assert.deepEqual(diagnostics, []);
  });

test('set lint: with the real validation and device-select manifests the components resolve (no missing component, no API version clash)', () => {
  const files = [
    {
      uri: IMPLICIT,
      parsed: parseManifest(
        buildOverrideManifest({
          layers: [
            { name: 'VK_LAYER_KHRONOS_validation', state: 'on' },
            { name: 'VK_LAYER_MESA_device_select', state: 'on' },
          ],
        }),
      ),
    },
    { uri: 'validation', parsed: parseManifest(readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8')) },
    { uri: 'device-select', parsed: parseManifest(readFileSync('/usr/share/vulkan/implicit_layer.d/VkLayer_MESA_device_select.json', 'utf8')) },
  ];
  assert.deepEqual(lintManifestSet(files), []);
});

test('an empty component_layers is still a warning for meta-layers other than a blacklisting override', () => {
  const meta = (name: string, extra: object) =>
    JSON.stringify({
      file_format_version: '1.2.0',
      layer: {
        name,
        type: 'GLOBAL',
        api_version: '1.3.0',
        implementation_version: '1',
        description: 'd',
        component_layers: [],
        disable_environment: { D: '1' },
        ...extra,
      },
    });
  const codes = (text: string) => lintManifest(parseManifest(text), { role: 'implicit-layer' }).map((d) => d.code);
  assert.deepEqual(codes(meta('VK_LAYER_LUNARG_override', {})), ['layer/empty-component-layers']);
  assert.deepEqual(codes(meta('VK_LAYER_other_meta', {})), ['layer/empty-component-layers']);
  assert.deepEqual(codes(meta('VK_LAYER_LUNARG_override', { blacklisted_layers: ['VK_LAYER_X'] })), []);
});

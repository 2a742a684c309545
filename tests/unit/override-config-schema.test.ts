import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overrideManifestText, type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest, OverrideConfigSchema } from '../../shared/override/override-config-schema';

/**
 * The override configuration's schema (shared/override/override-config-schema.ts): what it refuses,
 * and the checked manifest text against the unchecked one the Layers draft previews
 * (override-config.ts overrideManifestText). The manifest itself is in override-config.test.ts.
 */
test('the schema refuses what the loader would misread or what changes nothing', () => {
  const bad: [unknown, RegExp][] = [
    [
      {
        layers: [
          { name: 'VK_LAYER_A', state: 'on' },
          { name: 'VK_LAYER_A', state: 'off' },
        ],
      },
      /listed twice/,
    ],
    [{ layers: [{ name: 'VK_LAYER_A', state: 'auto' }] }, /change nothing/],
    [{ layers: [] }, /change nothing/],
    [{ layers: [{ name: 'VK_LAYER_LUNARG_override', state: 'on' }] }, /override layer itself/],
    [{ layers: [{ name: 'VK_LAYER_A', state: 'enabled' }] }, /state/],
    [{ layers: [{ name: 'VK_LAYER_A', state: 'on' }], apiVersion: '1.3' }, /three numbers/],
    [{ layers: [{ name: 'VK_LAYER_A', state: 'on' }], app_keys: ['/x'] }, /app_keys|Unrecognized/i],
  ];
  for (const [config, why] of bad) {
    const r = OverrideConfigSchema.safeParse(config);
    assert.equal(r.success, false, JSON.stringify(config));
    assert.match(r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), why, JSON.stringify(config));
  }
  assert.throws(() => buildOverrideManifest({ layers: [] } as OverrideConfig));
});

test('buildOverrideManifest writes the same text the draft previews, once the configuration passes the schema', () => {
  const config: OverrideConfig = {
    layers: [
      { name: 'VK_LAYER_B', state: 'on' },
      { name: 'VK_LAYER_C', state: 'off' },
    ],
    appKeys: ['/usr/bin/vkcube'],
    settings: { VK_LAYER_B: { report_flags: ['error'] } },
  };
  assert.equal(buildOverrideManifest(config), overrideManifestText(config));
  // The preview shows what a draft would write even before Apply refuses it; only the checked text throws.
  const refused: OverrideConfig = { layers: [{ name: 'VK_LAYER_A', state: 'auto' }] };
  assert.match(overrideManifestText(refused), /"component_layers": \[\]/);
  assert.throws(() => buildOverrideManifest(refused), /change nothing/);
});

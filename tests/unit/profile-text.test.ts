import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Profile } from '../../shared/profiles/profile-schema';
import { serializeProfile } from '../../shared/profiles/profile-text';
import { parseProfileText } from '../../shared/profiles/profile-document';

/** A profile's file text (shared/profiles/profile-text.ts): stable, and read back to the same profile. */
test('serializeProfile is stable and reads back to the same profile', () => {
  const p: Profile = {
    schemaVersion: 2,
    name: 'Everything',
    description: 'all fields',
    layers: [
      { name: 'VK_LAYER_A', state: 'on' },
      { name: 'VK_LAYER_B', state: 'off' },
      { name: 'VK_LAYER_C', state: 'auto' },
    ],
    applicationLayersAt: 1,
    settings: { VK_LAYER_A: { flag: true, n: 3, s: 'x', list: ['a', 'b'] } },
    loaderMessages: ['error', 'layer'],
    drivers: { select: ['*lvp*'], disable: ['radeon_icd.x86_64.json'], order: ['lvp_icd*'] },
    overridePaths: ['/opt/layers'],
    applications: ['/usr/bin/vkcube'],
  };
  const text = serializeProfile(p);
  assert.equal(serializeProfile({ ...p }), text);
  assert.ok(text.endsWith('}\n'));
  const r = parseProfileText(text, 'x.json');
  assert.deepEqual(r.ok && r.profile, p);
});

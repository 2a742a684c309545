import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import { profileFromOverrideText, profileOverrideText, profileToOverrideConfig } from '../../shared/profiles/profile-override';
import type { Profile } from '../../shared/profiles/profile-schema';

/** shared/profiles/profile-override.ts: profile ⇄ override layer, and what the override cannot say. */
const sync: Profile = {
  schemaVersion: 2,
  name: 'Sync',
  layers: [
    { name: 'VK_LAYER_KHRONOS_validation', state: 'on' },
    { name: 'VK_LAYER_MESA_device_select', state: 'off' },
    { name: 'VK_LAYER_MANGOHUD_overlay', state: 'auto' },
  ],
  overridePaths: ['/opt/layers'],
};

test('a profile becomes the override: on → component_layers in order, off → blacklisted_layers, auto left out; the reverse gives the profile back', () => {
  const r = profileOverrideText(sync);
  assert.ok(r.ok);
  if (!r.ok) return;
  const layer = JSON.parse(r.text).layer;
  assert.deepEqual(layer.component_layers, ['VK_LAYER_KHRONOS_validation']);
  assert.deepEqual(layer.blacklisted_layers, ['VK_LAYER_MESA_device_select']);
  assert.deepEqual(layer.override_paths, ['/opt/layers']);
  const back = profileFromOverrideText(r.text, 'Sync', 'VkLayer_override.json');
  assert.ok(back.ok);
  if (back.ok)
    assert.deepEqual(
      back.profile.layers,
      sync.layers.filter((l) => l.state !== 'auto'),
    );
});

test('app keys scope the override; a profile that forces nothing is refused with a fix', () => {
  const scoped = profileToOverrideConfig(sync, { appKeys: ['/usr/bin/vkcube'] });
  assert.ok(scoped.ok && JSON.parse(buildOverrideManifest(scoped.config)).layer.app_keys[0] === '/usr/bin/vkcube');
  const nothing = profileToOverrideConfig({ schemaVersion: 2, name: 'Nothing', layers: [{ name: 'VK_LAYER_X', state: 'auto' }] });
  assert.equal(nothing.ok, false);
  if (!nothing.ok) {
    assert.equal(nothing.error.code, 'profile/not-an-override');
    assert.match(nothing.error.fix ?? '', /at least one layer 'on' or 'off'/);
  }
});

test('what the override layer cannot express is a note: layers after the application layers position, loader messages, drivers', () => {
  const r = profileToOverrideConfig({ ...sync, applicationLayersAt: 0, loaderMessages: ['error'], drivers: { select: ['lvp*'] } });
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.notes.length, 3);
  assert.match(r.notes[0]!, /VK_LAYER_KHRONOS_validation cannot sit nearer the driver/);
});

test('importing an override file: errors point at its fields; a layer both on and off comes in off, with a warning', () => {
  const wrongName = profileFromOverrideText('{"file_format_version":"1.2.0","layer":{"name":"VK_LAYER_X"}}', 'x', 'f.json');
  assert.ok(!wrongName.ok && wrongName.error.where === 'f.json, field layer.name', JSON.stringify(wrongName));
  const badItem = profileFromOverrideText(
    '{"file_format_version":"1.2.0","layer":{"name":"VK_LAYER_LUNARG_override","component_layers":["A",7]}}',
    'x',
    'f.json',
  );
  assert.ok(!badItem.ok && badItem.error.where === 'f.json, field layer.component_layers[1]', JSON.stringify(badItem));
  const both = profileFromOverrideText(
    '{"file_format_version":"1.2.0","layer":{"name":"VK_LAYER_LUNARG_override","component_layers":["A","B"],"blacklisted_layers":["B"]}}',
    'Both',
    'f.json',
  );
  assert.ok(both.ok);
  if (both.ok) {
    assert.deepEqual(both.profile.layers, [
      { name: 'A', state: 'on' },
      { name: 'B', state: 'off' },
    ]);
    assert.match(both.warnings[0]!, /B is both a component and blacklisted/);
  }
  const layersArray = profileFromOverrideText(
    '{"file_format_version":"1.1.2","layers":[{"name":"VK_LAYER_LUNARG_override","component_layers":["A"]}]}',
    'Arr',
    'f.json',
  );
  assert.ok(layersArray.ok);
});

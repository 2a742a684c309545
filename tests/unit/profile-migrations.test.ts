import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProfileText } from '../../shared/profiles/profile-document';
import { migrateV1 } from '../../shared/profiles/profile-migrations';
import { serializeProfile } from '../../shared/profiles/profile-text';
import { APP_ROOT } from '../helpers/strata-cli';

/** Profile files of older versions (shared/profiles/profile-migrations.ts): a version-1 file loads as version 2. */
const FIXTURES = join(APP_ROOT, 'tests', 'fixtures', 'profiles');

test('a version-1 profile loads as version 2: layers in key order, loaderDebug split, settings kept', () => {
  const path = join(FIXTURES, 'v1-synchronization.json');
  const r = parseProfileText(readFileSync(path, 'utf8'), path);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  if (!r.ok) return;
  assert.equal(r.migratedFrom, 1);
  assert.deepEqual(r.profile, {
    schemaVersion: 2,
    name: 'Old sync checks',
    description: 'Written by Strata 0.0.x: layers as an object, VK_LOADER_DEBUG as text',
    layers: [
      { name: 'VK_LAYER_KHRONOS_validation', state: 'on' },
      { name: 'VK_LAYER_MESA_device_select', state: 'off' },
      { name: 'VK_LAYER_MANGOHUD_overlay', state: 'auto' },
    ],
    settings: { VK_LAYER_KHRONOS_validation: { enables: ['VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT'] } },
    loaderMessages: ['error', 'warn'],
  });
  // Once saved it is a version-2 file, and reads back as itself.
  const again = parseProfileText(serializeProfile(r.profile), 'saved.json');
  assert.ok(again.ok && again.migratedFrom === null);
  assert.deepEqual(again.ok && again.profile, r.profile);
});

test('migrateV1 refuses a loaderDebug word VK_LOADER_DEBUG does not know, naming the field', () => {
  const r = migrateV1({ version: 1, name: 'x', layers: {}, loaderDebug: 'error, chatty' });
  assert.deepEqual(r, {
    ok: false,
    issues: [{ path: 'loaderDebug', message: '"chatty" is not a VK_LOADER_DEBUG level (error, warn, info, debug, perf, layer, driver, validation, all)' }],
  });
});

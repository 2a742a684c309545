import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseProfileText, profileErrorIssues } from '../../shared/profiles/profile-document';
import { migrateV1 } from '../../shared/profiles/profile-migrations';
import { fieldPath, PROFILE_FILE_MAX_BYTES, serializeProfile, type Profile } from '../../shared/profiles/profile-schema';
import { profileFileName, profileFileStem, sameProfileName } from '../../shared/profiles/profile-file-name';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * The profile file format (shared/profiles/profile-schema.ts, profile-document.ts,
 * profile-migrations.ts): every broken file of tests/fixtures/profiles/bad/ gives the expected
 * error code and names the field, a version-1 file loads as version 2, and names become safe files.
 */
const FIXTURES = join(APP_ROOT, 'tests', 'fixtures', 'profiles');
const BAD = join(FIXTURES, 'bad');
const expected = JSON.parse(readFileSync(join(BAD, 'expected.json'), 'utf8')) as Record<string, { code: string; field: string }>;

test('the bad-profile corpus has at least 20 files, each with its expected error', () => {
  const files = readdirSync(BAD).filter((f) => f !== 'expected.json');
  assert.ok(files.length >= 20, `${files.length} files`);
  assert.deepEqual(files.sort(), Object.keys(expected).sort(), 'every corpus file has an entry in expected.json and the reverse');
});

for (const [file, want] of Object.entries(expected)) {
  test(`bad profile ${file}: ${want.code}${want.field ? ` at ${want.field}` : ''}`, () => {
    const path = join(BAD, file);
    const r = parseProfileText(readFileSync(path, 'utf8'), path);
    assert.equal(r.ok, false, 'must not load');
    if (r.ok) return;
    assert.equal(r.error.code, want.code, r.error.message);
    assert.ok(r.error.where?.startsWith(path), `where names the file: ${r.error.where}`);
    if (want.field) {
      assert.equal((r.error.data as { field?: string } | undefined)?.field, want.field, r.error.message);
      assert.ok(r.error.where?.includes(`field ${want.field}`), `where names the field: ${r.error.where}`);
      assert.ok(r.error.message.startsWith(`${want.field}: `) || r.error.code !== 'profile/invalid', r.error.message);
    }
    assert.ok(r.error.fix && r.error.fix.length > 5, 'every error says how to fix it');
    assert.ok(!/\n/.test(r.error.message), 'one line');
  });
}

test('a file over the size limit is refused before it is parsed', () => {
  const huge = `{"schemaVersion": 2, "name": "Huge", "layers": [], "description": "${'x'.repeat(PROFILE_FILE_MAX_BYTES)}"}`;
  const r = parseProfileText(huge, '/tmp/huge.json');
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.error.code, 'profile/too-large');
});

test('several problems: the message names the first and counts the rest; data lists them all', () => {
  const r = parseProfileText(JSON.stringify({ schemaVersion: 2, name: '', layers: [{ name: 'A', state: 'x' }] }), 'f.json');
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.error.message, /and 1 more problem\)$/);
  assert.deepEqual(
    profileErrorIssues(r.error).map((i) => i.path),
    ['name', 'layers[0].state'],
  );
});

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

test('field paths read like the file: layers[2].state, settings.VK_LAYER_X.key', () => {
  assert.equal(fieldPath(['layers', 2, 'state']), 'layers[2].state');
  assert.equal(fieldPath(['settings', 'VK_LAYER_X', 'key']), 'settings.VK_LAYER_X.key');
  assert.equal(fieldPath([]), '');
});

test('profile file names are safe, recognisable and unique without regard to case', () => {
  assert.equal(profileFileStem('Validation — standard'), 'Validation-standard');
  assert.equal(profileFileStem('../../etc/passwd'), 'etc-passwd');
  assert.equal(profileFileStem('Élan vital'), 'Elan-vital');
  assert.equal(profileFileStem('CON'), 'profile-CON');
  assert.equal(profileFileStem('////'), 'profile');
  assert.equal(profileFileStem('.hidden'), 'hidden');
  assert.equal(profileFileStem('x'.repeat(200)).length, 64);
  assert.equal(profileFileName('Sync', []), 'Sync.json');
  assert.equal(profileFileName('Sync', ['sync.json']), 'Sync-2.json');
  assert.equal(profileFileName('Sync', ['sync.json', 'Sync-2.json']), 'Sync-3.json');
  assert.ok(sameProfileName('Sync Checks', 'sync checks'));
  assert.ok(!sameProfileName('Sync', 'Synç'));
});

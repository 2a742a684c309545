import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseProfileText, profileErrorIssues } from '../../shared/profiles/profile-document';
import { PROFILE_FILE_MAX_BYTES } from '../../shared/profiles/profile-schema';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * Reading a profile file (shared/profiles/profile-document.ts): every broken file of
 * tests/fixtures/profiles/bad/ gives the expected error code and names the field.
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

test('the size limit counts UTF-8 bytes, not characters', () => {
  const description = 'é'.repeat(Math.ceil(PROFILE_FILE_MAX_BYTES / 2));
  const text = JSON.stringify({ schemaVersion: 2, name: 'Wide', layers: [], description });
  assert.ok(text.length < PROFILE_FILE_MAX_BYTES);
  const r = parseProfileText(text, '/tmp/wide.json');
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'profile/too-large');
    assert.match(r.error.message, new RegExp(`^The file is ${Buffer.byteLength(text)} bytes`));
  }
});

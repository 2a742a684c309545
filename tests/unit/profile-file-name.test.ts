import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileFileName, profileFileStem, profileNameKey, sameProfileName } from '../../shared/profiles/profile-file-name';

// shared/profiles/profile-file-name.ts: one file per profile, named after it, safe on every file system.
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

test('the name key folds case (macOS and Windows fold file names) and composes accents, keeping them', () => {
  assert.equal(profileNameKey('Sync'), 'sync');
  assert.equal(profileNameKey('Cafe\u0301'), profileNameKey('CAFÉ'));
  assert.notEqual(profileNameKey('Cafe'), profileNameKey('Café'));
  assert.equal(profileFileStem('aux'), 'profile-aux', 'Windows device names, any case');
  assert.equal(profileFileStem('COM1.json'), 'COM1.json', 'only the bare device name is reserved');
  assert.equal(profileFileStem(`${'a'.repeat(63)}.b`), 'a'.repeat(63), 'a cut never ends in a dot or dash');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationSchema, ApplicationsFileSchema, bindingsByProfile, EMPTY_APPLICATIONS } from '../../shared/profiles/application-list';

// shared/profiles/application-list.ts: applications are keyed by their full path, as the loader's
// app_keys compare the running executable's path.
test('an application is named by its full path (Unix or Windows); variable names have no "="', () => {
  assert.ok(ApplicationSchema.safeParse({ path: '/usr/bin/vkcube' }).success);
  assert.ok(ApplicationSchema.safeParse({ path: 'C:\\Games\\game.exe' }).success);
  assert.ok(ApplicationSchema.safeParse({ path: 'D:/game.exe' }).success);
  const relative = ApplicationSchema.safeParse({ path: 'bin/vkcube' });
  assert.ok(!relative.success);
  assert.match(relative.error.issues[0]?.message ?? '', /full path/);
  assert.ok(!ApplicationSchema.safeParse({ path: '/a', env: { 'A=B': '1' } }).success);
  assert.ok(ApplicationSchema.safeParse({ path: '/a', env: { A: null } }).success);
  assert.ok(!ApplicationSchema.safeParse({ path: '/a', extra: 1 }).success, 'strict');
});

test('the file: a path listed twice is refused at the second; bindings grouped by profile in list order', () => {
  const dup = ApplicationsFileSchema.safeParse({ schemaVersion: 1, applications: [{ path: '/a' }, { path: '/b' }, { path: '/a' }] });
  assert.ok(!dup.success);
  assert.deepEqual(dup.error.issues[0]?.path, ['applications', 2, 'path']);
  assert.ok(!ApplicationsFileSchema.safeParse({ schemaVersion: 2, applications: [] }).success);
  assert.ok(ApplicationsFileSchema.safeParse(EMPTY_APPLICATIONS).success);
  const file = ApplicationsFileSchema.parse({
    schemaVersion: 1,
    applications: [{ path: '/a', profile: 'P' }, { path: '/b' }, { path: '/c', profile: 'Q' }, { path: '/d', profile: 'P' }],
  });
  assert.deepEqual(
    [...bindingsByProfile(file)],
    [
      ['P', ['/a', '/d']],
      ['Q', ['/c']],
    ],
  );
});

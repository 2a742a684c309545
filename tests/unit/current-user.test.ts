import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currentUser } from '../../main/discovery/current-user';

// main/discovery/current-user.ts: this process as the loader sees it (loader_secure_getenv's test:
// real ≠ effective uid or gid means setuid/setgid, and the XDG/HOME variables are then ignored).
test('not elevated when real and effective ids agree; HOME from the environment, else none (off Windows)', () => {
  const elevated = process.getuid!() !== process.geteuid!() || process.getgid!() !== process.getegid!();
  assert.deepEqual(currentUser({ HOME: '/home/u' }), { home: '/home/u', elevated });
  assert.equal(elevated, false, 'the test runner is not setuid');
  if (process.platform !== 'win32') {
    assert.equal(currentUser({}).home, null);
    assert.equal(currentUser({ HOME: '' }).home, null, 'an empty HOME is no home');
  }
});

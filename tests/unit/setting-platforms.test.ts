import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableOn, isPlatform, platformName, platformOf } from '../../shared/settings/setting-platforms';

// shared/settings/setting-platforms.ts: the settings schema's platform tokens (layer manifest 1.2.0, "platforms").
test('platformOf: node’s platform to the schema token; any other Unix counts as LINUX', () => {
  assert.equal(platformOf('linux'), 'LINUX');
  assert.equal(platformOf('win32'), 'WINDOWS');
  assert.equal(platformOf('darwin'), 'MACOS');
  assert.equal(platformOf('android'), 'ANDROID');
  assert.equal(platformOf('freebsd'), 'LINUX');
});

test('isPlatform, availableOn and the names shown', () => {
  assert.equal(isPlatform('MACOS'), true);
  assert.equal(isPlatform('macos'), false);
  assert.equal(isPlatform('IOS'), false);
  assert.equal(availableOn({ platforms: ['WINDOWS', 'LINUX'] }, 'LINUX'), true);
  assert.equal(availableOn({ platforms: ['WINDOWS'] }, 'LINUX'), false);
  assert.deepEqual((['WINDOWS', 'LINUX', 'MACOS', 'ANDROID'] as const).map(platformName), ['Windows', 'Linux', 'macOS', 'Android']);
});

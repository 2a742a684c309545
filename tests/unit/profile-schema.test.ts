import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath } from '../../shared/profiles/profile-schema';

/**
 * The profile format (shared/profiles/profile-schema.ts): field paths. Writing a profile's text is in
 * profile-text.test.ts, reading files in profile-document.test.ts, older versions in
 * profile-migrations.test.ts, file names in profile-file-name.test.ts.
 */
test('field paths read like the file: layers[2].state, settings.VK_LAYER_X.key', () => {
  assert.equal(fieldPath(['layers', 2, 'state']), 'layers[2].state');
  assert.equal(fieldPath(['settings', 'VK_LAYER_X', 'key']), 'settings.VK_LAYER_X.key');
  assert.equal(fieldPath([]), '');
});

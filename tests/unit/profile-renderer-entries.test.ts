import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProfilesList } from '../../shared/profiles/profile-channels';
import { builtInPresets } from '../../shared/profiles/presets';
import { boundApplications, freeName, layerSummary, profileEntries } from '../../renderer/src/profiles/profile-entries';

/** renderer/src/profiles/profile-entries.ts: what the Profiles panel lists and the names it offers. */
const list: ProfilesList = {
  dir: '/p',
  profiles: [
    {
      name: 'Mine',
      file: '/p/Mine.json',
      profile: {
        schemaVersion: 2,
        name: 'Mine',
        layers: [
          { name: 'VK_LAYER_A', state: 'on' },
          { name: 'VK_LAYER_B', state: 'off' },
        ],
      },
      migratedFrom: null,
      warnings: ['not installed here: VK_LAYER_A'],
    },
  ],
  presets: builtInPresets(null),
  problems: [],
  applicationsFile: '/a.json',
  applications: [{ path: '/bin/x', profile: 'mine' }, { path: '/bin/y' }],
  applicationsProblem: null,
};

test('entries: presets then profiles, keyed by kind; summaries drop the VK_LAYER_ prefix', () => {
  const entries = profileEntries(list);
  assert.equal(entries.length, 8);
  assert.equal(entries[0]!.key, 'preset:validation-standard');
  assert.equal(entries.at(-1)!.key, 'profile:Mine');
  assert.equal(entries.at(-1)!.summary, 'on: A · off: B');
  assert.deepEqual(entries.at(-1)!.warnings, ['not installed here: VK_LAYER_A']);
  assert.equal(layerSummary({ schemaVersion: 2, name: 'x', layers: [] }), 'no layer forced on or off');
});

test('freeName avoids every profile and preset name, without regard to case; bound applications by profile name', () => {
  assert.equal(freeName('Copy of Mine', list), 'Copy of Mine');
  assert.equal(freeName('MINE', list), 'MINE (2)');
  assert.equal(freeName('Validation — standard', list), 'Validation — standard (2)');
  assert.deepEqual(boundApplications(list, 'Mine'), ['/bin/x']);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseDrivers, matchesAny } from '../../shared/profiles/loader-filters';

// shared/profiles/loader-filters.ts: VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE as
// loader_icd_scan applies them (loader.c, 1.3.234+): parse_generic_filter_environment_var and
// check_name_matches_filter_environment_var, matched against the manifest's file name, ASCII case-folded.
test('matchesAny: globs at either end, exact names, no case; an empty list matches nothing', () => {
  assert.equal(matchesAny('lvp_icd.x86_64.json', ['*lvp*']), true);
  assert.equal(matchesAny('lvp_icd.x86_64.json', ['lvp_*']), true);
  assert.equal(matchesAny('lvp_icd.x86_64.json', ['*.json']), true);
  assert.equal(matchesAny('lvp_icd.x86_64.json', ['LVP_ICD.X86_64.JSON']), true);
  assert.equal(matchesAny('lvp_icd.x86_64.json', ['lvp_icd']), false, 'no glob: the whole name');
  assert.equal(matchesAny('lvp_icd.x86_64.json', ['radeon*', 'nvidia*']), false);
  assert.equal(matchesAny('lvp_icd.x86_64.json', []), false);
  assert.equal(matchesAny('lvp_icd.x86_64.json', undefined), false);
  assert.equal(matchesAny('a.json', ['*a.json.longer*']), false, 'a filter longer than the name is skipped');
});

const ICDS = ['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/share/vulkan/icd.d/radeon_icd.x86_64.json', '/etc/vulkan/icd.d/nvidia_icd.json'];

test('chooseDrivers: disable unless selected; with select, the rest are out; reasons name the filter', () => {
  assert.deepEqual(
    chooseDrivers(undefined, ICDS),
    ICDS.map((path) => ({ path, kept: true, reason: 'kept' })),
  );
  assert.deepEqual(chooseDrivers({ disable: ['*radeon*'] }, ICDS), [
    { path: ICDS[0], kept: true, reason: 'kept' },
    { path: ICDS[2], kept: true, reason: 'kept' },
    { path: ICDS[1], kept: false, reason: 'disabled (matches *radeon*)' },
  ]);
  assert.deepEqual(chooseDrivers({ select: ['nvidia*'], disable: ['*'] }, ICDS), [
    { path: ICDS[2], kept: true, reason: 'selected (matches nvidia*)' },
    { path: ICDS[0], kept: false, reason: 'disabled (matches *)' },
    { path: ICDS[1], kept: false, reason: 'disabled (matches *)' },
  ]);
  assert.equal(chooseDrivers({ select: ['nvidia*'] }, ICDS)[1]?.reason, 'not selected (matches none of nvidia*)');
});

test('chooseDrivers: kept drivers ordered by the first order filter they match, the others after as found', () => {
  assert.deepEqual(
    chooseDrivers({ order: ['nvidia*', 'radeon*'] }, ICDS).map((c) => c.path),
    [ICDS[2], ICDS[1], ICDS[0]],
  );
  assert.deepEqual(
    chooseDrivers({ order: ['radeon*'] }, ICDS).map((c) => c.path),
    [ICDS[1], ICDS[0], ICDS[2]],
  );
});

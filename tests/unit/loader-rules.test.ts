import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareLoaderVersions,
  LOADER_RULES,
  loaderHas,
  provenNote,
  rulesFor,
  RULES_VERSION,
  setRuleSinceForTest,
  sinceOf,
} from '../../shared/loader/loader-rules';
import { LOADER_FEATURES } from '../../shared/profiles/loader-features';

test('loader versions compare part by part, missing parts are 0', () => {
  assert.ok(compareLoaderVersions('1.3.239', '1.3.234') > 0);
  assert.ok(compareLoaderVersions('1.3.99', '1.3.234') < 0);
  assert.equal(compareLoaderVersions('1.3', '1.3.0'), 0);
  assert.ok(compareLoaderVersions('1.4.300', '1.3.999') > 0);
});

// Each row as found in the loader history (first tag containing the commit), checked one release
// either side; the matrix (tests/integration/chain-vs-loader.test.ts) proves the rows against real builds.
const ROWS: [string, string, string][] = [
  ['layer-filters', '1.3.233', '1.3.234'],
  ['driver-filters', '1.3.233', '1.3.234'],
  ['first-occurrence-wins', '1.3.246', '1.3.247'],
  ['instance-layers-ordered', '1.3.246', '1.3.247'],
  ['settings-file', '1.3.250', '1.3.251'],
  ['meta-no-duplicates', '1.3.250', '1.3.251'],
  ['override-paths-first', '1.3.250', '1.3.251'],
  ['settings-folder-renamed', '1.3.252', '1.3.253'],
  ['settings-windows-exists-check', '1.3.301', '1.3.302'],
  ['settings-layer-off-meta', '1.3.301', '1.3.302'],
  ['settings-disable-spares-on', '1.3.301', '1.3.302'],
  ['settings-unordered-windows-oom', '1.3.301', '1.3.302'],
  ['settings-first-app-match', '1.4.302', '1.4.303'],
  ['settings-layers-optional', '1.4.308', '1.4.309'],
  ['settings-multi-layer-manifests', '1.4.346', '1.4.347'],
  ['settings-consider-lib-path', '1.4.336', '1.4.337'],
  ['settings-null-check', '1.4.325', '1.4.326'],
  ['settings-instance-layers-overflow', '1.3.266', '1.3.267'],
  ['settings-instance-layers-fix', '1.3.301', '1.3.302'],
  ['settings-failed-manifest', '1.3.301', '1.3.302'],
  ['settings-off-component-crash', '1.4.323', '1.4.324'],
  ['settings-empty-entry-ignored', '1.4.322', '1.4.323'],
  ['layers-allow', '1.3.261', '1.3.262'],
  ['implicit-layer-path', '1.3.295', '1.3.296'],
  ['meta-recursion-check', '1.4.303', '1.4.304'],
  ['settings-drivers', '1.4.322', '1.4.323'],
  ['settings-device-configurations', '1.4.322', '1.4.323'],
  ['settings-device-driver-uuid', '1.4.328', '1.4.329'],
  ['settings-device-malformed-continue', '1.4.324', '1.4.325'],
  ['settings-device-none-matched-fails', '1.4.324', '1.4.325'],
  ['settings-device-malformed-skipped', '1.4.357', '1.4.358'],
  ['settings-stderr-log-fallback', '1.3.301', '1.3.302'],
  ['settings-search-xdg', '1.4.323', '1.4.324'],
  ['instance-layers-order-implicit', '1.4.325', '1.4.326'],
  ['settings-layer-configurations', '1.4.335', '1.4.336'],
  ['remove-duplicate-layers', '1.4.339', '1.4.340'],
  ['meta-expansion-cycle-break', '1.4.356', '1.4.357'],
  ['filter-whole-wildcards', '1.4.358', '1.4.359'],
  ['json-helpers', '1.3.250', '1.3.251'],
  ['log-column-19', '1.3.261', '1.3.262'],
  ['log-prefix', '1.4.308', '1.4.309'],
  ['invalid-json-skips-file', '1.3.267', '1.3.268'],
  ['strict-manifest-types', '1.4.302', '1.4.303'],
  ['invalid-type-skipped', '1.4.332', '1.4.333'],
  ['missing-versions-skipped', '1.4.356', '1.4.357'],
];

test('every row of the rules table: absent one release before, present from its version on', () => {
  assert.deepEqual(
    ROWS.map((r) => r[0]).sort(),
    LOADER_RULES.filter((r) => r.id !== 'layer-chain')
      .map((r) => r.id)
      .sort(),
    'a row without a test, or a test without a row',
  );
  for (const [id, before, since] of ROWS) {
    const rule = LOADER_RULES.find((r) => r.id === id)!;
    assert.equal(rule.since, since, id);
    assert.equal(loaderHas(before, rule.id), false, `${id} at ${before}`);
    assert.equal(loaderHas(since, rule.id), true, `${id} at ${since}`);
    assert.equal(loaderHas('1.4.999', rule.id), true, `${id} on a newer loader`);
    assert.ok(rule.source.length > 8 && rule.summary.length > 10, `${id} cites where it was found`);
  }
});

test('an unknown version is taken as the rules version; the notes say how far an answer is proven', () => {
  assert.equal(RULES_VERSION, '1.3.239');
  assert.equal(loaderHas(null, 'layer-filters'), true);
  assert.equal(loaderHas(null, 'first-occurrence-wins'), false);
  assert.match(provenNote(null)!, /unknown/);
  assert.equal(provenNote('1.4.309'), null);
  assert.match(provenNote('1.4.400')!, /newer than the newest/);
  assert.match(provenNote('1.2.198')!, /older than the oldest/);
});

test('rulesFor lists every rule; one the model does not implement is never "applied"', () => {
  const applied = (v: string | null) =>
    rulesFor(v)
      .filter((r) => r.applied)
      .map((r) => r.id);
  assert.ok(applied('1.4.359').includes('settings-drivers'), "the settings file's drivers are modeled (settings-drivers.ts)");
  assert.ok(!applied('1.4.321').includes('settings-drivers'));
  assert.ok(!applied('1.4.359').includes('meta-recursion-check'), 'a rule the model does not implement is never applied');
  assert.ok(applied('1.4.359').includes('settings-file'));
  assert.ok(applied('1.4.359').includes('remove-duplicate-layers'));
  assert.deepEqual(applied('1.2.198'), ['layer-chain']);
  assert.ok(rulesFor(null).every((r) => r.summary.length > 10 && /^\d+\.\d+\.\d+$/.test(r.since)));
});

test('the profile features are views of the same table', () => {
  assert.equal(LOADER_FEATURES.settingsFile, sinceOf('settings-file'));
  assert.equal(LOADER_FEATURES.layerFilters, sinceOf('layer-filters'));
  assert.equal(LOADER_FEATURES.settingsDrivers, sinceOf('settings-drivers'));
});

test('the mutation seam flips a rule and restores it', () => {
  setRuleSinceForTest('layers-allow', '99.0.0');
  try {
    assert.equal(loaderHas('1.4.359', 'layers-allow'), false);
  } finally {
    setRuleSinceForTest('layers-allow', '1.3.262');
  }
  assert.equal(loaderHas('1.4.359', 'layers-allow'), true);
});

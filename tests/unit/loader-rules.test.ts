import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareLoaderVersions, loaderHas, rulesFor, RULES_VERSION } from '../../shared/loader/loader-rules';

test('loader versions compare part by part, missing parts are 0', () => {
  assert.ok(compareLoaderVersions('1.3.239', '1.3.234') > 0);
  assert.ok(compareLoaderVersions('1.3.99', '1.3.234') < 0);
  assert.equal(compareLoaderVersions('1.3', '1.3.0'), 0);
  assert.ok(compareLoaderVersions('1.4.300', '1.3.999') > 0);
});

test('the layer filters are applied from 1.3.234 on; an unknown version is taken as the rules version', () => {
  assert.equal(loaderHas('1.3.233', 'layer-filters'), false);
  assert.equal(loaderHas('1.3.234', 'layer-filters'), true);
  assert.equal(loaderHas(null, 'layer-filters'), true);
  assert.equal(RULES_VERSION, '1.3.239');
});

test('rulesFor lists every rule; one the model does not implement is never "applied"', () => {
  const byId = (v: string | null) => Object.fromEntries(rulesFor(v).map((r) => [r.id, r.applied]));
  assert.deepEqual(byId('1.3.239'), { 'layer-chain': true, 'layer-filters': true, 'layers-allow': false });
  assert.deepEqual(byId('1.2.198'), { 'layer-chain': true, 'layer-filters': false, 'layers-allow': false });
  assert.deepEqual(byId('1.3.280'), { 'layer-chain': true, 'layer-filters': true, 'layers-allow': false });
  assert.ok(rulesFor(null).every((r) => r.summary.length > 10 && /^\d+\.\d+\.\d+$/.test(r.since)));
});

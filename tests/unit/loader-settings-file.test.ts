import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLoaderSettings, settingsObjects, stderrLogFor } from '../../shared/loader/loader-settings-file';

/**
 * shared/loader/loader-settings-file.ts: which entry of vk_loader_settings.json a loader uses and
 * what it makes of its layers, at each version boundary of loader-rules.ts (settings.c
 * get_loader_settings / parse_layer_configurations). The chain these give is proven on six real
 * loaders in tests/integration/chain-vs-loader.test.ts.
 */
const layer = (name: string, control = 'on') => ({ control, name, path: `/m/${name}.json`, treat_as_implicit_manifest: false });
const file = (settings_array: unknown[]) => JSON.stringify({ file_format_version: '1.0.0', settings_array });
const APP = '/usr/bin/app';

test('no settings file before 1.3.251 (9a7de469f); broken files are not active, with the reason', () => {
  assert.deepEqual(readLoaderSettings(file([{ layers: [] }]), APP, '1.3.250'), { active: false, why: 'this loader does not read a settings file' });
  assert.equal(readLoaderSettings(file([{ layers: [] }]), APP, '1.3.251').active, true);
  assert.match((readLoaderSettings('{', APP, '1.4.341') as { why: string }).why, /not valid JSON/);
  assert.equal((readLoaderSettings('[]', APP, '1.4.341') as { why: string }).why, 'its top level is not an object');
  assert.equal((readLoaderSettings('{"settings_array":[]}', APP, '1.4.341') as { why: string }).why, 'it has no "file_format_version" string');
  assert.equal((readLoaderSettings('{"file_format_version":"1"}', APP, '1.4.341') as { why: string }).why, 'it has neither "settings" nor "settings_array"');
  assert.equal(
    (readLoaderSettings(`{"file_format_version":"1","settings":{"layers":[]},"x":${'['.repeat(1001)}${']'.repeat(1001)}}`, APP, '1.4.341') as { why: string })
      .why,
    'it nests deeper than the loader parses',
  );
  assert.equal(readLoaderSettings(file([{ app_keys: ['/bin/other'], layers: [] }]), APP, '1.4.341').active, false);
});

test('the entry: the last app_keys match before 1.4.303, the first from 1.4.303 (cc9d0cbfd); else the first global one', () => {
  const text = file([{ layers: [layer('G')] }, { app_keys: [APP], layers: [layer('A')] }, { app_keys: ['/x', APP], layers: [layer('B')] }]);
  const at = (v: string) => {
    const r = readLoaderSettings(text, APP, v);
    assert.ok(r.active);
    return [r.entry, r.layers?.map((l) => l.name)];
  };
  assert.deepEqual(at('1.4.302'), [`the entry for ${APP} (settings_array[2])`, ['B']]);
  assert.deepEqual(at('1.4.303'), [`the entry for ${APP} (settings_array[1])`, ['A']]);
  const global = readLoaderSettings(text, '/bin/other', '1.4.341');
  assert.ok(global.active && global.entry === 'the global entry (settings_array[0])');
  const single = readLoaderSettings(JSON.stringify({ file_format_version: '1.0.0', settings: { layers: [layer('S')] } }), null, '1.4.341');
  assert.ok(single.active && single.entry === 'the global entry (settings)');
  // An element that is not an object ends the search.
  assert.equal(readLoaderSettings(file([7, { layers: [] }]), APP, '1.4.341').active, false);
});

test('"layers" left out: ignored before 1.4.309, no layer at all 1.4.309–1.4.335, the usual rules from 1.4.336', () => {
  const text = file([{ stderr_log: ['error'] }]);
  assert.match((readLoaderSettings(text, APP, '1.4.304') as { why: string }).why, /has no "layers", which this loader requires/);
  const mid = readLoaderSettings(text, APP, '1.4.309');
  assert.ok(mid.active);
  assert.deepEqual(mid.layers, []);
  const late = readLoaderSettings(text, APP, '1.4.336');
  assert.ok(late.active);
  assert.equal(late.layers, null);
});

test('an entry with nothing the loader counts: no layer at all before 1.4.323, the file ignored 1.4.323–1.4.335 (1d2a2fdb5), active again from 1.4.336', () => {
  const text = file([{ layers: [] }]);
  const before = readLoaderSettings(text, APP, '1.4.322');
  assert.ok(before.active);
  assert.deepEqual(before.layers, []);
  for (const v of ['1.4.323', '1.4.335'])
    assert.equal(
      (readLoaderSettings(text, APP, v) as { why: string }).why,
      'the global entry (settings_array[0]) has no stderr_log filter, layer, additional driver or device configuration, so this loader ignores the file',
    );
  // A log filter, a driver or a layer makes the entry count.
  assert.deepEqual((readLoaderSettings(file([{ layers: [], stderr_log: ['error'] }]), APP, '1.4.323') as { layers: unknown }).layers, []);
  assert.equal(readLoaderSettings(file([{ layers: [], additional_drivers: [{ path: '/d.json' }] }]), APP, '1.4.323').active, true);
  assert.equal(readLoaderSettings(file([{ stderr_log: ['error'] }]), APP, '1.4.330').active, true);
  assert.equal(readLoaderSettings(file([{ stderr_log: ['nonsense'] }]), APP, '1.4.330').active, false);
  const late = readLoaderSettings(text, APP, '1.4.336');
  assert.ok(late.active);
  assert.deepEqual(late.layers, []);
});

test('a bad layer entry: the whole file ignored before 1.4.336, only its layers from 1.4.336; an unknown control is "auto"', () => {
  const text = file([{ layers: [layer('A'), { control: 'on', name: 'B' }] }]);
  assert.equal((readLoaderSettings(text, APP, '1.4.335') as { why: string }).why, 'layers[1] (B) has no "path" string, so this loader ignores the file');
  const r = readLoaderSettings(text, APP, '1.4.336');
  assert.ok(r.active && r.layers === null);
  const odd = readLoaderSettings(file([{ layers: [layer('A', 'ON'), { control: 'unordered_layer_location' }] }]), APP, '1.4.341');
  assert.ok(odd.active);
  assert.deepEqual(odd.layers, [
    { control: 'auto', name: 'A', path: '/m/A.json', treatAsImplicit: false },
    { control: 'unordered_layer_location', name: null, path: null, treatAsImplicit: false },
  ]);
});

test('settingsObjects: settings_array (a non-array: none), else the single settings', () => {
  assert.deepEqual(settingsObjects({ settings_array: [1, 2] }), [1, 2]);
  assert.deepEqual(settingsObjects({ settings_array: {}, settings: { a: 1 } }), []);
  assert.deepEqual(settingsObjects({ settings: { a: 1 } }), [{ a: 1 }]);
  assert.equal(settingsObjects({}), null);
});

test('stderrLogFor: the entry’s stderr_log replaces VK_LOADER_DEBUG; an empty one silences the log before 1.3.302 only', () => {
  const read = (stderr_log: unknown, v: string) => readLoaderSettings(file([{ stderr_log, layers: [] }]), APP, v);
  assert.deepEqual(stderrLogFor(read(['error', 'warn', 'nonsense'], '1.4.341'), '1.4.341'), { source: 'settings', filters: ['error', 'warn'] });
  assert.deepEqual(stderrLogFor(read([], '1.3.301'), '1.3.301'), { source: 'settings', filters: [] });
  assert.deepEqual(stderrLogFor(read([], '1.3.302'), '1.3.302'), { source: 'environment' });
  assert.deepEqual(stderrLogFor(null, '1.4.341'), { source: 'environment' });
  assert.deepEqual(stderrLogFor({ active: false, why: 'x' }, '1.4.341'), { source: 'environment' });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintLoaderSettings } from '../../shared/lint/loader-settings-lint';

// shared/lint/loader-settings-lint.ts: what each loader does with a vk_loader_settings.json, per the
// settings rows of the rules table (the chain-vs-loader matrix proves the same behaviours on real loaders).

const manifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'x', library_path: '/l/x.so', ...extra },
  });
const MANIFESTS = new Map<string, string | null>([
  ['/m/a.json', manifest('VK_LAYER_A')],
  ['/m/b.json', manifest('VK_LAYER_B')],
  [
    '/m/meta.json',
    JSON.stringify({
      file_format_version: '1.2.0',
      layer: { ...JSON.parse(manifest('VK_LAYER_META')).layer, library_path: undefined, component_layers: ['VK_LAYER_A'] },
    }),
  ],
  ['/m/gone.json', null],
]);
const file = (...layers: unknown[]) => JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers }] }, null, 2);
const lint = (text: string, loaderVersion: string | null) => lintLoaderSettings(text, { loaderVersion, manifests: MANIFESTS });
const codes = (text: string, v: string | null) => lint(text, v).map((d) => d.code);
const message = (text: string, v: string | null, i = 0) => {
  const m = lint(text, v)[i]!.message;
  return typeof m === 'string' ? m : m.value;
};
const entry = (control: string, name: string, path: string) => ({ control, name, path });

test('a file the loader ignores: invalid JSON, no file_format_version, no settings', () => {
  assert.deepEqual(codes('{ "file_format_version": "1.0.0", ', '1.4.359'), ['settings/not-read']);
  assert.deepEqual(codes('{ "settings_array": [] }', '1.4.359'), ['settings/not-read']);
  assert.deepEqual(codes('{ "file_format_version": "1.0.0" }', '1.4.359'), ['settings/not-read']);
  assert.deepEqual(codes(file(entry('on', 'VK_LAYER_A', '/m/a.json'), { control: 'unordered_layer_location' }), '1.4.359'), [], 'a good file');
  assert.deepEqual(codes('{ "settings_array": [] }', '1.3.239'), ['settings/ignored-by-loader'], 'a loader that reads none');
});

test('an entry without "layers": ignored before 1.4.309, no layers at all until 1.4.336, the usual rules after', () => {
  const text = JSON.stringify({ file_format_version: '1.0.0', settings: { stderr_log: ['error'] } });
  assert.match(message(text, '1.3.275', 0), /ignores the whole file/);
  assert.match(message(text, '1.4.321', 0), /get no layers at all/);
  assert.match(message(text, '1.4.330', 0), /get no layers at all/, 'its stderr_log makes the entry count');
  // 1.4.323–1.4.335: an entry with nothing the loader counts leaves the file ignored (settings-empty-entry-ignored).
  const empty = JSON.stringify({ file_format_version: '1.0.0', settings: { app_keys: ['/bin/app'] } });
  assert.match(message(empty, '1.4.321', 0), /get no layers at all/);
  assert.match(message(empty, '1.4.330', 0), /ignores the file for the applications this entry applies to/);
  // Only what its stderr_log does to the log a session captures.
  assert.deepEqual(codes(text, '1.4.341'), ['settings/log-filters']);
});

test('entries: invalid, unknown control, missing manifest, wrong name, each with its range', () => {
  const text = file(
    { control: 'on', name: 'VK_LAYER_A' },
    { control: 'enabled', name: 'VK_LAYER_A', path: '/m/a.json' },
    entry('on', 'VK_LAYER_X', '/m/gone.json'),
    entry('auto', 'VK_LAYER_B', '/m/a.json'),
  );
  const d = lint(text, '1.4.359');
  assert.deepEqual(
    d.map((x) => x.code),
    ['settings/invalid-layer-entry', 'settings/unknown-control', 'settings/manifest-unusable', 'settings/name-mismatch'],
  );
  const line = (i: number) => text.split('\n')[d[i]!.range.start.line]!;
  assert.match(line(1), /"enabled"/);
  assert.match(line(3), /"\/m\/a\.json"/);
  assert.match(String(d[0]!.message), /leaves this entry's layers to the usual rules/);
  assert.match(message(text, '1.4.321', 0), /ignores the whole file/);
  assert.match(message(text, '1.4.321', 3), /removes the entry before it too/, 'before 1.4.347');
});

test('what crashes the loader: a layer after its own "off" entry (before 1.4.326); a meta-layer whose component is off', () => {
  const afterOff = file(entry('off', 'VK_LAYER_A', '/m/a.json'), entry('on', 'VK_LAYER_A', '/m/a.json'));
  assert.deepEqual(codes(afterOff, '1.4.321'), ['settings/crashes-loader']);
  assert.deepEqual(codes(afterOff, '1.4.341'), []);
  const offComponent = file(entry('off', 'VK_LAYER_A', '/m/a.json'), entry('on', 'VK_LAYER_META', '/m/meta.json'));
  assert.match(message(offComponent, '1.4.359', 0), /crashes in vkCreateInstance/);
  assert.match(message(offComponent, '1.4.321', 0), /VK_ERROR_INITIALIZATION_FAILED/);
});

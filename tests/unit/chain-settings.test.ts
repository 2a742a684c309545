import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chainSettingsFor, SETTINGS_MANIFEST_LIMIT, settingsManifestPaths } from '../../shared/loader/chain-settings';

// shared/loader/chain-settings.ts: the settings file main found, as the chain model reads it for one application.
const FILE = '/home/u/.config/vulkan/loader_settings.d/vk_loader_settings.json';
const text = (settings_array: unknown[]) => JSON.stringify({ file_format_version: '1.0.0', settings_array });

test('settingsManifestPaths: every layer entry’s path in any entry, once each; junk gives none', () => {
  const t = text([
    { app_keys: ['/bin/a'], layers: [{ control: 'on', name: 'A', path: '/a.json' }, { control: 'unordered_layer_location' }] },
    { layers: [{ control: 'off', name: 'B', path: '/b.json' }, { control: 'on', name: 'A', path: '/a.json' }, null, { path: 7 }] },
    { layers: 'not a list' },
  ]);
  assert.deepEqual(settingsManifestPaths(t), ['/a.json', '/b.json']);
  assert.deepEqual(settingsManifestPaths('{'), []);
  assert.deepEqual(settingsManifestPaths('[1]'), []);
  assert.deepEqual(settingsManifestPaths(JSON.stringify({ file_format_version: '1', settings: { layers: [{ path: '/s.json' }] } })), ['/s.json']);
});

test('a hostile file names at most SETTINGS_MANIFEST_LIMIT manifests', () => {
  const layers = Array.from({ length: SETTINGS_MANIFEST_LIMIT + 50 }, (_, i) => ({ control: 'on', name: `L${i}`, path: `/m/${i}.json` }));
  const paths = settingsManifestPaths(text([{ layers }]));
  assert.equal(paths.length, SETTINGS_MANIFEST_LIMIT);
  assert.equal(paths[0], '/m/0.json');
});

test('chainSettingsFor: an unreadable file is inactive with its reason; a readable one is read for the application and loader', () => {
  const manifest = { path: '/a.json', kind: 'explicit_layer' as const, origin: 'settings', text: null, problem: 'missing' as const };
  const gone = chainSettingsFor({ path: FILE, text: null, why: 'permission denied', manifests: [manifest] }, '/bin/a', '1.4.341');
  assert.deepEqual(gone.read, { active: false, why: 'permission denied' });
  assert.equal(gone.manifests.get('/a.json'), manifest);
  assert.deepEqual(chainSettingsFor({ path: FILE, text: null, manifests: [] }, null, '1.4.341').read, { active: false, why: 'it cannot be read' });
  const t = text([{ app_keys: ['/bin/a'], layers: [{ control: 'on', name: 'A', path: '/a.json' }] }]);
  const r = chainSettingsFor({ path: FILE, text: t, manifests: [] }, '/bin/a', '1.4.341');
  assert.ok(r.read.active && r.read.entry === 'the entry for /bin/a (settings_array[0])');
  assert.equal(chainSettingsFor({ path: FILE, text: t, manifests: [] }, '/bin/a', '1.3.239').read.active, false, '1.3.239 reads no settings file');
  assert.equal(r.path, FILE);
});

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { WINDOWS } from '../../shared/loader/search-paths';
import type { RegistryValue } from '../../shared/discovery/registry-output';
import type { RegistryReader } from '../../main/discovery/windows-registry';
import { explainChain } from '../../main/chain/chain-service';

/**
 * What a Windows loader does only for a process that is not elevated, which Wine cannot run (every
 * Wine token has High integrity, so tests/integration/windows-*-vs-loader.test.ts prove the elevated
 * half). Here the chain model (explainChain, on a fake registry and real manifest files) against the
 * loader lines that make the difference (v1.4.359):
 * - loader_windows.c windows_read_data_files_in_registry: `if (!is_high_integrity()) … HKEY_CURRENT_USER`
 *   — HKCU\…\ExplicitLayers / ImplicitLayers are read only when not elevated;
 * - loader_environment.c loader_secure_getenv: `if (is_high_integrity()) return NULL` (Windows branch)
 *   — VK_LOADER_LAYERS_ENABLE / _DISABLE / _ALLOW and the VK_*_PATH variables count only when not elevated,
 *   while VK_INSTANCE_LAYERS (loader_getenv) counts either way;
 * - loader_windows.c windows_get_loader_settings_file_path: HKCU\…\LoaderSettings first when not
 *   elevated, HKLM only when elevated (shared/loader/windows-settings-file.ts; tests/unit/windows-settings-file.test.ts).
 */

const home = makeTempHome();
after(() => home.cleanup());
const dir = join(home.dir, 'manifests');
mkdirSync(dir);

function layer(name: string): string {
  const p = join(dir, `${name}.json`);
  writeFileSync(
    p,
    JSON.stringify({
      file_format_version: '1.1.2',
      layer: { name, type: 'GLOBAL', library_path: `${name}.dll`, api_version: '1.3.0', implementation_version: '1', description: 'non-elevated test' },
    }),
  );
  return p;
}

const HKLM_LAYER = layer('VK_LAYER_TEST_hklm');
const HKCU_LAYER = layer('VK_LAYER_TEST_hkcu');
const PATH_LAYER_DIR = join(home.dir, 'path-layers');
mkdirSync(PATH_LAYER_DIR);
writeFileSync(
  join(PATH_LAYER_DIR, 'path.json'),
  JSON.stringify({
    file_format_version: '1.1.2',
    layer: { name: 'VK_LAYER_TEST_path', type: 'GLOBAL', library_path: 'p.dll', api_version: '1.3.0', implementation_version: '1', description: 'x' },
  }),
);

/**
 * A settings file whose global entry turns `name` on. The loader takes the part of a value's name
 * after the last backslash as the file name; on Linux a backslash is an ordinary character in a file
 * name, so a file literally named `<hive>\vk_loader_settings.json` stands for a Windows path here.
 */
function settingsFile(hive: string, name: string, manifest: string): string {
  const p = join(dir, `${hive}\\vk_loader_settings.json`);
  writeFileSync(
    p,
    JSON.stringify({
      file_format_version: '1.0.0',
      settings_array: [{ layers: [{ control: 'on', name, path: manifest, treat_as_implicit_manifest: false }, { control: 'unordered_layer_location' }] }],
    }),
  );
  return p;
}

const dword = (name: string): RegistryValue => ({ name, type: 'REG_DWORD', data: 0 });

function registry(keys: Record<string, RegistryValue[]>): RegistryReader {
  const upper = new Map(Object.entries(keys).map(([k, v]) => [k.toUpperCase(), v]));
  const long = (k: string) =>
    k
      .replace(/^HKLM\\/i, 'HKEY_LOCAL_MACHINE\\')
      .replace(/^HKCU\\/i, 'HKEY_CURRENT_USER\\')
      .toUpperCase();
  const find = (k: string) => upper.get(long(k)) ?? upper.get(k.toUpperCase()) ?? [];
  return { values: async (k) => find(k), subkeys: async () => [] };
}

const LAYERS_KEYS = {
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers': [dword(HKLM_LAYER)],
  'HKEY_CURRENT_USER\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers': [dword(HKCU_LAYER)],
};

async function chain(elevated: boolean, env: Record<string, string>, keys: Record<string, RegistryValue[]> = LAYERS_KEYS) {
  const c = await explainChain(
    { env, platform: WINDOWS, user: { home: null, elevated }, registry: registry(keys), cwd: home.dir, libraries: false },
    { app: { path: 'C:\\apps\\app.exe', requestedLayers: [] }, loader: { version: '1.4.359' } },
  );
  return c.chain.map((e) => e.name);
}

test('HKCU layers: found and enabled (VK_INSTANCE_LAYERS, split at ";") when not elevated; an elevated loader never reads HKCU', async () => {
  const env = { VK_INSTANCE_LAYERS: 'VK_LAYER_TEST_hkcu;VK_LAYER_TEST_hklm' };
  assert.deepEqual(await chain(false, env), ['VK_LAYER_TEST_hkcu', 'VK_LAYER_TEST_hklm']);
  assert.deepEqual(await chain(true, env), ['VK_LAYER_TEST_hklm']);
});

test('VK_LOADER_LAYERS_ENABLE / _DISABLE count when not elevated and are ignored elevated (loader_secure_getenv)', async () => {
  assert.deepEqual(await chain(false, { VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_TEST_hklm' }), ['VK_LAYER_TEST_hklm']);
  assert.deepEqual(await chain(true, { VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_TEST_hklm' }), []);
  const both = { VK_INSTANCE_LAYERS: 'VK_LAYER_TEST_hklm', VK_LOADER_LAYERS_DISABLE: '~explicit~' };
  assert.deepEqual(await chain(false, both), []);
  assert.deepEqual(await chain(true, both), ['VK_LAYER_TEST_hklm']);
});

test('VK_ADD_LAYER_PATH (";"-separated) is searched when not elevated, not when elevated', async () => {
  // A manifest named directly (a folder would be joined with "\\", as the loader joins it, which no Linux folder holds).
  const env = { VK_ADD_LAYER_PATH: `C:\\nowhere;${join(PATH_LAYER_DIR, 'path.json')}`, VK_INSTANCE_LAYERS: 'VK_LAYER_TEST_path' };
  assert.deepEqual(await chain(false, env), ['VK_LAYER_TEST_path']);
  assert.deepEqual(await chain(true, env), []);
});

test('the settings file: HKCU\\…\\LoaderSettings first when not elevated; elevated, only HKLM\\…\\LoaderSettings', async () => {
  const keys = {
    ...LAYERS_KEYS,
    'HKEY_CURRENT_USER\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings': [dword(settingsFile('hkcu', 'VK_LAYER_TEST_hkcu', HKCU_LAYER))],
    'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings': [dword(settingsFile('hklm', 'VK_LAYER_TEST_hklm', HKLM_LAYER))],
  };
  assert.deepEqual(await chain(false, {}, keys), ['VK_LAYER_TEST_hkcu']);
  assert.deepEqual(await chain(true, {}, keys), ['VK_LAYER_TEST_hklm']);
});

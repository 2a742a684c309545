import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { computeSearchPaths, WINDOWS, type PlatformDescription } from '../../shared/loader/search-paths';
import { longKeyName, parseRegQueryOutput } from '../../shared/discovery/registry-output';
import { scanManifests } from '../../main/discovery/manifest-scanner';
import { discoveryManifests, discoveryPaths } from '../../main/discovery/discovery-service';
import { systemRegistryReader, type RegistryReader } from '../../main/discovery/windows-registry';

/**
 * The scanner on Windows, with a registry that answers `reg query` text (as reg.exe prints it) and
 * a temporary folder of real manifests. Order and origins as "Windows Layer Discovery" and "ICD
 * discovery / Windows" say: the display adapters' keys (device 0000, 0001 …), then the software
 * components', then HKLM\SOFTWARE\Khronos\Vulkan\…, then (layers, not elevated) HKCU; in each
 * Khronos key the values in registry order, only those whose DWORD is 0.
 */

const home = makeTempHome();
after(() => home.cleanup());
const dir = join(home.dir, 'manifests');
mkdirSync(dir);

const layer = (name: string) =>
  JSON.stringify({
    file_format_version: '1.1.0',
    layer: {
      name,
      type: 'GLOBAL',
      library_path: `${name}.dll`,
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'registry test',
      disable_environment: { DISABLE_X: '1' },
    },
  });
const driver = (lib: string) => JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: lib, api_version: '1.3.0' } });
function manifest(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const P = {
  adapterLayer: manifest('adapter_implicit.json', layer('VK_LAYER_ADAPTER_implicit')),
  adapterLayer2: manifest('adapter_implicit2.json', layer('VK_LAYER_ADAPTER_implicit2')),
  secondAdapterLayer: manifest('adapter1_implicit.json', layer('VK_LAYER_ADAPTER1_implicit')),
  componentLayer: manifest('component_implicit.json', layer('VK_LAYER_COMPONENT_implicit')),
  hklmLayer: manifest('hklm_implicit.json', layer('VK_LAYER_HKLM_implicit')),
  hklmDisabled: manifest('hklm_disabled.json', layer('VK_LAYER_HKLM_disabled')),
  hkcuLayer: manifest('hkcu_implicit.json', layer('VK_LAYER_HKCU_implicit')),
  hklmExplicit: manifest('hklm_explicit.json', layer('VK_LAYER_HKLM_explicit')),
  adapterDriver: manifest('adapter_icd.json', driver('nv-vk64.dll')),
  adapterDriverWow: manifest('adapter_icd32.json', driver('nv-vk32.dll')),
  hklmDriver: manifest('hklm_icd.json', driver('swiftshader.dll')),
  missing: join(dir, 'not_there.json'),
};

const DISPLAY = 'HKEY_LOCAL_MACHINE\\System\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}';
const COMPONENT = 'HKEY_LOCAL_MACHINE\\System\\CurrentControlSet\\Control\\Class\\{5c4c3332-344d-483c-8739-259e934c9cc8}';
const KHRONOS = (root: string, kind: string, wow = false) => `${root}\\SOFTWARE\\${wow ? 'WOW6432Node\\' : ''}Khronos\\Vulkan\\${kind}`;
const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const dword = (path: string, on = true) => `    ${path}    REG_DWORD    ${on ? '0x0' : '0x1'}`;

/** What `reg query <key>` prints for each key of this fake machine. */
const REG: Record<string, string> = {
  [DISPLAY]: crlf(['', DISPLAY, '    Class    REG_SZ    Display', '', `${DISPLAY}\\0000`, `${DISPLAY}\\0001`, `${DISPLAY}\\Properties`]),
  [`${DISPLAY}\\0000`]: crlf([
    '',
    `${DISPLAY}\\0000`,
    '    DriverDesc    REG_SZ    Some GPU',
    `    VulkanImplicitLayers    REG_MULTI_SZ    ${P.adapterLayer}\\0${P.adapterLayer2}`,
    `    VulkanDriverName    REG_MULTI_SZ    ${P.adapterDriver}`,
    `    VulkanDriverNameWow    REG_MULTI_SZ    ${P.adapterDriverWow}`,
    '',
  ]),
  [`${DISPLAY}\\0001`]: crlf(['', `${DISPLAY}\\0001`, `    VulkanImplicitLayers    REG_SZ    ${P.secondAdapterLayer}`, '']),
  [COMPONENT]: crlf(['', `${COMPONENT}\\0000`]),
  [`${COMPONENT}\\0000`]: crlf(['', `${COMPONENT}\\0000`, `    VulkanImplicitLayers    REG_SZ    ${P.componentLayer}`, '']),
  [KHRONOS('HKEY_LOCAL_MACHINE', 'ImplicitLayers')]: crlf([
    '',
    KHRONOS('HKEY_LOCAL_MACHINE', 'ImplicitLayers'),
    dword(P.hklmDisabled, false),
    dword(P.hklmLayer),
    dword(P.missing),
    '',
  ]),
  [KHRONOS('HKEY_CURRENT_USER', 'ImplicitLayers')]: crlf(['', KHRONOS('HKEY_CURRENT_USER', 'ImplicitLayers'), dword(P.hkcuLayer), dword(P.hklmLayer), '']),
  [KHRONOS('HKEY_LOCAL_MACHINE', 'ExplicitLayers')]: crlf(['', KHRONOS('HKEY_LOCAL_MACHINE', 'ExplicitLayers'), dword(P.hklmExplicit), '']),
  [KHRONOS('HKEY_LOCAL_MACHINE', 'Drivers')]: crlf(['', KHRONOS('HKEY_LOCAL_MACHINE', 'Drivers'), dword(P.hklmDriver), '']),
};

/** A RegistryReader over the texts above; every other key is missing, as reg.exe says it. */
function fakeRegistry(queries: string[] = []): RegistryReader {
  const byKey = new Map(Object.entries(REG).map(([k, v]) => [k.toUpperCase(), v]));
  const query = (key: string) => {
    queries.push(key);
    return parseRegQueryOutput(
      byKey.get(longKeyName(key).toUpperCase()) ?? 'ERROR: The system was unable to find the specified registry key or value.\r\n',
      key,
    );
  };
  return { values: async (key) => query(key).values, subkeys: async (key) => query(key).subkeys };
}

async function scan(platform: PlatformDescription, elevated: boolean, env: Record<string, string> = {}) {
  return scanManifests(computeSearchPaths({ platform, env, user: { home: 'C:\\Users\\me', elevated } }), { registry: fakeRegistry(), cwd: home.dir });
}

const rows = (list: { path: string; origin: string }[]) => list.map((m) => [m.path, m.origin]);
const ADAPTER = (v: string) => `HKLM\\System\\CurrentControlSet\\Control\\Class\\{Adapter GUID}\\000X\\${v}`;
const SOFTWARE = (v: string) => `HKLM\\System\\CurrentControlSet\\Control\\Class\\{Software Component GUID}\\000X\\${v}`;

test('implicit layers: adapters (0000 then 0001, REG_MULTI_SZ in order), software components, HKLM (DWORD 0 only), HKCU', async () => {
  const r = await scan(WINDOWS, false);
  assert.deepEqual(rows(r.manifests.implicit_layer), [
    [P.adapterLayer, ADAPTER('VulkanImplicitLayers')],
    [P.adapterLayer2, ADAPTER('VulkanImplicitLayers')],
    [P.secondAdapterLayer, ADAPTER('VulkanImplicitLayers')],
    [P.componentLayer, SOFTWARE('VulkanImplicitLayers')],
    [P.hklmLayer, 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers'],
    [P.missing, 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers'],
    [P.hkcuLayer, 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers'],
    [P.hklmLayer, 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers'],
  ]);
  const m = r.manifests.implicit_layer;
  assert.deepEqual(
    m.map((x) => x.order),
    [0, 1, 2, 3, 4, 5, 6, 7],
  );
  assert.ok(
    m.every((x) => !x.readdirOrder),
    'registry order, not a folder listing',
  );
  assert.equal(m[5]!.problem, 'missing', 'a registry value naming a file that is not there');
  assert.equal(m[7]!.duplicateOf, 4, 'HKCU naming the HKLM file: the loader reads it twice');
  assert.match(m[0]!.text ?? '', /VK_LAYER_ADAPTER_implicit/);
  assert.deepEqual(
    r.locations.implicit_layer.map((l) => [l.path, l.exists]),
    [
      [ADAPTER('VulkanImplicitLayers'), true],
      [SOFTWARE('VulkanImplicitLayers'), true],
      ['HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers', true],
      ['HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers', true],
    ],
  );
});

test('elevated (Administrator): HKCU is not read', async () => {
  const r = await scan(WINDOWS, true);
  assert.ok(!r.manifests.implicit_layer.some((m) => m.origin.startsWith('HKCU')));
  assert.deepEqual(r.manifests.implicit_layer.at(-1)?.path, P.missing);
});

test('explicit layers and drivers: HKLM keys; drivers never from HKCU; missing keys list nothing', async () => {
  const r = await scan(WINDOWS, false);
  assert.deepEqual(rows(r.manifests.explicit_layer), [[P.hklmExplicit, 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers']]);
  assert.deepEqual(r.locations.explicit_layer.find((l) => l.origin.startsWith('HKCU'))?.exists, null, 'a missing key');
  assert.deepEqual(rows(r.manifests.driver), [
    [P.adapterDriver, ADAPTER('VulkanDriverName')],
    [P.hklmDriver, 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\Drivers'],
  ]);
});

test('a 32-bit application on 64-bit Windows: the Wow values and WOW6432Node keys', async () => {
  const r = await scan({ ...WINDOWS, wow64: true }, false);
  assert.deepEqual(rows(r.manifests.driver), [[P.adapterDriverWow, ADAPTER('VulkanDriverNameWow')]], 'WOW6432Node\\…\\Drivers is missing here');
});

test('VK_LAYER_PATH (";"-separated) replaces the explicit registry keys; VK_ADD_LAYER_PATH goes first', async () => {
  const replaced = await scan(WINDOWS, false, { VK_LAYER_PATH: `${dir};${P.hklmLayer}` });
  assert.equal(replaced.manifests.explicit_layer[0]?.origin, 'VK_LAYER_PATH[0]');
  assert.ok(replaced.manifests.explicit_layer.every((m) => m.origin.startsWith('VK_LAYER_PATH')));
  const added = await scan(WINDOWS, false, { VK_ADD_LAYER_PATH: P.hkcuLayer });
  assert.deepEqual(rows(added.manifests.explicit_layer), [
    [P.hkcuLayer, 'VK_ADD_LAYER_PATH[0]'],
    [P.hklmExplicit, 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers'],
  ]);
});

test('discovery.manifests / discovery.paths on Windows: parsed, linted, exists from the registry', async () => {
  const inv = await discoveryManifests({ env: {}, platform: WINDOWS, user: { home: null, elevated: false }, registry: fakeRegistry(), cwd: home.dir });
  assert.deepEqual(
    inv.manifests.implicit_layer[0]?.layers.map((l) => l.name),
    ['VK_LAYER_ADAPTER_implicit'],
  );
  assert.ok(inv.manifests.implicit_layer[5]!.diagnostics.some((d) => d.code === 'manifest/unreadable'));
  assert.ok(inv.manifests.implicit_layer[7]!.diagnostics.some((d) => d.code === 'manifest/read-twice'));
  const paths = await discoveryPaths({ env: {}, platform: WINDOWS, user: { home: null, elevated: false }, registry: fakeRegistry() });
  assert.deepEqual(
    paths.locations.driver.map((l) => l.exists),
    [true, null, true],
  );
  const elevated = await discoveryPaths({ env: {}, platform: WINDOWS, user: { home: null, elevated: false }, elevated: true, registry: fakeRegistry() });
  assert.equal(elevated.elevated, true);
  assert.ok(!elevated.locations.implicit_layer.some((l) => l.origin.startsWith('HKCU')));
});

test('off Windows there is no registry reader (reg.exe is only run on win32)', () => {
  assert.equal(systemRegistryReader('linux'), null);
  assert.equal(systemRegistryReader('darwin'), null);
  assert.notEqual(systemRegistryReader('win32'), null);
});

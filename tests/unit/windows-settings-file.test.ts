import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegistryValue } from '../../shared/discovery/registry-output';
import {
  loaderSettingsKey,
  registeredSettingsFiles,
  settingsValueInKey,
  windowsSettingsFile,
  type WindowsSettingsFileQuery,
} from '../../shared/loader/windows-settings-file';
import { realFileOps } from '../../main/platform/atomic-file';
import {
  applyOwnedRegistryValue,
  removeOwnedRegistryValue,
  type OwnedRegistryValueLocation,
  type RegistryWrites,
} from '../../main/platform/owned-files/owned-registry-value';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { syncWindowsLoaderSettings, windowsLoaderSettingsLocation } from '../../main/override/windows-loader-settings';

/**
 * The Windows loader's settings-file lookup as pure functions, each case tied to the loader lines it
 * models (loader_windows.c at v1.3.275 / v1.4.309 … v1.4.359):
 *   windows_get_loader_settings_file_path: `if (!is_high_integrity()) { RegOpenKeyEx(HKEY_CURRENT_USER, …) … }`
 *     then `RegOpenKeyEx(HKEY_LOCAL_MACHINE, …)` (1.3.275: the elevated branch opens HKLM only, the other
 *     HKCU and, when that gave no VK_SUCCESS, HKLM);
 *   get_settings_path_if_exists_in_registry_key: `DWORD name_size = sizeof(name)` once before the loop,
 *     `RegEnumValue(key, idx, name, &name_size, NULL, NULL, (LPBYTE)&value, &value_size)` with a 4-byte
 *     value, `if (name[last_char] == '\\')`, `strcmp(VK_LOADER_SETTINGS_FILENAME, …)`, and from 1.3.302
 *     (PR #1607) `if (!loader_platform_file_exists(name)) … return VK_ERROR_INITIALIZATION_FAILED`.
 * The real loader under Wine agrees on the cases Wine can run (elevated, HKLM):
 * tests/integration/windows-override-vs-loader.test.ts. Wine cannot run a non-elevated process
 * (every token has High integrity), so the HKCU cases are proven here against those source lines only.
 */

const dword = (name: string, data = 0): RegistryValue => ({ name, type: 'REG_DWORD', data });
const FILE = 'C:\\Strata\\loader-settings\\vk_loader_settings.json';
const OTHER = 'C:\\vkconfig\\vk_loader_settings.json';

const query = (q: Partial<WindowsSettingsFileQuery>): WindowsSettingsFileQuery => ({
  loaderVersion: '1.4.359',
  elevated: false,
  hkcu: null,
  hklm: null,
  exists: () => true,
  ...q,
});

test('the key: none before the settings file (1.3.251), …\\Settings until PR #1222 (1.3.253), …\\LoaderSettings after', () => {
  assert.equal(loaderSettingsKey('1.3.239'), null);
  assert.equal(loaderSettingsKey('1.3.251'), 'SOFTWARE\\Khronos\\Vulkan\\Settings');
  assert.equal(loaderSettingsKey('1.3.275'), 'SOFTWARE\\Khronos\\Vulkan\\LoaderSettings');
  assert.equal(windowsSettingsFile(query({ loaderVersion: '1.3.239', hklm: [dword(FILE)] })).path, null);
});

test('elevated (is_high_integrity): HKLM only, HKCU is never read', () => {
  assert.equal(windowsSettingsFile(query({ elevated: true, hkcu: [dword(OTHER)], hklm: [dword(FILE)] })).path, FILE);
  assert.deepEqual(windowsSettingsFile(query({ elevated: true, hkcu: [dword(OTHER)] })), { path: null, hive: null, missing: null });
});

test('not elevated: HKCU first; HKLM only when HKCU names no settings file', () => {
  assert.deepEqual(windowsSettingsFile(query({ hkcu: [dword(OTHER)], hklm: [dword(FILE)] })), { path: OTHER, hive: 'HKCU', missing: null });
  assert.equal(windowsSettingsFile(query({ hkcu: [dword('C:\\x\\other.json')], hklm: [dword(FILE)] })).path, FILE);
  assert.equal(windowsSettingsFile(query({ hkcu: null, hklm: [dword(FILE)] })).path, FILE);
});

test('the data is never read: a DWORD 1 names the settings file as much as a 0 (and a short REG_SZ too)', () => {
  assert.equal(settingsValueInKey([dword(FILE, 1)]), FILE);
  assert.equal(settingsValueInKey([{ name: FILE, type: 'REG_SZ', data: 'ab' }]), FILE);
});

test('the file name after the last backslash, compared with strcmp: case counts, "/" is no separator', () => {
  assert.equal(settingsValueInKey([dword('C:\\x\\VK_LOADER_SETTINGS.json')]), null);
  assert.equal(settingsValueInKey([dword('C:/x/vk_loader_settings.json')]), null);
  assert.equal(settingsValueInKey([dword('vk_loader_settings.json')]), 'vk_loader_settings.json');
});

test('RegEnumValue stops the walk at data over 4 bytes (ERROR_MORE_DATA): a REG_SZ path or a QWORD first hides the rest', () => {
  assert.equal(settingsValueInKey([{ name: 'C:\\a\\x.json', type: 'REG_SZ', data: 'C:\\a\\x.json' }, dword(FILE)]), null);
  assert.equal(settingsValueInKey([{ name: 'C:\\a', type: 'REG_QWORD', data: 0 }, dword(FILE)]), null);
});

test('name_size is set once: after a value, only a strictly shorter name can be read, a longer one ends the walk', () => {
  // FILE (43 characters) after a 10-character name: the buffer holds 10 characters with the NUL, so the walk ends.
  assert.equal(settingsValueInKey([dword('C:\\abc.txt'), dword(FILE)]), null);
  // After a longer name, a shorter one still fits.
  assert.equal(settingsValueInKey([dword(`C:\\${'x'.repeat(60)}.json`), dword(FILE)]), FILE);
  // The same length does not fit (name_size excludes the NUL the next call needs).
  const same = `C:\\${'y'.repeat(FILE.length - 8)}.json`;
  assert.equal(same.length, FILE.length);
  assert.equal(settingsValueInKey([dword(same), dword(FILE)]), null);
  // The first name may be up to 1023 characters (char name[MAX_STRING_SIZE], 1024).
  assert.equal(settingsValueInKey([dword(`C:\\${'z'.repeat(1020)}`)]), null);
  assert.equal(settingsValueInKey([dword(`C:\\${'z'.repeat(1021)}`), dword(FILE)]), null);
});

test("every value naming a vk_loader_settings.json, in the key's order, whether or not the walk reaches it (the status lists them all)", () => {
  const values: RegistryValue[] = [
    { name: 'C:\\a.txt', type: 'REG_DWORD', data: 0 },
    { name: 'C:\\vkconfig\\vk_loader_settings.json', type: 'REG_DWORD', data: 1 },
    { name: 'C:\\x\\VK_LOADER_SETTINGS.JSON', type: 'REG_DWORD', data: 0 },
    { name: 'C:\\tool\\vk_loader_settings.json', type: 'REG_DWORD', data: 0 },
  ];
  assert.equal(settingsValueInKey(values), null, 'the walk stops at the longer name');
  assert.deepEqual(registeredSettingsFiles(values), ['C:\\vkconfig\\vk_loader_settings.json', 'C:\\tool\\vk_loader_settings.json']);
});

test('a registered file that does not exist: 1.3.275 takes it (no settings, HKLM unread); 1.3.302+ skips it and reads HKLM', () => {
  const exists = (p: string) => p !== OTHER;
  assert.deepEqual(windowsSettingsFile(query({ loaderVersion: '1.3.275', hkcu: [dword(OTHER)], hklm: [dword(FILE)], exists })), {
    path: null,
    hive: 'HKCU',
    missing: OTHER,
  });
  assert.deepEqual(windowsSettingsFile(query({ loaderVersion: '1.4.309', hkcu: [dword(OTHER)], hklm: [dword(FILE)], exists })), {
    path: FILE,
    hive: 'HKLM',
    missing: null,
  });
  // Elevated, 1.4.309+: HKLM's missing file fails the key, and there is no other.
  assert.equal(windowsSettingsFile(query({ loaderVersion: '1.4.359', elevated: true, hklm: [dword(OTHER)], exists })).path, null);
});

/** An in-memory registry (names compare case-insensitively, as the registry's do). */
class MemoryRegistry implements RegistryWrites {
  readonly keys = new Map<string, RegistryValue[]>();
  async values(key: string) {
    return [...(this.keys.get(key) ?? [])];
  }
  async setDword(key: string, name: string, data: number) {
    const values = this.keys.get(key) ?? [];
    const at = values.findIndex((v) => v.name.toLowerCase() === name.toLowerCase());
    if (at >= 0) values[at] = dword(name, data);
    else values.push(dword(name, data));
    this.keys.set(key, values);
  }
  async deleteValue(key: string, name: string) {
    const values = this.keys.get(key) ?? [];
    const at = values.findIndex((v) => v.name.toLowerCase() === name.toLowerCase());
    if (at >= 0) values.splice(at, 1);
    return at >= 0;
  }
}

const KEY = 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings';

function withState(fn: (loc: OwnedRegistryValueLocation) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'strata-owned-registry-'));
  const loc: OwnedRegistryValueLocation = {
    key: KEY,
    name: FILE,
    recordFile: join(dir, 'registration.json'),
    label: 'loader settings file',
    conflictWhy: "the loader reads one value of this key, and could take that one instead of Strata's loader settings file",
    refusalCode: 'profile/foreign-loader-settings',
    surrenderCommand: '`strata profile unbind`',
    setAside: { kind: 'delete' },
    ownValueWithoutRecord: 'take',
  };
  return fn(loc).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('an owned registry value: added and recorded; surrender deletes it and its record', () =>
  withState(async (loc) => {
    const reg = new MemoryRegistry();
    assert.deepEqual(await applyOwnedRegistryValue(loc, reg, 0, { force: false, ops: realFileOps }), { action: 'added', setAside: [] });
    assert.deepEqual(await reg.values(KEY), [dword(FILE, 0)]);
    assert.deepEqual(await applyOwnedRegistryValue(loc, reg, 0, { force: false, ops: realFileOps }), { action: 'unchanged', setAside: [] });
    assert.deepEqual(await removeOwnedRegistryValue(loc, reg, realFileOps), { action: 'removed', restored: [], previous: null });
    assert.deepEqual(await reg.values(KEY), []);
    assert.deepEqual(await removeOwnedRegistryValue(loc, reg, realFileOps), { action: 'nothing', restored: [], previous: null });
  }));

test('another value in the key is refused without force (nothing written); forced it is deleted, and surrender puts it back', () =>
  withState(async (loc) => {
    const reg = new MemoryRegistry();
    await reg.setDword(KEY, OTHER, 0);
    await assert.rejects(applyOwnedRegistryValue(loc, reg, 0, { force: false, ops: realFileOps }), (e: unknown) => {
      assert.ok(e instanceof StrataRequestError);
      assert.equal(e.error.code, 'profile/foreign-loader-settings');
      assert.match(e.error.message, /vkconfig/);
      return true;
    });
    assert.deepEqual(await reg.values(KEY), [dword(OTHER, 0)]);
    const forced = await applyOwnedRegistryValue(loc, reg, 0, { force: true, ops: realFileOps });
    assert.deepEqual(forced, { action: 'added', setAside: [OTHER] });
    assert.deepEqual(await reg.values(KEY), [dword(FILE, 0)]);
    assert.match(readFileSync(loc.recordFile, 'utf8'), /vkconfig/);
    assert.deepEqual(await removeOwnedRegistryValue(loc, reg, realFileOps), { action: 'removed', restored: [OTHER], previous: null });
    assert.deepEqual(await reg.values(KEY), [dword(OTHER, 0)]);
  }));

test('a value that is not a DWORD is refused even forced (Strata could not put it back); a damaged record is refused', () =>
  withState(async (loc) => {
    const reg = new MemoryRegistry();
    reg.keys.set(KEY, [{ name: 'C:\\x', type: 'REG_SZ', data: 'text' }]);
    await assert.rejects(applyOwnedRegistryValue(loc, reg, 0, { force: true, ops: realFileOps }), /not a DWORD/);
    reg.keys.set(KEY, []);
    writeFileSync(loc.recordFile, '{"version":1,"key":"HKLM\\\\Other","name":"x","previous":null,"removed":[]}');
    await assert.rejects(removeOwnedRegistryValue(loc, reg, realFileOps), /damaged or is for another value/);
  }));

test('where Strata keeps its loader settings file on Windows: as elevated as Strata, HKLM + ProgramData; else HKCU + LOCALAPPDATA', () => {
  const env = { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', ProgramData: 'D:\\ProgramData' };
  const user = windowsLoaderSettingsLocation(false, env, '1.4.359');
  assert.equal(user.file.file, 'C:\\Users\\me\\AppData\\Local\\Strata\\loader-settings\\vk_loader_settings.json');
  assert.deepEqual([user.registration.key, user.registration.name], ['HKCU\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings', user.file.file]);
  const system = windowsLoaderSettingsLocation(true, env, '1.4.359');
  assert.equal(system.file.file, 'D:\\ProgramData\\Strata\\loader-settings\\vk_loader_settings.json');
  assert.equal(system.registration.key, 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings');
  // The model finds what Strata registers, for the application as elevated as Strata.
  for (const [elevated, loc] of [
    [false, user],
    [true, system],
  ] as const) {
    const values = [dword(loc.registration.name)];
    const q = query({ elevated, exists: () => true, ...(elevated ? { hklm: values } : { hkcu: values }) });
    assert.equal(windowsSettingsFile(q).path, loc.file.file);
  }
});

test('binding on Windows needs a loader that can turn the global override off in the settings file (1.3.302+): refused before anything is written', async () => {
  const reg = new MemoryRegistry();
  await assert.rejects(
    syncWindowsLoaderSettings({ env: {}, loaderVersion: '1.3.275', groups: [], registry: reg, elevated: true }),
    (e: unknown) => e instanceof StrataRequestError && e.error.code === 'profile/bindings-windows',
  );
  assert.equal(reg.keys.size, 0);
});

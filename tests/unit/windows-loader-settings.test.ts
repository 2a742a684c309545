import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join, relative } from 'node:path';
import type { RegistryValue } from '../../shared/discovery/registry-output';
import type { Profile } from '../../shared/profiles/profile-schema';
import { StrataRequestError } from '../../shared/errors/strata-error';
import type { FileOps } from '../../main/platform/atomic-file';
import type { RegistryWrites } from '../../main/platform/owned-files/owned-registry-value';
import { syncWindowsLoaderSettings, windowsLoaderSettingsLocation } from '../../main/override/windows-loader-settings';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * Strata's loader settings file on Windows (main/override/windows-loader-settings.ts): where it goes
 * for an elevated Strata and for one that is not, under which key for which loader, and the bind /
 * unbind cycle's order (both refusals before anything is written; the registration with the file and
 * gone with it). Run on Linux: the registry is an in-memory RegistryWrites and the C:\ paths are mapped
 * into the test's HOME by the FileOps the writer takes; that the real registry and the real Windows
 * loader (under Wine) read what this writes is tests/integration/windows-override-vs-loader.test.ts.
 */
const LOADER = '1.4.341';
const dword = (name: string, data = 0): RegistryValue => ({ name, type: 'REG_DWORD', data });

class MemoryRegistry implements RegistryWrites {
  readonly keys = new Map<string, RegistryValue[]>();
  values(key: string) {
    return Promise.resolve([...(this.keys.get(key) ?? [])]);
  }
  setDword(key: string, name: string, data: number) {
    const values = (this.keys.get(key) ?? []).filter((v) => v.name.toLowerCase() !== name.toLowerCase());
    this.keys.set(key, [...values, dword(name, data)]);
    return Promise.resolve();
  }
  deleteValue(key: string, name: string) {
    const values = this.keys.get(key) ?? [];
    const kept = values.filter((v) => v.name.toLowerCase() !== name.toLowerCase());
    this.keys.set(key, kept);
    return Promise.resolve(kept.length !== values.length);
  }
}

/**
 * Node's file system with Windows paths mapped under `root` (C:\a\b → ROOT/C/a/b). The writers build
 * temp and lock names with Linux path functions, which see a whole C:\ path as one name in "."
 * (".C:\a\b.123.tmp"): the leading dot goes, so the temp lands beside its file as on Windows.
 */
function windowsPathsUnder(root: string): FileOps {
  const map = (p: unknown) => {
    if (typeof p !== 'string') return p;
    if (p === '.') return root;
    const m = /^\.?([A-Za-z]):(.*)$/.exec(p);
    if (!m) throw new Error(`the Windows writer used a path that is not a Windows path: ${p}`);
    return join(root, m[1]!, m[2]!.replace(/\\/g, '/'));
  };
  const wrap =
    <F extends (...args: never[]) => unknown>(f: F, paths: number) =>
    (...args: unknown[]) =>
      (f as unknown as (...a: unknown[]) => unknown)(...args.map((a, i) => (i < paths ? map(a) : a)));
  return {
    openSync: wrap(fs.openSync, 1),
    writeFileSync: wrap(fs.writeFileSync, 1),
    fsyncSync: fs.fsyncSync,
    closeSync: fs.closeSync,
    renameSync: wrap(fs.renameSync, 2),
    unlinkSync: wrap(fs.unlinkSync, 1),
    readFileSync: wrap(fs.readFileSync, 1),
    mkdirSync: wrap(fs.mkdirSync, 1),
    linkSync: wrap(fs.linkSync, 2),
    readdirSync: wrap(fs.readdirSync, 1),
    existsSync: wrap(fs.existsSync, 1),
  } as FileOps;
}

const ENV = { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', ProgramData: 'C:\\ProgramData' };
const profile: Profile = { schemaVersion: 2, name: 'qa', layers: [] };
const APP = 'C:\\Games\\game.exe';

function setup(home: TempHome, elevated: boolean) {
  const root = join(home.dir, 'drives');
  const ops = windowsPathsUnder(root);
  const reg = new MemoryRegistry();
  const loc = windowsLoaderSettingsLocation(elevated, ENV, LOADER);
  const onDisk = (winPath: string) => join(root, 'C', winPath.slice(3).replace(/\\/g, '/'));
  const sync = (apps: string[], force = false) =>
    syncWindowsLoaderSettings({
      env: { ...home.env, ...ENV },
      loaderVersion: LOADER,
      groups: [{ profile, apps }],
      ops,
      registry: reg,
      elevated,
      force,
    });
  const files = () =>
    fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(join(root, f)).isFile()).sort() : [];
  return { root, reg, loc, onDisk, sync, files };
}

test('where: as elevated as Strata (HKLM + %ProgramData%, else HKCU + %LOCALAPPDATA%); the key by loader version', () => {
  const user = windowsLoaderSettingsLocation(false, { USERPROFILE: 'C:\\Users\\Zoë' }, '1.4.359');
  assert.equal(user.hive, 'HKCU');
  assert.equal(user.file.file, 'C:\\Users\\Zoë\\AppData\\Local\\Strata\\loader-settings\\vk_loader_settings.json', 'no LOCALAPPDATA: the profile folder’s');
  assert.equal(user.file.stateDir, 'C:\\Users\\Zoë\\AppData\\Local\\Strata\\state', 'the records are beside, never in the folder the loader reads');
  const system = windowsLoaderSettingsLocation(true, { PROGRAMDATA: 'E:\\PD' }, '1.4.359');
  assert.deepEqual([system.hive, system.file.file], ['HKLM', 'E:\\PD\\Strata\\loader-settings\\vk_loader_settings.json']);
  assert.equal(windowsLoaderSettingsLocation(true, {}, '1.4.359').file.dir, 'C:\\ProgramData\\Strata\\loader-settings');
  // PR #1222 (1.3.253) moved the key from …\Settings; the value's name is the file's path.
  assert.equal(windowsLoaderSettingsLocation(false, ENV, '1.3.251').registration.key, 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\Settings');
  const current = windowsLoaderSettingsLocation(true, ENV, '1.3.302');
  assert.deepEqual([current.registration.key, current.registration.name], ['HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings', current.file.file]);
  // Two refusals, two codes: another tool's file, and another value in the key.
  assert.deepEqual([current.file.refusalCode, current.registration.refusalCode], ['profile/foreign-override', 'profile/foreign-loader-settings']);
  assert.notEqual(current.registration.recordFile, current.file.recordFile);
});

for (const elevated of [true, false]) {
  test(
    `bind then unbind, ${elevated ? 'elevated: HKLM' : 'not elevated: HKCU'}: the file and its value appear together and go together`,
    withTempHome(async (home) => {
      const { root, reg, loc, onDisk, sync, files } = setup(home, elevated);
      const bound = await sync([APP]);
      assert.equal(bound.mechanism, 'loader-settings');
      assert.deepEqual(bound.files, [{ path: loc.file.file, profile: null, apps: [APP], appKeys: [APP], written: true }]);
      const text = fs.readFileSync(onDisk(loc.file.file), 'utf8');
      const json = JSON.parse(text) as { settings_array: { app_keys?: string[] }[] };
      assert.deepEqual(json.settings_array[0]?.app_keys, [APP]);
      assert.deepEqual(await reg.values(loc.registration.key), [dword(loc.file.file)]);
      assert.equal(reg.keys.size, 1, 'one key, of the hive the application as elevated as Strata reads');
      assert.match(bound.notes[0]!, new RegExp(`${loc.hive}\\\\SOFTWARE\\\\Khronos\\\\Vulkan\\\\LoaderSettings \\(value added\\)`));
      assert.match(bound.notes[1]!, elevated ? /registered in HKLM, which every application reads/ : /run elevated .* read only HKLM/);

      const unbound = await sync([]);
      assert.deepEqual(unbound.removed, [loc.file.file]);
      assert.deepEqual(await reg.values(loc.registration.key), []);
      // Only the owned-file writer's copy of what it removed stays, in Strata's state folder.
      assert.deepEqual(files(), [relative(root, onDisk(loc.file.previousFile))], 'no settings file, record or lock stays');
      assert.equal(fs.readFileSync(onDisk(loc.file.previousFile), 'utf8'), text);
      assert.deepEqual((await sync([])).notes, ['no application is bound'], 'a second unbind has nothing to do');
    }),
  );
}

test(
  'another value in the key: bind is refused before the file is written; forced, the value goes and unbind puts it back',
  withTempHome(async (home) => {
    const { reg, loc, sync, files } = setup(home, true);
    const vkconfig = 'C:\\ProgramData\\vkconfig\\vk_loader_settings.json';
    reg.keys.set(loc.registration.key, [dword(vkconfig, 1)]);
    await assert.rejects(sync([APP]), (e: unknown) => e instanceof StrataRequestError && e.error.code === 'profile/foreign-loader-settings');
    assert.deepEqual(files(), [], 'nothing written');
    assert.deepEqual(await reg.values(loc.registration.key), [dword(vkconfig, 1)]);

    const forced = await sync([APP], true);
    assert.ok(forced.notes.some((n) => n.startsWith(`${vkconfig} was removed from ${loc.registration.key} (--force)`)));
    assert.deepEqual(await reg.values(loc.registration.key), [dword(loc.file.file)]);
    const unbound = await sync([]);
    assert.ok(unbound.notes.includes(`${vkconfig} is back in ${loc.registration.key}`), unbound.notes.join(' | '));
    assert.deepEqual(await reg.values(loc.registration.key), [dword(vkconfig, 1)]);
  }),
);

test(
  "another tool's file where Strata's goes: bind is refused and registers nothing; unbind leaves that file alone",
  withTempHome(async (home) => {
    const { reg, loc, onDisk, sync } = setup(home, false);
    fs.mkdirSync(join(onDisk(loc.file.file), '..'), { recursive: true });
    fs.writeFileSync(onDisk(loc.file.file), '{"theirs": true}');
    await assert.rejects(sync([APP]), (e: unknown) => e instanceof StrataRequestError && e.error.code === 'profile/foreign-override');
    assert.deepEqual(await reg.values(loc.registration.key), [], 'the value is registered only with a file of Strata’s');
    const unbound = await sync([]);
    assert.deepEqual(unbound.removed, []);
    assert.equal(fs.readFileSync(onDisk(loc.file.file), 'utf8'), '{"theirs": true}');
  }),
);

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempHome } from '../helpers/temp-home';
import {
  windowsOverrideApply,
  windowsOverrideLocation,
  windowsOverrideRemove,
  windowsOverrideStatus,
  windowsSettingsLocation,
  registeredLayerSettingsFile,
  type OverrideRegistry,
} from '../../main/override/windows-override';
import type { OverrideLocation } from '../../main/override/override-writer';
import type { RegistryValue } from '../../shared/discovery/registry-output';
import { StrataRequestError } from '../../shared/errors/strata-error';

/**
 * The registrar's bookkeeping (what it records and restores) with an in-memory registry; that the
 * real Windows loader obeys what it writes is tests/integration/windows-override-vs-loader.test.ts
 * (under Wine). Value names compare case-insensitively, as the registry's do.
 */
class MemoryRegistry implements OverrideRegistry {
  readonly keys = new Map<string, RegistryValue[]>();
  async values(key: string) {
    return [...(this.keys.get(key) ?? [])];
  }
  async setDword(key: string, name: string, data: number) {
    const values = this.keys.get(key) ?? [];
    const at = values.findIndex((v) => v.name.toLowerCase() === name.toLowerCase());
    const value: RegistryValue = { name, type: 'REG_DWORD', data };
    if (at >= 0) values[at] = value;
    else values.push(value);
    this.keys.set(key, values);
  }
  async deleteValue(key: string, name: string) {
    const values = this.keys.get(key) ?? [];
    const at = values.findIndex((v) => v.name.toLowerCase() === name.toLowerCase());
    if (at >= 0) values.splice(at, 1);
    return at >= 0;
  }
  dword(key: string, name: string) {
    const v = this.keys.get(key)?.find((x) => x.name.toLowerCase() === name.toLowerCase());
    return v ? v.data : undefined;
  }
}

const HKCU = 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers';
const FOREIGN = 'C:\\Users\\me\\AppData\\Local\\LunarG\\vkconfig\\override\\VkLayer_override.json';
const TEXT = JSON.stringify({
  file_format_version: '1.1.2',
  layer: {
    name: 'VK_LAYER_LUNARG_override',
    type: 'GLOBAL',
    api_version: '1.3.0',
    implementation_version: '1',
    description: 'x',
    component_layers: ['VK_LAYER_X'],
    disable_environment: { DISABLE: '1' },
  },
});

/** The user-scope location, moved into the temp home (the Windows one has C:\ paths). */
function location(dir: string): OverrideLocation {
  const stateDir = join(dir, 'state');
  return {
    scope: 'user',
    dir: join(dir, 'override'),
    file: join(dir, 'override', 'VkLayer_override.json'),
    stateDir,
    recordFile: join(stateDir, 'override-record.json'),
    originalFile: join(stateDir, 'override-original.json'),
    previousFile: join(stateDir, 'override-previous.json'),
    lockFile: join(stateDir, 'override.lock'),
  };
}

const refusal = (e: unknown) => (e instanceof StrataRequestError ? e.error.code : String(e));

test('windowsOverrideLocation: %LOCALAPPDATA%\\Strata for the user, %ProgramData%\\Strata for the system', () => {
  const env = { LOCALAPPDATA: 'C:\\Users\\Zoë\\AppData\\Local', ProgramData: 'D:\\ProgramData' };
  assert.equal(windowsOverrideLocation('user', env).file, 'C:\\Users\\Zoë\\AppData\\Local\\Strata\\override\\VkLayer_override.json');
  assert.equal(windowsOverrideLocation('system', env).file, 'D:\\ProgramData\\Strata\\override\\VkLayer_override.json');
  assert.equal(windowsOverrideLocation('user', { USERPROFILE: 'C:\\Users\\x' }).stateDir, 'C:\\Users\\x\\AppData\\Local\\Strata\\state');
});

test(
  'apply registers the file (DWORD 0); remove deletes the value it added',
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const locs = { override: location(home.dir), settings: null };
    const applied = await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg });
    assert.deepEqual([applied.action, applied.registration?.action, applied.registration?.registered], ['created', 'added', true]);
    assert.equal(reg.dword(HKCU, locs.override.file), 0);
    assert.match(applied.registration?.note ?? '', /skip HKEY_CURRENT_USER/);
    const status = await windowsOverrideStatus(locs, home.env, { registry: reg });
    assert.equal(status.registration?.registered, true);
    const removed = await windowsOverrideRemove(locs, home.env, { registry: reg });
    assert.deepEqual([removed.action, removed.registration?.action], ['deleted', 'removed']);
    assert.equal(reg.dword(HKCU, locs.override.file), undefined);
    assert.equal(existsSync(join(locs.override.stateDir, 'override-registration.json')), false);
  }),
);

test(
  "a value for Strata's file that someone disabled is refused without force; forced, remove puts the old DWORD back",
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const locs = { override: location(home.dir), settings: null };
    await reg.setDword(HKCU, locs.override.file.toUpperCase(), 7);
    await assert.rejects(
      windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg }),
      (e) => refusal(e) === 'override/foreign-registration',
    );
    assert.equal(existsSync(locs.override.file), false, 'a refused apply wrote the file');
    const forced = await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg, force: true });
    assert.equal(forced.registration?.action, 'enabled');
    assert.equal(reg.dword(HKCU, locs.override.file), 0);
    const removed = await windowsOverrideRemove(locs, home.env, { registry: reg });
    assert.equal(removed.registration?.action, 'restored');
    assert.equal(reg.dword(HKCU, locs.override.file), 7);
  }),
);

test(
  "another tool's enabled override is refused; forced, it is disabled and remove enables it again; a disabled one is no conflict",
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const locs = { override: location(home.dir), settings: null };
    await reg.setDword(HKCU, FOREIGN, 0);
    await assert.rejects(
      windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg }),
      (e) => refusal(e) === 'override/foreign-registration',
    );
    const forced = await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg, force: true });
    assert.deepEqual(forced.registration?.disabled, [FOREIGN]);
    assert.equal(reg.dword(HKCU, FOREIGN), 1);
    // Applying again (the other one is disabled now) needs no force and keeps the record of it.
    const again = await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg });
    assert.deepEqual([again.registration?.action, again.registration?.disabled], ['unchanged', [FOREIGN]]);
    await windowsOverrideRemove(locs, home.env, { registry: reg });
    assert.equal(reg.dword(HKCU, FOREIGN), 0);
    assert.equal(reg.dword(HKCU, locs.override.file), undefined);
  }),
);

test(
  'the system scope needs an elevated Strata (off Windows there is none)',
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const locs = { override: { ...location(home.dir), scope: 'system' as const }, settings: null };
    await assert.rejects(
      windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg }),
      (e) => refusal(e) === 'override/needs-elevation',
    );
  }),
);

test(
  'a record Strata 0.1.0 wrote (override-registration.json, value/disabled) is read: remove restores what it names',
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const locs = { override: location(home.dir), settings: null };
    await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg });
    await reg.setDword(HKCU, FOREIGN, 1);
    const recordFile = join(locs.override.stateDir, 'override-registration.json');
    // The old format: Strata's value had DWORD 3 before, and a forced apply disabled FOREIGN (it was 0).
    writeFileSync(recordFile, JSON.stringify({ version: 1, key: HKCU, value: locs.override.file, previous: 3, disabled: [{ name: FOREIGN, previous: 0 }] }));
    const removed = await windowsOverrideRemove(locs, home.env, { registry: reg });
    assert.equal(removed.registration?.action, 'restored');
    assert.deepEqual([reg.dword(HKCU, locs.override.file), reg.dword(HKCU, FOREIGN)], [3, 0]);
    assert.equal(existsSync(recordFile), false);
  }),
);

test(
  'an override disabled by a forced apply and switched on again since is disabled again by the next forced apply, and remove restores its first state',
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const locs = { override: location(home.dir), settings: null };
    await reg.setDword(HKCU, FOREIGN, 0);
    await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg, force: true });
    await reg.setDword(HKCU, FOREIGN, 0); // the other tool switched it back on
    await assert.rejects(
      windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg }),
      (e) => refusal(e) === 'override/foreign-registration',
    );
    const again = await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg, force: true });
    assert.deepEqual(again.registration?.disabled, [FOREIGN]);
    assert.equal(reg.dword(HKCU, FOREIGN), 1, 'the loader would otherwise load two override layers');
    await windowsOverrideRemove(locs, home.env, { registry: reg });
    assert.equal(reg.dword(HKCU, FOREIGN), 0);
  }),
);

const HKCU_SETTINGS = 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\Settings';
const HKLM_SETTINGS = 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\Settings';
const SETTINGS = 'khronos_validation.log_filename = C:\\logs\\vvl.txt\n';

test("windowsSettingsLocation: the settings file beside the override, in Strata's folder, with its state and lock", () => {
  // The paths are the host's (node:path's join is win32.join on Windows); here the temp-home layout of location().
  const override = location('/home/u/Strata');
  const settings = windowsSettingsLocation(override);
  assert.equal(settings.file, '/home/u/Strata/settings/vk_layer_settings.txt');
  assert.equal(settings.lockFile, override.lockFile, 'one lock for both files');
  assert.equal(settings.stateDir, override.stateDir);
  assert.equal(settings.scope, 'user');
});

test(
  'layer settings: apply writes the file and registers it in …\\Settings (DWORD 0); status reads both; remove takes both back',
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const override = location(home.dir);
    const locs = { override, settings: windowsSettingsLocation(override) };
    const applied = await windowsOverrideApply(locs, { override: TEXT, settings: SETTINGS }, home.env, { registry: reg });
    assert.equal(applied.settings?.action, 'created');
    assert.equal(readFileSync(locs.settings.file, 'utf8'), SETTINGS);
    assert.equal(reg.dword(HKCU_SETTINGS, locs.settings.file), 0);
    assert.equal(applied.settings?.registration?.action, 'added');
    assert.match(applied.settings?.registration?.note ?? '', /skip HKEY_CURRENT_USER/);

    const status = await windowsOverrideStatus(locs, home.env, { registry: reg });
    assert.equal(status.settings?.ownership, 'strata');
    assert.equal(status.settings?.registration?.registered, true);

    const removed = await windowsOverrideRemove(locs, home.env, { registry: reg });
    assert.equal(removed.settings?.registration?.action, 'removed');
    assert.equal(existsSync(locs.settings.file), false);
    assert.equal(reg.dword(HKCU_SETTINGS, locs.settings.file), undefined);
  }),
);

test(
  'layer settings: another enabled settings file in the key is refused before anything is written; forced, it is disabled until remove',
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const override = location(home.dir);
    const locs = { override, settings: windowsSettingsLocation(override) };
    // vkconfig's file: a layer would read it if its value came first; one whose file is gone is passed over by the layers, and by Strata.
    const vkconfig = join(home.dir, 'vkconfig', 'vk_layer_settings.txt');
    mkdirSync(join(home.dir, 'vkconfig'), { recursive: true });
    writeFileSync(vkconfig, 'khronos_validation.debug_action = VK_DBG_LAYER_ACTION_BREAK\n');
    await reg.setDword(HKCU_SETTINGS, join(home.dir, 'gone', 'vk_layer_settings.txt'), 0);
    await reg.setDword(HKCU_SETTINGS, vkconfig, 0);
    await assert.rejects(
      windowsOverrideApply(locs, { override: TEXT, settings: SETTINGS }, home.env, { registry: reg }),
      (e) => refusal(e) === 'override/foreign-settings-registration',
    );
    assert.equal(existsSync(locs.settings.file), false, 'refused before any file was written');
    assert.equal(existsSync(locs.override.file), false);
    assert.equal(reg.dword(HKCU, locs.override.file), undefined);

    const forced = await windowsOverrideApply(locs, { override: TEXT, settings: SETTINGS }, home.env, { registry: reg, force: true });
    assert.deepEqual(forced.settings?.registration?.disabled, [vkconfig]);
    assert.equal(reg.dword(HKCU_SETTINGS, vkconfig), 1, 'the layers pass over a value that is not 0');
    await windowsOverrideRemove(locs, home.env, { registry: reg });
    assert.equal(reg.dword(HKCU_SETTINGS, vkconfig), 0, "vkconfig's file is read again");
  }),
);

test(
  "layer settings: a configuration without settings takes Strata's settings file and its value back; a file registered in HKLM is named as read first",
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const override = location(home.dir);
    const locs = { override, settings: windowsSettingsLocation(override) };
    const machine = join(home.dir, 'machine', 'vk_layer_settings.txt');
    mkdirSync(join(home.dir, 'machine'), { recursive: true });
    writeFileSync(machine, '');
    await reg.setDword(HKLM_SETTINGS, machine, 0);
    const applied = await windowsOverrideApply(locs, { override: null, settings: SETTINGS }, home.env, { registry: reg });
    assert.equal(existsSync(locs.override.file), false, 'settings only: no override file');
    assert.match(applied.settings?.registration?.note ?? '', new RegExp(`read ${machine.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} first`));
    const without = await windowsOverrideApply(locs, { override: TEXT, settings: null }, home.env, { registry: reg });
    assert.equal(without.settings?.action, 'removed');
    assert.equal(without.settings?.registration?.action, 'removed');
    assert.equal(reg.dword(HKCU_SETTINGS, locs.settings.file), undefined);
    assert.equal(reg.dword(HKLM_SETTINGS, machine), 0, "HKLM is not Strata's to touch from the user scope");
  }),
);

test(
  'registeredLayerSettingsFile: HKLM first, then HKCU unless elevated; only an enabled value whose file exists',
  withTempHome(async (home) => {
    const reg = new MemoryRegistry();
    const file = (name: string) => {
      mkdirSync(join(home.dir, name), { recursive: true });
      writeFileSync(join(home.dir, name, 'vk_layer_settings.txt'), '');
      return join(home.dir, name, 'vk_layer_settings.txt');
    };
    const user = file('user');
    assert.equal(await registeredLayerSettingsFile(false, reg), null, 'nothing registered');
    await reg.setDword(HKCU_SETTINGS, user, 0);
    assert.equal(await registeredLayerSettingsFile(false, reg), user);
    assert.equal(await registeredLayerSettingsFile(true, reg), null, 'elevated: HKCU is not read');
    const machine = file('machine');
    await reg.setDword(HKLM_SETTINGS, join(home.dir, 'gone', 'vk_layer_settings.txt'), 0);
    await reg.setDword(HKLM_SETTINGS, machine, 1);
    assert.equal(await registeredLayerSettingsFile(false, reg), user, 'a missing file and a disabled value are passed over');
    await reg.setDword(HKLM_SETTINGS, machine, 0);
    assert.equal(await registeredLayerSettingsFile(true, reg), machine);
    assert.equal(await registeredLayerSettingsFile(false, reg), machine, 'HKLM is read first');
  }),
);

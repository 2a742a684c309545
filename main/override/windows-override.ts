import { dirname, join, win32 } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import { windowsLocalAppData } from '../platform/user-dirs';
import { enabledManifestNames, type RegistryValue } from '../../shared/discovery/registry-output';
import type { Environment } from '../../shared/loader/xdg-directories';
import { OVERRIDE_FILE_NAME } from '../../shared/override/override-names';
import { LAYER_SETTINGS_FILE_NAME } from '../../shared/settings/settings-file-location';
import { LAYER_SETTINGS_KEY, layerSettingsCandidates } from '../../shared/settings/windows-layer-settings';
import type { OverrideApplyResult, OverrideRegistration, OverrideRemoveResult, OverrideScope, OverrideStatus } from '../../shared/override/override-status';
import { realFileOps, type FileOps } from '../platform/atomic-file';
import { isRegularFile } from '../platform/guarded-read';
import {
  applyOwnedRegistryValue,
  assertRegistryValueAllowed,
  readOwnedRegistryRecord,
  removeOwnedRegistryValue,
  type OwnedRegistryValueLocation,
  type RegistryWrites,
} from '../platform/owned-files/owned-registry-value';
import {
  applyConfiguration,
  readConfigurationStatus,
  removeConfiguration,
  settingsFileBeside,
  type ConfigurationLocations,
  type ConfigurationTexts,
} from './configuration-writer';
import type { OverrideLocation } from './override-writer';
import { windowsNative, windowsProcessElevated } from '../discovery/windows-registry';

/**
 * The override on Windows. The Windows loader reads no implicit layer folder: it finds implicit
 * layers through the values of HKLM and (when not elevated) HKCU SOFTWARE\Khronos\Vulkan\ImplicitLayers
 * ("Windows Layer Discovery"). So Strata writes VkLayer_override.json into a folder of its own,
 * with the override writer's guarantees (atomic, recorded, surrenderable, foreign file refused),
 * and registers that file as a value with DWORD 0:
 *
 *   user:   %LOCALAPPDATA%\Strata\override\VkLayer_override.json  → HKCU\…\ImplicitLayers
 *   system: %ProgramData%\Strata\override\VkLayer_override.json   → HKLM\…\ImplicitLayers (needs elevation)
 *
 * The registration is an owned registry value (one record format with the loader settings file's), recorded beside the file's record (override-registration.json) so that
 * `override remove` restores the value exactly (deleted, or its pre-Strata DWORD back), and re-enables
 * any other override layer a forced apply disabled. Another enabled VkLayer_override.json in the
 * same key (vkconfig's, another tool's) is refused without --force: the loader would load both.
 *
 * Elevated applications (Run as administrator; every process under Wine) skip HKCU entirely, so a
 * user-scope override never reaches them; apply and status say so.
 *
 * The layer settings file goes the same way: the layers find vk_layer_settings.txt through the values
 * of HKLM, then HKCU, SOFTWARE\Khronos\Vulkan\Settings (shared/settings/windows-layer-settings.ts),
 * so Strata writes it beside the override and registers it there (DWORD 0):
 *
 *   user:   %LOCALAPPDATA%\Strata\settings\vk_layer_settings.txt → HKCU\…\Settings
 *   system: %ProgramData%\Strata\settings\vk_layer_settings.txt  → HKLM\…\Settings (needs elevation)
 *
 * A layer reads the first enabled value whose file exists, so another one in the key (vkconfig's) is
 * refused without --force, and disabled (DWORD 1) with it until surrender.
 */

const KEY: Record<OverrideScope, string> = {
  user: 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers',
  system: 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers',
};

/**
 * The registry key each file of a configuration is registered in (override.preview says it), spelled
 * as discovery names that search location (shared/loader/search-paths.ts: the draft places the override there).
 */
export function windowsRegistrationKeys(scope: OverrideScope): Record<'override' | 'settings', string> {
  return { override: KEY[scope], settings: SETTINGS_KEY[scope] };
}

/** The registry calls the registrar needs (RegEnumValueW / RegSetValueExW / RegDeleteValueW on Windows): the owned registry value's. */
export type OverrideRegistry = RegistryWrites;

/** This machine's registry through native-bridge/windows-native.ts. */
export async function systemOverrideRegistry(): Promise<OverrideRegistry> {
  const native = await windowsNative();
  if (!native)
    throw serviceError('override/registry-unavailable', "Strata cannot write the registry: koffi's Windows binary did not load", {
      fix: 'reinstall Strata (npm installs @koromix/koffi-win32-x64 with koffi on Windows)',
    });
  const { NativeRegistryReader } = await import('../discovery/windows-registry');
  const reader = new NativeRegistryReader(native);
  return {
    values: (key) => reader.values(key),
    setDword: async (key, name, data) => native.setRegistryDword(key, name, data),
    deleteValue: async (key, name) => native.deleteRegistryValue(key, name),
  };
}

/** Where Strata keeps the override on Windows (see above); `env` is the Windows environment. */
export function windowsOverrideLocation(scope: OverrideScope, env: Environment): OverrideLocation {
  const base = scope === 'system' ? env['ProgramData'] || env['PROGRAMDATA'] || 'C:\\ProgramData' : windowsLocalAppData(env);
  const root = win32.join(base, 'Strata');
  const dir = win32.join(root, 'override');
  const stateDir = win32.join(root, 'state');
  return {
    scope,
    dir,
    file: win32.join(dir, OVERRIDE_FILE_NAME),
    stateDir,
    recordFile: win32.join(stateDir, 'override-record.json'),
    originalFile: win32.join(stateDir, 'override-original.json'),
    previousFile: win32.join(stateDir, 'override-previous.json'),
    lockFile: win32.join(stateDir, 'override.lock'),
  };
}

/** Where Strata keeps the layer settings file on Windows: beside the override, with its state folder and lock. */
export function windowsSettingsLocation(override: OverrideLocation): OverrideLocation {
  // node:path's join is win32.join on Windows; native here so the writer also runs in Linux unit tests.
  return settingsFileBeside(override, join(dirname(override.dir), 'settings', LAYER_SETTINGS_FILE_NAME));
}

export function windowsConfigurationLocations(system: boolean, env: Environment): ConfigurationLocations {
  const override = windowsOverrideLocation(system ? 'system' : 'user', env);
  return { override, settings: windowsSettingsLocation(override) };
}

// node:path's join is win32.join on Windows; native here so the registrar also runs in Linux unit tests.
const recordPath = (loc: OverrideLocation) => join(loc.stateDir, 'override-registration.json');

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isOverrideFile = (name: string) => same(win32.basename(name), OVERRIDE_FILE_NAME);

/**
 * The override's value as an owned registry value (main/platform/owned-files/owned-registry-value.ts,
 * one record format with the loader settings file's): in ImplicitLayers the loader reads every value
 * and its DWORD (0 = on), so only another enabled override layer is in the way, and --force disables
 * it (DWORD 1); a value for Strata's own file that someone disabled is refused without --force.
 */
function registrationValue(loc: OverrideLocation): OwnedRegistryValueLocation {
  return {
    key: KEY[loc.scope],
    name: loc.file,
    recordFile: recordPath(loc),
    label: "override layer's registration",
    conflictWhy: "another override layer is registered there, and with Strata's the loader would load two VK_LAYER_LUNARG_override layers",
    refusalCode: 'override/foreign-registration',
    surrenderCommand: '`strata override remove`',
    setAside: {
      kind: 'disable',
      // The values the loader enables (enabledManifestNames: its own walk of the key) that name another override layer.
      conflicting: (values) => enabledManifestNames(values).filter((n) => !same(n, loc.file) && n.split(';').some(isOverrideFile)),
    },
    ownValueWithoutRecord: 'refuse',
  };
}

const SETTINGS_KEY: Record<OverrideScope, string> = { user: `HKCU\\${LAYER_SETTINGS_KEY}`, system: `HKLM\\${LAYER_SETTINGS_KEY}` };

/**
 * The settings file's value: a layer takes the first enabled value of the key whose file exists, so
 * every other such value is in the way (a forced write disables it, DWORD 1, which the layers pass over).
 */
function settingsRegistrationValue(loc: OverrideLocation): OwnedRegistryValueLocation {
  return {
    key: SETTINGS_KEY[loc.scope],
    name: loc.file,
    recordFile: join(loc.stateDir, 'settings-registration.json'),
    label: "layer settings file's registration",
    conflictWhy: "a layer reads the first enabled value of this key whose file exists, so it could read that file instead of Strata's",
    refusalCode: 'override/foreign-settings-registration',
    surrenderCommand: '`strata override remove`',
    setAside: { kind: 'disable', conflicting: (values) => layerSettingsCandidates(values).filter((n) => !same(n, loc.file) && isRegularFile(n)) },
    ownValueWithoutRecord: 'refuse',
  };
}

const registeredNow = (values: readonly RegistryValue[], name: string) => {
  const ours = values.find((v) => same(v.name, name));
  return ours?.type === 'REG_DWORD' && ours.data === 0;
};

const userNote = (elevated: boolean | null) =>
  `Applications that run elevated (Run as administrator, services, and every process under Wine) skip HKEY_CURRENT_USER, so they do not see this override${
    elevated ? ' — and Strata itself runs elevated now' : ''
  }; apply with --system for them (HKLM, needs an elevated Strata).`;

async function noteFor(scope: OverrideScope): Promise<string | null> {
  return scope === 'user' ? userNote(await windowsProcessElevated()) : null;
}

/**
 * The settings file a layer of a process this elevated finds through the registry (HKLM, then HKCU
 * unless elevated: shared/settings/windows-layer-settings.ts), or null when none is registered (then
 * VK_LAYER_SETTINGS_PATH counts). Null as well when the registry cannot be read.
 */
export async function registeredLayerSettingsFile(elevated: boolean, registry?: OverrideRegistry): Promise<string | null> {
  try {
    const reg = registry ?? (await systemOverrideRegistry());
    for (const key of elevated ? [SETTINGS_KEY.system] : [SETTINGS_KEY.system, SETTINGS_KEY.user]) {
      const found = layerSettingsCandidates(await reg.values(key)).find(isRegularFile);
      if (found) return found;
    }
  } catch {
    // No registry to read (koffi's Windows binary missing): nothing is known to hide VK_LAYER_SETTINGS_PATH.
  }
  return null;
}

/**
 * Why the layers may not read Strata's settings file: elevated applications skip HKCU, and every
 * application reads an enabled file registered in HKLM first.
 */
async function settingsNoteFor(loc: OverrideLocation, reg: OverrideRegistry): Promise<string | null> {
  if (loc.scope !== 'user') return null;
  const elevated = await windowsProcessElevated();
  // What an elevated layer reads is HKLM's file alone: the one every layer reads first.
  const first = await registeredLayerSettingsFile(true, reg);
  const machine = first ? `Every application's layers read ${first} first (registered in ${SETTINGS_KEY.system}), not this file. ` : '';
  return `${machine}Applications that run elevated (Run as administrator, services, and every process under Wine) skip HKEY_CURRENT_USER, so their layers do not read this file${
    elevated ? ' — and Strata itself runs elevated now' : ''
  }; apply with --system for them (HKLM, needs an elevated Strata).`;
}

async function needsElevation(loc: OverrideLocation): Promise<void> {
  if (loc.scope !== 'system') return;
  if ((await windowsProcessElevated()) === true) return;
  throw serviceError('override/needs-elevation', `The system-wide override (${KEY.system}) can only be changed from an elevated Strata`, {
    fix: 'run Strata as administrator (an elevated terminal), or leave out --system to change only your own override',
  });
}

async function register(
  value: OwnedRegistryValueLocation,
  reg: OverrideRegistry,
  force: boolean,
  ops: FileOps,
  note: string | null,
): Promise<OverrideRegistration> {
  const r = await applyOwnedRegistryValue(value, reg, 0, { force, ops });
  const action: OverrideRegistration['action'] = r.action === 'changed' ? 'enabled' : r.action;
  return { key: value.key, value: value.name, registered: true, action, disabled: r.setAside, note };
}

async function unregister(value: OwnedRegistryValueLocation, reg: OverrideRegistry, ops: FileOps): Promise<OverrideRegistration> {
  const r = await removeOwnedRegistryValue(value, reg, ops);
  const registered = r.action === 'nothing' ? registeredNow(await reg.values(value.key), value.name) : r.previous === 0;
  return { key: value.key, value: value.name, registered, action: r.action, disabled: [], note: null };
}

async function registrationStatus(value: OwnedRegistryValueLocation, reg: OverrideRegistry, ops: FileOps, note: string | null): Promise<OverrideRegistration> {
  const record = readOwnedRegistryRecord(value, ops);
  return {
    key: value.key,
    value: value.name,
    registered: registeredNow(await reg.values(value.key), value.name),
    action: null,
    disabled: record?.removed.map((d) => d.name) ?? [],
    note,
  };
}

export interface WindowsOverrideOptions {
  force?: boolean;
  registry?: OverrideRegistry;
  ops?: FileOps;
}

/** `override.apply` on Windows: the file (configuration-writer), then its registry value. */
export async function windowsOverrideApply(
  locs: ConfigurationLocations,
  texts: ConfigurationTexts,
  env: Environment,
  options: WindowsOverrideOptions = {},
): Promise<OverrideApplyResult> {
  const loc = locs.override;
  const ops = options.ops ?? realFileOps;
  await needsElevation(loc);
  const reg = options.registry ?? (await systemOverrideRegistry());
  const force = options.force === true;
  const settingsValue = locs.settings ? settingsRegistrationValue(locs.settings) : null;
  // Every refusal before anything is written: the registry values in the way, then the files (applyConfiguration).
  if (texts.override !== null) await assertRegistryValueAllowed(registrationValue(loc), reg, 0, force, ops);
  if (settingsValue && texts.settings !== null) await assertRegistryValueAllowed(settingsValue, reg, 0, force, ops);
  const result = applyConfiguration(locs, texts, env, { force, ops });
  // A configuration that forces no layer (or sets no setting) removes Strata's file: its value goes with it.
  const registration =
    texts.override !== null
      ? await register(registrationValue(loc), reg, force, ops, await noteFor(loc.scope))
      : await unregister(registrationValue(loc), reg, ops);
  if (!result.settings || !settingsValue) return { ...result, registration };
  const settingsRegistration =
    texts.settings !== null
      ? await register(settingsValue, reg, force, ops, await settingsNoteFor(locs.settings!, reg))
      : await unregister(settingsValue, reg, ops);
  return { ...result, settings: { ...result.settings, registration: settingsRegistration }, registration };
}

/** `override.remove` on Windows: the file back to its pre-Strata state, then the registry values. */
export async function windowsOverrideRemove(
  locs: ConfigurationLocations,
  env: Environment,
  options: WindowsOverrideOptions = {},
): Promise<OverrideRemoveResult> {
  const ops = options.ops ?? realFileOps;
  await needsElevation(locs.override);
  const reg = options.registry ?? (await systemOverrideRegistry());
  const result = removeConfiguration(locs, env, { force: options.force === true, ops });
  const registration = await unregister(registrationValue(locs.override), reg, ops);
  if (!locs.settings) return { ...result, registration };
  const settingsRegistration = await unregister(settingsRegistrationValue(locs.settings), reg, ops);
  if (!result.settings && settingsRegistration.action === 'nothing') return { ...result, registration };
  // The file already gone (removed by hand) while its value was still Strata's: the value's surrender is still reported.
  const settings = result.settings ?? {
    path: locs.settings.file,
    action: 'nothing',
    before: 'absent',
    backup: null,
    originalBackup: null,
    text: null,
    hides: [],
  };
  return { ...result, settings: { ...settings, registration: settingsRegistration }, registration };
}

export async function windowsOverrideStatus(locs: ConfigurationLocations, env: Environment, options: WindowsOverrideOptions = {}): Promise<OverrideStatus> {
  const ops = options.ops ?? realFileOps;
  const status = readConfigurationStatus(locs, env, { ops });
  const reg = options.registry ?? (await systemOverrideRegistry());
  const registration = await registrationStatus(
    registrationValue(locs.override),
    reg,
    ops,
    status.ownership === 'absent' ? null : await noteFor(locs.override.scope),
  );
  if (!status.settings || !locs.settings) return { ...status, registration };
  const settingsNote = status.settings.ownership === 'absent' ? null : await settingsNoteFor(locs.settings, reg);
  const settings = { ...status.settings, registration: await registrationStatus(settingsRegistrationValue(locs.settings), reg, ops, settingsNote) };
  return { ...status, settings, registration };
}

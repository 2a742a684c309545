import { join, win32 } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import { windowsLocalAppData } from '../platform/user-dirs';
import { enabledManifestNames, type RegistryValue } from '../../shared/discovery/registry-output';
import type { Environment } from '../../shared/loader/xdg-directories';
import { OVERRIDE_FILE_NAME } from '../../shared/override/override-names';
import type { OverrideApplyResult, OverrideRegistration, OverrideRemoveResult, OverrideScope, OverrideStatus } from '../../shared/override/override-status';
import { realFileOps, type FileOps } from '../platform/atomic-file';
import {
  applyOwnedRegistryValue,
  assertRegistryValueAllowed,
  readOwnedRegistryRecord,
  removeOwnedRegistryValue,
  type OwnedRegistryValueLocation,
  type RegistryWrites,
} from '../platform/owned-files/owned-registry-value';
import { applyConfiguration, readConfigurationStatus, removeConfiguration, type ConfigurationLocations, type ConfigurationTexts } from './configuration-writer';
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
 */

const KEY: Record<OverrideScope, string> = {
  user: 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers',
  system: 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers',
};

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

export function windowsConfigurationLocations(system: boolean, env: Environment): ConfigurationLocations {
  return { override: windowsOverrideLocation(system ? 'system' : 'user', env), settings: null };
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

const registeredNow = (values: readonly RegistryValue[], loc: OverrideLocation) => {
  const ours = values.find((v) => same(v.name, loc.file));
  return ours?.type === 'REG_DWORD' && ours.data === 0;
};

const userNote = (elevated: boolean | null) =>
  `Applications that run elevated (Run as administrator, services, and every process under Wine) skip HKEY_CURRENT_USER, so they do not see this override${
    elevated ? ' — and Strata itself runs elevated now' : ''
  }; apply with --system for them (HKLM, needs an elevated Strata).`;

async function noteFor(scope: OverrideScope): Promise<string | null> {
  return scope === 'user' ? userNote(await windowsProcessElevated()) : null;
}

async function needsElevation(loc: OverrideLocation): Promise<void> {
  if (loc.scope !== 'system') return;
  if ((await windowsProcessElevated()) === true) return;
  throw serviceError('override/needs-elevation', `The system-wide override (${KEY.system}) can only be changed from an elevated Strata`, {
    fix: 'run Strata as administrator (an elevated terminal), or leave out --system to change only your own override',
  });
}

async function register(loc: OverrideLocation, reg: OverrideRegistry, force: boolean, ops: FileOps): Promise<OverrideRegistration> {
  const r = await applyOwnedRegistryValue(registrationValue(loc), reg, 0, { force, ops });
  const action: OverrideRegistration['action'] = r.action === 'changed' ? 'enabled' : r.action;
  return { key: KEY[loc.scope], value: loc.file, registered: true, action, disabled: r.setAside, note: await noteFor(loc.scope) };
}

async function unregister(loc: OverrideLocation, reg: OverrideRegistry, ops: FileOps): Promise<OverrideRegistration> {
  const key = KEY[loc.scope];
  const r = await removeOwnedRegistryValue(registrationValue(loc), reg, ops);
  if (r.action === 'nothing')
    return { key, value: loc.file, registered: registeredNow(await reg.values(key), loc), action: 'nothing', disabled: [], note: null };
  return { key, value: loc.file, registered: r.previous === 0, action: r.action, disabled: [], note: null };
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
  if (texts.settings !== null)
    throw serviceError('override/settings-windows', 'Strata does not install layer settings files on Windows yet; nothing was written', {
      fix: 'apply the configuration without "settings" (the layers can still be forced on or off), and set the layers\' settings with vk_layer_settings.txt next to the application',
    });
  const reg = options.registry ?? (await systemOverrideRegistry());
  const force = options.force === true;
  if (texts.override !== null) await assertRegistryValueAllowed(registrationValue(loc), reg, 0, force, ops);
  const result = applyConfiguration(locs, texts, env, { force, ops });
  // A configuration that forces no layer removes Strata's file: its value goes with it.
  const registration = texts.override !== null ? await register(loc, reg, force, ops) : await unregister(loc, reg, ops);
  return { ...result, registration };
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
  return { ...result, registration: await unregister(locs.override, reg, ops) };
}

export async function windowsOverrideStatus(locs: ConfigurationLocations, env: Environment, options: WindowsOverrideOptions = {}): Promise<OverrideStatus> {
  const ops = options.ops ?? realFileOps;
  const status = readConfigurationStatus(locs, env, { ops });
  const reg = options.registry ?? (await systemOverrideRegistry());
  const values = await reg.values(KEY[locs.override.scope]);
  const record = readOwnedRegistryRecord(registrationValue(locs.override), ops);
  return {
    ...status,
    registration: {
      key: KEY[locs.override.scope],
      value: locs.override.file,
      registered: registeredNow(values, locs.override),
      action: null,
      disabled: record?.removed.map((d) => d.name) ?? [],
      note: status.ownership === 'absent' ? null : await noteFor(locs.override.scope),
    },
  };
}

import { homedir } from 'node:os';
import { join, win32 } from 'node:path';
import { z } from 'zod';
import { serviceError } from '../../shared/errors/strata-error';
import { enabledManifestNames, type RegistryValue } from '../../shared/discovery/registry-output';
import type { Environment } from '../../shared/loader/xdg-directories';
import { OVERRIDE_FILE_NAME } from '../../shared/override/override-names';
import type { OverrideApplyResult, OverrideRegistration, OverrideRemoveResult, OverrideScope, OverrideStatus } from '../../shared/override/override-status';
import { readIfExists, realFileOps, unlinkDurable, writeFileAtomic, type FileOps } from '../platform/atomic-file';
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
 * The registration is recorded beside the file's record (override-registration.json) so that
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

/** The registry calls the registrar needs (RegEnumValueW / RegSetValueExW / RegDeleteValueW on Windows). */
export interface OverrideRegistry {
  values(key: string): Promise<RegistryValue[]>;
  setDword(key: string, name: string, data: number): Promise<void>;
  deleteValue(key: string, name: string): Promise<boolean>;
}

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
  const base =
    scope === 'system'
      ? env['ProgramData'] || env['PROGRAMDATA'] || 'C:\\ProgramData'
      : env['LOCALAPPDATA'] || win32.join(env['USERPROFILE'] || homedir(), 'AppData', 'Local');
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

const RegistrationRecordSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  value: z.string(),
  /** Our value's DWORD before Strata registered it (null: there was no value). */
  previous: z.number().nullable(),
  /** Other override values a forced apply set to 1, with their DWORD before. */
  disabled: z.array(z.object({ name: z.string(), previous: z.number() })),
});
type RegistrationRecord = z.infer<typeof RegistrationRecordSchema>;

// node:path's join is win32.join on Windows; native here so the registrar also runs in Linux unit tests.
const recordPath = (loc: OverrideLocation) => join(loc.stateDir, 'override-registration.json');

function readRecord(loc: OverrideLocation, ops: FileOps): RegistrationRecord | null {
  const bytes = readIfExists(recordPath(loc), ops);
  if (!bytes) return null;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  const r = RegistrationRecordSchema.safeParse(json);
  if (!r.success)
    throw serviceError(
      'override/record-unreadable',
      "Strata's record of the override's registry value is damaged, so Strata cannot tell which registry values are its own",
      {
        where: recordPath(loc),
        fix: `look at ${KEY[loc.scope]}; remove Strata's value (${loc.file}) yourself if it should go, then delete ${recordPath(loc)}`,
      },
    );
  return r.data;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isOverrideFile = (name: string) => same(win32.basename(name), OVERRIDE_FILE_NAME);

interface KeyState {
  ours: RegistryValue | null;
  /** Other override layers the loader reads from this key now. */
  others: string[];
}

async function keyState(loc: OverrideLocation, reg: OverrideRegistry): Promise<KeyState> {
  const values = await reg.values(KEY[loc.scope]);
  const ours = values.find((v) => same(v.name, loc.file)) ?? null;
  const enabled = enabledManifestNames(values);
  return { ours, others: enabled.filter((n) => !same(n, loc.file) && n.split(';').some(isOverrideFile)) };
}

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

/** What a registration would refuse, thrown before anything is written. */
async function assertRegistrationAllowed(loc: OverrideLocation, reg: OverrideRegistry, force: boolean, ops: FileOps): Promise<void> {
  if (force) return;
  const record = readRecord(loc, ops);
  const state = await keyState(loc, reg);
  if (state.others.length > 0)
    throw serviceError(
      'override/foreign-registration',
      `Another override layer is registered in ${KEY[loc.scope]}: ${state.others.join(', ')}; with Strata's the loader would load two VK_LAYER_LUNARG_override layers`,
      {
        fix: 'close the tool that registered it (vkconfig …), or run the command again with --force: Strata then disables that value (DWORD 1) and `strata override remove` enables it again',
        data: { key: KEY[loc.scope], values: state.others },
      },
    );
  if (!record && state.ours && !(state.ours.type === 'REG_DWORD' && state.ours.data === 0))
    throw serviceError(
      'override/foreign-registration',
      `${KEY[loc.scope]} already has a value for ${loc.file} that Strata did not write (${state.ours.type} ${String(state.ours.data)}: someone disabled it)`,
      {
        fix: 'run the command again with --force to enable it (`strata override remove` puts the old value back)',
        data: { key: KEY[loc.scope], values: [loc.file] },
      },
    );
}

async function register(loc: OverrideLocation, reg: OverrideRegistry, force: boolean, ops: FileOps): Promise<OverrideRegistration> {
  const key = KEY[loc.scope];
  const state = await keyState(loc, reg);
  let record = readRecord(loc, ops);
  const previousOurs = state.ours ? (state.ours.type === 'REG_DWORD' ? state.ours.data : 1) : null;
  // The record first, naming what is about to change: after a crash, remove still knows what to restore.
  record ??= { version: 1, key, value: loc.file, previous: previousOurs, disabled: [] };
  const toDisable = force ? state.others.filter((n) => !record!.disabled.some((d) => same(d.name, n))) : [];
  if (toDisable.length > 0) record = { ...record, disabled: [...record.disabled, ...toDisable.map((name) => ({ name, previous: 0 }))] };
  writeFileAtomic(recordPath(loc), `${JSON.stringify(record, null, 2)}\n`, ops);
  for (const name of toDisable) await reg.setDword(key, name, 1);
  const action: OverrideRegistration['action'] = !state.ours ? 'added' : state.ours.type === 'REG_DWORD' && state.ours.data === 0 ? 'unchanged' : 'enabled';
  if (action !== 'unchanged') await reg.setDword(key, loc.file, 0);
  return { key, value: loc.file, registered: true, action, disabled: record.disabled.map((d) => d.name), note: await noteFor(loc.scope) };
}

async function unregister(loc: OverrideLocation, reg: OverrideRegistry, ops: FileOps): Promise<OverrideRegistration> {
  const key = KEY[loc.scope];
  const record = readRecord(loc, ops);
  if (!record) {
    const state = await keyState(loc, reg);
    const registered = state.ours?.type === 'REG_DWORD' && state.ours.data === 0;
    return { key, value: loc.file, registered, action: 'nothing', disabled: [], note: null };
  }
  for (const d of record.disabled) await reg.setDword(key, d.name, d.previous);
  if (record.previous === null) await reg.deleteValue(key, loc.file);
  else await reg.setDword(key, loc.file, record.previous);
  unlinkDurable(recordPath(loc), ops);
  return { key, value: loc.file, registered: record.previous === 0, action: record.previous === null ? 'removed' : 'restored', disabled: [], note: null };
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
  if (texts.override !== null) await assertRegistrationAllowed(loc, reg, force, ops);
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
  const state = await keyState(locs.override, reg);
  const record = readRecord(locs.override, ops);
  return {
    ...status,
    registration: {
      key: KEY[locs.override.scope],
      value: locs.override.file,
      registered: state.ours?.type === 'REG_DWORD' && state.ours.data === 0,
      action: null,
      disabled: record?.disabled.map((d) => d.name) ?? [],
      note: status.ownership === 'absent' ? null : await noteFor(locs.override.scope),
    },
  };
}

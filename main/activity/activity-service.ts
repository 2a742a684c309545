import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import {
  loaderSettingsCandidates,
  loadersReadingFolder,
  type ActiveBinding,
  type ActiveFile,
  type ActivityDisableRequest,
  type ActivityDisableResult,
  type ActivityStatus,
  type FileOwner,
} from '../../shared/activity/activity-status';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { OVERRIDE_LAYER_NAME } from '../../shared/override/override-names';
import { APP_OVERRIDE_PREFIX, appOverrideFileNames } from '../../shared/profiles/app-overrides';
import { bindingsByProfile, type ApplicationsFile } from '../../shared/profiles/application-list';
import { LOADER_FEATURES, loaderAtLeast } from '../../shared/profiles/loader-features';
import { loaderSettingsPath } from '../../shared/profiles/loader-settings';
import { explainChain } from '../chain/chain-service';
import { loaderSettingsRegistry, settingsFileFor } from '../chain/settings-file-found';
import { LOADER_SETTINGS_KEY, loaderSettingsKey, registeredSettingsFiles } from '../../shared/loader/windows-settings-file';
import type { RegistryValue } from '../../shared/discovery/registry-output';
import { windowsProcessElevated } from '../discovery/windows-registry';
import { windowsLoaderSettingsLocation } from '../override/windows-loader-settings';
import { ownedStatus } from '../platform/owned-files/owned-file';
import { discoveryManifests } from '../discovery/discovery-service';
import { defaultOverrideSystem, overrideRemoveOnAnyPlatform, overrideStatus, withOverrideScope } from '../override/override-service';
import { readConfigurationStatus } from '../override/configuration-writer';
import { appFileOwnership, appOverrideLocation } from '../profiles/app-override-writer';
import { clearBindings, readApplications, type ProfileServiceOptions } from '../profiles/profile-service';

/**
 * activity.status / activity.disable (shared/activity/activity-status.ts): one answer to "what has
 * Strata changed, for whom, and what did other tools write", read from the files themselves, and
 * one way to undo Strata's part of it.
 */
export type ActivityServiceOptions = ProfileServiceOptions;

const homeOf = (o: ActivityServiceOptions) => o.env['HOME'] || homedir();
/** Status lists stay bounded on a machine with thousands of bindings; the chain model runs once per binding. */
const MAX_BINDINGS_CHECKED = 64;

/** The layer names a manifest text defines (single "layer" or "layers" array); [] when it does not parse. */
function layerNames(text: string | null): string[] {
  if (!text) return [];
  try {
    const json = JSON.parse(text) as { layer?: { name?: unknown }; layers?: { name?: unknown }[] };
    const layers = Array.isArray(json.layers) ? json.layers : json.layer ? [json.layer] : [];
    return layers.map((l) => (typeof l?.name === 'string' ? l.name : '')).filter(Boolean);
  } catch {
    return [];
  }
}

function appKeysOf(text: string): string[] {
  try {
    const json = JSON.parse(text) as { layer?: { app_keys?: unknown } };
    const keys = json.layer?.app_keys;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** Whose a per-application file is, by Strata's record of it (a damaged record is refused); a file that cannot be read counts as another tool's. */
function ownerOf(o: ActivityServiceOptions, path: string): FileOwner {
  try {
    const ownership = appFileOwnership(o.env, homeOf(o), path);
    return ownership === 'strata' || ownership === 'modified' ? ownership : 'foreign';
  } catch (e) {
    if (e instanceof StrataRequestError) throw e;
    return 'foreign';
  }
}

/**
 * Windows: the files registered under HKCU and HKLM `…\LoaderSettings` that exist, in the loader's
 * order (HKCU first). Read in the key of `loaderVersion`, or the current key when that loader reads none:
 * a file registered there is still a file some tool wrote.
 */
async function windowsSettingsCandidates(loaderVersion: string | null): Promise<{ path: string; loaders: string }[]> {
  const keyVersion = loaderVersion && loaderSettingsKey(loaderVersion) ? loaderVersion : LOADER_FEATURES.settingsFolderRenamed;
  const registry = await loaderSettingsRegistry(keyVersion);
  if (!registry) return [];
  const key = loaderSettingsKey(keyVersion);
  const from = (hive: 'HKCU' | 'HKLM', values: RegistryValue[]) =>
    registeredSettingsFiles(values)
      .filter((path) => existsSync(path))
      .map((path) => ({
        path,
        loaders: `${key === LOADER_SETTINGS_KEY ? `loader ${LOADER_FEATURES.settingsFolderRenamed} and later` : `loaders ${LOADER_FEATURES.settingsFile}–1.3.252`}, through ${hive}\\${key}${hive === 'HKCU' ? ' (applications that are not elevated only)' : ''}`,
      }));
  return [...from('HKCU', registry.hkcu), ...from('HKLM', registry.hklm)];
}

/** Windows: Strata's loader settings file (either scope's, by its record) or another tool's. */
function windowsSettingsOwner(env: NodeJS.ProcessEnv, path: string, loaderVersion: string | null): FileOwner {
  for (const elevated of [true, false]) {
    const loc = windowsLoaderSettingsLocation(elevated, env, loaderVersion ?? LOADER_FEATURES.settingsFolderRenamed).file;
    if (loc.file.toLowerCase() !== path.toLowerCase()) continue;
    try {
      const ownership = ownedStatus(loc).ownership;
      return ownership === 'strata' || ownership === 'modified' ? ownership : 'foreign';
    } catch (e) {
      if (e instanceof StrataRequestError) throw e;
      return 'foreign';
    }
  }
  return 'foreign';
}

export async function activityStatus(o: ActivityServiceOptions): Promise<ActivityStatus> {
  const home = homeOf(o);
  const notes: string[] = [];
  const [loaderVersion, inventory] = await Promise.all([o.loaderVersion().catch(() => null), discoveryManifests({ env: o.env })]);
  if (!loaderVersion) notes.push('no Vulkan loader answered: which files it reads is not known');
  const windows = process.platform === 'win32';
  const elevated = windows && (await windowsProcessElevated()) === true;
  // Windows: Strata's own folder, in the scope this Strata's applications read (override-service.ts defaultOverrideSystem).
  const global = windows
    ? readConfigurationStatus((await import('../override/windows-override')).windowsConfigurationLocations(await defaultOverrideSystem(), o.env), o.env)
    : overrideStatus({ env: o.env }, {});
  const appDir = appOverrideLocation(o.env, home).dir;
  const files: ActiveFile[] = [];

  if (global.ownership !== 'absent')
    files.push({
      path: global.path,
      role: 'global-override',
      owner: global.ownership === 'foreign' ? 'foreign' : global.ownership,
      loaders: 'every loader',
      readByLoader: loaderVersion ? true : null,
      summary:
        global.ownership === 'foreign'
          ? 'An override layer another tool wrote (vkconfig writes this file): it forces layers for every application without an override of its own.'
          : 'Strata’s global override: every application that is not bound to a profile gets it.',
    });
  const settings = global.settings;
  if (settings && settings.ownership !== 'absent')
    files.push({
      path: settings.path,
      role: 'layer-settings',
      owner: settings.ownership === 'foreign' ? 'foreign' : settings.ownership,
      loaders: 'read by the layers, not the loader',
      readByLoader: null,
      summary:
        settings.ownership === 'foreign'
          ? 'A layer settings file Strata did not write: the layers read it for every application.'
          : 'Strata’s layer settings: the layers read it for every application of this user.',
    });

  // Every other override layer the loader finds: Strata's per-application files, or another tool's.
  for (const m of inventory.manifests.implicit_layer) {
    if (m.path === global.path || !m.text || !layerNames(m.text).includes(OVERRIDE_LAYER_NAME)) continue;
    const name = basename(m.path);
    const ours = m.path.startsWith(`${appDir}/`) && name.startsWith(APP_OVERRIDE_PREFIX);
    const owner = ours ? ownerOf(o, m.path) : 'foreign';
    const keys = appKeysOf(m.text);
    files.push({
      path: m.path,
      role: 'app-override',
      owner,
      loaders: 'every loader (it picks the file whose app_keys name the executable)',
      readByLoader: loaderVersion ? true : null,
      summary:
        owner === 'foreign'
          ? `An override layer another tool wrote, ${keys.length ? `for ${keys.join(', ')}` : 'for every application'}.`
          : `Strata’s per-application override, for ${keys.length ? keys.join(', ') : 'no application'}${owner === 'modified' ? ' (changed since Strata wrote it)' : ''}.`,
    });
  }

  // Linux/macOS: every file where some loader version looks; Windows: every file registered under
  // HKCU/HKLM …\LoaderSettings (the loader has no folder there).
  const existing = windows
    ? await windowsSettingsCandidates(loaderVersion)
    : loaderSettingsCandidates(o.env, home)
        .filter((c) => existsSync(c.path))
        .map((c) => ({ path: c.path, loaders: loadersReadingFolder(c.folder) }));
  // The file this loader reads, found as explain and lint find it (one locator: settings-file-found.ts;
  // proven per version by tests/integration/settings-file-search-vs-loader.test.ts, on Windows by
  // tests/integration/windows-override-vs-loader.test.ts).
  const read = loaderVersion ? await settingsFileFor({ env: { ...o.env, HOME: home }, loaderVersion }) : null;
  for (const c of existing) {
    // Read through the guarded reader (owned-file.ts): a FIFO or device named like a settings file must not
    // block or flood the status; unreadable, it is listed all the same, as another tool's.
    const owner = windows ? windowsSettingsOwner(o.env, c.path, loaderVersion) : ownerOf(o, c.path);
    files.push({
      path: c.path,
      role: 'loader-settings',
      owner,
      loaders: c.loaders,
      readByLoader: loaderVersion ? c.path === read : null,
      summary: `${owner === 'foreign' ? 'A loader settings file another tool wrote (vkconfig 3 writes one)' : 'Strata’s loader settings file, one entry per bound profile'}${loaderVersion ? (c.path === read ? `; loader ${loaderVersion} reads it, and it decides the layers before any override layer` : `; loader ${loaderVersion} does not read it`) : ''}.`,
    });
  }

  let applications: ApplicationsFile['applications'] = [];
  try {
    applications = readApplications(o).applications;
  } catch (e) {
    if (!(e instanceof StrataRequestError)) throw e;
    notes.push(`${e.error.message}${e.error.fix ? ` (fix: ${e.error.fix})` : ''}`);
  }
  const bound = applications.filter((a): a is typeof a & { profile: string } => Boolean(a.profile));
  const settingsMechanism = loaderVersion !== null && loaderAtLeast(loaderVersion, LOADER_FEATURES.settingsFileBindings);
  const names = appOverrideFileNames([...bindingsByProfile({ schemaVersion: 1, applications })].map(([p]) => p));
  const bindings: ActiveBinding[] = [];
  for (const [i, a] of bound.entries()) {
    const file = settingsMechanism
      ? windows
        ? windowsLoaderSettingsLocation(elevated, o.env, loaderVersion!).file.file
        : loaderSettingsPath(home, loaderVersion!, o.env)
      : `${appDir}/${names.get(a.profile) ?? ''}`;
    const present = files.find((f) => f.path === file);
    if (i >= MAX_BINDINGS_CHECKED) {
      bindings.push({
        app: a.path,
        label: a.label ?? null,
        profile: a.profile,
        file: present ? file : null,
        gets: [],
        ok: false,
        message: `not checked (only the first ${MAX_BINDINGS_CHECKED} bindings are)`,
      });
      continue;
    }
    if (settingsMechanism) {
      bindings.push({
        app: a.path,
        label: a.label ?? null,
        profile: a.profile,
        file: present ? file : null,
        gets: [],
        ok: present?.readByLoader === true,
        message: present
          ? present.readByLoader
            ? `loader ${loaderVersion} reads ${file}`
            : `loader ${loaderVersion} reads another settings file first`
          : `${file} is missing: run \`strata profile bind\` again`,
      });
      continue;
    }
    const chain = await explainChain(
      { env: o.env },
      { app: { path: a.path, requestedLayers: [] }, ...(loaderVersion ? { loader: { version: loaderVersion } } : {}) },
    );
    const gets = chain.metaLayers.filter((m) => m.name === OVERRIDE_LAYER_NAME).map((m) => m.manifest);
    const ok = present !== undefined && gets.length === 1 && gets[0] === file;
    bindings.push({
      app: a.path,
      label: a.label ?? null,
      profile: a.profile,
      file: present ? file : null,
      gets,
      ok,
      message: ok
        ? `gets ${basename(file)} only`
        : !present
          ? `no file gives it "${a.profile}" (${file} is missing): bind it again`
          : gets.length
            ? `gets ${gets.map((g) => basename(g)).join(' and ')} instead of ${basename(file)} alone`
            : 'gets no override layer (is DISABLE_STRATA_OVERRIDE set, or the file unreadable?)',
    });
  }
  return {
    loaderVersion,
    global: {
      path: global.path,
      ownership: global.ownership,
      writtenAt: global.writtenAt,
      on: global.layers?.componentLayers ?? [],
      off: global.layers?.blacklistedLayers ?? [],
    },
    bindings,
    files,
    notes,
  };
}

export async function activityDisable(o: ActivityServiceOptions, req: ActivityDisableRequest): Promise<ActivityDisableResult> {
  const removed: string[] = [];
  const notes: string[] = [];
  let unbound: string[] = [];
  if (req.apps.length) {
    const bound = new Set(
      readApplications(o)
        .applications.filter((a) => a.profile)
        .map((a) => a.path),
    );
    unbound = req.apps.filter((a) => bound.has(a));
    const unknown = req.apps.filter((a) => !bound.has(a));
    if (unknown.length) notes.push(`not bound to a profile, nothing to undo: ${unknown.join(', ')}`);
    if (unbound.length) {
      const sync = await clearBindings(o, unbound, { force: req.force });
      removed.push(...sync.removed);
      notes.push(...sync.notes.filter((n) => n.includes('not written by Strata')));
    }
  }
  if (req.global) {
    // Windows: the file and its registry values; no scope given, so the one activityStatus shows (override-service.ts defaultOverrideSystem).
    const r = await overrideRemoveOnAnyPlatform(
      { env: o.env },
      await withOverrideScope<{ force?: boolean; system?: boolean }>(req.force ? { force: true } : {}),
    );
    if (r.action !== 'nothing') removed.push(r.path);
    else if (r.reason) notes.push(`global override: ${r.reason}`);
    if (r.settings && r.settings.action === 'removed') removed.push(r.settings.path);
  }
  return { removed, unbound, notes, status: await activityStatus(o) };
}

import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import type * as z from 'zod';
import { serviceError, strataError, StrataRequestError, type StrataError } from '../../shared/errors/strata-error';
import { computeLayerChain, overridePathsFor, RULES_VERSION } from '../../shared/loader/chain';
import type { ManifestInventory } from '../../shared/discovery/manifest-inventory';
import { OVERRIDE_FILE_NAME } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import { bindingsByProfile, type ApplicationsFile } from '../../shared/profiles/application-list';
import { inventoryDrivers, inventoryLayers } from '../../shared/profiles/inventory-layers';
import { launchEnvironment } from '../../shared/profiles/launch-environment';
import { chooseDrivers } from '../../shared/profiles/loader-filters';
import { builtInPresets, findPreset, PRESET_NAMES, type Preset } from '../../shared/profiles/presets';
import type { BindingsSyncResult, channelsOfProfiles, ProfilesList } from '../../shared/profiles/profile-channels';
import { looksLikeOverrideManifest, parseProfileJson, profileFromJson } from '../../shared/profiles/profile-document';
import { profileFileStem, sameProfileName } from '../../shared/profiles/profile-file-name';
import { profileFromOverrideJson, profileToOverrideConfig } from '../../shared/profiles/profile-override';
import { PROFILE_SCHEMA_VERSION, type Profile } from '../../shared/profiles/profile-schema';
import { serializeProfile } from '../../shared/profiles/profile-text';
import { discoveryManifests } from '../discovery/discovery-service';
import { readChainSettings } from '../chain/chain-service';
import { settingsFileFor } from '../chain/settings-file-found';
import { inventoryWithOverride } from '../../shared/configurator/draft-chain';
import { overrideApply } from '../override/override-service';
import { overrideLocation } from '../override/override-writer';
import { syncBindings } from './app-override-writer';
import { ApplicationStore, applicationsFile } from './application-store';
import { ProfileStore, profilesDir, type StoredProfile } from './profile-store';

/**
 * The profiles.* channels over the profile store, the applications list, the override writer and
 * the per-application writer. Services see only the environment they are given (tests pass a
 * temporary HOME); the loader version comes from the real loader unless a request names one.
 */
export interface ProfileServiceOptions {
  env: NodeJS.ProcessEnv;
  /** The installed loader's version (the probe); null when there is none. */
  loaderVersion: () => Promise<string | null>;
}

type Req<C extends keyof typeof channelsOfProfiles> = z.input<(typeof channelsOfProfiles)[C]['request']>;

const homeOf = (o: ProfileServiceOptions) => o.env['HOME'] || homedir();
const reserved = Object.values(PRESET_NAMES);
const fail = (e: StrataError): never => {
  throw serviceError(e);
};

export function profileStore(o: ProfileServiceOptions): ProfileStore {
  return new ProfileStore({ dir: profilesDir(o.env, homeOf(o)), reservedNames: reserved });
}
function applicationStore(o: ProfileServiceOptions): ApplicationStore {
  return new ApplicationStore(applicationsFile(o.env, homeOf(o)));
}
const inventoryOf = (o: ProfileServiceOptions) => discoveryManifests({ env: o.env });

async function loaderVersionOf(o: ProfileServiceOptions, requested?: string): Promise<{ version: string; notes: string[] }> {
  if (requested) return { version: requested, notes: [`loader ${requested} as requested (the installed loader was not asked)`] };
  const v = await o.loaderVersion().catch(() => null);
  return v ? { version: v, notes: [] } : { version: RULES_VERSION, notes: [`no Vulkan loader answered; the rules of loader ${RULES_VERSION} were used`] };
}

/** Layers a profile names that discovery did not find: kept, with a warning. */
export function unknownLayerWarnings(profile: Profile, inventory: Pick<ManifestInventory, 'manifests'>): string[] {
  const known = inventoryLayers(inventory);
  const unknown = profile.layers.filter((l) => !known.has(l.name)).map((l) => l.name);
  return unknown.length ? [`not installed here (kept in the profile; the loader skips ${unknown.length === 1 ? 'it' : 'them'}): ${unknown.join(', ')}`] : [];
}

/** A stored profile, or a preset by name or id. */
function resolveProfile(
  store: ProfileStore,
  presets: readonly Preset[],
  name: string,
): { profile: Profile; preset: Preset | null; stored: StoredProfile | null } {
  const stored = store.find(name);
  if (stored) return { profile: stored.profile, preset: null, stored };
  const preset = findPreset(presets, name);
  if (preset) return { profile: preset.profile, preset, stored: null };
  return fail({
    ...store.notFound(name),
    fix: `use a profile or a preset name (\`strata profile list\`): ${presets.map((p) => `"${p.profile.name}"`).join(', ')}`,
  });
}

export async function profilesList(o: ProfileServiceOptions): Promise<ProfilesList> {
  const inventory = await inventoryOf(o);
  const listing = profileStore(o).list();
  const apps = applicationStore(o);
  let applications: ApplicationsFile['applications'] = [];
  let applicationsProblem: StrataError | null = null;
  try {
    applications = apps.read().applications;
  } catch (e) {
    if (!(e instanceof StrataRequestError)) throw e;
    applicationsProblem = e.error;
  }
  return {
    dir: listing.dir,
    profiles: listing.profiles.map((p) => ({ ...p, warnings: unknownLayerWarnings(p.profile, inventory) })),
    presets: builtInPresets(inventory),
    problems: listing.problems,
    applicationsFile: apps.file,
    applications,
    applicationsProblem,
  };
}

export async function profilesCreate(o: ProfileServiceOptions, req: Req<'profiles.create'>): Promise<StoredProfile> {
  const store = profileStore(o);
  let base: Profile = { schemaVersion: PROFILE_SCHEMA_VERSION, name: req.name, layers: [] };
  if (req.profile) base = req.profile as Profile;
  else if (req.from) base = resolveProfile(store, builtInPresets(await inventoryOf(o)), req.from).profile;
  const { applications: _bound, ...rest } = base;
  return store.create({ ...rest, name: req.name, ...(req.description !== undefined ? { description: req.description } : {}) });
}

export async function profilesCopy(o: ProfileServiceOptions, req: Req<'profiles.copy'>): Promise<StoredProfile> {
  const store = profileStore(o);
  return store.copy(resolveProfile(store, builtInPresets(await inventoryOf(o)), req.from).profile, req.to);
}

export async function profilesRename(o: ProfileServiceOptions, req: Req<'profiles.rename'>): Promise<StoredProfile> {
  const store = profileStore(o);
  const old = store.get(req.from);
  const renamed = store.rename(req.from, req.to);
  const apps = applicationStore(o);
  if (apps.read().applications.some((a) => a.profile && sameProfileName(a.profile, old.name))) {
    apps.update((f) => ({
      ...f,
      applications: f.applications.map((a) => (a.profile && sameProfileName(a.profile, old.name) ? { ...a, profile: renamed.name } : a)),
    }));
    await sync(o, {});
  }
  return renamed;
}

export async function profilesDelete(o: ProfileServiceOptions, req: Req<'profiles.delete'>) {
  const store = profileStore(o);
  const existing = store.get(req.name);
  const apps = applicationStore(o);
  const bound = apps
    .read()
    .applications.filter((a) => a.profile && sameProfileName(a.profile, existing.name))
    .map((a) => a.path);
  if (bound.length && !req.force)
    fail(
      strataError('profile/in-use', `"${existing.name}" is bound to ${bound.join(', ')}`, {
        where: existing.file,
        fix: 'unbind them first (`strata profile unbind APP`), or delete with --force to unbind them',
      }),
    );
  if (bound.length)
    apps.update((f) => ({
      ...f,
      applications: f.applications
        .map((a) => (bound.includes(a.path) ? { ...a, profile: undefined } : a))
        .map(({ profile, ...a }) => (profile ? { ...a, profile } : a)),
    }));
  const deleted = store.delete(existing.name);
  if (bound.length) await sync(o, {});
  return { deleted, unbound: bound };
}

export async function profilesExport(o: ProfileServiceOptions, req: Req<'profiles.export'>) {
  const { profile } = resolveProfile(profileStore(o), builtInPresets(await inventoryOf(o)), req.name);
  return { fileName: `${profileFileStem(profile.name)}.strata-profile.json`, text: serializeProfile(profile) };
}

export async function profilesImport(o: ProfileServiceOptions, req: Req<'profiles.import'>) {
  const json = parseProfileJson(req.text, req.source);
  if (!json.ok) return fail(json.error);
  const inventory = await inventoryOf(o);
  const warnings: string[] = [];
  let profile: Profile;
  let migratedFrom: number | null = null;
  const kind = looksLikeOverrideManifest(json.value) ? ('override-layer' as const) : ('profile' as const);
  if (kind === 'override-layer') {
    const stem = basename(req.source).replace(/\.json$/i, '');
    const r = profileFromOverrideJson(json.value, req.name ?? `Imported ${stem}`.slice(0, 80), req.source);
    if (!r.ok) return fail(r.error);
    profile = r.profile;
    warnings.push(...r.warnings);
  } else {
    const r = profileFromJson(json.value, req.source);
    if (!r.ok) return fail(r.error);
    profile = req.name ? { ...r.profile, name: req.name } : r.profile;
    migratedFrom = r.migratedFrom;
    if (migratedFrom !== null) warnings.push(`converted from schema version ${migratedFrom} to ${PROFILE_SCHEMA_VERSION}`);
  }
  warnings.push(...unknownLayerWarnings(profile, inventory));
  // Bindings are per machine: the applications named in the file are kept as a list, not bound.
  const stored = profileStore(o).create(profile, { replace: req.replace === true });
  return { stored, kind, migratedFrom, warnings };
}

export async function profilesApply(o: ProfileServiceOptions, req: Req<'profiles.apply'>) {
  const { profile } = resolveProfile(profileStore(o), builtInPresets(await inventoryOf(o)), req.name);
  const converted = profileToOverrideConfig(profile);
  if (!converted.ok) return fail(converted.error);
  const result = await overrideApply(
    { env: o.env },
    { config: converted.config, ...(req.force ? { force: true } : {}), ...(req.system ? { system: true } : {}) },
  );
  const notes = [...converted.notes];
  const bound = applicationStore(o)
    .read()
    .applications.filter((a) => a.profile && !sameProfileName(a.profile, profile.name));
  if (bound.length) notes.push(`applications bound to other profiles keep theirs: ${bound.map((a) => a.path).join(', ')}`);
  return { result, notes };
}

export async function profilesOverrideExport(o: ProfileServiceOptions, req: Req<'profiles.overrideExport'>) {
  const { profile } = resolveProfile(profileStore(o), builtInPresets(await inventoryOf(o)), req.name);
  const converted = profileToOverrideConfig(profile);
  if (!converted.ok) return fail(converted.error);
  return { fileName: OVERRIDE_FILE_NAME, text: buildOverrideManifest(converted.config), notes: converted.notes };
}

export async function profilesLaunchEnvironment(o: ProfileServiceOptions, req: Req<'profiles.launchEnvironment'>) {
  const inventory = await inventoryOf(o);
  const { profile } = resolveProfile(profileStore(o), builtInPresets(inventory), req.name);
  const loader = await loaderVersionOf(o, req.loaderVersion);
  const r = launchEnvironment(profile, {
    inventory,
    loaderVersion: loader.version,
    env: o.env,
    ...(process.platform === 'win32' ? { listSeparator: ';' as const } : {}),
  });
  return { loaderVersion: loader.version, env: r.env, notes: [...loader.notes, ...r.notes] };
}

/**
 * The chain with the profile's override in place of Strata's user override file (the file
 * `profile apply` writes), put in the loader's list exactly as the Layers editor puts its draft
 * (shared/configurator/draft-chain.ts inventoryWithOverride), with the loader settings file the
 * loader reads, and explicit layers searched again when the override names override_paths.
 */
export async function profilesExplain(o: ProfileServiceOptions, req: z.input<(typeof channelsOfProfiles)['profiles.explain']['request']>) {
  const inventory = await inventoryOf(o);
  const { profile } = resolveProfile(profileStore(o), builtInPresets(inventory), req.name);
  const converted = profileToOverrideConfig(profile);
  if (!converted.ok) return fail(converted.error);
  const loc = overrideLocation('user', o.env, homeOf(o));
  const placed = inventoryWithOverride(inventory, { overrideFile: loc.file, overrideDir: loc.dir }, converted.config);
  const implicit = placed.inventory.manifests.implicit_layer;
  const appPath = req.appPath ? resolve(req.appPath) : null;
  let explicit = placed.inventory.manifests.explicit_layer;
  const loader = await loaderVersionOf(o);
  const paths = overridePathsFor(implicit, o.env, appPath, loader.version);
  if (paths)
    explicit = (await discoveryManifests({ env: { ...o.env, VK_LAYER_PATH: paths.join(':'), VK_ADD_LAYER_PATH: undefined } })).manifests.explicit_layer;
  const chain = computeLayerChain({
    implicit,
    explicit,
    env: o.env,
    app: { path: appPath, requestedLayers: req.requestedLayers ?? [], apiVersion: req.apiVersion },
    loaderVersion: loader.version,
    settings: readChainSettings(
      o.env,
      appPath,
      loader.version,
      [...implicit, ...explicit],
      await settingsFileFor({ env: o.env, loaderVersion: loader.version }),
    ),
  });
  const notes = [...loader.notes, ...converted.notes];
  if (!placed.visible)
    notes.push(
      `Strata's override folder ${loc.dir} is not among the loader's implicit layer folders here, so \`strata profile apply\` would write a file this loader does not read`,
    );
  return { chain, drivers: chooseDrivers(profile.drivers, inventoryDrivers(inventory)), notes };
}

/** Rewrites the per-application override layers (or loader settings) for every binding. */
async function sync(o: ProfileServiceOptions, req: { loaderVersion?: string | undefined; force?: boolean | undefined }): Promise<BindingsSyncResult> {
  const store = profileStore(o);
  const loader = await loaderVersionOf(o, req.loaderVersion);
  const notes = [...loader.notes];
  const groups = [...bindingsByProfile(applicationStore(o).read())].flatMap(([name, apps]) => {
    const stored = store.find(name);
    if (!stored) {
      notes.push(`"${name}" is bound to ${apps.join(', ')} but no such profile exists; those applications get the global override`);
      return [];
    }
    return [{ profile: stored.profile, apps }];
  });
  const r = await syncBindings({ env: o.env, home: homeOf(o), loaderVersion: loader.version, groups, ...(req.force ? { force: true } : {}) });
  return { ...r, notes: [...notes, ...r.notes] };
}

/** The executable as the loader compares it with app_keys: absolute, symbolic links resolved (/proc/self/exe). */
function executablePath(path: string): { path: string; notes: string[] } {
  const abs = isAbsolute(path) ? path : resolve(path);
  if (!existsSync(abs))
    return fail(strataError('profile/app-not-found', `There is no file ${abs}`, { where: abs, fix: "give the full path of the application's executable" }));
  if (!statSync(abs).isFile())
    return fail(strataError('profile/app-not-a-file', `${abs} is not a file`, { where: abs, fix: "give the application's executable, not its folder" }));
  const real = realpathSync(abs);
  return { path: real, notes: real !== abs ? [`bound as ${real}: the loader compares app_keys with the executable's real path, links resolved`] : [] };
}

/** Keeps each profile's `applications` equal to the bindings (the profile file then travels with them). */
function syncProfileApplications(o: ProfileServiceOptions, file: ApplicationsFile) {
  const store = profileStore(o);
  const byProfile = bindingsByProfile(file);
  for (const p of store.list().profiles) {
    const apps = [...byProfile.entries()].find(([n]) => sameProfileName(n, p.name))?.[1] ?? [];
    const current = p.profile.applications ?? [];
    if (current.join('\0') === apps.join('\0')) continue;
    const { applications: _old, ...rest } = p.profile;
    store.save(apps.length ? { ...rest, applications: apps } : rest);
  }
}

export async function profilesBind(o: ProfileServiceOptions, req: Req<'profiles.bind'>) {
  const store = profileStore(o);
  const profile = store.get(req.profile);
  const exe = executablePath(req.appPath);
  const apps = applicationStore(o);
  const file = apps.update((f) => {
    const i = f.applications.findIndex((a) => a.path === exe.path);
    const before = i >= 0 ? f.applications[i]! : { path: exe.path };
    const next = {
      ...before,
      profile: profile.name,
      ...(req.args ? { args: req.args } : {}),
      ...(req.cwd ? { cwd: req.cwd } : {}),
      ...(req.env ? { env: req.env } : {}),
      ...(req.label ? { label: req.label } : {}),
    };
    const applications = [...f.applications];
    if (i >= 0) applications[i] = next;
    else applications.push(next);
    return { ...f, applications };
  });
  syncProfileApplications(o, file);
  const syncResult = await sync(o, req);
  return { application: file.applications.find((a) => a.path === exe.path)!, sync: syncResult, notes: exe.notes };
}

/**
 * profiles.save: the new version of a stored profile; when applications are bound to it, their
 * per-application files are rewritten at once, so what they get outside Strata is what was saved.
 */
export async function profilesSave(o: ProfileServiceOptions, req: Req<'profiles.save'>): Promise<StoredProfile> {
  const saved = profileStore(o).save(req.profile as Profile);
  let bound = false;
  try {
    bound = applicationStore(o)
      .read()
      .applications.some((a) => a.profile && sameProfileName(a.profile, saved.name));
  } catch (e) {
    // An applications list that does not read binds nothing; the save itself stands.
    if (!(e instanceof StrataRequestError)) throw e;
  }
  if (bound) await sync(o, {});
  return saved;
}

/**
 * Drop the profile binding of `appPaths` and keep them in the applications list (how to start them
 * stays); the per-application files are rewritten without them (activity.disable).
 */
export async function clearBindings(o: ProfileServiceOptions, appPaths: readonly string[], req: { force?: boolean | undefined }): Promise<BindingsSyncResult> {
  const wanted = new Set(appPaths);
  const file = applicationStore(o).update((f) => ({
    ...f,
    applications: f.applications.map(({ profile, ...a }) => (wanted.has(a.path) || !profile ? a : { ...a, profile })),
  }));
  syncProfileApplications(o, file);
  return sync(o, req);
}

/** The applications list, or the error that it does not read. */
export function readApplications(o: ProfileServiceOptions): ApplicationsFile {
  return applicationStore(o).read();
}

export async function profilesUnbind(o: ProfileServiceOptions, req: Req<'profiles.unbind'>) {
  const apps = applicationStore(o);
  const abs = isAbsolute(req.appPath) ? req.appPath : resolve(req.appPath);
  const real = existsSync(abs) ? realpathSync(abs) : abs;
  const path = apps.find(real) ? real : abs;
  const file = apps.remove(path);
  syncProfileApplications(o, file);
  return { sync: await sync(o, req) };
}

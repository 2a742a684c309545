import { basename, dirname, join } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import * as z from 'zod';
import { resolveXdgDirectories } from '../../shared/loader/xdg-directories';
import { OVERRIDE_LAYER_NAME } from '../../shared/override/override-config';
import { APP_OVERRIDE_PREFIX, planAppOverrides, type AppOverrideFile, type AppOverrideGroup } from '../../shared/profiles/app-overrides';
import { LOADER_FEATURES, loaderAtLeast } from '../../shared/profiles/loader-features';
import { buildLoaderSettings, loaderSettingsPath } from '../../shared/profiles/loader-settings';
import type { BindingsSyncResult } from '../../shared/profiles/profile-channels';
import { explainChain } from '../chain/chain-service';
import { discoveryManifests } from '../discovery/discovery-service';
import type { OverrideOwnership } from '../../shared/override/override-status';
import { asStrataFailure, readIfExists, realFileOps, sweepDeadTemps, unlinkDurable, type FileOps } from '../platform/atomic-file';
import { withLock } from '../platform/file-lock';
import { applyOwnedLocked, ownedStatus, prepareOwned, removeOwnedLocked, underOwnedLock } from '../platform/owned-files/owned-file';
import type { OwnedLocation } from '../platform/owned-files/owned-location';
import { emptyRecord, readOwnedRecord, sha256, writeOwnedRecord, type OwnedRecord } from '../platform/owned-files/owned-record';
import { strataUserDirs } from '../platform/user-dirs';

/**
 * Makes the bound profiles take effect for applications started anywhere, not only from Strata.
 *
 * Loader 1.3.239 (no settings file): one override layer file per bound profile in
 * $XDG_DATA_HOME/vulkan/implicit_layer.d, scoped by app_keys built for the order in which the loader
 * reads the folder (shared/profiles/app-overrides.ts explains why the order matters). That order is
 * readdir's (a hash of the name on ext4), so Strata writes, asks discovery for the order, and
 * rewrites the app_keys if they were built for another; then it checks every bound application
 * against the chain model (itself checked against the loader) and reports each one.
 *
 * Loaders 1.3.251+: one vk_loader_settings.json with a settings object per profile.
 *
 * Every file is written through the one writer of files Strata owns
 * (main/platform/owned-files/owned-file.ts): a record per file in $XDG_STATE_HOME/strata/app-overrides/
 * (what was written, its sha256, where the pre-Strata file went), and a file Strata did not write or
 * that was changed since is never replaced unless forced, nor removed.
 *
 * Strata 0.1.0 kept one record for all of them ($XDG_STATE_HOME/strata/app-overrides.json: file name,
 * or the loader settings file's path → sha256). It is still read (status, before any write), and the
 * first write under the lock migrates it into per-file records and deletes it. A record of either
 * format that cannot be read is refused (override/record-unreadable), never taken as "no file is
 * Strata's".
 */
export interface BindingsSyncOptions {
  env: NodeJS.ProcessEnv;
  home: string;
  loaderVersion: string;
  groups: AppOverrideGroup[];
  force?: boolean;
  ops?: FileOps;
}

export interface AppOverrideLocation {
  /** The implicit layer folder the per-application override layers go in. */
  dir: string;
  stateDir: string;
  /** The per-file records and backups. */
  ownedDir: string;
  /** The record of Strata 0.1.0 (see above). */
  legacyRecordFile: string;
  lockFile: string;
}

export function appOverrideLocation(env: NodeJS.ProcessEnv, home: string): AppOverrideLocation {
  const xdg = resolveXdgDirectories(env, home);
  const stateDir = strataUserDirs(env, home).state;
  return {
    dir: join(xdg.dataHome.value, 'vulkan', 'implicit_layer.d'),
    stateDir,
    ownedDir: join(stateDir, 'app-overrides'),
    legacyRecordFile: join(stateDir, 'app-overrides.json'),
    lockFile: join(stateDir, 'app-overrides.lock'),
  };
}

/** The legacy record's key for `path`: a file name in the override folder, else the path (a loader settings file). */
const legacyKey = (loc: AppOverrideLocation, path: string) => (dirname(path) === loc.dir ? basename(path) : path);

const LegacyRecordSchema = z.object({ files: z.record(z.string(), z.string()) });

/** The legacy record's entries (name or path → sha256); {} when there is none; refused when it does not read. */
function readLegacyRecord(loc: AppOverrideLocation, ops: FileOps): Record<string, string> {
  const bytes = readIfExists(loc.legacyRecordFile, ops);
  if (!bytes) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const r = LegacyRecordSchema.safeParse(parsed);
  if (!r.success)
    throw serviceError(
      'override/record-unreadable',
      `Strata's record of the per-application overrides it wrote is damaged, so Strata cannot tell which files in ${loc.dir} are its own`,
      {
        where: loc.legacyRecordFile,
        fix: `look at the ${APP_OVERRIDE_PREFIX}*.json files in ${loc.dir} (and vk_loader_settings.json); delete those that should go and ${loc.legacyRecordFile}, then bind again`,
      },
    );
  return r.data.files;
}

/**
 * Where Strata keeps its record and backups of one per-application file (an override layer in
 * loc.dir, or the loader settings file): named after the file and a hash of its path, so each path
 * has its own, and a record naming any other path is refused.
 */
export function ownedFileLocation(loc: AppOverrideLocation, path: string): OwnedLocation {
  const key = `${basename(path).slice(0, 96)}.${sha256(path).slice(0, 12)}`;
  const settings = dirname(path) !== loc.dir;
  return {
    dir: dirname(path),
    file: path,
    stateDir: loc.ownedDir,
    recordFile: join(loc.ownedDir, `${key}.record.json`),
    originalFile: join(loc.ownedDir, `${key}.original`),
    previousFile: join(loc.ownedDir, `${key}.previous`),
    lockFile: loc.lockFile,
    label: settings ? 'loader settings file' : 'per-application override',
    refusalCode: 'profile/foreign-override',
    surrenderCommand: '`strata profile unbind`',
    legacyRecord: (ops) => {
      const sha = readLegacyRecord(loc, ops)[legacyKey(loc, path)];
      return sha === undefined ? null : { ...emptyRecord({ file: path }), sha256: sha };
    },
  };
}

/**
 * The legacy record into per-file records (an entry whose file has a record of its own already is
 * dropped), then the legacy record goes. Only names Strata itself writes are taken: an override layer
 * file with Strata's prefix, or a loader settings file. The caller holds loc.lockFile.
 */
function migrateLegacyRecord(loc: AppOverrideLocation, ops: FileOps): void {
  if (!ops.existsSync(loc.legacyRecordFile)) return;
  const entries = readLegacyRecord(loc, ops);
  ops.mkdirSync(loc.ownedDir, { recursive: true });
  for (const [key, sha] of Object.entries(entries)) {
    const ours = key.includes('/') ? basename(key) === 'vk_loader_settings.json' : key.startsWith(APP_OVERRIDE_PREFIX) && key.endsWith('.json');
    if (!ours) continue;
    const file = ownedFileLocation(loc, key.includes('/') ? key : join(loc.dir, key));
    if (!ops.existsSync(file.recordFile)) writeOwnedRecord(file, { ...emptyRecord(file), sha256: sha } satisfies OwnedRecord, ops);
  }
  unlinkDurable(loc.legacyRecordFile, ops);
}

/** Whose a per-application file or loader settings file is, by Strata's record of it (activity.status); a damaged record is refused. */
export function appFileOwnership(env: NodeJS.ProcessEnv, home: string, path: string, ops: FileOps = realFileOps): OverrideOwnership {
  const loc = appOverrideLocation(env, home);
  const file = ownedFileLocation(loc, path);
  // Read before the file itself, so a damaged record is refused even when the file cannot be read.
  readOwnedRecord(file, ops);
  return ownedStatus(file, ops).ownership;
}

/** Override files of ours, in the order the loader reads them (discovery follows the loader's). */
async function loaderOrder(env: NodeJS.ProcessEnv, dir: string): Promise<string[]> {
  const inv = await discoveryManifests({ env });
  return inv.manifests.implicit_layer
    .map((m) => m.path)
    .filter((p) => p.startsWith(`${dir}/`) && p.slice(dir.length + 1).startsWith(APP_OVERRIDE_PREFIX))
    .map((p) => p.slice(dir.length + 1));
}

export async function syncBindings(options: BindingsSyncOptions): Promise<BindingsSyncResult> {
  const ops = options.ops ?? realFileOps;
  // Windows: Strata's own folder and a LoaderSettings registry value (main/override/windows-loader-settings.ts).
  if (process.platform === 'win32')
    return (await import('../override/windows-loader-settings')).syncWindowsLoaderSettings({
      env: options.env,
      loaderVersion: options.loaderVersion,
      groups: options.groups,
      ops,
      ...(options.force ? { force: true } : {}),
    });
  const loc = appOverrideLocation(options.env, options.home);
  // The settings file from 1.3.302 on: older loaders that read it cannot turn the global override layer
  // off for a bound application (loader-rules.ts settings-layer-off-meta), so they get override layers too.
  if (loaderAtLeast(options.loaderVersion, LOADER_FEATURES.settingsFileBindings)) return syncLoaderSettings(options, ops, loc);

  const notes: string[] = [
    loaderAtLeast(options.loaderVersion, LOADER_FEATURES.settingsFile)
      ? `loader ${options.loaderVersion} reads vk_loader_settings.json but cannot turn the global override layer off in it (${LOADER_FEATURES.settingsFileBindings}+ can): each bound profile is an override layer limited to its applications by app_keys; an application bound to none gets the global override (\`strata profile apply\`), if any`
      : `loader ${options.loaderVersion} reads no vk_loader_settings.json (${LOADER_FEATURES.settingsFile}+): each bound profile is an override layer limited to its applications by app_keys; an application bound to none gets the global override (\`strata profile apply\`), if any`,
  ];
  const written = new Set<string>();
  const removed: string[] = [];
  let plan: AppOverrideFile[] = [];

  await asStrataFailure('write the per-application override layers', loc.dir, async () => {
    ops.mkdirSync(loc.dir, { recursive: true });
    ops.mkdirSync(loc.ownedDir, { recursive: true });
    // The lock is synchronous; the discovery between passes is awaited outside it, one pass at a time.
    const pass = (order: readonly string[]) =>
      withLock(
        loc.lockFile,
        () => {
          // Temp files of writes that were killed (their pid is gone) go; a live writer's stay.
          for (const dir of [loc.dir, loc.stateDir, loc.ownedDir]) sweepDeadTemps(dir, ops);
          migrateLegacyRecord(loc, ops);
          plan = planAppOverrides(options.groups, order);
          const wanted = new Set(plan.map((f) => f.fileName));
          for (const entry of ops.readdirSync(loc.dir)) {
            if (!entry.startsWith(APP_OVERRIDE_PREFIX) || !entry.endsWith('.json') || wanted.has(entry)) continue;
            const path = join(loc.dir, entry);
            const file = ownedFileLocation(loc, path);
            const status = ownedStatus(file, ops);
            if (status.ownership === 'strata') {
              removeOwnedLocked(file, { ops });
              removed.push(path);
            } else if (status.text !== null)
              notes.push(`${path} was not written by Strata (or was changed since); it is left alone, and the loader still reads it`);
          }
          for (const f of plan) {
            const path = join(loc.dir, f.fileName);
            // Already what it should be (whoever wrote it): left as it is.
            if (readIfExists(path, ops)?.toString('utf8') === f.text) continue;
            applyOwnedLocked(ownedFileLocation(loc, path), f.text, { ops, ...(options.force ? { force: true } : {}) });
            written.add(path);
          }
        },
        { ops },
      );
    let order = [...new Set(plan.map((f) => f.fileName))];
    pass(order);
    for (let i = 0; i < 3; i++) {
      const observed = await loaderOrder(options.env, loc.dir);
      if (observed.join('\0') === plan.map((f) => f.fileName).join('\0')) break;
      order = observed;
      pass(order);
    }
  });

  const checks: BindingsSyncResult['checks'] = [];
  for (const f of plan) {
    const mine = join(loc.dir, f.fileName);
    for (const app of f.apps) {
      const chain = await explainChain({ env: options.env }, { app: { path: app, requestedLayers: [] }, loader: { version: options.loaderVersion } });
      const used = chain.metaLayers.filter((m) => m.name === OVERRIDE_LAYER_NAME).map((m) => m.manifest);
      const ok = used.length === 1 && used[0] === mine;
      checks.push({
        app,
        profile: f.profileName,
        ok,
        message: ok
          ? `gets ${f.fileName} only`
          : used.length
            ? `would get ${used.join(' and ')} (expected only ${mine})`
            : 'would get no override layer (is DISABLE_STRATA_OVERRIDE set, or the file unreadable?)',
        chain: chain.chain.map((e) => e.name),
      });
    }
  }
  if (checks.some((c) => !c.ok))
    notes.push(
      'some applications would not get exactly their profile (see checks); the folder order may have changed while Strata wrote it: run `strata profile bind` again',
    );
  for (const f of plan) notes.push(...f.notes);
  return {
    mechanism: 'override-app-keys',
    loaderVersion: options.loaderVersion,
    files: plan.map((f) => ({
      path: join(loc.dir, f.fileName),
      profile: f.profileName,
      apps: f.apps,
      appKeys: f.appKeys,
      written: written.has(join(loc.dir, f.fileName)),
    })),
    removed,
    checks,
    notes,
  };
}

async function syncLoaderSettings(options: BindingsSyncOptions, ops: FileOps, loc: AppOverrideLocation): Promise<BindingsSyncResult> {
  const path = loaderSettingsPath(options.home, options.loaderVersion, options.env);
  // No application bound: the file would name no one, so Strata's file goes (a file of another tool stays).
  if (!options.groups.some((g) => g.apps.length)) {
    const removed: string[] = [];
    const dir = join(path, '..');
    const file = ownedFileLocation(loc, path);
    asStrataFailure('remove the loader settings file', dir, () => {
      ops.mkdirSync(loc.ownedDir, { recursive: true });
      underOwnedLock(file, 'remove the loader settings file', { ops }, () => {
        migrateLegacyRecord(loc, ops);
        // Only Strata's own file goes; another tool's (or one changed since) stays.
        if (ownedStatus(file, ops).ownership !== 'strata') return;
        removeOwnedLocked(file, { ops });
        removed.push(path);
      });
    });
    return {
      mechanism: 'loader-settings',
      loaderVersion: options.loaderVersion,
      files: [],
      removed,
      checks: [],
      notes: [removed.length ? `no application is bound: ${path} is removed` : 'no application is bound'],
    };
  }
  const inventory = await discoveryManifests({ env: options.env });
  const built = buildLoaderSettings(
    options.groups.filter((g) => g.apps.length).map((g) => ({ profile: g.profile, appKeys: g.apps })),
    { inventory, loaderVersion: options.loaderVersion },
  );
  if (!built.ok) throw serviceError(built.error);
  const dir = join(path, '..');
  const file = ownedFileLocation(loc, path);
  asStrataFailure('write the loader settings file', dir, () => {
    prepareOwned(file, ops);
    underOwnedLock(file, 'write the loader settings file', { ops }, () => {
      migrateLegacyRecord(loc, ops);
      applyOwnedLocked(file, built.text, { ops, ...(options.force ? { force: true } : {}) });
    });
  });
  return {
    mechanism: 'loader-settings',
    loaderVersion: options.loaderVersion,
    files: [{ path, profile: null, apps: options.groups.flatMap((g) => g.apps), appKeys: options.groups.flatMap((g) => g.apps), written: true }],
    removed: [],
    checks: [],
    notes: [`loader ${options.loaderVersion} reads ${path}: one settings object per bound profile, by app_keys`, ...built.notes],
  };
}

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { strataError, StrataRequestError } from '../../shared/errors/strata-error';
import { resolveXdgDirectories } from '../../shared/loader/xdg-directories';
import { OVERRIDE_LAYER_NAME } from '../../shared/override/override-config';
import { APP_OVERRIDE_PREFIX, planAppOverrides, type AppOverrideFile, type AppOverrideGroup } from '../../shared/profiles/app-overrides';
import { LOADER_FEATURES, loaderAtLeast } from '../../shared/profiles/loader-features';
import { buildLoaderSettings, loaderSettingsPath } from '../../shared/profiles/loader-settings';
import type { BindingsSyncResult } from '../../shared/profiles/profile-channels';
import { explainChain } from '../chain/chain-service';
import { discoveryManifests } from '../discovery/discovery-service';
import { asStrataFailure, readIfExists, realFileOps, sweepDeadTemps, unlinkDurable, writeFileAtomic, type FileOps } from '../override/atomic-file';
import { withLock } from '../override/override-lock';

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
 * Strata keeps a record of the files it wrote ($XDG_STATE_HOME/strata/app-overrides.json, name →
 * sha256) and never replaces or removes a file it did not write or that was changed since.
 */
export interface BindingsSyncOptions {
  env: NodeJS.ProcessEnv;
  home: string;
  loaderVersion: string;
  groups: AppOverrideGroup[];
  force?: boolean;
  ops?: FileOps;
}

interface Record_ {
  files: Record<string, string>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function appOverrideLocation(env: NodeJS.ProcessEnv, home: string) {
  const xdg = resolveXdgDirectories(env, home);
  const stateDir = join(xdg.stateHome.value, 'strata');
  return {
    dir: join(xdg.dataHome.value, 'vulkan', 'implicit_layer.d'),
    stateDir,
    recordFile: join(stateDir, 'app-overrides.json'),
    lockFile: join(stateDir, 'app-overrides.lock'),
  };
}

function readRecord(file: string, ops: FileOps): Record_ {
  const bytes = readIfExists(file, ops);
  if (!bytes) return { files: {} };
  try {
    const v = JSON.parse(bytes.toString('utf8')) as Partial<Record_>;
    return { files: typeof v.files === 'object' && v.files ? v.files : {} };
  } catch {
    return { files: {} };
  }
}

/** Strata's record of the per-application files it wrote: file name (or, for a loader settings file, its path) → sha256. */
export function readAppOverrideRecord(env: NodeJS.ProcessEnv, home: string, ops: FileOps = realFileOps): Record<string, string> {
  return readRecord(appOverrideLocation(env, home).recordFile, ops).files;
}

/** Override files of ours, in the order the loader reads them (discovery follows the loader's). */
async function loaderOrder(env: NodeJS.ProcessEnv, dir: string): Promise<string[]> {
  const inv = await discoveryManifests({ env });
  return inv.manifests.implicit_layer
    .map((m) => m.path)
    .filter((p) => p.startsWith(`${dir}/`) && p.slice(dir.length + 1).startsWith(APP_OVERRIDE_PREFIX))
    .map((p) => p.slice(dir.length + 1));
}

function refuseForeign(path: string): never {
  throw new StrataRequestError(
    strataError('profile/foreign-override', 'An override file Strata did not write (or that was changed since) is in the way', {
      where: path,
      fix: `move ${path} away, or run the command again with --force to replace it`,
    }),
  );
}

export async function syncBindings(options: BindingsSyncOptions): Promise<BindingsSyncResult> {
  const ops = options.ops ?? realFileOps;
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
    ops.mkdirSync(loc.stateDir, { recursive: true });
    // The lock is synchronous; the discovery between passes is awaited outside it, one pass at a time.
    const record = withLock(loc.lockFile, () => readRecord(loc.recordFile, ops), { ops });
    const pass = (order: readonly string[]) =>
      withLock(
        loc.lockFile,
        () => {
          // Temp files of writes that were killed (their pid is gone) go; a live writer's stay.
          for (const dir of [loc.dir, loc.stateDir]) sweepDeadTemps(dir, ops);
          plan = planAppOverrides(options.groups, order);
          const wanted = new Set(plan.map((f) => f.fileName));
          for (const entry of ops.readdirSync(loc.dir)) {
            if (!entry.startsWith(APP_OVERRIDE_PREFIX) || !entry.endsWith('.json') || wanted.has(entry)) continue;
            const path = join(loc.dir, entry);
            const bytes = readIfExists(path, ops);
            if (bytes && record.files[entry] === sha256(bytes)) {
              unlinkDurable(path, ops);
              removed.push(path);
              delete record.files[entry];
            } else if (bytes) notes.push(`${path} was not written by Strata (or was changed since); it is left alone, and the loader still reads it`);
          }
          for (const f of plan) {
            const path = join(loc.dir, f.fileName);
            const bytes = readIfExists(path, ops);
            if (bytes?.toString('utf8') === f.text) continue;
            if (bytes && record.files[f.fileName] !== sha256(bytes) && !options.force) refuseForeign(path);
            record.files[f.fileName] = sha256(f.text);
            writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, ops);
            writeFileAtomic(path, f.text, ops);
            written.add(path);
          }
          writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, ops);
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

async function syncLoaderSettings(options: BindingsSyncOptions, ops: FileOps, loc: ReturnType<typeof appOverrideLocation>): Promise<BindingsSyncResult> {
  const path = loaderSettingsPath(options.home, options.loaderVersion, options.env);
  // No application bound: the file would name no one, so Strata's file goes (a file of another tool stays).
  if (!options.groups.some((g) => g.apps.length)) {
    const removed: string[] = [];
    const dir = join(path, '..');
    asStrataFailure('remove the loader settings file', dir, () => {
      ops.mkdirSync(loc.stateDir, { recursive: true });
      withLock(
        loc.lockFile,
        () => {
          const record = readRecord(loc.recordFile, ops);
          const bytes = readIfExists(path, ops);
          if (!bytes || record.files[path] !== sha256(bytes)) return;
          unlinkDurable(path, ops);
          delete record.files[path];
          writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, ops);
          removed.push(path);
        },
        { ops },
      );
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
  if (!built.ok) throw new StrataRequestError(built.error);
  const dir = join(path, '..');
  asStrataFailure('write the loader settings file', dir, () => {
    ops.mkdirSync(dir, { recursive: true });
    ops.mkdirSync(loc.stateDir, { recursive: true });
    withLock(
      loc.lockFile,
      () => {
        const record = readRecord(loc.recordFile, ops);
        const bytes = readIfExists(path, ops);
        if (bytes && record.files[path] !== sha256(bytes) && !options.force) refuseForeign(path);
        record.files[path] = sha256(built.text);
        writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, ops);
        writeFileAtomic(path, built.text, ops);
      },
      { ops },
    );
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

import {
  computeSearchPaths,
  MANIFEST_KINDS,
  platformFromNodeName,
  type ManifestKind,
  type DiscoveryPaths,
  type PlatformDescription,
  type SearchUser,
} from '../../shared/loader/search-paths';
import type { Environment } from '../../shared/loader/xdg-directories';
import { locationExists, scanManifests } from './manifest-scanner';
import { registryManifests, systemRegistryReader, windowsProcessElevated, type RegistryReader } from './windows-registry';
import { layerReadings } from '../../shared/loader/layer-readings';
import { inventorySteps, type ManifestInventory, type ScannedManifest } from '../../shared/discovery/manifest-inventory';
import { currentUser } from './current-user';
import { libraryFilesUnchanged, libraryLookup } from './library-check';
import { loaderHas } from '../../shared/loader/loader-rules';
import { readLoaderSettings } from '../../shared/loader/loader-settings-file';
import { DRIVER_SEARCH_VARIABLES, driverListWithSettings } from '../../shared/loader/settings-drivers';
import type { SearchLocation, SearchPaths } from '../../shared/loader/search-paths';
import { foundSettingsFile } from '../chain/settings-file-found';
import { readTextGuardedSync } from '../platform/guarded-read';
import { manifestCatalogue } from './manifest-catalogue';
import { monotonicMs } from '../platform/monotonic-clock';

export interface DiscoveryContext {
  env: Environment;
  platform?: PlatformDescription;
  user?: SearchUser;
  cwd?: string;
  /** Answer as an elevated application would see it (`strata path list --elevated`), whatever this process is. */
  elevated?: boolean;
  /** Windows registry; default: `reg query` on win32, none elsewhere. */
  registry?: RegistryReader | null;
  /** The loader's version when known (search variables that arrived later: search-paths.ts). */
  loaderVersion?: string | null;
  /** Resolve and open each manifest's "library_path" as the loader would, and lint it (default true; library-check.ts). */
  libraries?: boolean;
  /** The application whose vk_loader_settings.json entry applies (app_keys); absent: the file's global entry. */
  appPath?: string | null;
}

/**
 * The driver search with what vk_loader_settings.json adds (loaders 1.4.323+: additional_drivers,
 * additional_drivers_use_exclusively; shared/loader/settings-drivers.ts): the file's drivers are
 * listed as 'settings' locations whose origin names the file. Linux and macOS only (on Windows the
 * loader finds the file through the registry, which is not modeled yet). Proven on the matrix by
 * tests/integration/settings-drivers-vs-loader.test.ts.
 */
export function driverSearchWithSettings(
  ctx: DiscoveryContext,
  platform: PlatformDescription,
  user: SearchUser,
  paths: SearchPaths,
): { paths: SearchPaths; notes: string[] } {
  const version = ctx.loaderVersion ?? null;
  if (platform.os === 'windows' || !loaderHas(version, 'settings-drivers')) return { paths, notes: [] };
  const file = foundSettingsFile(ctx.env, version, user.elevated);
  if (!file) return { paths, notes: [] };
  let text: string;
  try {
    text = readTextGuardedSync(file, 'settings');
  } catch {
    return { paths, notes: [] };
  }
  const read = readLoaderSettings(text, ctx.appPath ?? null, version);
  if (!read.active) return { paths, notes: [] };
  // device_configurations: the loader reads none of the driver variables (read_data_files_in_search_paths).
  const searched = read.drivers?.devicesActive
    ? computeSearchPaths({
        platform,
        env: { ...ctx.env, ...Object.fromEntries(DRIVER_SEARCH_VARIABLES.map((v) => [v, undefined])) },
        user,
        loaderVersion: version,
      }).driver
    : paths.driver;
  const list = driverListWithSettings(searched, read.drivers, file);
  const driver = list.entries.map((e): SearchLocation =>
    e.from === 'search'
      ? e.item
      : { path: e.driver.path, origin: `additional_drivers[${e.driver.index}] of ${file}`, source: 'settings', entry: 'file', alsoFrom: [] },
  );
  return { paths: { ...paths, driver }, notes: list.notes };
}

/**
 * The user of `ctx`: given, or this process; `elevated: true` forces the elevated view. On
 * Windows this process's elevation is its token's integrity level (is_high_integrity), which
 * needs koffi: asked only there, once.
 */
export async function discoveryUser(ctx: DiscoveryContext): Promise<SearchUser> {
  let user = ctx.user ?? currentUser(ctx.env);
  if (!ctx.user && !user.elevated && (await windowsProcessElevated())) user = { ...user, elevated: true };
  return ctx.elevated ? { ...user, elevated: true } : user;
}

function registryOf(ctx: DiscoveryContext, platform: PlatformDescription): RegistryReader | null {
  if (ctx.registry !== undefined) return ctx.registry;
  return platform.os === 'windows' ? systemRegistryReader() : null;
}

export { currentUser };

/** `discovery.paths`: the search order of each kind, with whether each location exists. */
export async function discoveryPaths(ctx: DiscoveryContext): Promise<DiscoveryPaths> {
  const platform = ctx.platform ?? platformFromNodeName(process.platform);
  const user = await discoveryUser(ctx);
  const cwd = ctx.cwd ?? process.cwd();
  const registry = registryOf(ctx, platform);
  const { paths } = driverSearchWithSettings(
    ctx,
    platform,
    user,
    computeSearchPaths({ platform, env: ctx.env, user, loaderVersion: ctx.loaderVersion ?? null }),
  );
  const exists = async (loc: (typeof paths)[ManifestKind][number]) =>
    loc.entry === 'registry-key'
      ? registry
        ? (await registryManifests(loc, registry).catch(() => ({ exists: null }))).exists
        : null
      : locationExists(loc, cwd);
  const locations = {} as DiscoveryPaths['locations'];
  await Promise.all(
    MANIFEST_KINDS.map(async (kind) => {
      locations[kind] = await Promise.all(paths[kind].map(async (loc) => ({ ...loc, exists: await exists(loc) })));
    }),
  );
  return { platform, elevated: user.elevated, home: user.home, locations };
}

/**
 * `discovery.manifests`: every manifest the loader would read, in its order, parsed and linted.
 *
 * Answered through the process's one catalogue (manifest-catalogue.ts): requests for the same
 * discovery while one is running share it (issue #19: a page's first view asks discovery.manifests,
 * chain.context, profiles.list and activity.status at once, and each scanned, parsed and linted
 * every manifest on its own), and while a UI host watches the search folders a settled answer is
 * kept until the watcher reports a change or a call may have written, and handed out again only
 * while the library files its lint read are as they were. `fresh` scans again all the same.
 * Callers read the answer and never change it: it may be another caller's too. A context with
 * a registry reader of its own (tests) is never shared.
 */
export function discoveryManifests(ctx: DiscoveryContext & { fresh?: boolean }): Promise<ManifestInventory> {
  if (ctx.registry) return discoverManifests(ctx);
  return manifestCatalogue.answer(ctx, discoverManifests);
}

async function discoverManifests(ctx: DiscoveryContext): Promise<ManifestInventory> {
  const platform = ctx.platform ?? platformFromNodeName(process.platform);
  const user = await discoveryUser(ctx);
  const search = driverSearchWithSettings(ctx, platform, user, computeSearchPaths({ platform, env: ctx.env, user, loaderVersion: ctx.loaderVersion ?? null }));
  const scan = await scanManifests(search.paths, {
    cwd: ctx.cwd ?? process.cwd(),
    registry: registryOf(ctx, platform),
    separator: platform.os === 'windows' ? '\\' : '/',
  });
  const locations = {} as ManifestInventory['locations'];
  for (const kind of MANIFEST_KINDS) locations[kind] = scan.locations[kind].map(({ error: _error, ...loc }) => loc);
  // A process that keeps answers (a UI host) will model chains on these manifests: the model reads
  // discovery's parse of each (issue #14 point 5). A one-shot command would only pay for them (~15 % on 10,000 files).
  const kept = manifestCatalogue.watches(ctx.env);
  const readings = kept ? layerReadings : null;
  // What a kept answer's lint read that the watcher does not see: the library files (one stat each).
  const seen = kept ? new Map<string, string>() : undefined;
  // The libraries of manifests for another platform (a Windows tree modelled on Linux) are not this process's to open.
  const libraries =
    ctx.libraries === false
      ? null
      : libraryLookup(ctx.env, ctx.cwd ?? process.cwd(), platform.os === 'windows' ? 'windows' : platform.os === 'linux' ? 'linux' : 'other', user.elevated, {
          ...(seen ? { seen } : {}),
          listings: scan.listings,
        });
  const found = await inSlices(inventorySteps(locations, scan.manifests, ctx.loaderVersion ?? null, libraries, readings));
  const inventory = search.notes.length ? { ...found, driverNotes: search.notes } : found;
  if (seen) manifestCatalogue.reuseWhile(inventory, () => libraryFilesUnchanged(seen));
  return inventory;
}

/** How long a discovery holds the event loop before it lets other work run. */
const SLICE_MS = 8;

/**
 * Runs `steps` to its end, letting the event loop run every SLICE_MS: `strata serve` answers the
 * page's scripts and other requests while it parses and lints thousands of manifests, instead of
 * after (issue #19: the page's modules waited ~0.6 s for a discovery of 1,000 manifests).
 */
async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  let until = monotonicMs() + SLICE_MS;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (monotonicMs() >= until) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      until = monotonicMs() + SLICE_MS;
    }
  }
}

/**
 * The layer manifests the loader would read, in its order, as found (path, origin, the text or why
 * there is none): what the chain model needs, which parses each text itself (chain-layers.ts).
 * `strata explain` paid for discovery's parse, lint and library resolution (an `ldconfig -p`
 * process), none of which it shows (issue #19). The same scan as `discoveryManifests`, so the same files.
 */
export async function layerManifestsAsFound(ctx: DiscoveryContext): Promise<Record<'implicit_layer' | 'explicit_layer', ScannedManifest[]>> {
  const platform = ctx.platform ?? platformFromNodeName(process.platform);
  const user = await discoveryUser(ctx);
  const paths = computeSearchPaths({ platform, env: ctx.env, user, loaderVersion: ctx.loaderVersion ?? null });
  const scan = await scanManifests(
    { ...paths, driver: [] },
    { cwd: ctx.cwd ?? process.cwd(), registry: registryOf(ctx, platform), separator: platform.os === 'windows' ? '\\' : '/' },
  );
  return { implicit_layer: scan.manifests.implicit_layer, explicit_layer: scan.manifests.explicit_layer };
}

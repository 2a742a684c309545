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
import { buildInventory, type ManifestInventory } from '../../shared/discovery/manifest-inventory';
import { currentUser } from './current-user';
import { libraryLookup } from './library-check';

export interface DiscoveryContext {
  env: Environment;
  platform?: PlatformDescription;
  user?: SearchUser;
  cwd?: string;
  /** Answer as an elevated application would see it (`strata paths --elevated`), whatever this process is. */
  elevated?: boolean;
  /** Windows registry; default: `reg query` on win32, none elsewhere. */
  registry?: RegistryReader | null;
  /** The loader's version when known (search variables that arrived later: search-paths.ts). */
  loaderVersion?: string | null;
  /** Resolve and open each manifest's "library_path" as the loader would, and lint it (default true; library-check.ts). */
  libraries?: boolean;
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
  const paths = computeSearchPaths({ platform, env: ctx.env, user, loaderVersion: ctx.loaderVersion ?? null });
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

/** `discovery.manifests`: every manifest the loader would read, in its order, parsed and linted. */
export async function discoveryManifests(ctx: DiscoveryContext): Promise<ManifestInventory> {
  const platform = ctx.platform ?? platformFromNodeName(process.platform);
  const user = await discoveryUser(ctx);
  const scan = await scanManifests(computeSearchPaths({ platform, env: ctx.env, user, loaderVersion: ctx.loaderVersion ?? null }), {
    cwd: ctx.cwd ?? process.cwd(),
    registry: registryOf(ctx, platform),
    separator: platform.os === 'windows' ? '\\' : '/',
  });
  const locations = {} as ManifestInventory['locations'];
  for (const kind of MANIFEST_KINDS) locations[kind] = scan.locations[kind].map(({ error: _error, ...loc }) => loc);
  // The libraries of manifests for another platform (a Windows tree modelled on Linux) are not this process's to open.
  const libraries =
    ctx.libraries === false
      ? null
      : libraryLookup(ctx.env, ctx.cwd ?? process.cwd(), platform.os === 'windows' ? 'windows' : platform.os === 'linux' ? 'linux' : 'other', user.elevated);
  return buildInventory(locations, scan.manifests, ctx.loaderVersion ?? null, libraries);
}

import { homedir } from 'node:os';
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
import { registryManifests, systemRegistryReader, type RegistryReader } from './windows-registry';
import { buildInventory, type ManifestInventory } from '../../shared/discovery/manifest-inventory';

export interface DiscoveryContext {
  env: Environment;
  platform?: PlatformDescription;
  user?: SearchUser;
  cwd?: string;
  /** Answer as an elevated application would see it (`strata paths --elevated`), whatever this process is. */
  elevated?: boolean;
  /** Windows registry; default: `reg query` on win32, none elsewhere. */
  registry?: RegistryReader | null;
}

/** The user of `ctx`: given, or this process; `elevated: true` forces the elevated view. */
function userOf(ctx: DiscoveryContext): SearchUser {
  const user = ctx.user ?? currentUser(ctx.env);
  return ctx.elevated ? { ...user, elevated: true } : user;
}

function registryOf(ctx: DiscoveryContext, platform: PlatformDescription): RegistryReader | null {
  if (ctx.registry !== undefined) return ctx.registry;
  return platform.os === 'windows' ? systemRegistryReader() : null;
}

/** This process as the loader would see it: setuid/setgid shows as real ≠ effective id. */
export function currentUser(env: Environment): SearchUser {
  const elevated =
    typeof process.getuid === 'function' && typeof process.geteuid === 'function' && typeof process.getgid === 'function' && typeof process.getegid === 'function'
      ? process.getuid() !== process.geteuid() || process.getgid() !== process.getegid()
      : false;
  return { home: env['HOME'] || (process.platform === 'win32' ? homedir() : null), elevated };
}

/** `discovery.paths`: the search order of each kind, with whether each location exists. */
export async function discoveryPaths(ctx: DiscoveryContext): Promise<DiscoveryPaths> {
  const platform = ctx.platform ?? platformFromNodeName(process.platform);
  const user = userOf(ctx);
  const cwd = ctx.cwd ?? process.cwd();
  const registry = registryOf(ctx, platform);
  const paths = computeSearchPaths({ platform, env: ctx.env, user });
  const exists = async (loc: (typeof paths)[ManifestKind][number]) =>
    loc.entry === 'registry-key' ? (registry ? (await registryManifests(loc, registry).catch(() => ({ exists: null }))).exists : null) : locationExists(loc, cwd);
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
  const scan = await scanManifests(computeSearchPaths({ platform, env: ctx.env, user: userOf(ctx) }), { cwd: ctx.cwd ?? process.cwd(), registry: registryOf(ctx, platform) });
  const locations = {} as ManifestInventory['locations'];
  for (const kind of MANIFEST_KINDS) locations[kind] = scan.locations[kind].map(({ error: _error, ...loc }) => loc);
  return buildInventory(locations, scan.manifests);
}

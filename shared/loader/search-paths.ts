import { loaderHas } from './loader-rules';
import { resolveXdgDirectories, type Environment } from './xdg-directories';
import type { ManifestKind } from './manifest-kinds';
import type { PlatformDescription, SearchLocation } from './search-paths-schema';

export type * from './search-paths-schema';

/**
 * Where the Vulkan loader looks for manifests, in its order: a pure function of a platform
 * description, an environment, a user and (macOS) the application's bundle.
 *
 * Sources: LoaderLayerInterface.md "Layer Discovery" (Linux / macOS / Windows sections, "Exception
 * for Elevated Privileges") and LoaderAndLayerInterface.md "ICD discovery". Where Debian's loader
 * 1.3.239 (the oracle, tests/integration/discovery-vs-loader.test.ts) does something else, the
 * loader wins and the rule below says "loader 1.3.239:".
 */

export { MANIFEST_KINDS, type ManifestKind } from './manifest-kinds';

/**
 * Debian's libvulkan1 1.3.239: SYSCONFDIR=/etc and no EXTRASYSCONFDIR. Its debug log lists
 * /etc/xdg, /etc, and never /usr/local/etc (the spec's example path), so we do not model one.
 */
export const DEBIAN_LINUX: PlatformDescription = { os: 'linux', sysconfdir: '/etc', extraSysconfdir: null };
/** The layout of the spec's macOS example: SYSCONFDIR=/usr/local/etc, EXTRASYSCONFDIR=/etc. */
export const MACOS_SPEC_EXAMPLE: PlatformDescription = { os: 'macos', sysconfdir: '/usr/local/etc', extraSysconfdir: '/etc' };
export const WINDOWS: PlatformDescription = { os: 'windows' };

export interface SearchUser {
  /** $HOME as the loader would read it; null when unset (the home folders are then skipped). */
  home: string | null;
  /** setuid/setgid/capabilities (Linux, macOS) or Administrator (Windows). */
  elevated: boolean;
}

export interface SearchPathsInput {
  platform: PlatformDescription;
  env: Environment;
  user: SearchUser;
  /** macOS: the application's bundle folder (`…/App.app`), searched first. */
  bundle?: string | null;
  /**
   * The loader's version, for the variables that arrived later (VK_IMPLICIT_LAYER_PATH and
   * VK_ADD_IMPLICIT_LAYER_PATH, 1.3.296: loader-rules.ts). Unknown (null or absent): they are
   * honoured when set, since only a loader that reads them makes setting them useful.
   */
  loaderVersion?: string | null;
}

export type SearchPaths = Record<ManifestKind, SearchLocation[]>;

const SUFFIX: Record<ManifestKind, string> = {
  implicit_layer: 'vulkan/implicit_layer.d',
  explicit_layer: 'vulkan/explicit_layer.d',
  driver: 'vulkan/icd.d',
};

type Draft = Omit<SearchLocation, 'alsoFrom'>;

/**
 * The value of a variable as the loader sees it, or null when unset. Loader 1.3.239 only asks
 * whether VK_LAYER_PATH / VK_DRIVER_FILES / VK_ICD_FILENAMES are *set*: an empty one replaces the
 * search with nothing (no explicit layers, no drivers), which the spec ("if defined") allows but
 * nobody expects. The XDG variables are different: empty means default (xdg-directories.ts).
 */
function envValue(env: Environment, name: string, elevated: boolean): string | null {
  // Elevated: the loader reads every variable through secure_getenv, which answers NULL
  // ("Exception for Elevated Privileges"); the XDG lists then fall back to their defaults.
  if (elevated) return null;
  return env[name] ?? null;
}

/**
 * One entry of VK_LAYER_PATH-style lists. Loader 1.3.239: an entry ending in ".json" is a single
 * manifest (listed even if it does not exist), anything else is a folder to scan; no `~` expansion
 * (`~/x` is searched literally); relative entries are relative to the working directory (the
 * spec's "a filename in the icd.d directories" for VK_ICD_FILENAMES does not hold).
 */
function envList(name: string, value: string, separator: string): Draft[] {
  return value
    .split(separator)
    .filter((p) => p.length > 0)
    .map((p, i) => ({
      path: p,
      origin: `${name}[${i}]`,
      source: 'environment' as const,
      entry: p.endsWith('.json') ? ('file' as const) : ('folder' as const),
    }));
}

function joinSuffix(dir: string, suffix: string): string {
  // Loader 1.3.239 searches "/usr/share/" and "/usr/share" as the same folder (one log line).
  return `${dir.replace(/\/+$/, '')}/${suffix}`;
}

/** Linux and macOS: the XDG / SYSCONFDIR table of "Linux Layer Discovery". */
function unixStandard(input: SearchPathsInput, kind: ManifestKind): Draft[] {
  const { platform, env, user } = input;
  const suffix = SUFFIX[kind];
  const out: Draft[] = [];
  if (platform.os === 'macos' && input.bundle) {
    out.push({ path: `${input.bundle.replace(/\/+$/, '')}/Contents/Resources/${suffix}`, origin: 'bundle', source: 'bundle', entry: 'folder' });
  }
  const safeEnv: Environment = user.elevated ? {} : env;
  const xdg = resolveXdgDirectories(safeEnv, user.home ?? '');
  const folder = (dir: string, origin: string, source: Draft['source']) => out.push({ path: joinSuffix(dir, suffix), origin, source, entry: 'folder' });
  // XDG_*_HOME: skipped when elevated (table, "Additional Notes"), and when neither it nor HOME is set.
  const homeOk = !user.elevated;
  if (homeOk && (xdg.configHome.source === 'environment' || user.home)) folder(xdg.configHome.value, 'XDG_CONFIG_HOME', xdg.configHome.source);
  xdg.configDirs.value.forEach((d, i) => folder(d, `XDG_CONFIG_DIRS[${i}]`, xdg.configDirs.source));
  if (platform.sysconfdir) folder(platform.sysconfdir, 'SYSCONFDIR', 'build');
  if (platform.extraSysconfdir) folder(platform.extraSysconfdir, 'EXTRASYSCONFDIR', 'build');
  if (homeOk && (xdg.dataHome.source === 'environment' || user.home)) folder(xdg.dataHome.value, 'XDG_DATA_HOME', xdg.dataHome.source);
  xdg.dataDirs.value.forEach((d, i) => folder(d, `XDG_DATA_DIRS[${i}]`, xdg.dataDirs.source));
  return out;
}

const KHRONOS_KEY: Record<ManifestKind, string> = {
  implicit_layer: 'ImplicitLayers',
  explicit_layer: 'ExplicitLayers',
  driver: 'Drivers',
};
const PNP_VALUE: Record<ManifestKind, string> = {
  implicit_layer: 'VulkanImplicitLayers',
  explicit_layer: 'VulkanExplicitLayers',
  driver: 'VulkanDriverName',
};

/** Windows: "Windows Layer Discovery" and "ICD discovery / Windows" (registry keys, no folders). */
function windowsStandard(input: SearchPathsInput, kind: ManifestKind): Draft[] {
  const wow = input.platform.wow64 === true;
  const software = `SOFTWARE\\${wow ? 'WOW6432Node\\' : ''}Khronos\\Vulkan\\${KHRONOS_KEY[kind]}`;
  const reg = (path: string): Draft => ({ path, origin: path, source: 'registry', entry: 'registry-key' });
  const out: Draft[] = [];
  // Driver-installed manifests: the display adapter's and its software components' keys.
  const value = `${PNP_VALUE[kind]}${wow ? 'Wow' : ''}`;
  out.push(reg(`HKLM\\System\\CurrentControlSet\\Control\\Class\\{Adapter GUID}\\000X\\${value}`));
  out.push(reg(`HKLM\\System\\CurrentControlSet\\Control\\Class\\{Software Component GUID}\\000X\\${value}`));
  out.push(reg(`HKLM\\${software}`));
  // HKCU: layers only, and "only searched if an application is not being executed with administrative privileges".
  if (kind !== 'driver' && !input.user.elevated) out.push(reg(`HKCU\\${software}`));
  return out;
}

function dedupe(drafts: Draft[]): SearchLocation[] {
  // Loader 1.3.239 drops a search location whose path string equals an earlier one (e.g.
  // XDG_DATA_HOME = XDG_DATA_DIRS[0]); files reached twice through different paths stay.
  const byPath = new Map<string, SearchLocation>();
  const out: SearchLocation[] = [];
  for (const d of drafts) {
    const first = byPath.get(d.path);
    if (first) first.alsoFrom.push(d.origin);
    else {
      const loc = { ...d, alsoFrom: [] };
      byPath.set(d.path, loc);
      out.push(loc);
    }
  }
  return out;
}

function locationsFor(input: SearchPathsInput, kind: ManifestKind): SearchLocation[] {
  const { env, user, platform } = input;
  const sep = platform.os === 'windows' ? ';' : ':';
  const standard = () => (platform.os === 'windows' ? windowsStandard(input, kind) : unixStandard(input, kind));
  const get = (name: string) => envValue(env, name, user.elevated);

  // VK_LAYER_PATH (VK_IMPLICIT_LAYER_PATH) replaces the standard list; then VK_ADD_LAYER_PATH
  // (VK_ADD_IMPLICIT_LAYER_PATH) is ignored. Loader 1.3.296+ reads the implicit pair the same way
  // as the explicit one (read_data_files_in_search_paths); older loaders ignore it.
  const layerVariables = (replaceName: string, addName: string) => {
    const replace = get(replaceName);
    if (replace !== null) return dedupe(envList(replaceName, replace, sep));
    const add = get(addName);
    return dedupe([...(add ? envList(addName, add, sep) : []), ...standard()]);
  };
  if (kind === 'implicit_layer') {
    const known = input.loaderVersion !== undefined && input.loaderVersion !== null;
    if (known && !loaderHas(input.loaderVersion!, 'implicit-layer-path')) return dedupe(standard());
    return layerVariables('VK_IMPLICIT_LAYER_PATH', 'VK_ADD_IMPLICIT_LAYER_PATH');
  }

  if (kind === 'explicit_layer') return layerVariables('VK_LAYER_PATH', 'VK_ADD_LAYER_PATH');

  // Drivers. Loader 1.3.239: VK_DRIVER_FILES wins over VK_ICD_FILENAMES (its older name); either
  // replaces the standard list and disables VK_ADD_DRIVER_FILES, which otherwise goes first.
  // Both may list folders as well as files (the spec of VK_ICD_FILENAMES speaks of files only).
  // An empty VK_DRIVER_FILES still wins over VK_ICD_FILENAMES, and leaves no drivers at all.
  for (const name of ['VK_DRIVER_FILES', 'VK_ICD_FILENAMES']) {
    const replace = get(name);
    if (replace !== null) return dedupe(envList(name, replace, sep));
  }
  const add = get('VK_ADD_DRIVER_FILES');
  return dedupe([...(add ? envList('VK_ADD_DRIVER_FILES', add, sep) : []), ...standard()]);
}

export function computeSearchPaths(input: SearchPathsInput): SearchPaths {
  return {
    implicit_layer: locationsFor(input, 'implicit_layer'),
    explicit_layer: locationsFor(input, 'explicit_layer'),
    driver: locationsFor(input, 'driver'),
  };
}

/** `process.platform` → the platform description Strata assumes for the installed loader. */
export function platformFromNodeName(name: string): PlatformDescription {
  if (name === 'win32') return WINDOWS;
  if (name === 'darwin') return MACOS_SPEC_EXAMPLE;
  return DEBIAN_LINUX;
}

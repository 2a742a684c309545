import type { XdgDirectories } from './xdg-directories-schema';

/**
 * The XDG base directories as the loader resolves them on Linux (LoaderLayerInterface.md, "Linux
 * Layer Discovery"): an unset *or empty* variable falls back to the XDG Base Directory default.
 */
export type { XdgDirectories } from './xdg-directories-schema';

export type Environment = Readonly<Record<string, string | undefined>>;

function single(env: Environment, name: string, fallback: string) {
  const v = env[name];
  return v ? { value: v, source: 'environment' as const } : { value: fallback, source: 'default' as const };
}

function list(env: Environment, name: string, fallback: readonly string[]) {
  const v = env[name];
  // Empty entries ("a::b") are skipped, as the loader's path splitting does.
  const parts = v ? v.split(':').filter((p) => p.length > 0) : [];
  return parts.length > 0 ? { value: parts, source: 'environment' as const } : { value: [...fallback], source: 'default' as const };
}

/**
 * Strata's own state folder: the XDG Base Directory spec says a relative path in these variables is
 * invalid and to be ignored (the sessions folder must not depend on the working folder). The loader's
 * folders above are kept as the loader reads them, relative or not.
 */
function singleAbsolute(env: Environment, name: string, fallback: string) {
  const v = env[name];
  return v && /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(v) ? { value: v, source: 'environment' as const } : { value: fallback, source: 'default' as const };
}

export function resolveXdgDirectories(env: Environment, home: string): XdgDirectories {
  return {
    home,
    configHome: single(env, 'XDG_CONFIG_HOME', `${home}/.config`),
    dataHome: single(env, 'XDG_DATA_HOME', `${home}/.local/share`),
    stateHome: singleAbsolute(env, 'XDG_STATE_HOME', `${home}/.local/state`),
    configDirs: list(env, 'XDG_CONFIG_DIRS', ['/etc/xdg']),
    dataDirs: list(env, 'XDG_DATA_DIRS', ['/usr/local/share', '/usr/share']),
    runtimeDir: env['XDG_RUNTIME_DIR'] || null,
  };
}

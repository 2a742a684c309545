import { homedir } from 'node:os';
import { isAbsolute, join, win32 } from 'node:path';
import type { Environment } from '../../shared/loader/xdg-directories';

/**
 * Where Strata keeps its own files for a user (not the loader's folders, which follow the loader):
 * `config` for what the user made (profiles, the applications and their bindings), `state` for what
 * Strata records (session records), `cache` for what it can always work out again (the linker's facts,
 * main/discovery/linker-facts-file.ts; bin/code-cache.cjs keeps its code caches in the same folder).
 *
 * - Linux and macOS: the XDG Base Directory spec, `$XDG_CONFIG_HOME/strata`,
 *   `$XDG_STATE_HOME/strata` and `$XDG_CACHE_HOME/strata` (defaults `~/.config`, `~/.local/state`,
 *   `~/.cache`). The spec calls a relative value invalid, to be ignored: Strata's files never depend
 *   on the working folder. (The loader's own folders, shared/loader/xdg-directories.ts, keep a
 *   relative value, as the loader does.)
 * - Windows: the folders Windows programs use, never `~\.config`: configuration in the roaming
 *   `%APPDATA%\Strata` (it follows the user to another machine), records in the machine-local
 *   `%LOCALAPPDATA%\Strata\state`, beside the override's and the loader settings file's records
 *   (main/override/windows-override.ts, windows-loader-settings.ts), caches in
 *   `%LOCALAPPDATA%\Strata\cache`. XDG variables are not read there: Windows tools do not set them,
 *   and a Unix-style value would become a path on the current drive.
 */
export interface StrataUserDirs {
  config: string;
  state: string;
  cache: string;
}

export function strataUserDirs(env: Environment, home: string, platform: NodeJS.Platform = process.platform): StrataUserDirs {
  if (platform === 'win32')
    return {
      config: win32.join(windowsAppData(env, home), 'Strata'),
      state: win32.join(windowsLocalAppData(env, home), 'Strata', 'state'),
      cache: win32.join(windowsLocalAppData(env, home), 'Strata', 'cache'),
    };
  const absoluteOr = (name: string, fallback: string) => {
    const v = env[name];
    return v && isAbsolute(v) ? v : fallback;
  };
  return {
    config: join(absoluteOr('XDG_CONFIG_HOME', join(home, '.config')), 'strata'),
    state: join(absoluteOr('XDG_STATE_HOME', join(home, '.local', 'state')), 'strata'),
    cache: join(absoluteOr('XDG_CACHE_HOME', join(home, '.cache')), 'strata'),
  };
}

/** %APPDATA% (FOLDERID_RoamingAppData), else its default under the profile folder. */
function windowsAppData(env: Environment, home = homedir()): string {
  return env['APPDATA'] || win32.join(env['USERPROFILE'] || home, 'AppData', 'Roaming');
}

/** %LOCALAPPDATA% (FOLDERID_LocalAppData), else its default under the profile folder. */
export function windowsLocalAppData(env: Environment, home = homedir()): string {
  return env['LOCALAPPDATA'] || win32.join(env['USERPROFILE'] || home, 'AppData', 'Local');
}

import { homedir } from 'node:os';
import type { SearchUser } from '../../shared/loader/search-paths';
import type { Environment } from '../../shared/loader/xdg-directories';

/**
 * This process as the loader would see it: setuid/setgid shows as real ≠ effective id. A module of
 * its own so that `strata info` (main/bridge/loader-version-in-process.ts) needs no discovery to ask it.
 */
export function currentUser(env: Environment): SearchUser {
  const elevated =
    typeof process.getuid === 'function' &&
    typeof process.geteuid === 'function' &&
    typeof process.getgid === 'function' &&
    typeof process.getegid === 'function'
      ? process.getuid() !== process.geteuid() || process.getgid() !== process.getegid()
      : false;
  return { home: env['HOME'] || (process.platform === 'win32' ? homedir() : null), elevated };
}

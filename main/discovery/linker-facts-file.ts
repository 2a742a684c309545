import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-file';
import { readTextGuardedSync } from '../platform/guarded-read';
import { strataUserDirs } from '../platform/user-dirs';
import type { KeptLinkerFacts } from '../../native-bridge/library-resolver';
import type { LdsoFacts } from '../../shared/vulkan/library-search';

/**
 * The linker's facts ($LIB, $PLATFORM, its default folders: native-bridge/library-resolver.ts
 * ldsoFacts) kept between processes in one small file of Strata's cache folder,
 * `$XDG_CACHE_HOME/strata/linker-facts.json`. The file holds the last answer and the key of the linker
 * that gave it. A linker that changed since (another key), a missing or damaged file, one that is not a
 * regular file, or one that cannot be written costs one `ld.so --list-diagnostics`, as every discovery
 * paid before (issue #19). The folder is the process's own user's: `process.env` at the time of the
 * call, never the environment a lint models.
 */
export const LINKER_FACTS_FILE = 'linker-facts.json';

/** Null without an absolute XDG_CACHE_HOME or HOME (as bin/code-cache.cjs): a process with no home of its own keeps nothing. */
export function linkerFactsPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const home = env['HOME'];
  const xdg = env['XDG_CACHE_HOME'];
  if (!(xdg && isAbsolute(xdg)) && !(home && isAbsolute(home))) return null;
  return join(strataUserDirs(env, home ?? '/').cache, LINKER_FACTS_FILE);
}

const isText = (v: unknown): v is string => typeof v === 'string';

/** The kept facts, when the file holds them for `key` in the shape ldsoFacts returns; null for anything else. */
export function parseKeptLinkerFacts(text: string, key: string): LdsoFacts | null {
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof saved !== 'object' || saved === null) return null;
  const { key: savedKey, facts } = saved as { key?: unknown; facts?: unknown };
  if (savedKey !== key || typeof facts !== 'object' || facts === null) return null;
  const { dstLib, platform, systemDirs } = facts as Partial<Record<keyof LdsoFacts, unknown>>;
  if (!(dstLib === null || isText(dstLib)) || !(platform === null || isText(platform))) return null;
  if (!Array.isArray(systemDirs) || !systemDirs.every(isText)) return null;
  return { dstLib, platform, systemDirs };
}

export const linkerFactsFile: KeptLinkerFacts = {
  read(key) {
    const path = linkerFactsPath();
    if (path === null) return null;
    try {
      // The guarded reader: a FIFO or a device in the file's place is refused, not waited on.
      return parseKeptLinkerFacts(readTextGuardedSync(path, 'settings'), key);
    } catch {
      return null; // None yet, or unreadable: the linker is asked.
    }
  },
  write(key, facts) {
    const path = linkerFactsPath();
    if (path === null) return;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileAtomic(path, `${JSON.stringify({ key, facts })}\n`);
    } catch {
      // A read-only or full home: the next process asks the linker again.
    }
  },
};

import type { LoaderCategory, Severity } from './session-records';
import { loaderHas } from '../loader/loader-rules';
import { LOADER_DEBUG_WORDS } from './record-words';

/**
 * One line of the loader's VK_LOADER_DEBUG output (loader_log in log.c): the message's type bits as
 * upper-case tags joined by " | ", a colon, then spaces up to the message column, then the message —
 * which may itself be indented ("LAYER:               In following locations:"). The layout changed
 * (loader-rules.ts): column 18 until 1.3.261, 19 from 1.3.262 (log-column-19), and from 1.4.309 every
 * line starts with "[Vulkan Loader] " and the message at column 16 after it (log-prefix).
 *
 *   INFO:             Vulkan Loader Version 1.3.239                       (1.3.239)
 *   LAYER:             Searching for implicit layer manifest files        (1.3.275)
 *   [Vulkan Loader] DEBUG | DRIVER: Searching for ICD drivers named …     (1.4.309+: long tags push the message on)
 *
 * A line with only category tags ("LAYER:") has no severity bit: its level is null.
 */
export interface LoaderLogLine {
  level: Severity | null;
  categories: LoaderCategory[];
  message: string;
}

/** Column where the message starts when the tags are shorter: 1.3.239 (18), 1.3.262+ (19), and after "[Vulkan Loader] " (16). */
const MESSAGE_COLUMN = 18;
const MESSAGE_COLUMN_1_3_262 = 19;
const PREFIXED_MESSAGE_COLUMN = 16;
const LOADER_PREFIX = '[Vulkan Loader] ';

const LEVEL_TAGS: Record<string, Severity> = { ERROR: 'error', WARNING: 'warning', INFO: 'info', DEBUG: 'debug', PERF: 'perf' };
const CATEGORY_TAGS: Record<string, LoaderCategory> = { LAYER: 'layer', DRIVER: 'driver', VALIDATION: 'validation', IMPLEMENTATION: 'implementation' };
const LEVEL_ORDER: readonly Severity[] = ['error', 'warning', 'info', 'perf', 'debug'];

const PREFIX =
  /^((?:ERROR|WARNING|INFO|DEBUG|PERF|LAYER|DRIVER|VALIDATION|IMPLEMENTATION)(?: \| (?:ERROR|WARNING|INFO|DEBUG|PERF|LAYER|DRIVER|VALIDATION|IMPLEMENTATION))*):/;

/** Cheap first test: every loader line starts with one of these letters. */
const FIRST = new Set(['E', 'W', 'I', 'D', 'P', 'L', 'V']);

/**
 * `column`: the message column of the loader that wrote the line, when known (loaderLogColumn);
 * otherwise a line without the "[Vulkan Loader] " prefix is read with 18, and one more space is
 * taken as padding when it is the last one before the message (1.3.262–1.4.308 pad to 19).
 */
export function parseLoaderLogLine(line: string, column?: number): LoaderLogLine | null {
  const prefixed = line.startsWith(LOADER_PREFIX);
  const text = prefixed ? line.slice(LOADER_PREFIX.length) : line;
  if (!FIRST.has(text.charAt(0))) return null;
  const m = PREFIX.exec(text);
  if (!m) return null;
  const tags = m[1]!.split(' | ');
  const levels = new Set<Severity>();
  const categories: LoaderCategory[] = [];
  for (const tag of tags) {
    const level = LEVEL_TAGS[tag];
    if (level) levels.add(level);
    const category = CATEGORY_TAGS[tag];
    if (category && !categories.includes(category)) categories.push(category);
  }
  const prefixLength = m[0].length;
  // The padding is spaces up to MESSAGE_COLUMN; anything beyond that is the message's own indentation.
  let start = prefixLength;
  const padEnd = Math.max(prefixLength + 1, prefixed ? PREFIXED_MESSAGE_COLUMN : (column ?? MESSAGE_COLUMN));
  while (start < padEnd && text.charCodeAt(start) === 32) start++;
  if (!prefixed && column === undefined && start === MESSAGE_COLUMN && text.charCodeAt(start) === 32 && text.charCodeAt(start + 1) !== 32) start++;
  // A prefix with nothing after it ("LAYER:" at the end of a line) is still a loader line, with an empty message.
  if (start === prefixLength && start < text.length) return null;
  return { level: LEVEL_ORDER.find((l) => levels.has(l)) ?? null, categories, message: text.slice(start) };
}

// In record-words.ts (with no zod behind it), so the CLI's option help names them without loading the loader's rules.
export { LOADER_DEBUG_WORDS };

/** The value to set, or why it is wrong: the loader silently ignores words it does not know, so Strata says so up front. */
export function checkLoaderDebugLevel(value: string): { ok: true; value: string } | { ok: false; unknown: string[] } {
  const words = value
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w.length > 0);
  const unknown = words.filter((w) => !(LOADER_DEBUG_WORDS as readonly string[]).includes(w));
  if (words.length === 0 || unknown.length > 0) return { ok: false, unknown: words.length === 0 ? [value] : unknown };
  return { ok: true, value: [...new Set(words)].join(',') };
}

/** The message column of a loader version's log lines without the prefix (with it: 16 after "[Vulkan Loader] "). */
export function loaderLogColumn(version: string): number {
  return loaderHas(version, 'log-column-19') ? MESSAGE_COLUMN_1_3_262 : MESSAGE_COLUMN;
}

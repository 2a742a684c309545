/**
 * VK_LOADER_LAYERS_ENABLE / VK_LOADER_LAYERS_DISABLE: the layer-name filters the loader reads since
 * 1.3.234, parsed and matched as loader 1.3.239 does it (loader_environment.c: determine_filter_type,
 * parse_generic_filter_environment_var, parse_layers_disable_filter_environment_var,
 * check_name_matches_filter_environment_var). Pure; chain.ts decides what a match does.
 *
 * What that code does, including where it differs from its own comments (the real loader is the
 * oracle: tests/integration/chain-vs-loader.test.ts):
 * - the value is lower-cased (ASCII) and split at commas; empty items vanish; spaces are kept;
 * - an item starting with "~" is special: only "~all~" means something to VK_LOADER_LAYERS_ENABLE,
 *   and "~all~", "~implicit~", "~explicit~" to VK_LOADER_LAYERS_DISABLE; any other is ignored;
 * - "*x*" is a substring, "*x" a suffix, "x*" a prefix match (items of three or more characters),
 *   anything else the full name; "*" alone becomes a prefix match of "" (every layer);
 * - a two-character item is never a glob: "**" becomes a suffix match of "*" and "a*" the full
 *   name "a*", so neither matches a real layer;
 * - at most 16 name filters per variable; the loader stops reading at the 16th;
 * - names compare case-insensitively; a filter longer than the name never matches it.
 * The loader reads both with loader_secure_getenv, so a setuid/setgid application ignores them;
 * the chain model answers for an ordinary application.
 */

import { loaderHas } from './loader-rules';

export const LAYERS_ENABLE_VAR = 'VK_LOADER_LAYERS_ENABLE';
export const LAYERS_DISABLE_VAR = 'VK_LOADER_LAYERS_DISABLE';
/** Loader 1.3.262+: names that VK_LOADER_LAYERS_DISABLE must not remove (parsed like the enable filter). */
export const LAYERS_ALLOW_VAR = 'VK_LOADER_LAYERS_ALLOW';
type NameFilterVariable = typeof LAYERS_ENABLE_VAR | typeof LAYERS_ALLOW_VAR;
/** loader_common.h MAX_ADDITIONAL_FILTERS. */
const MAX_FILTERS = 16;

export type LayerFilterKind = 'full-name' | 'substring' | 'prefix' | 'suffix' | 'special';

export interface LayerNameFilter {
  /** The item as the user wrote it. */
  item: string;
  kind: LayerFilterKind;
  /** What is compared, lower-cased and without the stars. */
  value: string;
}

export interface EnableFilter {
  variable: NameFilterVariable;
  raw: string;
  filters: LayerNameFilter[];
  /** Items the loader reads in a way a person may not expect. */
  notes: string[];
}

export interface DisableFilter {
  variable: typeof LAYERS_DISABLE_VAR;
  raw: string;
  /** The item ("~all~") that disables every layer, or null. */
  all: string | null;
  allImplicit: string | null;
  allExplicit: string | null;
  filters: LayerNameFilter[];
  notes: string[];
}

/** Why a name matched: the filter item, or a special item of VK_LOADER_LAYERS_DISABLE. */
export interface FilterMatch {
  variable: NameFilterVariable | typeof LAYERS_DISABLE_VAR;
  raw: string;
  item: string;
  /** A sentence: `filter "x*" matches its name (prefix, case-insensitive)`. */
  why: string;
}

/** C tolower in the "C" locale: ASCII letters only. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** determine_filter_type: the kind of one (lower-cased) item, and the part that is compared. */
function classify(item: string, wholeWildcards: boolean): { kind: LayerFilterKind; value: string } {
  if (item.startsWith('~')) return { kind: 'special', value: item };
  const n = item.length;
  // Loader 1.4.359 (ce22e49b8): "*" and "**" are special items that match every layer, and a
  // two-character "v*" is a prefix.
  if (wholeWildcards) {
    if (item === '*' || item === '**') return { kind: 'special', value: item };
    const starBegin = item[0] === '*';
    const starEnd = item[n - 1] === '*';
    if (starBegin && starEnd) return { kind: 'substring', value: item.slice(1, n - 1) };
    if (starBegin) return { kind: 'suffix', value: item.slice(1) };
    if (starEnd) return { kind: 'prefix', value: item.slice(0, n - 1) };
    return { kind: 'full-name', value: item };
  }
  // Loader 1.3.239 sets "special" for "*" and two-character "?*" items, then overwrites it below;
  // the stars it counts decide alone. So "*" is a prefix of "", "**" a suffix "*", "a*" a full name.
  const starBegin = item[0] === '*' && n !== 1;
  const starEnd = item[n - 1] === '*' && n !== 2;
  if (starBegin && starEnd) return { kind: 'substring', value: item.slice(1, n - 1) };
  if (starBegin) return { kind: 'suffix', value: item.slice(1) };
  if (starEnd) return { kind: 'prefix', value: item.slice(0, n - 1) };
  return { kind: 'full-name', value: item };
}

function items(raw: string): { item: string; lower: string }[] {
  return raw
    .split(',')
    .filter((i) => i.length > 0)
    .map((item) => ({ item, lower: asciiLower(item) }));
}

/** The items the loader reads as matching every layer (VK_LOADER_DISABLE_ALL_LAYERS_VAR_1/2/3). */
const MATCH_ALL = new Set(['~all~', '*', '**']);

function quirkNote(variable: string, item: string, f: { kind: LayerFilterKind; value: string }, wholeWildcards: boolean): string | null {
  if (wholeWildcards)
    return f.kind !== 'special' && item !== item.trim() ? `${variable}: "${item}" has spaces, which the loader keeps; it matches only names with them` : null;
  if (item === '**') return `${variable}: loader 1.3.239 reads "**" as "names ending in *", so it matches no layer; write ~all~ or *`;
  if (item.length === 2 && item.endsWith('*') && !item.startsWith('*'))
    return `${variable}: loader 1.3.239 reads the two-character "${item}" as a full layer name, not as a prefix; it matches no layer`;
  if (f.kind !== 'special' && item !== item.trim()) return `${variable}: "${item}" has spaces, which the loader keeps; it matches only names with them`;
  return null;
}

/** parse_generic_filter_environment_var for VK_LOADER_LAYERS_ENABLE; null when unset or empty. */
export function parseEnableFilter(raw: string | undefined, version: string | null = null): EnableFilter | null {
  return parseNameFilter(LAYERS_ENABLE_VAR, raw, version);
}

/** VK_LOADER_LAYERS_ALLOW (loader 1.3.262+), parsed by the same function as the enable filter. */
export function parseAllowFilter(raw: string | undefined, version: string | null = null): EnableFilter | null {
  return parseNameFilter(LAYERS_ALLOW_VAR, raw, version);
}

function parseNameFilter(variable: NameFilterVariable, raw: string | undefined, version: string | null): EnableFilter | null {
  if (raw === undefined || raw === '') return null;
  const whole = loaderHas(version, 'filter-whole-wildcards');
  const filters: LayerNameFilter[] = [];
  const notes: string[] = [];
  const all = items(raw);
  for (const { item, lower } of all) {
    const f = classify(lower, whole);
    filters.push({ item, ...f });
    if (f.kind === 'special' && !MATCH_ALL.has(f.value))
      notes.push(`${variable}: "${item}" means nothing here (only ${LAYERS_DISABLE_VAR} knows ~implicit~ and ~explicit~); the loader matches no layer with it`);
    const q = quirkNote(variable, item, f, whole);
    if (q) notes.push(q);
    if (filters.length >= MAX_FILTERS) break;
  }
  if (all.length > filters.length)
    notes.push(`${variable}: the loader reads only the first ${MAX_FILTERS} items; the other ${all.length - filters.length} are ignored`);
  return { variable, raw, filters, notes };
}

/** parse_layers_disable_filter_environment_var; null when unset or empty. */
export function parseDisableFilter(raw: string | undefined, version: string | null = null): DisableFilter | null {
  if (raw === undefined || raw === '') return null;
  const out: DisableFilter = { variable: LAYERS_DISABLE_VAR, raw, all: null, allImplicit: null, allExplicit: null, filters: [], notes: [] };
  const all = items(raw);
  let read = 0;
  const whole = loaderHas(version, 'filter-whole-wildcards');
  for (const { item, lower } of all) {
    read++;
    const f = classify(lower, whole);
    if (f.kind === 'special') {
      // Special items are flags, not filters: they do not count towards the 16.
      if (MATCH_ALL.has(lower)) out.all ??= item;
      else if (lower === '~implicit~') out.allImplicit ??= item;
      else if (lower === '~explicit~') out.allExplicit ??= item;
      else out.notes.push(`${LAYERS_DISABLE_VAR}: "${item}" is not one of ~all~, ~implicit~, ~explicit~; the loader ignores it`);
      continue;
    }
    out.filters.push({ item, ...f });
    const q = quirkNote(LAYERS_DISABLE_VAR, item, f, whole);
    if (q) out.notes.push(q);
    if (out.filters.length >= MAX_FILTERS) break;
  }
  if (read < all.length)
    out.notes.push(`${LAYERS_DISABLE_VAR}: the loader stops reading after ${MAX_FILTERS} name filters; the other ${all.length - read} items are ignored`);
  return out;
}

const KIND_WORDS: Record<LayerFilterKind, string> = {
  'full-name': 'full name',
  substring: 'substring',
  prefix: 'prefix',
  suffix: 'suffix',
  special: 'every layer',
};

/** check_name_matches_filter_environment_var: the first filter that matches `name`, or null. */
export function matchNameFilters(name: string, filters: readonly LayerNameFilter[], lowerName: string = asciiLower(name)): LayerNameFilter | null {
  for (const f of filters) {
    // The loader skips a filter longer than the name (for "~all~" too: it compares the whole item).
    if (f.value.length > lowerName.length) continue;
    const hit =
      f.kind === 'special'
        ? MATCH_ALL.has(f.value)
        : f.kind === 'substring'
          ? lowerName.includes(f.value)
          : f.kind === 'suffix'
            ? lowerName.endsWith(f.value)
            : f.kind === 'prefix'
              ? lowerName.startsWith(f.value)
              : lowerName === f.value;
    if (hit) return f;
  }
  return null;
}

/** Whether VK_LOADER_LAYERS_ENABLE (or _ALLOW) names the layer. */
export function enableMatch(filter: EnableFilter | null, name: string, lowerName?: string): FilterMatch | null {
  if (!filter) return null;
  const f = matchNameFilters(name, filter.filters, lowerName);
  return f ? { variable: filter.variable, raw: filter.raw, item: f.item, why: describeMatch(f) } : null;
}

/** Whether VK_LOADER_LAYERS_DISABLE names the layer: ~all~, then ~implicit~/~explicit~, then the name filters. */
export function disableMatch(filter: DisableFilter | null, name: string, implicit: boolean, lowerName?: string): FilterMatch | null {
  if (!filter) return null;
  const base = { variable: LAYERS_DISABLE_VAR, raw: filter.raw } as const;
  if (filter.all !== null) return { ...base, item: filter.all, why: `${filter.all} disables every layer` };
  if (implicit && filter.allImplicit !== null) return { ...base, item: filter.allImplicit, why: `${filter.allImplicit} disables every implicit layer` };
  if (!implicit && filter.allExplicit !== null) return { ...base, item: filter.allExplicit, why: `${filter.allExplicit} disables every explicit layer` };
  const f = matchNameFilters(name, filter.filters, lowerName);
  return f ? { ...base, item: f.item, why: describeMatch(f) } : null;
}

function describeMatch(f: LayerNameFilter): string {
  if (f.kind === 'special') return `"${f.item}" matches every layer`;
  return f.kind === 'prefix' && f.value === ''
    ? `"${f.item}" matches every layer`
    : `filter "${f.item}" matches the name (${KIND_WORDS[f.kind]}, case-insensitive)`;
}

import { matchNameFilters, parseEnableFilter } from '../loader/layer-filters';
import type { ProfileDrivers } from './profile-schema';
import { baseName } from './inventory-layers';

/**
 * Driver filters as loader_icd_scan applies VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE:
 * parse_generic_filter_environment_var and check_name_matches_filter_environment_var, the same
 * parsing and matching as the layer filters (shared/loader/layer-filters.ts, quirks included),
 * compared with the manifest's file name, not its path.
 */
export function matchesAny(name: string, filters: readonly string[] | undefined): boolean {
  const parsed = parseEnableFilter((filters ?? []).join(','));
  return parsed !== null && matchNameFilters(name, parsed.filters) !== null;
}

const firstMatch = (name: string, filters: readonly string[]) => filters.find((f) => matchesAny(name, [f]));

export interface DriverChoice {
  path: string;
  kept: boolean;
  /** Why it is left out, or where it goes in the order. */
  reason: string;
}

/**
 * Which drivers a profile keeps, as loader_icd_scan decides it: a driver that matches a disable
 * filter and no select filter is out; with select filters, one matching none of them is out. The
 * kept ones are ordered by the first `order` filter they match (unmatched ones after, as found).
 */
export function chooseDrivers(drivers: ProfileDrivers | undefined, manifestPaths: readonly string[]): DriverChoice[] {
  const select = drivers?.select ?? [];
  const disable = drivers?.disable ?? [];
  const order = drivers?.order ?? [];
  const choices = manifestPaths.map((path, i): DriverChoice & { rank: number; index: number } => {
    const file = baseName(path);
    const selected = select.length > 0 && matchesAny(file, select);
    if (matchesAny(file, disable) && !selected) return { path, kept: false, reason: `disabled (matches ${firstMatch(file, disable)})`, rank: 0, index: i };
    if (select.length > 0 && !selected) return { path, kept: false, reason: `not selected (matches none of ${select.join(', ')})`, rank: 0, index: i };
    const rank = order.findIndex((f) => matchesAny(file, [f]));
    return { path, kept: true, reason: selected ? `selected (matches ${firstMatch(file, select)})` : 'kept', rank: rank < 0 ? order.length : rank, index: i };
  });
  const kept = choices.filter((c) => c.kept).sort((a, b) => a.rank - b.rank || a.index - b.index);
  const out = choices.filter((c) => !c.kept);
  return [...kept, ...out].map(({ path, kept: k, reason }) => ({ path, kept: k, reason }));
}

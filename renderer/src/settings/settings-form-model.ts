import type { LayerSettingValues } from '../../../shared/settings/setting-values';
import type { LayerSettingsDescription, Platform, SettingDescription } from '../../../shared/settings/setting-types';
import { settingStates, type SettingState } from '../../../shared/settings/effective-settings';

/**
 * What the settings form shows, from the description, the values, the search text and the
 * platform: the rows in tree order with their depth, which match the search (a match keeps its
 * ancestors, so a nested setting is never shown without its group), and how many settings exist
 * only on other platforms. Pure.
 */
export interface FormRow {
  state: SettingState;
  depth: number;
  /** Matches the search itself (ancestors of a match are shown too, not marked). */
  match: boolean;
}

export interface FormModel {
  rows: FormRow[];
  /** Settings on this platform that are shown to people (not HIDDEN). */
  total: number;
  /** Settings that exist only on other platforms (left out). */
  otherPlatforms: number;
  changed: number;
}

const normalize = (s: string) => s.toLowerCase();

function matches(s: SettingDescription, query: string): boolean {
  if (!query) return true;
  const q = normalize(query);
  return [s.key, s.label, s.description].some((t) => normalize(t).includes(q));
}

export function buildFormModel(description: LayerSettingsDescription, values: LayerSettingValues, platform: Platform, query: string): FormModel {
  const states = settingStates(description, values, platform);
  const byKey = new Map(states.map((s) => [s.setting.key, s]));
  const depthOf = (s: SettingDescription) => {
    let depth = 0;
    for (let p = s.parent; p; p = byKey.get(p.key)?.setting.parent ?? null) depth++;
    return depth;
  };
  // Hidden by platform or view: the whole subtree goes with its root.
  const visible = (s: SettingDescription): boolean => {
    const state = byKey.get(s.key);
    if (!state?.available || (s.view === 'HIDDEN' && !state.changed)) return false;
    const parent = s.parent ? byKey.get(s.parent.key)?.setting : undefined;
    return parent ? visible(parent) : true;
  };
  const shown = states.filter((s) => visible(s.setting));
  const q = query.trim();
  const keep = new Set<string>();
  for (const s of shown)
    if (matches(s.setting, q))
      for (let cur: SettingDescription | undefined = s.setting; cur; cur = cur.parent ? byKey.get(cur.parent.key)?.setting : undefined) keep.add(cur.key);
  return {
    rows: shown.filter((s) => keep.has(s.setting.key)).map((state) => ({ state, depth: depthOf(state.setting), match: q !== '' && matches(state.setting, q) })),
    total: shown.filter((s) => s.setting.type !== 'GROUP').length,
    otherPlatforms: states.filter((s) => !s.available).length,
    changed: states.filter((s) => s.changed).length,
  };
}

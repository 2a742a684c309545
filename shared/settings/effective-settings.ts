import type { LayerSettingValues, SettingValue } from './setting-values';
import { flattenSettings, type LayerSettingsDescription, type Platform, type SettingDescription } from './setting-types';
import { availableOn } from './setting-platforms';
import { dependenceState, type DependenceState } from './setting-dependence';
import { sameSettingValue } from './setting-validation';

/**
 * What a layer gets for each setting: the stored value (only kept when it differs from the
 * default, setting-values.ts) or else the manifest's default; whether the setting exists on the
 * platform, and whether its dependence holds. The editor, the settings file and the exports all
 * read these, so they cannot disagree.
 */
export function defaultOf(setting: SettingDescription): SettingValue | undefined {
  return setting.type === 'GROUP' ? undefined : setting.default;
}

export function effectiveValue(setting: SettingDescription, values: Readonly<LayerSettingValues>): SettingValue | undefined {
  if (setting.type === 'GROUP') return undefined;
  return Object.prototype.hasOwnProperty.call(values, setting.key) ? values[setting.key] : setting.default;
}

export interface SettingState {
  setting: SettingDescription;
  /** undefined for a GROUP. */
  value: SettingValue | undefined;
  /** The value differs from the default. */
  changed: boolean;
  /** The setting exists on the platform asked about. */
  available: boolean;
  dependence: DependenceState;
}

/**
 * Every setting's state, in tree order. Dependence is transitive: a condition on a setting that is
 * itself disabled does not hold (warn_on_robust_oob needs gpuav_buffer_oob, which needs GPU-assisted
 * validation enabled).
 */
export function settingStates(description: LayerSettingsDescription, values: Readonly<LayerSettingValues>, platform: Platform): SettingState[] {
  const settingOf = (key: string) => description.byKey.get(key);
  const enabled = new Map<string, DependenceState>();
  const visiting = new Set<string>();
  const stateOf = (setting: SettingDescription): DependenceState => {
    const known = enabled.get(setting.key);
    if (known) return known;
    // A cycle in the description: treat the setting as enabled rather than loop.
    if (visiting.has(setting.key)) return { enabled: true, reason: null };
    visiting.add(setting.key);
    const valueOf = (key: string) => {
      const s = settingOf(key);
      if (!s) return values[key];
      return stateOf(s).enabled ? effectiveValue(s, values) : undefined;
    };
    const state = dependenceState(setting, valueOf, settingOf);
    visiting.delete(setting.key);
    enabled.set(setting.key, state);
    return state;
  };
  return flattenSettings(description.settings).map((setting) => {
    const value = effectiveValue(setting, values);
    const def = defaultOf(setting);
    return {
      setting,
      value,
      changed: value !== undefined && def !== undefined && !sameSettingValue(setting, value, def),
      available: availableOn(setting, platform),
      dependence: stateOf(setting),
    };
  });
}

/**
 * The stored values after one edit: `value` undefined (or equal to the default) removes the key,
 * so "reset to default" and "typed the default back in" store the same thing.
 */
export function withSettingValue(
  description: LayerSettingsDescription | null,
  values: Readonly<LayerSettingValues>,
  key: string,
  value: SettingValue | undefined,
): LayerSettingValues {
  const next: LayerSettingValues = { ...values };
  const setting = description?.byKey.get(key);
  const def = setting ? defaultOf(setting) : undefined;
  if (value === undefined || (def !== undefined && sameSettingValue(setting, value, def))) delete next[key];
  else next[key] = value;
  return next;
}

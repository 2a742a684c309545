import type { SettingValue } from './setting-values';
import type { SettingDescription } from './setting-types';

/**
 * A setting's `dependence` (vkconfig layers_schema.json): conditions on other settings' values,
 * combined by `mode` (NONE: always enabled; ALL: every condition; ANY: at least one). A condition
 * on a FLAGS or LIST setting holds when the current value contains every listed item (so
 * log_filename stays enabled when debug_action is "log" plus "break"); on any other type, when the
 * value is equal.
 */
export interface DependenceState {
  enabled: boolean;
  /** When disabled: why, for people ("needs Debug Action to include Log Message"). */
  reason: string | null;
}

function holds(current: SettingValue | undefined, wanted: SettingValue): boolean {
  if (current === undefined) return false;
  if (Array.isArray(wanted)) return Array.isArray(current) && wanted.every((w) => current.includes(w));
  return current === wanted;
}

function describeCondition(dependee: SettingDescription | undefined, key: string, wanted: SettingValue): string {
  const name = dependee?.label ?? key;
  if (Array.isArray(wanted)) {
    const labels = wanted.map((w) => (dependee && 'options' in dependee ? (dependee.options.find((o) => o.key === w)?.label ?? w) : w));
    return labels.length ? `${name} to include ${labels.join(' and ')}` : `${name} to be empty`;
  }
  if (typeof wanted === 'boolean') return `${name} to be ${wanted ? 'on' : 'off'}`;
  const label = dependee && 'options' in dependee ? (dependee.options.find((o) => o.key === wanted)?.label ?? String(wanted)) : String(wanted);
  return `${name} to be ${label}`;
}

export function dependenceState(
  setting: SettingDescription,
  valueOf: (key: string) => SettingValue | undefined,
  settingOf: (key: string) => SettingDescription | undefined,
): DependenceState {
  const dep = setting.dependence;
  if (!dep || dep.mode === 'NONE' || dep.conditions.length === 0) return { enabled: true, reason: null };
  const results = dep.conditions.map((c) => ({ c, ok: holds(valueOf(c.key), c.value) }));
  const enabled = dep.mode === 'ALL' ? results.every((r) => r.ok) : results.some((r) => r.ok);
  if (enabled) return { enabled, reason: null };
  const failing = results.filter((r) => !r.ok).map((r) => describeCondition(settingOf(r.c.key), r.c.key, r.c.value));
  return { enabled, reason: `Needs ${failing.join(dep.mode === 'ALL' ? ' and ' : ' or ')}` };
}

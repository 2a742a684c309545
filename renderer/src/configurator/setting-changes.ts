import type { SettingValue, SettingsByLayer } from '../../../shared/settings/setting-values';

/**
 * The layer settings a draft changes against what is installed, one row per layer and key, for the
 * Apply summary and the draft bar ("VK_LAYER_KHRONOS_validation · validate_sync: false → true").
 * A value that is absent is the layer's default.
 */
export interface SettingChange {
  layer: string;
  key: string;
  from: SettingValue | undefined;
  to: SettingValue | undefined;
}

const same = (a: SettingValue | undefined, b: SettingValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

export function settingChanges(installed: SettingsByLayer | undefined, draft: SettingsByLayer | undefined): SettingChange[] {
  const out: SettingChange[] = [];
  const layers = [...new Set([...Object.keys(installed ?? {}), ...Object.keys(draft ?? {})])].sort();
  for (const layer of layers) {
    const before = installed?.[layer] ?? {};
    const after = draft?.[layer] ?? {};
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort())
      if (!same(before[key], after[key])) out.push({ layer, key, from: before[key], to: after[key] });
  }
  return out;
}

/** A value as the summary shows it: lists joined, absent as "default". */
export function settingValueText(v: SettingValue | undefined): string {
  if (v === undefined) return 'default';
  if (Array.isArray(v)) return v.length ? v.join(', ') : '(empty list)';
  if (typeof v === 'string') return v === '' ? '""' : v;
  return String(v);
}

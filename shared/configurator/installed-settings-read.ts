import { defaultOf } from '../settings/effective-settings';
import type { SettingValue, SettingsByLayer } from '../settings/setting-values';
import type { LayerSettingsDescription } from '../settings/setting-types';
import { parseSettingText, sameSettingValue } from '../settings/setting-validation';
import { settingPrefix } from '../settings/settings-file-format';

/**
 * The settings an installed vk_layer_settings.txt holds, read back into the draft's shape (only values
 * that differ from their defaults, as the editor stores them), so the Layers editor starts from what is
 * installed and "unsaved changes" means a difference in what the file would say. The file's lines are
 * `<prefix>.<key> = <value>` (settings-file-format.ts); a layer is known by its prefix among the
 * discovered names; a value is typed by the layer's settings description, or kept as text when the
 * layer has none (as Strata writes an undescribed layer's keys as given).
 */
export function settingsFromFileText(
  text: string | null | undefined,
  layerNames: readonly string[],
  describe: (layerName: string) => LayerSettingsDescription | null,
): SettingsByLayer {
  const out: SettingsByLayer = {};
  if (!text) return out;
  const byPrefix = new Map<string, string>();
  for (const n of layerNames) if (!byPrefix.has(settingPrefix(n))) byPrefix.set(settingPrefix(n), n);
  const descriptions = new Map<string, LayerSettingsDescription | null>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([^.=\s]+)\.([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, prefix, key, valueText] = m as unknown as [string, string, string, string];
    const layer = byPrefix.get(prefix);
    if (!layer) continue;
    if (!descriptions.has(layer)) descriptions.set(layer, describe(layer));
    const setting = descriptions.get(layer)?.byKey.get(key);
    let value: SettingValue;
    if (setting) {
      const parsed = parseSettingText(setting, valueText);
      if (!('value' in parsed)) continue;
      const fallback = defaultOf(setting);
      // The file also lists a changed layer's other settings at their defaults; the draft stores only changes.
      if (fallback !== undefined && sameSettingValue(setting, parsed.value, fallback)) continue;
      value = parsed.value;
    } else value = valueText;
    (out[layer] ??= {})[key] = value;
  }
  return out;
}

import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';

/**
 * The values a user chose for layer settings, keyed by layer name and then by setting key (the
 * `key` of a setting in the layer manifest's settings description, file_format_version 1.2.0).
 * One shape for the override configuration, profiles and the settings editor's draft: a value is
 * only stored when it differs from the layer's default, so "reset to default" deletes the key.
 *
 * BOOL → boolean; INT, FLOAT, FRAMES-as-number → number; STRING, ENUM, FILE, SAVE_FILE,
 * LOAD_FILE, FOLDER, FRAMES ("0-5,10") → string; FLAGS and LIST → an array of strings.
 */
export const SettingValueSchema = z.union([
  z.boolean(),
  z.number(),
  z.string(),
  z.array(z.string()).max(REQUEST_LIMITS.settingListValues, tooMany('values in one setting', REQUEST_LIMITS.settingListValues)),
]);
export type SettingValue = z.infer<typeof SettingValueSchema>;

export const LayerSettingValuesSchema = z.record(z.string().min(1), SettingValueSchema);
export type LayerSettingValues = z.infer<typeof LayerSettingValuesSchema>;

/** layer name → setting key → value. */
export const SettingsByLayerSchema = z.record(z.string().min(1), LayerSettingValuesSchema);
export type SettingsByLayer = z.infer<typeof SettingsByLayerSchema>;

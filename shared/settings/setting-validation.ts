import type { SettingValue } from './setting-values';
import { flattenSettings, isValueSetting, type LayerSettingsDescription, type SettingDescription } from './setting-types';

/**
 * Value checks with messages a person understands ("must be at least 1", not "range violation"),
 * and the reading of a value typed as text (`--set KEY=VALUE`, a text box). Pure.
 *
 * Two limits come from how the values travel, not from the schema: vk_layer_settings.txt is one
 * `key = value` per line, so no value may hold a line break; and lists (FLAGS, LIST) are written
 * comma-separated there, so no list item may hold a comma.
 */

/** FRAMES: "N", "N-M" or "N-M-STEP", comma-separated (vkconfig layers_schema.json, FRAMES default pattern). */
export const FRAMES_PATTERN = /^([0-9]+(-[0-9]+){0,2})(,([0-9]+(-[0-9]+){0,2}))*$/;

const LINE_BREAK = /[\r\n]/;

function checkText(v: string, what = 'The value'): string | null {
  return LINE_BREAK.test(v) ? `${what} cannot contain a line break (vk_layer_settings.txt holds one setting per line)` : null;
}

function checkItems(items: readonly string[]): string | null {
  for (const item of items) {
    if (item.includes(',')) return `"${item}" contains a comma, but list items are separated by commas in vk_layer_settings.txt`;
    const t = checkText(item, `"${item}"`);
    if (t) return t;
    if (item.trim() === '') return 'A list item cannot be empty';
  }
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item)) return `"${item}" is listed twice`;
    seen.add(item);
  }
  return null;
}

const optionList = (keys: readonly string[]) => (keys.length > 6 ? `${keys.slice(0, 6).join(', ')}, …` : keys.join(', '));

/** null when `value` is a valid value of `setting`; otherwise why not, in one sentence. */
export function checkSettingValue(setting: SettingDescription, value: SettingValue): string | null {
  switch (setting.type) {
    case 'GROUP':
      return `${setting.label} is a group of settings and has no value of its own`;
    case 'BOOL':
      return typeof value === 'boolean' ? null : 'Must be true or false';
    case 'INT':
    case 'FLOAT': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return setting.type === 'INT' ? 'Must be a whole number' : 'Must be a number';
      if (setting.type === 'INT' && !Number.isInteger(value)) return 'Must be a whole number';
      const unit = setting.unit ? ` ${setting.unit}` : '';
      if (setting.min !== undefined && value < setting.min) return `Must be at least ${setting.min}${unit}`;
      if (setting.max !== undefined && value > setting.max) return `Must be at most ${setting.max}${unit}`;
      return null;
    }
    case 'ENUM': {
      if (typeof value !== 'string') return 'Must be one of the listed values';
      const keys = setting.options.map((o) => o.key);
      return keys.includes(value) ? null : `"${value}" is not one of the values: ${optionList(keys)}`;
    }
    case 'FLAGS': {
      if (!Array.isArray(value)) return 'Must be a list of the listed values';
      const keys = setting.options.map((o) => o.key);
      const unknown = value.find((v) => !keys.includes(v));
      if (unknown !== undefined) return `"${unknown}" is not one of the values: ${optionList(keys)}`;
      return checkItems(value);
    }
    case 'LIST': {
      if (!Array.isArray(value)) return 'Must be a list of values';
      if (setting.listOnly) {
        const unknown = value.find((v) => !setting.list.includes(v));
        if (unknown !== undefined) return `"${unknown}" is not one of the values: ${optionList(setting.list)}`;
      }
      return checkItems(value);
    }
    case 'FRAMES':
      if (typeof value !== 'string') return 'Must be frame numbers and ranges, e.g. 0-5,10';
      return value === '' || FRAMES_PATTERN.test(value)
        ? null
        : `"${value}" is not a frame list; write numbers and ranges like 0-5,10 or 10-100-10 (first-last-step)`;
    default:
      // STRING, FILE, SAVE_FILE, LOAD_FILE, FOLDER, SAVE_FOLDER, LOAD_FOLDER
      return typeof value === 'string' ? checkText(value) : 'Must be text';
  }
}

/** Reads a value typed as text; FLAGS and LIST take comma-separated items. */
export function parseSettingText(setting: SettingDescription, text: string): { value: SettingValue } | { error: string } {
  const t = text.trim();
  switch (setting.type) {
    case 'GROUP':
      return { error: `${setting.label} is a group of settings and has no value of its own` };
    case 'BOOL': {
      const lower = t.toLowerCase();
      if (['true', '1', 'on', 'yes'].includes(lower)) return { value: true };
      if (['false', '0', 'off', 'no'].includes(lower)) return { value: false };
      return { error: `"${text}" is not true or false` };
    }
    case 'INT':
      if (!/^[-+]?\d+$/.test(t)) return { error: `"${text}" is not a whole number` };
      return { value: Number(t) };
    case 'FLOAT': {
      const n = t === '' ? NaN : Number(t);
      return Number.isFinite(n) ? { value: n } : { error: `"${text}" is not a number` };
    }
    case 'FLAGS':
    case 'LIST':
      return {
        value:
          t === ''
            ? []
            : t
                .split(',')
                .map((s) => s.trim())
                .filter((s) => s !== ''),
      };
    default:
      return { value: text };
  }
}

/** Equal as stored values: FLAGS compare as sets (their order means nothing to a layer); LIST items keep their order. */
export function sameSettingValue(setting: SettingDescription | undefined, a: SettingValue, b: SettingValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    if (setting?.type === 'FLAGS') {
      const sb = new Set(b);
      return a.every((x) => sb.has(x));
    }
    return a.every((x, i) => x === b[i]);
  }
  return a === b;
}

export interface SettingProblem {
  key: string;
  message: string;
}

/** The closest known key, for "did you mean …" (edit distance, at most a third of the key). */
export function closestKey(key: string, keys: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of keys) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] as number;
}

/**
 * Every problem with a layer's values: keys the description does not have (with a suggestion),
 * groups given a value, values of the wrong kind or out of range. A layer without a description
 * accepts any key (free-form), but still no line breaks.
 */
export function checkLayerValues(description: LayerSettingsDescription, values: Readonly<Record<string, SettingValue>>): SettingProblem[] {
  const problems: SettingProblem[] = [];
  const valueKeys = flattenSettings(description.settings)
    .filter(isValueSetting)
    .map((s) => s.key);
  for (const [key, value] of Object.entries(values)) {
    if (!description.described) {
      if (!/^[A-Za-z0-9_.-]+$/.test(key)) problems.push({ key, message: `"${key}" is not a usable setting key (letters, digits, _ . - only)` });
      const texts = Array.isArray(value) ? value : [String(value)];
      const bad = texts.map((t) => checkText(t)).find((m) => m !== null);
      if (bad) problems.push({ key, message: bad });
      continue;
    }
    const setting = description.byKey.get(key);
    if (!setting) {
      const near = closestKey(key, valueKeys);
      problems.push({ key, message: `${description.layerName} has no setting "${key}"${near ? ` (did you mean "${near}"?)` : ''}` });
      continue;
    }
    const message = checkSettingValue(setting, value);
    if (message) problems.push({ key, message: `${setting.label} (${key}): ${message.charAt(0).toLowerCase()}${message.slice(1)}` });
  }
  return problems;
}

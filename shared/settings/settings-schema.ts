import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { parseLocatedJson, property, toPlain, type LocatedJson } from '../manifest/located-json';
import { parseVersion, compareVersions } from '../manifest/manifest-parser';
import { strataDiagnostic } from '../lint/strata-diagnostic';
import type { SettingValue } from './setting-values';
import { settingsDiagnosticCodes, type SettingsDiagnosticCode } from './settings-diagnostic-codes';
import {
  DEPENDENCE_MODES,
  PLATFORMS,
  SETTING_TYPES,
  STATUSES,
  VIEWS,
  type DependenceMode,
  type LayerSettingsDescription,
  type Platform,
  type SettingDependence,
  type SettingDescription,
  type SettingOption,
  type SettingParent,
  type SettingsPreset,
  type SettingStatus,
  type SettingType,
  type SettingView,
} from './setting-types';
import { checkSettingValue } from './setting-validation';

/**
 * Parses a layer's settings description (file_format_version 1.2.0: `layer.features.settings` and
 * `layer.features.presets`, the shape vkconfig's layers_schema.json defines and Debian's
 * VkLayer_khronos_validation.json uses) into typed descriptions. Never throws: a malformed part
 * becomes a diagnostic with the range of the offending JSON, and is left out (Error) or read with a
 * fallback (Warning). Pure.
 */

type Obj = Extract<LocatedJson, { kind: 'object' }>;

interface Inherited {
  platforms: Platform[];
  status: SettingStatus;
  view: SettingView;
  parent: SettingParent | null;
}

interface PendingDependence {
  setting: SettingDescription;
  conditions: { key: string; value: unknown; range: Range }[];
}

class SettingsReader {
  readonly diagnostics: Diagnostic[] = [];
  readonly byKey = new Map<string, SettingDescription>();
  private readonly dependences: PendingDependence[] = [];

  constructor(private readonly layerName: string) {}

  report(code: SettingsDiagnosticCode, range: Range, message: string, data: object = {}) {
    this.diagnostics.push(strataDiagnostic(settingsDiagnosticCodes, code, range, message, { layer: this.layerName, ...data }));
  }

  /** An optional string field; a non-string is reported and ignored. */
  str(obj: Obj, key: string, where: string): string | undefined {
    const p = property(obj, key);
    if (!p) return undefined;
    if (p.value.kind === 'string') return p.value.value;
    this.report('settings/wrong-type', p.value.range, `${where}: "${key}" should be a string, not ${p.value.kind}; it is ignored`);
    return undefined;
  }

  bool(obj: Obj, key: string, where: string): boolean | undefined {
    const p = property(obj, key);
    if (!p) return undefined;
    if (p.value.kind === 'boolean') return p.value.value;
    this.report('settings/wrong-type', p.value.range, `${where}: "${key}" should be true or false, not ${p.value.kind}; it is ignored`);
    return undefined;
  }

  num(obj: Obj, key: string, where: string, integer: boolean): number | undefined {
    const p = property(obj, key);
    if (!p) return undefined;
    if (p.value.kind === 'number' && (!integer || Number.isInteger(p.value.value))) return p.value.value;
    this.report('settings/wrong-type', p.value.range, `${where}: "${key}" should be ${integer ? 'a whole number' : 'a number'}; it is ignored`);
    return undefined;
  }

  token<T extends string>(obj: Obj, key: string, tokens: readonly T[], where: string): T | undefined {
    const p = property(obj, key);
    if (!p) return undefined;
    if (p.value.kind === 'string' && (tokens as readonly string[]).includes(p.value.value)) return p.value.value as T;
    this.report(
      'settings/unknown-token',
      p.value.range,
      `${where}: "${key}" is ${p.value.kind === 'string' ? `"${p.value.value}"` : `a ${p.value.kind}`}, not one of ${tokens.join(', ')}; the inherited value is used`,
    );
    return undefined;
  }

  platforms(obj: Obj, where: string, inherited: Platform[]): Platform[] {
    const p = property(obj, 'platforms');
    if (!p) return inherited;
    if (p.value.kind !== 'array') {
      this.report('settings/wrong-type', p.value.range, `${where}: "platforms" should be an array such as ["LINUX", "WINDOWS"]; it is ignored`);
      return inherited;
    }
    const out: Platform[] = [];
    for (const item of p.value.items) {
      if (item.kind === 'string' && (PLATFORMS as readonly string[]).includes(item.value)) out.push(item.value as Platform);
      else
        this.report(
          'settings/unknown-token',
          item.range,
          `${where}: ${item.kind === 'string' ? `"${item.value}"` : `a ${item.kind}`} is not a platform (${PLATFORMS.join(', ')}); it is ignored`,
        );
    }
    return out;
  }

  common(obj: Obj, key: string, where: string, inherited: Inherited) {
    let label = this.str(obj, 'label', where);
    let description = this.str(obj, 'description', where);
    if (label === undefined || description === undefined) {
      const missing = [label === undefined ? 'label' : null, description === undefined ? 'description' : null].filter(Boolean).join(' and ');
      this.report('settings/missing-label', obj.range, `${where} has no ${missing}; the key is shown instead`);
      label ??= key;
      description ??= '';
    }
    const detailed = this.str(obj, 'detailed', where);
    const url = this.str(obj, 'url', where);
    return {
      label,
      description,
      ...(detailed !== undefined ? { detailed } : {}),
      ...(url !== undefined ? { url } : {}),
      platforms: this.platforms(obj, where, inherited.platforms),
      status: this.token(obj, 'status', STATUSES, where) ?? inherited.status,
      view: this.token(obj, 'view', VIEWS, where) ?? inherited.view,
    };
  }

  /** A list of settings (features.settings, or a setting's or flag's nested settings). */
  list(node: LocatedJson, where: string, inherited: Inherited): SettingDescription[] {
    if (node.kind !== 'array') {
      this.report(
        'settings/malformed',
        node.range,
        `${where} should be an array of settings, not ${node.kind === 'object' ? 'an object' : `a ${node.kind}`}; no setting is read from it`,
      );
      return [];
    }
    const out: SettingDescription[] = [];
    for (const item of node.items) {
      const s = this.setting(item, where, inherited);
      if (s) out.push(s);
    }
    return out;
  }

  setting(node: LocatedJson, where: string, inherited: Inherited): SettingDescription | null {
    if (node.kind !== 'object') {
      this.report(
        'settings/malformed',
        node.range,
        `An entry of ${where} is ${node.kind === 'array' ? 'an array' : `a ${node.kind}`}, not a setting object; it is left out`,
      );
      return null;
    }
    const keyProp = property(node, 'key');
    if (!keyProp || keyProp.value.kind !== 'string' || keyProp.value.value === '') {
      this.report('settings/missing-field', keyProp?.value.range ?? node.range, `A setting in ${where} has no "key" (a non-empty string); it is left out`);
      return null;
    }
    const key = keyProp.value.value;
    const here = `Setting "${key}"`;
    const typeProp = property(node, 'type');
    if (!typeProp || typeProp.value.kind !== 'string') {
      this.report('settings/missing-field', typeProp?.value.range ?? node.range, `${here} has no "type" (one of ${SETTING_TYPES.join(', ')}); it is left out`);
      return null;
    }
    if (!(SETTING_TYPES as readonly string[]).includes(typeProp.value.value)) {
      this.report(
        'settings/unknown-type',
        typeProp.value.range,
        `${here} has type "${typeProp.value.value}", which is not one of ${SETTING_TYPES.join(', ')}; it is left out`,
      );
      return null;
    }
    const type = typeProp.value.value as SettingType;
    if (this.byKey.has(key)) {
      this.report(
        'settings/duplicate-key',
        keyProp.value.range,
        `${here} is defined twice in ${this.layerName}; settings share one namespace in vk_layer_settings.txt, so the second is left out`,
      );
      return null;
    }
    const common = this.common(node, key, here, inherited);
    const env = this.str(node, 'env', here);
    const base = {
      key,
      ...common,
      ...(env !== undefined ? { env } : {}),
      dependence: null as SettingDependence | null,
      parent: inherited.parent,
      range: node.range,
      children: [] as SettingDescription[],
    };
    const childInherited = (parent: SettingParent, platforms: Platform[], status: SettingStatus, view: SettingView): Inherited => ({
      platforms,
      status,
      view,
      parent,
    });
    let setting: SettingDescription | null;
    switch (type) {
      case 'GROUP':
        setting = { ...base, type };
        break;
      case 'BOOL':
        setting = { ...base, type, default: this.defaultOf(node, here, 'boolean', false) as boolean };
        break;
      case 'INT':
      case 'FLOAT': {
        const integer = type === 'INT';
        const range = property(node, 'range');
        let min: number | undefined;
        let max: number | undefined;
        if (range) {
          if (range.value.kind !== 'object')
            this.report('settings/wrong-type', range.value.range, `${here}: "range" should be an object such as {"min": 1, "max": 100}; it is ignored`);
          else {
            min = this.num(range.value, 'min', here, integer);
            max = this.num(range.value, 'max', here, integer);
            if (min !== undefined && max !== undefined && min > max) {
              this.report('settings/invalid-range', range.value.range, `${here}: the range's min (${min}) is above its max (${max}); the range is ignored`);
              min = max = undefined;
            }
          }
        }
        const unit = this.str(node, 'unit', here);
        const extra = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(unit !== undefined ? { unit } : {}) };
        const def = this.defaultOf(node, here, integer ? 'integer' : 'number', min ?? 0) as number;
        if (type === 'INT') setting = { ...base, type, default: def, ...extra };
        else {
          const precision = range?.value.kind === 'object' ? this.num(range.value, 'precision', here, true) : undefined;
          const width = range?.value.kind === 'object' ? this.num(range.value, 'width', here, true) : undefined;
          setting = { ...base, type, default: def, ...extra, ...(precision !== undefined ? { precision } : {}), ...(width !== undefined ? { width } : {}) };
        }
        break;
      }
      case 'STRING':
      case 'FOLDER':
      case 'SAVE_FOLDER':
      case 'LOAD_FOLDER':
      case 'FILE':
      case 'SAVE_FILE':
      case 'LOAD_FILE': {
        const format = this.str(node, 'format', here);
        const filter = type === 'FILE' || type === 'SAVE_FILE' || type === 'LOAD_FILE' ? this.str(node, 'filter', here) : undefined;
        setting = {
          ...base,
          type,
          default: this.defaultOf(node, here, 'string', '') as string,
          ...(format !== undefined ? { format } : {}),
          ...(filter !== undefined ? { filter } : {}),
        } as SettingDescription;
        break;
      }
      case 'FRAMES':
        setting = { ...base, type, default: this.defaultOf(node, here, 'string', '') as string };
        break;
      case 'ENUM':
      case 'FLAGS': {
        const options = this.options(node, here, common);
        if (!options) return null;
        const keys = options.map((o) => o.key);
        if (type === 'ENUM') setting = { ...base, type, options, default: this.defaultOf(node, here, 'string', keys[0] ?? '') as string };
        else setting = { ...base, type, options, default: this.defaultOf(node, here, 'strings', []) as string[] };
        break;
      }
      case 'LIST': {
        const listProp = property(node, 'list');
        const list: string[] = [];
        if (listProp) {
          if (listProp.value.kind !== 'array')
            this.report('settings/wrong-type', listProp.value.range, `${here}: "list" should be an array of suggested values; it is ignored`);
          else for (const item of listProp.value.items) if (item.kind === 'string' || item.kind === 'number') list.push(String(item.value));
        }
        setting = { ...base, type, list, listOnly: this.bool(node, 'list_only', here) ?? false, default: this.defaultOf(node, here, 'list', []) as string[] };
        break;
      }
    }
    this.byKey.set(key, setting);
    // A default the setting itself would refuse (out of range, not an option) is kept, but reported.
    if (setting.type !== 'GROUP') {
      const problem = checkSettingValue(setting, setting.default);
      if (problem)
        this.report(
          'settings/invalid-default',
          property(node, 'default')?.value.range ?? node.range,
          `${here}: the default does not fit the setting: ${problem}`,
        );
    }
    const dep = property(node, 'dependence');
    if (dep) this.readDependence(setting, dep.value, here);
    // Nested settings: under the setting, then under each of its flags.
    const nested = property(node, 'settings');
    if (nested)
      setting.children.push(...this.list(nested.value, `the settings of "${key}"`, childInherited({ key }, common.platforms, common.status, common.view)));
    if ('options' in setting) {
      const flagsProp = property(node, 'flags');
      if (flagsProp?.value.kind === 'array')
        for (const item of flagsProp.value.items) {
          if (item.kind !== 'object') continue;
          const flagKey = property(item, 'key');
          const flagSettings = property(item, 'settings');
          const option = setting.options.find((o) => o.key === (flagKey?.value.kind === 'string' ? flagKey.value.value : undefined));
          if (!option || !flagSettings) continue;
          const children = this.list(
            flagSettings.value,
            `the settings of "${key}" flag "${option.key}"`,
            childInherited({ key, flag: option.key }, option.platforms, option.status, option.view),
          );
          option.children.push(...children.map((c) => c.key));
          setting.children.push(...children);
        }
    }
    return setting;
  }

  options(node: Obj, where: string, parent: { platforms: Platform[]; status: SettingStatus; view: SettingView }): SettingOption[] | null {
    const flags = property(node, 'flags');
    if (!flags || flags.value.kind !== 'array' || flags.value.items.length === 0) {
      this.report(
        'settings/no-options',
        flags?.value.range ?? node.range,
        `${where} has no "flags" to choose from (an array of {"key", "label", "description"}); it is left out`,
      );
      return null;
    }
    const out: SettingOption[] = [];
    const seen = new Set<string>();
    for (const item of flags.value.items) {
      if (item.kind !== 'object') {
        this.report(
          'settings/malformed',
          item.range,
          `${where}: a flag is ${item.kind === 'array' ? 'an array' : `a ${item.kind}`}, not an object; it is left out`,
        );
        continue;
      }
      const k = property(item, 'key');
      if (!k || k.value.kind !== 'string' || k.value.value === '') {
        this.report('settings/missing-field', k?.value.range ?? item.range, `${where}: a flag has no "key"; it is left out`);
        continue;
      }
      if (seen.has(k.value.value)) {
        this.report('settings/duplicate-key', k.value.range, `${where}: flag "${k.value.value}" is listed twice; the second is left out`);
        continue;
      }
      seen.add(k.value.value);
      const c = this.common(item, k.value.value, `${where} flag "${k.value.value}"`, { ...parent, parent: null });
      out.push({ key: k.value.value, label: c.label, description: c.description, platforms: c.platforms, status: c.status, view: c.view, children: [] });
    }
    if (out.length === 0) {
      this.report('settings/no-options', flags.value.range, `${where} has no usable flag; it is left out`);
      return null;
    }
    return out;
  }

  defaultOf(node: Obj, where: string, kind: 'boolean' | 'integer' | 'number' | 'string' | 'strings' | 'list', fallback: SettingValue): SettingValue {
    const p = property(node, 'default');
    const fallbackText = JSON.stringify(fallback);
    if (!p) {
      this.report('settings/invalid-default', node.range, `${where} has no "default"; ${fallbackText} is used`);
      return fallback;
    }
    const v = p.value;
    const wrong = (what: string) => {
      this.report('settings/invalid-default', v.range, `${where}: the default should be ${what}; ${fallbackText} is used`);
      return fallback;
    };
    switch (kind) {
      case 'boolean':
        return v.kind === 'boolean' ? v.value : wrong('true or false');
      case 'integer':
        return v.kind === 'number' && Number.isInteger(v.value) ? v.value : wrong('a whole number');
      case 'number':
        return v.kind === 'number' ? v.value : wrong('a number');
      case 'string':
        return v.kind === 'string' ? v.value : wrong('a string');
      case 'strings':
        return v.kind === 'array' && v.items.every((i) => i.kind === 'string') ? v.items.map((i) => String(i.value)) : wrong('an array of strings');
      case 'list': {
        // LIST defaults are plain values (1.3.239's manifests) or {"key", "enabled"} (later schemas): the enabled keys.
        if (v.kind !== 'array') return wrong('an array');
        const out: string[] = [];
        for (const item of v.items) {
          if (item.kind === 'string' || item.kind === 'number') out.push(String(item.value));
          else if (item.kind === 'object') {
            const k = property(item, 'key');
            const enabled = property(item, 'enabled');
            if (k && (k.value.kind === 'string' || k.value.kind === 'number') && !(enabled?.value.kind === 'boolean' && !enabled.value.value))
              out.push(String(k.value.value));
          } else return wrong('an array of values');
        }
        return out;
      }
    }
  }

  readDependence(setting: SettingDescription, node: LocatedJson, where: string) {
    if (node.kind !== 'object') {
      this.report('settings/wrong-type', node.range, `${where}: "dependence" should be an object {"mode", "settings"}; it is ignored`);
      return;
    }
    const mode: DependenceMode = this.token(node, 'mode', DEPENDENCE_MODES, `${where} dependence`) ?? 'NONE';
    const list = property(node, 'settings');
    const conditions: PendingDependence['conditions'] = [];
    if (list && list.value.kind === 'array')
      for (const item of list.value.items) {
        const k = item.kind === 'object' ? property(item, 'key') : undefined;
        const v = item.kind === 'object' ? property(item, 'value') : undefined;
        if (!k || k.value.kind !== 'string' || !v) {
          this.report('settings/unknown-dependence', item.range, `${where}: a dependence condition needs "key" and "value"; it is ignored`);
          continue;
        }
        conditions.push({ key: k.value.value, value: toPlain(v.value), range: k.value.range });
      }
    else if (list)
      this.report('settings/wrong-type', list.value.range, `${where}: the dependence's "settings" should be an array of {"key", "value"}; it is ignored`);
    setting.dependence = { mode, conditions: [] };
    this.dependences.push({ setting, conditions });
  }

  /** Dependences name other settings, possibly later in the file: resolved once every setting is read. */
  resolveDependences() {
    for (const { setting, conditions } of this.dependences) {
      for (const c of conditions) {
        const target = this.byKey.get(c.key);
        if (!target) {
          this.report(
            'settings/unknown-dependence',
            c.range,
            `Setting "${setting.key}" depends on "${c.key}", which ${this.layerName} does not define; the condition is ignored`,
          );
          continue;
        }
        const value = normalizeValue(target, c.value);
        if (value === undefined) {
          this.report(
            'settings/unknown-dependence',
            c.range,
            `Setting "${setting.key}" depends on "${c.key}" having a value of the wrong kind for a ${target.type} setting; the condition is ignored`,
          );
          continue;
        }
        setting.dependence!.conditions.push({ key: c.key, value });
      }
    }
  }

  presets(node: LocatedJson, layerPlatforms: Platform[]): SettingsPreset[] {
    if (node.kind !== 'array') {
      this.report('settings/malformed', node.range, `"presets" should be an array; it is ignored`);
      return [];
    }
    const out: SettingsPreset[] = [];
    for (const item of node.items) {
      if (item.kind !== 'object') {
        this.report('settings/malformed', item.range, `A preset is ${item.kind === 'array' ? 'an array' : `a ${item.kind}`}, not an object; it is left out`);
        continue;
      }
      const label = this.str(item, 'label', 'A preset');
      if (!label) {
        this.report('settings/missing-field', item.range, 'A preset has no "label"; it is left out');
        continue;
      }
      const where = `Preset "${label}"`;
      const values: Record<string, SettingValue> = {};
      const list = property(item, 'settings');
      if (list?.value.kind === 'array')
        for (const entry of list.value.items) {
          const k = entry.kind === 'object' ? property(entry, 'key') : undefined;
          const v = entry.kind === 'object' ? property(entry, 'value') : undefined;
          if (!k || k.value.kind !== 'string' || !v) {
            this.report('settings/unknown-preset-key', entry.range, `${where}: an entry needs "key" and "value"; it is ignored`);
            continue;
          }
          const target = this.byKey.get(k.value.value);
          const value = target ? normalizeValue(target, toPlain(v.value)) : undefined;
          if (!target || value === undefined || checkSettingValue(target, value) !== null) {
            this.report(
              'settings/unknown-preset-key',
              k.value.range,
              target
                ? `${where}: the value of "${k.value.value}" does not fit that setting; it is ignored`
                : `${where} sets "${k.value.value}", which ${this.layerName} does not define; it is ignored`,
            );
            continue;
          }
          values[k.value.value] = value;
        }
      out.push({
        label,
        description: this.str(item, 'description', where) ?? '',
        platforms: this.platforms(item, where, layerPlatforms),
        status: this.token(item, 'status', STATUSES, where) ?? 'STABLE',
        values,
      });
    }
    return out;
  }
}

/** A plain JSON value as the value shape stores it for this setting's type; undefined if it cannot be. */
export function normalizeValue(setting: SettingDescription, plain: unknown): SettingValue | undefined {
  switch (setting.type) {
    case 'GROUP':
      return undefined;
    case 'BOOL':
      return typeof plain === 'boolean' ? plain : undefined;
    case 'INT':
    case 'FLOAT':
      return typeof plain === 'number' ? plain : undefined;
    case 'FLAGS':
    case 'LIST': {
      if (typeof plain === 'string') return [plain];
      if (!Array.isArray(plain)) return undefined;
      const out: string[] = [];
      for (const item of plain) {
        if (typeof item === 'string' || typeof item === 'number') out.push(String(item));
        else if (item && typeof item === 'object' && 'key' in item) {
          if ((item as { enabled?: unknown }).enabled !== false) out.push(String((item as { key: unknown }).key));
        } else return undefined;
      }
      return out;
    }
    default:
      return typeof plain === 'string' ? plain : typeof plain === 'number' ? String(plain) : undefined;
  }
}

const ALL_PLATFORMS: Platform[] = [...PLATFORMS];

/** The layer objects of a manifest ("layers" wins over "layer", as the loader reads it). */
function layerObjects(root: LocatedJson | undefined): Obj[] {
  const layers = property(root, 'layers');
  if (layers?.value.kind === 'array') return layers.value.items.filter((i): i is Obj => i.kind === 'object');
  const layer = property(root, 'layer');
  return layer?.value.kind === 'object' ? [layer.value] : [];
}

const stringOf = (obj: Obj, key: string) => {
  const p = property(obj, key);
  return p?.value.kind === 'string' ? p.value.value : undefined;
};

/** The names of the layers a manifest defines. */
export function manifestLayerNames(text: string): string[] {
  return layerObjects(parseLocatedJson(text).root).flatMap((l) => stringOf(l, 'name') ?? []);
}

/**
 * False when `text` cannot hold a settings description: no "settings" key can be spelt without the
 * word itself or a \u escape. Lets a view of 1,000 manifests skip parsing the ones without settings.
 */
export function mayDescribeSettings(text: string): boolean {
  return text.includes('settings"') || text.includes('\\u');
}

/** One layer of a manifest, by name; null when the manifest does not define it. */
export function layerSettingsFromManifest(text: string, layerName: string): LayerSettingsDescription | null {
  const parsed = parseLocatedJson(text);
  const layer = layerObjects(parsed.root).find((l) => stringOf(l, 'name') === layerName);
  if (!layer) return null;
  const ffv = property(parsed.root, 'file_format_version');
  return parseLayerSettings(layer, layerName, ffv?.value.kind === 'string' ? ffv.value.value : undefined);
}

/** A layer object's settings description (features.settings / features.presets). */
export function parseLayerSettings(layer: Obj, layerName: string, fileFormatVersion?: string): LayerSettingsDescription {
  const reader = new SettingsReader(layerName);
  const layerPlatforms = reader.platforms(layer, `Layer ${layerName}`, ALL_PLATFORMS);
  const layerStatus = reader.token(layer, 'status', STATUSES, `Layer ${layerName}`) ?? 'STABLE';
  const features = property(layer, 'features');
  // vkconfig reads features.settings; a bare layer.settings (an early draft of 1.2.0) is read too.
  const settingsNode = (features?.value.kind === 'object' ? property(features.value, 'settings') : undefined) ?? property(layer, 'settings');
  const presetsNode = features?.value.kind === 'object' ? property(features.value, 'presets') : undefined;
  if (features && features.value.kind !== 'object')
    reader.report('settings/malformed', features.value.range, `"features" should be an object with "settings" and "presets"; no setting is read from it`);
  const inherited: Inherited = { platforms: layerPlatforms, status: layerStatus, view: 'STANDARD', parent: null };
  const settings = settingsNode ? reader.list(settingsNode.value, `the settings of ${layerName}`, inherited) : [];
  reader.resolveDependences();
  const presets = presetsNode ? reader.presets(presetsNode.value, layerPlatforms) : [];
  if (settingsNode && fileFormatVersion !== undefined) {
    const v = parseVersion(fileFormatVersion);
    if (compareVersions(v, { major: 1, minor: 2, patch: 0 }) < 0)
      reader.report(
        'settings/old-file-format',
        settingsNode.keyRange,
        `Settings descriptions came with file_format_version 1.2.0; this file says ${fileFormatVersion}, so other tools may ignore them`,
      );
  }
  const str = (key: string) => stringOf(layer, key);
  const introduction = str('introduction');
  const url = str('url');
  const apiVersion = str('api_version');
  const implementationVersion = str('implementation_version');
  return {
    layerName,
    layer: {
      description: str('description') ?? '',
      ...(introduction !== undefined ? { introduction } : {}),
      ...(url !== undefined ? { url } : {}),
      ...(apiVersion !== undefined ? { apiVersion } : {}),
      ...(implementationVersion !== undefined ? { implementationVersion } : {}),
      platforms: layerPlatforms,
      status: layerStatus,
    },
    described: settingsNode !== undefined && settings.length > 0,
    settings,
    byKey: reader.byKey,
    presets,
    diagnostics: reader.diagnostics,
  };
}

/** A layer that has no description (or none was found): values are free-form keys. */
export function undescribedLayer(layerName: string): LayerSettingsDescription {
  return {
    layerName,
    layer: { description: '', platforms: ALL_PLATFORMS, status: 'STABLE' },
    described: false,
    settings: [],
    byKey: new Map(),
    presets: [],
    diagnostics: [],
  };
}

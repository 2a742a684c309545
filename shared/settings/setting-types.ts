import type { Diagnostic, Range } from 'vscode-languageserver-types';
import type { SettingValue } from './setting-values';

/**
 * The typed form of a layer's settings description (layer manifest file_format_version 1.2.0,
 * LoaderLayerInterface § Layer Manifest File Version 1.2.0: "the ability to define the layer
 * settings as defined by the layer manifest schema"). The schema is vkconfig's layers_schema.json:
 * `layer.features.settings` is a tree of settings (nested under a setting's `settings` or under one
 * of its flags' `settings`), `layer.features.presets` named sets of values.
 */
export const SETTING_TYPES = [
  'BOOL',
  'INT',
  'FLOAT',
  'STRING',
  'ENUM',
  'FLAGS',
  'FILE',
  'SAVE_FILE',
  'LOAD_FILE',
  'FOLDER',
  'SAVE_FOLDER',
  'LOAD_FOLDER',
  'LIST',
  'FRAMES',
  'GROUP',
] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

/** The schema's platform tokens; a setting without `platforms` inherits its parent's, then the layer's, then all. */
export const PLATFORMS = ['WINDOWS', 'LINUX', 'MACOS', 'ANDROID'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const STATUSES = ['STABLE', 'BETA', 'ALPHA', 'DEPRECATED'] as const;
export type SettingStatus = (typeof STATUSES)[number];

/** HIDDEN settings are not shown (vkconfig does not write them either); ADVANCED/DEBUG are shown, marked. */
export const VIEWS = ['STANDARD', 'ADVANCED', 'DEBUG', 'HIDDEN'] as const;
export type SettingView = (typeof VIEWS)[number];

export const DEPENDENCE_MODES = ['NONE', 'ALL', 'ANY'] as const;
export type DependenceMode = (typeof DEPENDENCE_MODES)[number];

/** "this setting is only meaningful when …": `settings` are key = value conditions, combined by `mode`. */
export interface SettingDependence {
  mode: DependenceMode;
  conditions: { key: string; value: SettingValue }[];
}

/** Where a setting sits in the tree: under another setting, or under one flag of a FLAGS/ENUM setting. */
export interface SettingParent {
  key: string;
  flag?: string;
}

interface SettingBase {
  key: string;
  label: string;
  description: string;
  detailed?: string;
  url?: string;
  /** The environment variable the layer itself documents for this setting (the manifest's `env`). */
  env?: string;
  /** Effective: inherited from the parent, then the layer, when the setting has none. */
  platforms: Platform[];
  status: SettingStatus;
  view: SettingView;
  dependence: SettingDependence | null;
  parent: SettingParent | null;
  /** The setting object in the manifest. */
  range: Range;
  /** Settings nested under this one (and under its flags, in flag order). */
  children: SettingDescription[];
}

/** One value of an ENUM or one bit of a FLAGS setting. */
export interface SettingOption {
  key: string;
  label: string;
  description: string;
  platforms: Platform[];
  status: SettingStatus;
  view: SettingView;
  /** Keys of the settings nested under this option. */
  children: string[];
}

export type SettingDescription =
  | (SettingBase & { type: 'BOOL'; default: boolean })
  | (SettingBase & { type: 'INT'; default: number; min?: number; max?: number; unit?: string })
  | (SettingBase & { type: 'FLOAT'; default: number; min?: number; max?: number; precision?: number; width?: number; unit?: string })
  | (SettingBase & { type: 'STRING' | 'FOLDER' | 'SAVE_FOLDER' | 'LOAD_FOLDER'; default: string; format?: string })
  | (SettingBase & { type: 'FILE' | 'SAVE_FILE' | 'LOAD_FILE'; default: string; filter?: string; format?: string })
  | (SettingBase & { type: 'FRAMES'; default: string })
  | (SettingBase & { type: 'ENUM'; default: string; options: SettingOption[] })
  | (SettingBase & { type: 'FLAGS'; default: string[]; options: SettingOption[] })
  | (SettingBase & { type: 'LIST'; default: string[]; list: string[]; listOnly: boolean })
  | (SettingBase & { type: 'GROUP' });

export type ValueSetting = Exclude<SettingDescription, { type: 'GROUP' }>;

export interface SettingsPreset {
  label: string;
  description: string;
  platforms: Platform[];
  status: SettingStatus;
  /** key → value, as the value shape stores it. */
  values: Record<string, SettingValue>;
}

/** A layer's settings description, parsed; `settings` is the tree, `byKey` every setting (groups included). */
export interface LayerSettingsDescription {
  layerName: string;
  /** The layer's own `platforms`, `status`, `description`, `introduction`, `url`, `api_version`. */
  layer: {
    description: string;
    introduction?: string;
    url?: string;
    apiVersion?: string;
    implementationVersion?: string;
    platforms: Platform[];
    status: SettingStatus;
  };
  /** false when the layer has no settings description at all (the editor falls back to free-form keys). */
  described: boolean;
  settings: SettingDescription[];
  byKey: Map<string, SettingDescription>;
  presets: SettingsPreset[];
  /** Problems in the description, with ranges into the manifest text; never thrown. */
  diagnostics: Diagnostic[];
}

/** Every setting in tree order (depth first, a setting before its children). */
export function flattenSettings(settings: readonly SettingDescription[]): SettingDescription[] {
  const out: SettingDescription[] = [];
  const walk = (list: readonly SettingDescription[]) => {
    for (const s of list) {
      out.push(s);
      walk(s.children);
    }
  };
  walk(settings);
  return out;
}

export const isValueSetting = (s: SettingDescription): s is ValueSetting => s.type !== 'GROUP';

/** Types whose value is a list (written comma-separated in vk_layer_settings.txt). */
export const isListType = (type: SettingType): type is 'FLAGS' | 'LIST' => type === 'FLAGS' || type === 'LIST';

const TYPE_WORDS: Record<SettingType, string> = {
  BOOL: 'on/off',
  INT: 'whole number',
  FLOAT: 'number',
  STRING: 'text',
  ENUM: 'one of a list',
  FLAGS: 'any of a list',
  FILE: 'file',
  SAVE_FILE: 'file to write',
  LOAD_FILE: 'file to read',
  FOLDER: 'folder',
  SAVE_FOLDER: 'folder to write',
  LOAD_FOLDER: 'folder to read',
  LIST: 'list of values',
  FRAMES: 'frame numbers and ranges',
  GROUP: 'group',
};

/** A few words for people: "whole number", "any of a list". */
export const typeInWords = (type: SettingType): string => TYPE_WORDS[type];

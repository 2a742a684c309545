import type { LayerSettingValues, SettingValue } from './setting-values';
import { isValueSetting, type LayerSettingsDescription, type Platform, type SettingDescription } from './setting-types';
import { settingStates } from './effective-settings';
import { settingsDocumentHtml, settingsDocumentMarkdown } from './settings-docs';
import { formatEnvironmentValue, formatSettingValue, settingPrefix } from './settings-file-format';

export { formatSettingValue, settingPrefix } from './settings-file-format';

/**
 * What a layer's settings become outside Strata: the exact vk_layer_settings.txt lines, the
 * environment variables the layer reads, and the export formats (txt, bash, cmd, hpp, html, md).
 * Pure; every output is stable (same input, same bytes), so the override writer can tell
 * "unchanged" from "changed".
 */

/** One layer's description (undescribedLayer() for free-form keys) and its stored values. */
export interface LayerSettingsInput {
  description: LayerSettingsDescription;
  values: LayerSettingValues;
}

export interface OutputOptions {
  /** Settings not available on this platform are left out. */
  platform: Platform;
  /**
   * false (the installed file): a described layer whose values are all defaults gets no lines. true
   * (exports): every setting, defaults included.
   */
  complete?: boolean;
}

export interface SettingsFileEntry {
  layerName: string;
  key: string;
  /** `<prefix>.<key>` */
  fullKey: string;
  value: SettingValue;
  /** `<prefix>.<key> = <value>` */
  line: string;
  /** undefined for a free-form key. */
  setting?: SettingDescription;
  changed: boolean;
}

/**
 * The settings a layer gets in the file: for a described layer with any change, every setting that
 * exists on the platform, is not HIDDEN (unless changed) and whose dependence holds, with its
 * effective value. All of them, not only the changed ones, so that the layer gets the defaults the
 * editor shows (the manifest's), not built-in ones that need not match them; vkconfig writes every
 * setting too.
 */
export function settingsFileEntries(input: LayerSettingsInput, options: OutputOptions): SettingsFileEntry[] {
  const { description, values } = input;
  const prefix = settingPrefix(description.layerName);
  const entry = (key: string, value: SettingValue, changed: boolean, setting?: SettingDescription): SettingsFileEntry => {
    const fullKey = `${prefix}.${key}`;
    return {
      layerName: description.layerName,
      key,
      fullKey,
      value,
      line: `${fullKey} = ${formatSettingValue(value)}`,
      changed,
      ...(setting ? { setting } : {}),
    };
  };
  if (!description.described) return Object.entries(values).map(([k, v]) => entry(k, v, true));
  const states = settingStates(description, values, options.platform);
  if (!options.complete && !states.some((s) => s.changed)) return [];
  return states
    .filter((s) => isValueSetting(s.setting) && s.available && s.dependence.enabled && (s.setting.view !== 'HIDDEN' || s.changed) && s.value !== undefined)
    .map((s) => entry(s.setting.key, s.value as SettingValue, s.changed, s.setting));
}

/** Just the `<prefix>.<key> = <value>` lines. */
export function settingsFileLines(input: LayerSettingsInput, options: OutputOptions): string[] {
  return settingsFileEntries(input, options).map((e) => e.line);
}

const HEADER = [
  '# Vulkan layer settings (vk_layer_settings.txt), written by Strata.',
  '# One `<layer>.<setting> = <value>` per line; lists are comma-separated.',
];

/** The whole file for several layers: a comment per layer and per setting, then its line. '' when no layer has a line. */
export function settingsFileText(inputs: readonly LayerSettingsInput[], options: OutputOptions, header: readonly string[] = HEADER): string {
  const blocks: string[] = [];
  for (const input of inputs) {
    const entries = settingsFileEntries(input, options);
    if (!entries.length) continue;
    const lines = [`# ${input.description.layerName}${input.description.described ? '' : ' (no settings description: keys as given)'}`];
    for (const e of entries) {
      if (e.setting) lines.push(`# ${e.setting.label}${e.changed ? '' : ' (default)'}`);
      lines.push(e.line);
    }
    blocks.push(lines.join('\n'));
  }
  if (!blocks.length) return '';
  return `${[...header, '', blocks.join('\n\n')].join('\n')}\n`;
}

export interface SettingEnvironmentVariable {
  name: string;
  value: string;
  layerName: string;
  key: string;
}

/**
 * The environment variables the layer reads for the settings of the file: those its manifest names
 * (`env`; the validation layer 1.3.239 reads exactly those, e.g. VK_LAYER_MESSAGE_ID_FILTER). A
 * variable overrides the settings file.
 */
export function settingsEnvironment(input: LayerSettingsInput, options: OutputOptions): SettingEnvironmentVariable[] {
  return settingsFileEntries(input, options).flatMap((e) =>
    e.setting?.env ? [{ name: e.setting.env, value: formatEnvironmentValue(e.value, options.platform), layerName: e.layerName, key: e.key }] : [],
  );
}

export const EXPORT_FORMATS = ['txt', 'bash', 'cmd', 'hpp', 'html', 'md'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface SettingsExport {
  format: ExportFormat;
  fileName: string;
  mimeType: string;
  text: string;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bashScript(input: LayerSettingsInput, options: OutputOptions): string {
  const o = { ...options, complete: true };
  const vars = settingsEnvironment(input, o);
  const withVar = new Set(vars.map((v) => v.key));
  const rest = settingsFileEntries(input, o).filter((e) => !withVar.has(e.key));
  const lines = [
    '#!/bin/sh',
    `# The settings of ${input.description.layerName} as environment variables, written by Strata.`,
    '# Source this file before starting the application: . ./this-file.sh',
  ];
  for (const v of vars) lines.push(`export ${v.name}=${shellQuote(v.value)}`);
  if (!vars.length) lines.push('# This layer names no environment variable for its settings.');
  if (rest.length) {
    lines.push('', '# The layer reads no environment variable for these; they need vk_layer_settings.txt:');
    for (const e of rest) lines.push(`#   ${e.line}`);
  }
  return `${lines.join('\n')}\n`;
}

/** cmd.exe: `set "NAME=value"` keeps spaces and & | < > literal; % must be doubled in a batch file. */
function cmdScript(input: LayerSettingsInput, options: OutputOptions): string {
  const o = { ...options, complete: true };
  const vars = settingsEnvironment(input, o);
  const withVar = new Set(vars.map((v) => v.key));
  const rest = settingsFileEntries(input, o).filter((e) => !withVar.has(e.key));
  const lines = [
    '@echo off',
    `rem The settings of ${input.description.layerName} as environment variables, written by Strata.`,
    'rem Run this file in the cmd.exe window that starts the application.',
  ];
  for (const v of vars) lines.push(`set "${v.name}=${v.value.replace(/%/g, '%%')}"`);
  if (!vars.length) lines.push('rem This layer names no environment variable for its settings.');
  if (rest.length) {
    lines.push('', 'rem The layer reads no environment variable for these; they need vk_layer_settings.txt:');
    for (const e of rest) lines.push(`rem   ${e.line.replace(/%/g, '%%')}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

const cString = (s: string) =>
  `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}""`)}"`;

const cIdentifier = (s: string) => {
  const id = s.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(id) ? `_${id}` : id;
};

type HppType = 'BOOL32' | 'INT32' | 'INT64' | 'FLOAT32' | 'STRING';

function hppTypeOf(entry: SettingsFileEntry): HppType {
  const v = entry.value;
  const t = entry.setting?.type;
  if (t === 'BOOL' || (!t && typeof v === 'boolean')) return 'BOOL32';
  if (t === 'INT' || (!t && typeof v === 'number' && Number.isInteger(v))) {
    const n = v as number;
    return n >= -2147483648 && n <= 2147483647 ? 'INT32' : 'INT64';
  }
  if (t === 'FLOAT' || (!t && typeof v === 'number')) return 'FLOAT32';
  return 'STRING';
}

const floatLiteral = (n: number) => {
  const s = String(n);
  return `${/[.e]/i.test(s) ? s : `${s}.0`}f`;
};

/**
 * A C++ header with the same settings as a VkLayerSettingEXT array for VK_EXT_layer_settings
 * (chain the VkLayerSettingsCreateInfoEXT into VkInstanceCreateInfo::pNext). Headers older than
 * the extension (Debian's are 1.3.239) get its declarations, with the registry's values.
 */
function hppHeader(input: LayerSettingsInput, options: OutputOptions): string {
  const layer = input.description.layerName;
  const ns = cIdentifier(settingPrefix(layer));
  const entries = settingsFileEntries(input, { ...options, complete: true });
  const out = [
    `// The settings of ${layer} for VK_EXT_layer_settings, written by Strata.`,
    '// Use: chain strata_layer_settings::' + ns + '::create_info() into VkInstanceCreateInfo::pNext and enable',
    '// the VK_EXT_layer_settings instance extension where the layer offers it.',
    '#pragma once',
    '#include <cstdint>',
    '#include <vulkan/vulkan.h>',
    '',
    '#ifndef VK_EXT_layer_settings',
    '#define VK_EXT_layer_settings 1',
    '#define VK_EXT_LAYER_SETTINGS_SPEC_VERSION 2',
    '#define VK_EXT_LAYER_SETTINGS_EXTENSION_NAME "VK_EXT_layer_settings"',
    '#define VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT ((VkStructureType)1000496000)',
    'typedef enum VkLayerSettingTypeEXT {',
    '    VK_LAYER_SETTING_TYPE_BOOL32_EXT = 0,',
    '    VK_LAYER_SETTING_TYPE_INT32_EXT = 1,',
    '    VK_LAYER_SETTING_TYPE_INT64_EXT = 2,',
    '    VK_LAYER_SETTING_TYPE_UINT32_EXT = 3,',
    '    VK_LAYER_SETTING_TYPE_UINT64_EXT = 4,',
    '    VK_LAYER_SETTING_TYPE_FLOAT32_EXT = 5,',
    '    VK_LAYER_SETTING_TYPE_FLOAT64_EXT = 6,',
    '    VK_LAYER_SETTING_TYPE_STRING_EXT = 7,',
    '    VK_LAYER_SETTING_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF',
    '} VkLayerSettingTypeEXT;',
    'typedef struct VkLayerSettingEXT {',
    '    const char* pLayerName;',
    '    const char* pSettingName;',
    '    VkLayerSettingTypeEXT type;',
    '    uint32_t valueCount;',
    '    const void* pValues;',
    '} VkLayerSettingEXT;',
    'typedef struct VkLayerSettingsCreateInfoEXT {',
    '    VkStructureType sType;',
    '    const void* pNext;',
    '    uint32_t settingCount;',
    '    const VkLayerSettingEXT* pSettings;',
    '} VkLayerSettingsCreateInfoEXT;',
    '#endif',
    '',
    'namespace strata_layer_settings {',
    `namespace ${ns} {`,
    '',
    `static const char* const layer_name = ${cString(layer)};`,
  ];
  const rows: string[] = [];
  const used = new Set<string>();
  for (const e of entries) {
    let id = cIdentifier(e.key);
    while (used.has(id)) id = `${id}_`;
    used.add(id);
    const type = hppTypeOf(e);
    const items: string[] = Array.isArray(e.value) ? e.value.map(cString) : [];
    let decl: string;
    switch (type) {
      case 'BOOL32':
        decl = `static const VkBool32 ${id}_values[] = {${e.value === true || e.value === 'true' ? 'VK_TRUE' : 'VK_FALSE'}};`;
        break;
      case 'INT32':
        decl = `static const int32_t ${id}_values[] = {${Number(e.value)}};`;
        break;
      case 'INT64':
        decl = `static const int64_t ${id}_values[] = {INT64_C(${Number(e.value)})};`;
        break;
      case 'FLOAT32':
        decl = `static const float ${id}_values[] = {${floatLiteral(Number(e.value))}};`;
        break;
      case 'STRING':
        decl = Array.isArray(e.value)
          ? items.length
            ? `static const char* const ${id}_values[] = {${items.join(', ')}};`
            : ''
          : `static const char* const ${id}_values[] = {${cString(String(e.value))}};`;
        break;
    }
    const count = Array.isArray(e.value) ? e.value.length : 1;
    if (e.setting) out.push(`// ${e.setting.label}${e.changed ? '' : ' (default)'}`);
    if (decl) out.push(decl);
    else out.push(`// ${e.key}: empty list`);
    rows.push(`    {layer_name, ${cString(e.key)}, VK_LAYER_SETTING_TYPE_${type}_EXT, ${count}, ${decl ? `${id}_values` : 'nullptr'}},`);
  }
  out.push('');
  if (rows.length) out.push('static const VkLayerSettingEXT settings[] = {', ...rows, '};', `static const uint32_t setting_count = ${rows.length};`);
  else out.push('static const VkLayerSettingEXT* const settings = nullptr;', 'static const uint32_t setting_count = 0;');
  out.push(
    '',
    'inline VkLayerSettingsCreateInfoEXT create_info(const void* next = nullptr) {',
    '    VkLayerSettingsCreateInfoEXT info = {};',
    '    info.sType = VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT;',
    '    info.pNext = next;',
    '    info.settingCount = setting_count;',
    '    info.pSettings = settings;',
    '    return info;',
    '}',
    '',
    `}  // namespace ${ns}`,
    '}  // namespace strata_layer_settings',
  );
  return `${out.join('\n')}\n`;
}

/** One layer's settings in one export format; the file name is the one vkconfig users expect. */
export function exportLayerSettings(input: LayerSettingsInput, format: ExportFormat, options: OutputOptions): SettingsExport {
  const base = settingPrefix(input.description.layerName);
  switch (format) {
    case 'txt':
      return { format, fileName: 'vk_layer_settings.txt', mimeType: 'text/plain', text: settingsFileText([input], { ...options, complete: true }) };
    case 'bash':
      return { format, fileName: `${base}_settings.sh`, mimeType: 'text/x-shellscript', text: bashScript(input, options) };
    case 'cmd':
      return { format, fileName: `${base}_settings.bat`, mimeType: 'text/plain', text: cmdScript(input, { ...options, platform: 'WINDOWS' }) };
    case 'hpp':
      return { format, fileName: `${base}_settings.hpp`, mimeType: 'text/x-c++hdr', text: hppHeader(input, options) };
    case 'html':
      return { format, fileName: `${base}_settings.html`, mimeType: 'text/html', text: settingsDocumentHtml(input.description, input.values) };
    case 'md':
      return { format, fileName: `${base}_settings.md`, mimeType: 'text/markdown', text: settingsDocumentMarkdown(input.description, input.values) };
  }
}

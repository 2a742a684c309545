import { DiagnosticSeverity } from '../../../shared/lint/diagnostic-severity';
import { strataError } from '../../../shared/errors/strata-error';
import type { LayerSettingValues } from '../../../shared/settings/setting-values';
import { flattenSettings, typeInWords, type LayerSettingsDescription, type Platform, type SettingDescription } from '../../../shared/settings/setting-types';
import { discoveredLayerNames, findLayerDescription, type DescribedLayer } from '../../../shared/settings/layer-lookup';
import { closestKey, checkSettingValue, parseSettingText } from '../../../shared/settings/setting-validation';
import { withSettingValue } from '../../../shared/settings/effective-settings';
import { availableOn, platformName, platformOf } from '../../../shared/settings/setting-platforms';
import { exportLayerSettings, formatSettingValue, settingPrefix } from '../../../shared/settings/settings-output';
import { parseProfileText } from '../../../shared/profiles/profile-document';
import { callChannel, CliFailure } from './cli-channel';
import { EXIT, formatTable, printJson, severityName, writeOutputFile } from './cli-output';
import { PLATFORM_TOKENS, type ExportOptions } from './settings-command';
import { writeErr, writeOut } from './standard-streams';

/**
 * The actions of `strata settings show|export` (registered in settings-command.ts, loaded when one runs): a layer's settings description (from the manifest discovery finds,
 * the same one the loader reads) and its exports (txt, bash, cmd, hpp, html, md). The values start
 * from a SettingsValuesSource (the defaults, or a profile's with --profile) and `--set KEY=VALUE` changes them.
 */

/** Where an export's starting values come from: none (the defaults) unless a caller brings some, e.g. a profile. */
export type SettingsValuesSource = (layer: DescribedLayer) => Promise<LayerSettingValues>;
export const defaultsOnly: SettingsValuesSource = async () => ({});

/**
 * The values a profile or preset keeps for the layer. The name is resolved by main, as for
 * `explain --profile` (profiles.export: a stored profile, or a preset by name or id; an unknown
 * name is its error value), so the CLI holds no second copy of that rule.
 */
export function profileValues(name: string): SettingsValuesSource {
  return async (layer) => {
    const exported = await callChannel('profiles.export', { name });
    const read = parseProfileText(exported.text, `profile "${name}"`);
    if (!read.ok) throw new CliFailure(read.error, EXIT.problems);
    return read.profile.settings?.[layer.description.layerName] ?? {};
  };
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

const usage = (message: string, where: string, fix: string) => new CliFailure(strataError('settings/usage', message, { where, fix }), EXIT.usage);

/** The layer through discovery; an unknown name is a usage error with the nearest name found. */
export async function describeLayer(layerName: string): Promise<DescribedLayer> {
  const inventory = await callChannel('discovery.manifests', {});
  const found = findLayerDescription(inventory, layerName);
  if (found) return found;
  const near = closestKey(layerName, discoveredLayerNames(inventory));
  throw usage(
    `No layer named ${layerName} was found where the Vulkan loader looks`,
    '--layer',
    near ? `did you mean ${near}? (\`strata layer list\` shows every layer found)` : '`strata layer list` shows every layer found',
  );
}

/** `--set KEY=VALUE`, applied in order; unknown keys and values that do not fit are usage errors. */
export function applySetOptions(description: LayerSettingsDescription, base: LayerSettingValues, sets: readonly string[]): LayerSettingValues {
  let values = base;
  for (const item of sets) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw usage(`"${item}" is not KEY=VALUE`, '--set', 'write --set key=value, e.g. --set log_filename=/tmp/vvl.txt');
    const key = item
      .slice(0, eq)
      .trim()
      .replace(new RegExp(`^${settingPrefix(description.layerName).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`), '');
    const text = item.slice(eq + 1);
    if (!description.described) {
      if (!/^[A-Za-z0-9_.-]+$/.test(key)) throw usage(`"${key}" is not a usable setting key`, '--set', 'use letters, digits, _ . - in keys');
      values = withSettingValue(null, values, key, text);
      continue;
    }
    const setting = description.byKey.get(key);
    if (!setting) {
      const near = closestKey(
        key,
        [...description.byKey.values()].filter((s) => s.type !== 'GROUP').map((s) => s.key),
      );
      throw usage(
        `${description.layerName} has no setting "${key}"`,
        `--set ${item}`,
        `${near ? `did you mean ${near}? ` : ''}\`strata settings show --layer ${description.layerName}\` lists its settings`,
      );
    }
    const parsed = parseSettingText(setting, text);
    const problem = 'error' in parsed ? parsed.error : checkSettingValue(setting, parsed.value);
    if (problem || !('value' in parsed)) throw usage(`${setting.label} (${key}): ${lowerFirst(problem ?? '')}`, `--set ${item}`, valueHint(setting));
    values = withSettingValue(description, values, key, parsed.value);
  }
  return values;
}

function valueHint(s: SettingDescription): string {
  switch (s.type) {
    case 'BOOL':
      return 'give true or false';
    case 'INT':
    case 'FLOAT':
      return `give a ${s.type === 'INT' ? 'whole ' : ''}number${s.min !== undefined ? ` from ${s.min}` : ''}${s.max !== undefined ? ` to ${s.max}` : ''}`;
    case 'ENUM':
      return `give one of ${s.options.map((o) => o.key).join(', ')}`;
    case 'FLAGS':
      return `give a comma-separated list of ${s.options.map((o) => o.key).join(', ')}`;
    case 'LIST':
      return 'give comma-separated items, none containing a comma';
    case 'FRAMES':
      return 'give frames like 0-5,10 or 10-100-10';
    default:
      return 'give a value without line breaks';
  }
}

const valueText = (s: SettingDescription): string => (s.type === 'GROUP' ? '' : formatSettingValue(s.default) || '(empty)');

function details(s: SettingDescription): string {
  const parts: string[] = [];
  if ((s.type === 'INT' || s.type === 'FLOAT') && (s.min !== undefined || s.max !== undefined))
    parts.push(`${s.min ?? '…'}–${s.max ?? '…'}${s.unit ? ` ${s.unit}` : ''}`);
  if ('options' in s) parts.push(`values: ${s.options.map((o) => o.key).join(', ')}`);
  if (s.type === 'LIST' && s.list.length) parts.push(`${s.listOnly ? 'only' : 'e.g.'}: ${s.list.join(', ')}`);
  if (s.env) parts.push(`env ${s.env}`);
  if (s.dependence && s.dependence.mode !== 'NONE' && s.dependence.conditions.length)
    parts.push(`needs ${s.dependence.conditions.map((c) => `${c.key}=${formatSettingValue(c.value)}`).join(s.dependence.mode === 'ALL' ? ' and ' : ' or ')}`);
  if (s.status !== 'STABLE') parts.push(s.status.toLowerCase());
  return parts.join('; ');
}

const depthOf = (description: LayerSettingsDescription, s: SettingDescription): number => {
  let depth = 0;
  for (let p = s.parent; p; p = description.byKey.get(p.key)?.parent ?? null) depth++;
  return depth;
};

export function formatSettingsShow(layer: DescribedLayer, platform: Platform): string {
  const d = layer.description;
  const all = flattenSettings(d.settings);
  const here = all.filter((s) => availableOn(s, platform) && s.view !== 'HIDDEN');
  const elsewhere = all.filter((s) => !availableOn(s, platform)).length;
  const out = [`${d.layerName}  (${layer.manifestPath})`];
  if (d.layer.description) out.push(`  ${d.layer.description}`);
  if (!d.described) {
    out.push('  This layer has no settings description (file_format_version 1.2.0 "features.settings"); any key can be set with --set key=value.');
  } else {
    out.push(
      `  ${here.length} settings on ${platformName(platform)}${elsewhere ? ` (${elsewhere} more only on other platforms: --platform)` : ''}; in vk_layer_settings.txt as ${settingPrefix(d.layerName)}.<key> = <value>`,
      '',
    );
    out.push(
      formatTable(
        ['KEY', 'TYPE', 'DEFAULT', 'DETAILS'],
        here.map((s) => [
          `${'  '.repeat(depthOf(d, s))}${s.key}`,
          s.type === 'GROUP' ? 'group' : `${s.type} (${typeInWords(s.type)})`,
          valueText(s),
          details(s),
        ]),
        '  ',
      ),
    );
  }
  if (d.presets.length) out.push('', `  Presets: ${d.presets.map((p) => p.label).join(', ')}`);
  if (d.diagnostics.length) {
    out.push('', '  Problems in the settings description:');
    for (const x of d.diagnostics)
      out.push(
        `    ${layer.manifestPath}:${x.range.start.line + 1}:${x.range.start.character + 1}: ${severityName(x.severity)}: ${typeof x.message === 'string' ? x.message : x.message.value} [${String(x.code)}]`,
      );
  }
  return out.join('\n');
}

/** The --json form of `settings show`: plain data (no Map), nested settings flattened with `parent` and `depth`. */
export function settingsShowJson(layer: DescribedLayer) {
  const d = layer.description;
  return {
    layer: d.layerName,
    manifest: layer.manifestPath,
    described: d.described,
    prefix: settingPrefix(d.layerName),
    settings: flattenSettings(d.settings).map((s) => {
      const { children: _children, range: _range, ...rest } = s;
      return { ...rest, depth: depthOf(d, s) };
    }),
    presets: d.presets,
    diagnostics: d.diagnostics,
  };
}

/** `settings export`, with the starting values from `source` (defaults unless a caller brings a profile). */
export async function settingsExportAction(opts: ExportOptions, source: SettingsValuesSource = defaultsOnly): Promise<void> {
  const layer = await describeLayer(opts.layer);
  const description = layer.description;
  const values = applySetOptions(description, await source(layer), opts.set);
  const platform = opts.platform ? (PLATFORM_TOKENS[opts.platform] as Platform) : platformOf(process.platform);
  const exported = exportLayerSettings({ description, values }, opts.format, { platform });
  if (!opts.output || opts.dryRun) {
    writeOut(exported.text);
    if (opts.output) writeErr(`strata: dry run: ${opts.output} was not written (${Buffer.byteLength(exported.text)} bytes would be).\n`);
    return;
  }
  await writeOutputFile(opts.output, exported.text);
  writeOut(`Wrote ${opts.output} (${opts.format}, the settings of ${description.layerName}).\n`);
}

/** `settings show`. */
export async function settingsShowAction(opts: { layer: string; json?: boolean; platform?: string }): Promise<void> {
  const layer = await describeLayer(opts.layer);
  if (opts.json) printJson(settingsShowJson(layer));
  else writeOut(`${formatSettingsShow(layer, opts.platform ? (PLATFORM_TOKENS[opts.platform] as Platform) : platformOf(process.platform))}\n`);
  if (layer.description.diagnostics.some((x) => x.severity === DiagnosticSeverity.Error)) process.exitCode = EXIT.problems;
}

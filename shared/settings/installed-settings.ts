import type { SettingsByLayer } from './setting-values';
import type { LayerSettingsDescription, Platform } from './setting-types';
import { checkLayerValues, type SettingProblem } from './setting-validation';
import { settingsFileText, type LayerSettingsInput } from './settings-output';
import { undescribedLayer } from './settings-schema';

/**
 * The vk_layer_settings.txt Strata installs for a configuration's settings (OverrideConfig.settings):
 * each layer's values checked against its description (a layer not found is written as given, like
 * a layer the override forces on that is not installed yet), then one file for all of them.
 */
export const INSTALLED_SETTINGS_HEADER = [
  '# Vulkan layer settings (vk_layer_settings.txt), installed by Strata for every Vulkan application of',
  '# this user: layers read this file before VK_LAYER_SETTINGS_PATH and ./vk_layer_settings.txt.',
  '# `strata override remove` restores what was here before Strata.',
];

export interface InstalledSettings {
  /** null: no line to write (no settings, or only defaults). */
  text: string | null;
  problems: (SettingProblem & { layer: string })[];
  inputs: LayerSettingsInput[];
}

export function installedSettingsFile(
  settings: SettingsByLayer | undefined,
  describe: (layerName: string) => LayerSettingsDescription | null,
  platform: Platform,
): InstalledSettings {
  const inputs: LayerSettingsInput[] = [];
  const problems: InstalledSettings['problems'] = [];
  for (const [layer, values] of Object.entries(settings ?? {})) {
    if (!Object.keys(values).length) continue;
    const description = describe(layer) ?? undescribedLayer(layer);
    problems.push(...checkLayerValues(description, values).map((p) => ({ ...p, layer })));
    inputs.push({ description, values });
  }
  const text = settingsFileText(inputs, { platform }, INSTALLED_SETTINGS_HEADER);
  return { text: text === '' ? null : text, problems, inputs };
}

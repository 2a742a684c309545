import { homedir } from 'node:os';
import { serviceError } from '../../shared/errors/strata-error';
import { RULES_VERSION } from '../../shared/loader/chain';
import { launchEnvironment } from '../../shared/profiles/launch-environment';
import { builtInPresets, findPreset, PRESET_NAMES } from '../../shared/profiles/presets';
import { findLayerDescription } from '../../shared/settings/layer-lookup';
import { installedSettingsFile } from '../../shared/settings/installed-settings';
import { platformOf } from '../../shared/settings/setting-platforms';
import { settingsFileText } from '../../shared/settings/settings-output';
import { discoveryManifests } from '../discovery/discovery-service';
import { ProfileStore, profilesDir } from '../profiles/profile-store';
import type { ProfileLaunch, ProfileResolver } from './session-service';

/** Where the launch's own settings file says it came from. */
const LAUNCH_SETTINGS_HEADER = ["# Vulkan layer settings for one launch from Strata (the profile's settings); removed when the application ends."];
/** launchEnvironment puts this path in VK_LAYER_SETTINGS_PATH; the launcher writes the file and sets the variable itself. */
const SETTINGS_PLACEHOLDER = '(written by the launcher)';

/**
 * A profile applied to one launch, entirely through the environment (shared/profiles/
 * launch-environment.ts): the installed override stays as it is. The profile is a stored one or a
 * built-in preset, as `strata profile` resolves names; its layer settings become the launch's own
 * vk_layer_settings.txt (returned as text; the launcher writes it next to its validation routing).
 */
export function profileResolver(options: { loaderVersion: () => Promise<string | null> }): ProfileResolver {
  return async (name, env): Promise<ProfileLaunch> => {
    const inventory = await discoveryManifests({ env });
    const store = new ProfileStore({ dir: profilesDir(env, env['HOME'] || homedir()), reservedNames: Object.values(PRESET_NAMES) });
    const presets = builtInPresets(inventory);
    const profile = store.find(name)?.profile ?? findPreset(presets, name)?.profile;
    if (!profile) {
      throw serviceError({
        ...store.notFound(name),
        fix: `use a profile or a preset name (\`strata profile list\`): ${presets.map((p) => `"${p.profile.name}"`).join(', ')}`,
      });
    }
    const version = (await options.loaderVersion().catch(() => null)) ?? null;
    const notes: string[] = version ? [] : [`no Vulkan loader answered; the profile was turned into variables by the rules of loader ${RULES_VERSION}`];

    let settingsText: string | null = null;
    if (profile.settings && Object.keys(profile.settings).length) {
      const installed = installedSettingsFile(
        profile.settings,
        (layer) => findLayerDescription(inventory, layer)?.description ?? null,
        platformOf(process.platform),
      );
      const first = installed.problems[0];
      if (first) {
        throw serviceError('settings/invalid-value', `Profile "${profile.name}": ${first.message}; nothing was started`, {
          where: `settings.${first.layer}.${first.key}`,
          fix: `correct the value in the profile (\`strata settings show --layer ${first.layer}\` lists the settings, their types and ranges)`,
        });
      }
      const text = settingsFileText(installed.inputs, { platform: platformOf(process.platform) }, LAUNCH_SETTINGS_HEADER);
      settingsText = text === '' ? null : text;
    }
    const launch = launchEnvironment(profile, {
      inventory,
      loaderVersion: version ?? RULES_VERSION,
      env,
      ...(settingsText ? { layerSettingsPath: SETTINGS_PLACEHOLDER } : {}),
      ...(process.platform === 'win32' ? { listSeparator: ';' as const } : {}),
    });
    const additions = { ...launch.env };
    if (additions['VK_LAYER_SETTINGS_PATH'] === SETTINGS_PLACEHOLDER) delete additions['VK_LAYER_SETTINGS_PATH'];
    return { name: profile.name, copy: profile, env: additions, notes: [...notes, ...launch.notes], settingsText };
  };
}

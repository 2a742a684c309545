import { homedir } from 'node:os';
import { serviceError } from '../../shared/errors/strata-error';
import { forcesLayers, hasLayerSettings, OVERRIDE_FILE_NAME, type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import type { OverrideApplyResult, OverrideExport, OverrideRemoveResult, OverrideStatus } from '../../shared/override/override-status';
import { findLayerDescription } from '../../shared/settings/layer-lookup';
import { installedSettingsFile } from '../../shared/settings/installed-settings';
import { platformOf } from '../../shared/settings/setting-platforms';
import { discoveryManifests } from '../discovery/discovery-service';
import type { OverridePreview } from '../../shared/override/override-preview';
import { applyConfiguration, configurationLocations, previewConfiguration, readConfigurationStatus, removeConfiguration } from './configuration-writer';

/** The override channels (shared/ipc/contract.ts) over the writer, in the environment Strata reasons about. */
export interface OverrideServiceOptions {
  env: NodeJS.ProcessEnv;
}

// Windows: the override lives in a folder of Strata's and is registered in the registry (windows-override.ts).
const onWindows = () => process.platform === 'win32';
const windows = () => import('./windows-override');

const locations = (options: OverrideServiceOptions, system: boolean | undefined) =>
  configurationLocations(system === true, options.env, options.env['HOME'] || homedir());

/**
 * The scope a request without `system` means (shared/override/override-status.ts): the one this
 * Strata's applications read. Strata models an application as elevated as itself (explain does), and
 * on Windows an elevated application reads only HKLM: so an elevated Strata's is the system scope;
 * without it, the window's Apply would register an override no application of this session reads
 * (every process under Wine is elevated). Elsewhere, and for a Strata that is not elevated: the
 * user's. The CLI always says which (`--system`).
 */
export async function defaultOverrideSystem(): Promise<boolean> {
  if (!onWindows()) return false;
  const { windowsProcessElevated } = await import('../discovery/windows-registry');
  return (await windowsProcessElevated()) === true;
}

/** The request with its scope made explicit (defaultOverrideSystem when it has none). */
export async function withOverrideScope<R extends { system?: boolean | undefined }>(request: R): Promise<R> {
  return request.system === undefined ? { ...request, system: await defaultOverrideSystem() } : request;
}

/** The override's files where the loader reads them on Linux and macOS (the Windows status needs the registry: overrideStatusOnAnyPlatform). */
export function overrideStatus(options: OverrideServiceOptions, request: { system?: boolean | undefined }): OverrideStatus {
  return readConfigurationStatus(locations(options, request.system), options.env);
}

/** `override.status`: on Windows with the override's registry value. */
export async function overrideStatusOnAnyPlatform(options: OverrideServiceOptions, request: { system?: boolean | undefined }): Promise<OverrideStatus> {
  if (!onWindows()) return overrideStatus(options, request);
  const w = await windows();
  return w.windowsOverrideStatus(w.windowsConfigurationLocations(request.system === true, options.env), options.env);
}

/**
 * The settings file of a configuration: each layer's description comes from discovery (the same
 * manifests the loader reads), and a value that does not fit its setting refuses the whole apply.
 */
async function settingsFileOf(options: OverrideServiceOptions, config: OverrideConfig): Promise<string | null> {
  if (!hasLayerSettings(config)) return null;
  const inventory = await discoveryManifests({ env: options.env });
  const installed = installedSettingsFile(config.settings, (name) => findLayerDescription(inventory, name)?.description ?? null, platformOf(process.platform));
  const first = installed.problems[0];
  if (first)
    throw serviceError(
      'settings/invalid-value',
      `${first.message}${installed.problems.length > 1 ? ` (and ${installed.problems.length - 1} more problem${installed.problems.length > 2 ? 's' : ''})` : ''}; nothing was written`,
      {
        where: `settings.${first.layer}.${first.key}`,
        fix: `correct the value (\`strata settings show --layer ${first.layer}\` lists the settings, their types and ranges)`,
        data: { problems: installed.problems },
      },
    );
  return installed.text;
}

export async function overrideApply(
  options: OverrideServiceOptions,
  request: { config: OverrideConfig; force?: boolean | undefined; system?: boolean | undefined },
): Promise<OverrideApplyResult> {
  const settings = await settingsFileOf(options, request.config);
  const override = forcesLayers(request.config) ? buildOverrideManifest(request.config) : null;
  if (onWindows()) {
    const w = await windows();
    return w.windowsOverrideApply(w.windowsConfigurationLocations(request.system === true, options.env), { override, settings }, options.env, {
      force: request.force === true,
    });
  }
  return applyConfiguration(locations(options, request.system), { override, settings }, options.env, { force: request.force === true });
}

/** override.preview: the files an apply (config) or a surrender (config null) would change; the settings file is built and checked as apply builds it. */
export async function overridePreview(
  options: OverrideServiceOptions,
  request: { config: OverrideConfig | null; system?: boolean | undefined },
): Promise<OverridePreview> {
  const w = onWindows() ? await windows() : null;
  const locs = w ? w.windowsConfigurationLocations(request.system === true, options.env) : locations(options, request.system);
  const texts = request.config
    ? { override: forcesLayers(request.config) ? buildOverrideManifest(request.config) : null, settings: await settingsFileOf(options, request.config) }
    : null;
  const preview = previewConfiguration(locs, texts);
  if (!w) return preview;
  const keys = w.windowsRegistrationKeys(preview.scope);
  return { ...preview, files: preview.files.map((f) => ({ ...f, registeredIn: keys[f.role] })) };
}

/** `override.remove`: on Windows also the registry values (overrideRemove is the Linux and macOS files only). */
export async function overrideRemoveOnAnyPlatform(
  options: OverrideServiceOptions,
  request: { force?: boolean | undefined; system?: boolean | undefined },
): Promise<OverrideRemoveResult> {
  if (!onWindows()) return overrideRemove(options, request);
  const w = await windows();
  return w.windowsOverrideRemove(w.windowsConfigurationLocations(request.system === true, options.env), options.env, { force: request.force === true });
}

export function overrideRemove(options: OverrideServiceOptions, request: { force?: boolean | undefined; system?: boolean | undefined }): OverrideRemoveResult {
  return removeConfiguration(locations(options, request.system), options.env, { force: request.force === true });
}

export function overrideExport(request: { config: OverrideConfig }): OverrideExport {
  return { fileName: OVERRIDE_FILE_NAME, text: buildOverrideManifest(request.config) };
}

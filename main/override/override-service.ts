import { homedir } from 'node:os';
import { buildOverrideManifest, OVERRIDE_FILE_NAME, type OverrideConfig } from '../../shared/override/override-config';
import type { OverrideApplyResult, OverrideExport, OverrideRemoveResult, OverrideStatus } from '../../shared/override/override-status';
import { applyOverride, overrideLocation, readOverrideStatus, removeOverride } from './override-writer';

/** The override channels (shared/ipc/contract.ts) over the writer, in the environment Strata reasons about. */
export interface OverrideServiceOptions {
  env: NodeJS.ProcessEnv;
}

const location = (options: OverrideServiceOptions, system: boolean | undefined) =>
  overrideLocation(system ? 'system' : 'user', options.env, options.env['HOME'] || homedir());

export function overrideStatus(options: OverrideServiceOptions, request: { system?: boolean | undefined }): OverrideStatus {
  return readOverrideStatus(location(options, request.system));
}

export function overrideApply(options: OverrideServiceOptions, request: { config: OverrideConfig; force?: boolean | undefined; system?: boolean | undefined }): OverrideApplyResult {
  return applyOverride(location(options, request.system), buildOverrideManifest(request.config), { force: request.force === true });
}

export function overrideRemove(options: OverrideServiceOptions, request: { force?: boolean | undefined; system?: boolean | undefined }): OverrideRemoveResult {
  return removeOverride(location(options, request.system), { force: request.force === true });
}

export function overrideExport(request: { config: OverrideConfig }): OverrideExport {
  return { fileName: OVERRIDE_FILE_NAME, text: buildOverrideManifest(request.config) };
}

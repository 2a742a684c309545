import { existsSync } from 'node:fs';
import { RULES_VERSION } from '../../shared/loader/loader-rules';
import { settingsFileSearch } from '../../shared/loader/settings-file-locations';
import type { Environment } from '../../shared/loader/xdg-directories';

/**
 * The vk_loader_settings.json a loader of `loaderVersion` reads with `env`: the first that exists in
 * its own search order (shared/loader/settings-file-locations.ts, proven per version by
 * tests/integration/settings-file-search-vs-loader.test.ts); null when there is none. An unknown
 * version is taken as the rules version. Used by `strata explain`, `strata lint` and the status.
 */
export function foundSettingsFile(env: Environment, loaderVersion: string | null, elevated = false): string | null {
  return settingsFileSearch({ env, loaderVersion: loaderVersion ?? RULES_VERSION, elevated }).find((p) => existsSync(p)) ?? null;
}

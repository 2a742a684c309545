/**
 * The override's fixed names and the one rule the CLI's help and summaries need, without zod: the
 * schemas are in override-config.ts (which re-exports these), loaded only where a configuration is
 * read (issue #19: start-up). See override-config.ts for the override meta-layer itself.
 */
export const OVERRIDE_LAYER_NAME = 'VK_LAYER_LUNARG_override';
export const OVERRIDE_FILE_NAME = 'VkLayer_override.json';
/** Set to 1 in an application's environment to switch Strata's override off for it (disable_environment). */
export const OVERRIDE_DISABLE_VARIABLE = 'DISABLE_STRATA_OVERRIDE';
/** A meta-layer's api_version must not exceed its components' (LLP_LAYER_8): every 1.3 layer meets 1.3.0. */
export const DEFAULT_OVERRIDE_API_VERSION = '1.3.0';

/** The configuration forces at least one layer on or off (otherwise there is no override file to write). */
export function forcesLayers(config: { readonly layers: readonly { readonly state: 'on' | 'off' | 'auto' }[] }): boolean {
  return config.layers.some((l) => l.state !== 'auto');
}

import * as z from 'zod';
import { SettingsByLayerSchema } from '../settings/setting-values';

/**
 * What Strata installs as the override meta-layer (LoaderLayerInterface § Override Meta-Layer):
 * an implicit meta-layer named VK_LAYER_LUNARG_override whose component_layers the loader forces on
 * for every application (or those in app_keys) and whose blacklisted_layers it keeps out, whether
 * the application or the environment asks for them or not.
 *
 * A configuration is a list of layers, each in one of three states (vkconfig's Auto / On / Off):
 *   on   forced on: a component layer, in the order given (first = closest to the application)
 *   off  forced off: blacklisted, even when an application enables it explicitly
 *   auto the application and the environment decide: the layer is not named in the file at all
 */
import { DEFAULT_OVERRIDE_API_VERSION, OVERRIDE_DISABLE_VARIABLE, OVERRIDE_LAYER_NAME } from './override-names';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';

export { DEFAULT_OVERRIDE_API_VERSION, forcesLayers, OVERRIDE_DISABLE_VARIABLE, OVERRIDE_FILE_NAME, OVERRIDE_LAYER_NAME } from './override-names';

export const LayerControlSchema = z.enum(['on', 'off', 'auto']);
export type LayerControl = z.infer<typeof LayerControlSchema>;

export const OverrideLayerSchema = z
  .object({
    name: z.string().min(1).regex(/^\S+$/, 'a layer name has no spaces, e.g. VK_LAYER_KHRONOS_validation'),
    /** vkconfig's layer control: on (forced on), off (forced off), auto (the application decides). */
    state: LayerControlSchema,
  })
  .strict();
export type OverrideLayer = z.infer<typeof OverrideLayerSchema>;

export const OverrideConfigSchema = z
  .object({
    /** Ordered: the 'on' layers become component_layers in this order. */
    layers: z.array(OverrideLayerSchema).max(REQUEST_LIMITS.overrideLayers, tooMany('layers', REQUEST_LIMITS.overrideLayers)),
    /** app_keys: full paths of the executables the override applies to; absent or empty = every application. */
    appKeys: z.array(z.string().min(1)).max(REQUEST_LIMITS.overrideStrings, tooMany('app keys', REQUEST_LIMITS.overrideStrings)).optional(),
    /** override_paths: the only folders the loader then searches for the component layers (and VK_LAYER_PATH is ignored). */
    overridePaths: z.array(z.string().min(1)).max(REQUEST_LIMITS.overrideStrings, tooMany('override paths', REQUEST_LIMITS.overrideStrings)).optional(),
    /** The meta-layer's api_version; at most the lowest api_version of the 'on' layers. */
    apiVersion: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'write three numbers, e.g. "1.3.0"')
      .optional(),
    /** Layer settings changed from their defaults; written to vk_layer_settings.txt beside the override. */
    settings: SettingsByLayerSchema.optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.layers.forEach((layer, i) => {
      if (seen.has(layer.name))
        ctx.addIssue({ code: 'custom', path: ['layers', i, 'name'], message: `${layer.name} is listed twice; give each layer one state` });
      seen.add(layer.name);
      if (layer.name === OVERRIDE_LAYER_NAME)
        ctx.addIssue({
          code: 'custom',
          path: ['layers', i, 'name'],
          message: `${OVERRIDE_LAYER_NAME} is the override layer itself and cannot be one of its layers`,
        });
    });
    // Settings alone are a configuration too: the layers read vk_layer_settings.txt whether or not the override forces them on.
    if (!config.layers.some((l) => l.state !== 'auto') && !hasLayerSettings(config))
      ctx.addIssue({
        code: 'custom',
        path: ['layers'],
        message:
          "no layer is 'on' or 'off' and no setting is changed, so the override would change nothing; to leave every layer to the applications, remove the override (`strata override remove`)",
      });
  });
export type OverrideConfig = z.infer<typeof OverrideConfigSchema>;

/** The configuration changes at least one layer setting. */
export function hasLayerSettings(config: Pick<OverrideConfig, 'settings'>): boolean {
  return Object.values(config.settings ?? {}).some((values) => Object.keys(values).length > 0);
}

/** The override meta-layer of a configuration, as the loader reads it (field names of the manifest). */
export interface OverrideLayerManifest {
  file_format_version: string;
  layer: {
    name: typeof OVERRIDE_LAYER_NAME;
    type: 'GLOBAL';
    api_version: string;
    implementation_version: string;
    description: string;
    component_layers: string[];
    blacklisted_layers?: string[];
    app_keys?: string[];
    override_paths?: string[];
    disable_environment: Record<string, string>;
  };
}

export function overrideManifestObject(config: OverrideConfig): OverrideLayerManifest {
  const on = config.layers.filter((l) => l.state === 'on').map((l) => l.name);
  const off = config.layers.filter((l) => l.state === 'off').map((l) => l.name);
  return {
    // 1.1.1 brought component_layers, override_paths, blacklisted_layers and app_keys; 1.2.0 is what
    // vkconfig writes and every loader since 1.2.182 knows.
    file_format_version: '1.2.0',
    layer: {
      name: OVERRIDE_LAYER_NAME,
      type: 'GLOBAL',
      api_version: config.apiVersion ?? DEFAULT_OVERRIDE_API_VERSION,
      implementation_version: '1',
      description: "Strata's override layer",
      component_layers: on,
      ...(off.length ? { blacklisted_layers: off } : {}),
      ...(config.appKeys?.length ? { app_keys: config.appKeys } : {}),
      ...(config.overridePaths?.length ? { override_paths: config.overridePaths } : {}),
      // An implicit layer needs one (LLP_LAYER_9); it is also the user's way out: set it and the
      // loader ignores the whole override, component and blacklist alike.
      disable_environment: { [OVERRIDE_DISABLE_VARIABLE]: '1' },
    },
  };
}

/** The text of VkLayer_override.json for a configuration: stable (same config, same bytes), ending in a newline. */
export function buildOverrideManifest(config: OverrideConfig): string {
  return `${JSON.stringify(overrideManifestObject(OverrideConfigSchema.parse(config)), null, 2)}\n`;
}

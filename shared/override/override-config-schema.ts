import * as z from 'zod';
import { SettingsByLayerSchema } from '../settings/setting-values';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { hasLayerSettings, LAYER_CONTROLS, OVERRIDE_LAYER_NAME, overrideManifestText, type OverrideConfig, type OverrideLayer } from './override-config';

/**
 * The override configuration's schemas (override-config.ts holds the configuration and its manifest):
 * what crosses a boundary (a request, a profile, a file the user gives) is checked against them. A
 * module of their own, so that the renderer's first view, which only previews a draft, builds none
 * of them (issue #19: first render). What each field means is said once, on the interfaces there.
 */
export const LayerControlSchema = z.enum(LAYER_CONTROLS);

export const OverrideLayerSchema = z
  .object({
    name: z.string().min(1).regex(/^\S+$/, 'a layer name has no spaces, e.g. VK_LAYER_KHRONOS_validation'),
    state: LayerControlSchema,
  })
  .strict() satisfies z.ZodType<OverrideLayer>;

export const OverrideConfigSchema = z
  .object({
    layers: z.array(OverrideLayerSchema).max(REQUEST_LIMITS.overrideLayers, tooMany('layers', REQUEST_LIMITS.overrideLayers)),
    appKeys: z.array(z.string().min(1)).max(REQUEST_LIMITS.overrideStrings, tooMany('app keys', REQUEST_LIMITS.overrideStrings)).optional(),
    overridePaths: z.array(z.string().min(1)).max(REQUEST_LIMITS.overrideStrings, tooMany('override paths', REQUEST_LIMITS.overrideStrings)).optional(),
    apiVersion: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'write three numbers, e.g. "1.3.0"')
      .optional(),
    settings: z.optional(SettingsByLayerSchema),
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
  }) satisfies z.ZodType<OverrideConfig>;

/** The text of VkLayer_override.json for a configuration, checked against OverrideConfigSchema first (throws on a bad one). */
export function buildOverrideManifest(config: OverrideConfig): string {
  return overrideManifestText(OverrideConfigSchema.parse(config));
}

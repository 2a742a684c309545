import type { SettingsByLayer } from '../settings/setting-values';

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

export { DEFAULT_OVERRIDE_API_VERSION, forcesLayers, OVERRIDE_DISABLE_VARIABLE, OVERRIDE_FILE_NAME, OVERRIDE_LAYER_NAME } from './override-names';

/** The states, in the order the UI offers them; a plain constant so that listing them builds no schema (issue #19: first render). */
export const LAYER_CONTROLS = ['on', 'off', 'auto'] as const;
export type LayerControl = (typeof LAYER_CONTROLS)[number];

/** One layer of a configuration (override-config-schema.ts checks a configuration that crosses a boundary). */
export interface OverrideLayer {
  name: string;
  /** vkconfig's layer control: on (forced on), off (forced off), auto (the application decides). */
  state: LayerControl;
}

export interface OverrideConfig {
  /** Ordered: the 'on' layers become component_layers in this order. */
  layers: OverrideLayer[];
  /** app_keys: full paths of the executables the override applies to; absent or empty = every application. */
  appKeys?: string[] | undefined;
  /** override_paths: the only folders the loader then searches for the component layers (and VK_LAYER_PATH is ignored). */
  overridePaths?: string[] | undefined;
  /** The meta-layer's api_version; at most the lowest api_version of the 'on' layers. */
  apiVersion?: string | undefined;
  /** Layer settings changed from their defaults; written to vk_layer_settings.txt beside the override. */
  settings?: SettingsByLayer | undefined;
}

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

/**
 * The text of VkLayer_override.json for a configuration, unchecked: the Layers draft's preview
 * (draft-chain.ts), which builds no schema in the renderer's first view (issue #19: first render);
 * what is written is checked (override-config-schema.ts: buildOverrideManifest, and the override channels'
 * request schemas).
 * Stable (same config, same bytes), ending in a newline.
 */
export function overrideManifestText(config: OverrideConfig): string {
  return `${JSON.stringify(overrideManifestObject(config), null, 2)}\n`;
}

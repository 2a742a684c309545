import * as z from 'zod';
import type { DiscoveredManifest } from '../discovery/manifest-inventory';
import type { Environment } from './xdg-directories';
import { LOADER_RULE_IDS, type LoaderRuleUse } from './loader-rules';
import type { LoaderSettingsRead } from './loader-settings-file';

/** What the chain model answers (chain.ts), as the IPC contract carries it. */

export const LoaderRuleIdSchema = z.enum(LOADER_RULE_IDS);

/** A rule as an answer names it: whether the loader version asked has it (loader-rules.ts). */
export const LoaderRuleUseSchema = z.object({
  id: LoaderRuleIdSchema,
  /** The first loader version that has the rule. */
  since: z.string(),
  applied: z.boolean(),
  summary: z.string(),
}) satisfies z.ZodType<LoaderRuleUse>;

export const ChainReasonCodeSchema = z.enum([
  'implicit/enabled',
  'implicit/not-enabled',
  'implicit/disabled-by-env',
  'implicit/enabled-by-override',
  'explicit/requested-by-app',
  'explicit/vk-instance-layers',
  'explicit/not-requested',
  'explicit/not-found',
  'meta/expanded',
  'meta/component',
  'meta/component-missing',
  'meta/component-too-old',
  'meta/lists-itself',
  'meta/incomplete',
  'override/active',
  'override/component',
  'override/blacklisted',
  'override/app-keys-mismatch',
  'override/superseded',
  'override/paths',
  'duplicate/shadowed',
  'duplicate/later-occurrence-wins',
  'duplicate/earlier-occurrence-dropped',
  'api-version/older-than-app',
  'manifest/rejected',
  /** VK_LOADER_LAYERS_DISABLE removed the layer from the loader's layer list. */
  'filter/disabled',
  /** VK_LOADER_LAYERS_ENABLE turned the layer on (an explicit one, or an implicit one that was off). */
  'filter/enabled',
  /** VK_LOADER_LAYERS_DISABLE matched, but VK_LOADER_LAYERS_ENABLE matched too and wins. */
  'filter/disable-overridden',
  /** A filter would match, but the loader is older than the filters (1.3.234). */
  'filter/unsupported',
  /** The loader settings file (vk_loader_settings.json) decided: settings-chain.ts. */
  'settings/on',
  'settings/off',
  'settings/auto',
  'settings/order',
  'settings/not-listed',
  'settings/superseded',
  'settings/name-mismatch',
  'settings/manifest-unusable',
]);
export type ChainReasonCode = z.infer<typeof ChainReasonCodeSchema>;

export const ChainReasonSchema = z.object({ code: ChainReasonCodeSchema, message: z.string() });
export type ChainReason = z.infer<typeof ChainReasonSchema>;

export const ChainEntrySchema = z.object({
  name: z.string(),
  type: z.enum(['implicit', 'explicit']),
  manifest: z.string(),
  libraryPath: z.string().nullable(),
  reasons: z.array(ChainReasonSchema),
});
export type ChainEntry = z.infer<typeof ChainEntrySchema>;

export const ExcludedLayerSchema = z.object({
  name: z.string(),
  /** null for a name that was asked for but matches no manifest. */
  manifest: z.string().nullable(),
  reasons: z.array(ChainReasonSchema),
});
export type ExcludedLayer = z.infer<typeof ExcludedLayerSchema>;

export const MetaLayerUseSchema = z.object({
  name: z.string(),
  manifest: z.string(),
  components: z.array(z.string()),
  reasons: z.array(ChainReasonSchema),
});

export const LayerChainSchema = z.object({
  /** The version the real loader reports (vkEnumerateInstanceVersion); null when it could not be asked. */
  loaderVersion: z.string().nullable(),
  /** The loader version whose rules the model applied (the unknown-version default when loaderVersion is null). */
  rulesVersion: z.string(),
  /** Each version-keyed rule, and whether it was applied for `loaderVersion`. */
  rules: z.array(LoaderRuleUseSchema),
  /** LOADER_CRASH: this loader version crashes or hangs in vkCreateInstance on this configuration (the notes say where). */
  result: z.enum(['VK_SUCCESS', 'VK_ERROR_LAYER_NOT_PRESENT', 'VK_ERROR_INITIALIZATION_FAILED', 'VK_ERROR_OUT_OF_HOST_MEMORY', 'LOADER_CRASH']),
  /** Application side first, driver side last. */
  chain: z.array(ChainEntrySchema),
  /** Meta-layers that were expanded into the chain (they have no library of their own). */
  metaLayers: z.array(MetaLayerUseSchema),
  excluded: z.array(ExcludedLayerSchema),
  notes: z.array(z.string()),
  /**
   * The vk_loader_settings.json this loader reads, when one is there (settings-file-locations.ts).
   * When it configures layers for this application, its list decides the chain (settings-chain.ts).
   */
  settingsFile: z.string().nullable().optional(),
});
export type LayerChain = z.infer<typeof LayerChainSchema>;

export interface ChainApplication {
  /** The executable's absolute path (what the override layer's app_keys are compared with). */
  path: string | null;
  requestedLayers: string[];
  /** "MAJOR.MINOR" (or "M.m.p") of VkApplicationInfo::apiVersion; default 1.0. */
  apiVersion?: string | undefined;
}

export type ChainManifest = Pick<DiscoveredManifest, 'path' | 'kind' | 'origin' | 'text' | 'problem'>;

export interface ChainInput {
  /** Implicit layer manifests in the loader's order. */
  implicit: readonly ChainManifest[];
  /** Explicit layer manifests in the loader's order (searched in the override layer's override_paths when it has some; see overridePathsFor). */
  explicit: readonly ChainManifest[];
  env: Environment;
  app: ChainApplication;
  /** The real loader's version ("1.3.239"); null when unknown (the rules of RULES_VERSION are applied). */
  loaderVersion: string | null;
  /** The loader settings file this loader reads, as it reads it for this application (loader-settings-file.ts). */
  settings?: ChainSettingsInput | null;
  /** What separates VK_INSTANCE_LAYERS: PATH_SEPARATOR (vk_loader_platform.h), ";" on Windows; default ":". */
  listSeparator?: ':' | ';';
}

export interface ChainSettingsInput {
  path: string;
  read: LoaderSettingsRead;
  /** The manifests its layer entries name, by path, as read (null: unreadable or absent). */
  manifests: ReadonlyMap<string, ChainManifest | null>;
}

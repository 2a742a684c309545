import * as z from 'zod';
import { MANIFEST_KINDS } from './manifest-kinds';

/**
 * The schemas of search-paths.ts's search locations and of the discovery.paths channel, apart from
 * the search itself: a command that searches and answers as made (the CLI's explain and discovery)
 * builds none of them (issue #19: every CLI startup snapshot held what its warm-up built).
 */

export const ManifestKindSchema = z.enum(MANIFEST_KINDS);

export const SearchLocationSchema = z.object({
  /** A folder, a file, or (Windows) a registry key, spelled as the loader spells it in its log. */
  path: z.string(),
  /** Where the entry came from: `XDG_CONFIG_DIRS[0]`, `SYSCONFDIR`, `VK_LAYER_PATH[2]`, `bundle`, a registry key. */
  origin: z.string(),
  /**
   * environment: a variable that is set; default: the fallback of an unset/empty one; build: a
   * compile-time folder; settings: a driver vk_loader_settings.json names (settings-drivers.ts).
   */
  source: z.enum(['environment', 'default', 'build', 'registry', 'bundle', 'settings']),
  /** folder: every `*.json` in it; file: this one manifest; registry-key: the values of a key. */
  entry: z.enum(['folder', 'file', 'registry-key']),
  /** Origins of later entries with the same path, which the loader drops (it keeps the first). */
  alsoFrom: z.array(z.string()),
});
export type SearchLocation = z.infer<typeof SearchLocationSchema>;

export const PlatformDescriptionSchema = z.object({
  os: z.enum(['linux', 'windows', 'macos']),
  /** The loader's compile-time SYSCONFDIR (Linux, macOS). */
  sysconfdir: z.string().optional(),
  /** The loader's compile-time EXTRASYSCONFDIR, when the build sets one. */
  extraSysconfdir: z.string().nullable().optional(),
  /** Windows: a 32-bit application on 64-bit Windows reads the WOW6432Node keys. */
  wow64: z.boolean().optional(),
});
export type PlatformDescription = z.infer<typeof PlatformDescriptionSchema>;

// ---- discovery.paths (IPC) ----

export const LocationStatusSchema = /* @__PURE__ */ SearchLocationSchema.extend({
  /** Whether the folder, file or key is there (null: not checked, e.g. registry keys off Windows). */
  exists: z.boolean().nullable(),
});
export type LocationStatus = z.infer<typeof LocationStatusSchema>;

export const DiscoveryPathsSchema = z.object({
  platform: PlatformDescriptionSchema,
  elevated: z.boolean(),
  home: z.string().nullable(),
  locations: z.object({
    implicit_layer: z.array(LocationStatusSchema),
    explicit_layer: z.array(LocationStatusSchema),
    driver: z.array(LocationStatusSchema),
  }),
});
export type DiscoveryPaths = z.infer<typeof DiscoveryPathsSchema>;

/**
 * The request of `discovery.paths` and `discovery.manifests`. `elevated: true` answers as an
 * elevated (setuid/setgid, Administrator) application would see it: "Exception for Elevated
 * Privileges" (LLP_LOADER_13) drops the user-defined paths. Without it, this process's own state.
 */
export const DiscoveryRequestSchema = z.object({ elevated: z.boolean().optional() }).strict();

/**
 * `discovery.manifests`: `fresh: false` takes an answer the host keeps while it watches the search
 * folders (a page's first view: a UI host's warm-up has it ready); absent or true reads every
 * manifest anew (Refresh, the CLI).
 */
export const DiscoveryManifestsRequestSchema = /* @__PURE__ */ DiscoveryRequestSchema.extend({ fresh: z.boolean().optional() }).strict();

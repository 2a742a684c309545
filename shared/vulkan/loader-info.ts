import * as z from 'zod';

/** An extension as vkEnumerate*ExtensionProperties reports it. */
export const ExtensionPropertiesSchema = z.object({
  name: z.string(),
  specVersion: z.number().int().nonnegative(),
});
export type ExtensionProperties = z.infer<typeof ExtensionPropertiesSchema>;

/** A layer as vkEnumerateInstanceLayerProperties reports it, with the extensions it adds. */
export const LayerPropertiesSchema = z.object({
  name: z.string(),
  /** The Vulkan version the layer was written against, decoded "major.minor.patch". */
  specVersion: z.string(),
  specVersionRaw: z.number().int().nonnegative(),
  implementationVersion: z.number().int().nonnegative(),
  description: z.string(),
  extensions: z.array(ExtensionPropertiesSchema),
});
export type LayerProperties = z.infer<typeof LayerPropertiesSchema>;

/**
 * What the real loader says in a given environment (no instance is created): its library, its
 * version (vkEnumerateInstanceVersion), the instance layers it found and the instance extensions
 * that the loader and the implicit layers and drivers offer.
 */
export const LoaderInfoSchema = z.object({
  library: z.string(),
  /** The file the dynamic linker really mapped, read back from the probe process. */
  path: z.string().nullable(),
  apiVersion: z.number().int().nonnegative(),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  layers: z.array(LayerPropertiesSchema),
  extensions: z.array(ExtensionPropertiesSchema),
  /** What the loader logged while answering, when VK_LOADER_DEBUG is set in the request's environment. */
  loaderLog: z.array(z.string()).optional(),
});
export type LoaderInfo = z.infer<typeof LoaderInfoSchema>;

/**
 * The environment a probe request runs in, on top of Strata's own: the loader reads VK_DRIVER_FILES,
 * VK_LOADER_DEBUG, HOME, XDG_* … when it loads and creates instances, so asking "what would the
 * loader see with this configuration" means a probe process started with it. A value of null
 * removes the variable.
 */
export const ProbeEnvironmentSchema = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().nullable());
export type ProbeEnvironment = z.infer<typeof ProbeEnvironmentSchema>;

export const ProbeRequestSchema = z.object({ env: ProbeEnvironmentSchema.optional() }).strict();

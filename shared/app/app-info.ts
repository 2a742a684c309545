import * as z from 'zod';

/** Which host the router is serving: the renderer never branches on it, the About view only shows it. */
export const HostKindSchema = z.enum(['electron', 'browser', 'cli']);
export type HostKind = z.infer<typeof HostKindSchema>;

/**
 * What the real Vulkan loader said about itself, or why it could not be asked.
 * `version` is vkEnumerateInstanceVersion decoded as "major.minor.patch"; `path` is the file the
 * dynamic linker actually mapped (read back from the process, not guessed from the soname).
 */
export const LoaderLibrarySchema = z.discriminatedUnion('found', [
  z.object({
    found: z.literal(true),
    library: z.string(),
    path: z.string().nullable(),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    apiVersion: z.number().int().nonnegative(),
  }),
  z.object({
    found: z.literal(false),
    library: z.string(),
    reason: z.string(),
    fix: z.string().optional(),
  }),
]);
export type LoaderLibrary = z.infer<typeof LoaderLibrarySchema>;

export const AppInfoSchema = z.object({
  name: z.literal('Strata'),
  version: z.string(),
  host: HostKindSchema,
  platform: z.string(),
  arch: z.string(),
  versions: z.object({
    node: z.string(),
    v8: z.string(),
    electron: z.string().nullable(),
    chrome: z.string().nullable(),
  }),
  loader: LoaderLibrarySchema,
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

import * as z from 'zod';

/** The schema of what resolveXdgDirectories (xdg-directories.ts) gives, apart from it: resolving builds no schema. */
export const XdgValueSchema = z.object({
  value: z.string(),
  source: z.enum(['environment', 'default']),
});
export const XdgListSchema = z.object({
  value: z.array(z.string()),
  source: z.enum(['environment', 'default']),
});
export const XdgDirectoriesSchema = z.object({
  home: z.string(),
  configHome: XdgValueSchema,
  dataHome: XdgValueSchema,
  stateHome: XdgValueSchema,
  configDirs: XdgListSchema,
  dataDirs: XdgListSchema,
  runtimeDir: z.string().nullable(),
});
export type XdgDirectories = z.infer<typeof XdgDirectoriesSchema>;

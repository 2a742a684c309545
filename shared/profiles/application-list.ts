import * as z from 'zod';
import { ProfileNameSchema } from './profile-schema';

/**
 * The applications Strata knows ($XDG_CONFIG_HOME/strata/applications.json): how to start each one
 * and which profile it is bound to. The executable path is the key, as the loader's app_keys
 * compare it: the full path of the running executable, symbolic links resolved (/proc/self/exe).
 */
export const APPLICATIONS_SCHEMA_VERSION = 1;

export const ApplicationSchema = z
  .object({
    /** Absolute path of the executable. */
    path: z
      .string()
      .min(1)
      .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'an application is named by its full path, e.g. /usr/bin/vkcube'),
    /** A label for people; defaults to the file name. */
    label: z.string().max(200).optional(),
    args: z.array(z.string()).optional(),
    cwd: z.string().min(1).optional(),
    /** Environment additions for launches from Strata (null unsets). */
    env: z
      .record(
        z
          .string()
          .min(1)
          .regex(/^[^=\0]+$/, 'a variable name has no "="'),
        z.string().nullable(),
      )
      .optional(),
    /** The bound profile's name, or absent for none. */
    profile: ProfileNameSchema.optional(),
  })
  .strict();
export type Application = z.infer<typeof ApplicationSchema>;

export const ApplicationsFileSchema = z
  .object({
    schemaVersion: z.literal(APPLICATIONS_SCHEMA_VERSION),
    applications: z.array(ApplicationSchema),
  })
  .strict()
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    f.applications.forEach((a, i) => {
      if (seen.has(a.path)) ctx.addIssue({ code: 'custom', path: ['applications', i, 'path'], message: `${a.path} is listed twice` });
      seen.add(a.path);
    });
  });
export type ApplicationsFile = z.infer<typeof ApplicationsFileSchema>;

export const EMPTY_APPLICATIONS: ApplicationsFile = { schemaVersion: APPLICATIONS_SCHEMA_VERSION, applications: [] };

/** Bound applications grouped by profile name, in list order. */
export function bindingsByProfile(file: ApplicationsFile): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of file.applications) if (a.profile) out.set(a.profile, [...(out.get(a.profile) ?? []), a.path]);
  return out;
}

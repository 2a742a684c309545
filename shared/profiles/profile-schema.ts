import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { strataError, type StrataError } from '../errors/strata-error';
import { OVERRIDE_LAYER_NAME } from '../override/override-config';
import { OverrideLayerSchema } from '../override/override-config-schema';
import { SettingsByLayerSchema } from '../settings/setting-values';

/**
 * A profile (vkconfig's "configuration"): a named, versioned set of layer choices that Strata can
 * install as the override layer, scope to applications, or turn into a launch environment.
 *
 * Schema version 2 (this file). Older files go through shared/profiles/profile-migrations.ts first;
 * a file from a newer Strata is refused with a message saying so, never guessed at.
 */
export const PROFILE_SCHEMA_VERSION = 2;

/** Longest profile name: long enough for a sentence, short enough for a file name and a menu. */
export const PROFILE_NAME_MAX = 80;
/** A profile file larger than this is not a profile (and is not read into memory whole). */
export const PROFILE_FILE_MAX_BYTES = 1 << 20;

export const ProfileNameSchema = /* @__PURE__ */ z
  .string()
  .min(1, 'a profile needs a name')
  .max(PROFILE_NAME_MAX, `a profile name has at most ${PROFILE_NAME_MAX} characters`)
  .refine((s) => s.trim() === s, 'a profile name does not start or end with spaces')
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'a profile name has no control characters (tabs, new lines)');

/** A profile's layer is the override's layer (a profile is an override configuration with a name): one schema. */
export const ProfileLayerSchema = OverrideLayerSchema;
export type ProfileLayer = z.infer<typeof ProfileLayerSchema>;

/**
 * VK_LOADER_DEBUG levels (loader 1.3.239 log.c understands all, warn, info, perf, error, debug, layer,
 * driver; later loaders add validation). Also the loader settings file's stderr_log.
 */
export const LoaderMessageLevelSchema = z.enum(['error', 'warn', 'info', 'debug', 'perf', 'layer', 'driver', 'validation', 'all']);

/**
 * Driver choices, as the loader's driver filters spell them (LoaderInterfaceArchitecture
 * "Driver Filtering"): each entry is a driver manifest's file name ("lvp_icd.x86_64.json") or a
 * glob with `*` at the start and/or end ("*lvp*"), matched without regard to case.
 */
const DriverFilterSchema = /* @__PURE__ */ z
  .string()
  .min(1)
  .regex(/^[^,]+$/, 'a driver filter has no commas (the loader splits its variables on them)')
  .refine((s) => !s.slice(1, -1).includes('*'), 'a "*" may only start or end a driver filter, e.g. "*lvp*"');

export const ProfileDriversSchema = /* @__PURE__ */ z
  .object({
    /** Only these drivers (VK_LOADER_DRIVERS_SELECT). Empty or absent: every driver. */
    select: z.array(DriverFilterSchema).max(REQUEST_LIMITS.profileListItems, tooMany('drivers', REQUEST_LIMITS.profileListItems)).optional(),
    /** Never these drivers (VK_LOADER_DRIVERS_DISABLE); select wins over disable, as in the loader. */
    disable: z.array(DriverFilterSchema).max(REQUEST_LIMITS.profileListItems, tooMany('drivers', REQUEST_LIMITS.profileListItems)).optional(),
    /** Preferred order, first first; only loaders with a driver section in their settings file can express it. */
    order: z.array(DriverFilterSchema).max(REQUEST_LIMITS.profileListItems, tooMany('drivers', REQUEST_LIMITS.profileListItems)).optional(),
  })
  .strict();
export type ProfileDrivers = z.infer<typeof ProfileDriversSchema>;

export const ProfileSchema = /* @__PURE__ */ z
  .object({
    schemaVersion: z.literal(PROFILE_SCHEMA_VERSION),
    name: ProfileNameSchema,
    description: z.string().max(4000, 'a description has at most 4000 characters').optional(),
    /** Ordered, application side first: the 'on' layers run in this order. */
    layers: z.array(ProfileLayerSchema).max(512, 'at most 512 layers'),
    /**
     * Where the layers an application enables itself (through the API or VK_INSTANCE_LAYERS) go:
     * before layers[i]. Absent means after every listed layer (nearest the driver), which is where
     * the override layer leaves them (vkconfig's "application layers position").
     */
    applicationLayersAt: z.number().int().nonnegative().optional(),
    /** Layer settings changed from their defaults (shared/settings/setting-values.ts). */
    settings: z.optional(SettingsByLayerSchema),
    /** VK_LOADER_DEBUG / the loader settings file's stderr_log. */
    loaderMessages: z
      .array(LoaderMessageLevelSchema)
      .max(REQUEST_LIMITS.profileListItems, tooMany('message levels', REQUEST_LIMITS.profileListItems))
      .optional(),
    drivers: z.optional(ProfileDriversSchema),
    /** override_paths: the only folders searched for the 'on' layers. */
    overridePaths: z.array(z.string().min(1)).max(REQUEST_LIMITS.profileListItems, tooMany('override paths', REQUEST_LIMITS.profileListItems)).optional(),
    /** The executables this profile is bound to (full paths); kept in step with applications.json. */
    applications: z.array(z.string().min(1)).max(REQUEST_LIMITS.profileListItems, tooMany('applications', REQUEST_LIMITS.profileListItems)).optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.layers.forEach((l, i) => {
      if (seen.has(l.name)) ctx.addIssue({ code: 'custom', path: ['layers', i, 'name'], message: `${l.name} is listed twice; give each layer one state` });
      seen.add(l.name);
      if (l.name === OVERRIDE_LAYER_NAME)
        ctx.addIssue({
          code: 'custom',
          path: ['layers', i, 'name'],
          message: `${OVERRIDE_LAYER_NAME} is the override layer itself and cannot be one of a profile's layers`,
        });
    });
    if (p.applicationLayersAt !== undefined && p.applicationLayersAt > p.layers.length)
      ctx.addIssue({ code: 'custom', path: ['applicationLayersAt'], message: `must be at most ${p.layers.length} (the number of layers)` });
  });
export type Profile = z.infer<typeof ProfileSchema>;

/** One problem in a profile file, pointing at the field. */
export interface ProfileIssue {
  /** The field as a path, e.g. `layers[2].state`; "" for the whole file. */
  path: string;
  message: string;
}

/** `["layers", 2, "state"]` → `layers[2].state`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

export function issuesOf(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] }[];
}): ProfileIssue[] {
  return error.issues.map((i) => {
    // Zod names unknown keys in `keys` with the parent's path; point at the key itself.
    if (i.code === 'unrecognized_keys' && i.keys?.length)
      return {
        path: fieldPath([...i.path, i.keys[0]!]),
        message: `unknown field${i.keys.length > 1 ? `s ${i.keys.join(', ')}` : ''}; remove it or check its spelling`,
      };
    // A setting value is a union; zod's "Invalid input" says nothing about what would fit.
    if (i.code === 'invalid_union' && i.path[0] === 'settings')
      return { path: fieldPath(i.path), message: 'a setting value is true or false, a number, a string, or a list of strings' };
    return { path: fieldPath(i.path), message: i.message };
  });
}

/** The error value for an invalid profile: first issue in the message, every issue in `data`. */
export function invalidProfileError(
  issues: readonly ProfileIssue[],
  where: string,
  fix = 'correct the field and try again; `strata profile --help` describes the format',
): StrataError {
  const first = issues[0] ?? { path: '', message: 'not a profile' };
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return strataError('profile/invalid', `${first.path ? `${first.path}: ` : ''}${first.message}${more}`, {
    where: first.path ? `${where}, field ${first.path}` : where,
    fix,
    data: { issues, field: first.path },
  });
}

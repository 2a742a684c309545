import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { StrataErrorSchema } from '../errors/strata-error-schema';
import { LayerChainSchema } from '../loader/chain-schema';
import { OverrideApplyResultSchema } from '../override/override-status';
import { ApplicationSchema } from './application-list';
import { ProfileNameSchema, ProfileSchema } from './profile-schema';

/**
 * The profiles.* channels of shared/ipc/contract.ts: requests and answers. Profiles are named by
 * their name (unique without regard to case); a preset can be named wherever a profile is read
 * (by its name or id, e.g. "validation-standard"), never where one is changed.
 */
const name = z.string().min(1);

export const StoredProfileSchema = z.object({
  name: z.string(),
  file: z.string(),
  profile: ProfileSchema,
  migratedFrom: z.number().int().nullable(),
});

export const PresetSchema = z.object({
  id: z.string(),
  profile: ProfileSchema,
  available: z.boolean(),
  missing: z.array(z.string()),
  note: z.string().nullable(),
});

export const ProfilesListSchema = z.object({
  dir: z.string(),
  profiles: z.array(StoredProfileSchema.extend({ warnings: z.array(z.string()) })),
  presets: z.array(PresetSchema),
  /** Profile files that do not read, each naming its file and field; the files are left alone. */
  problems: z.array(StrataErrorSchema),
  applicationsFile: z.string(),
  applications: z.array(ApplicationSchema),
  applicationsProblem: StrataErrorSchema.nullable(),
});
export type ProfilesList = z.infer<typeof ProfilesListSchema>;

export const ProfileCreateRequestSchema = z
  .object({
    name: ProfileNameSchema,
    /** A preset (name or id) or a profile to start from; absent: an empty profile (or `profile`). */
    from: name.optional(),
    /** The whole profile (its name is replaced by `name`), e.g. the UI's draft. */
    profile: ProfileSchema.optional(),
    description: z.string().max(4000).optional(),
  })
  .strict();

export const ProfileImportRequestSchema = z
  .object({
    /** The file's text (a Strata profile, any schema version, or a VkLayer_override.json). */
    text: z.string(),
    /** The file's name or path, for messages. */
    source: z.string().min(1),
    /** Store it under this name instead of the one in the file (required for an override file without one). */
    name: ProfileNameSchema.optional(),
    /** Replace a profile of the same name. */
    replace: z.boolean().optional(),
  })
  .strict();

export const ProfileImportResultSchema = z.object({
  stored: StoredProfileSchema,
  kind: z.enum(['profile', 'override-layer']),
  migratedFrom: z.number().int().nullable(),
  /** Kept but worth knowing: unknown layer names, converted fields. */
  warnings: z.array(z.string()),
});

export const ProfileExportSchema = z.object({ fileName: z.string(), text: z.string() });

export const ProfileOverrideExportSchema = z.object({ fileName: z.string(), text: z.string(), notes: z.array(z.string()) });

export const ProfileApplyResultSchema = z.object({ result: OverrideApplyResultSchema, notes: z.array(z.string()) });

export const LaunchEnvironmentResultSchema = z.object({
  loaderVersion: z.string(),
  env: z.record(z.string(), z.string().nullable()),
  notes: z.array(z.string()),
});

export const ProfileExplainRequestSchema = z
  .object({
    name,
    appPath: z.string().min(1).optional(),
    requestedLayers: z.array(z.string().min(1)).max(REQUEST_LIMITS.requestedLayers, tooMany('requested layers', REQUEST_LIMITS.requestedLayers)).optional(),
    apiVersion: z
      .string()
      .regex(/^\d+\.\d+(\.\d+)?$/)
      .optional(),
  })
  .strict();

export const DriverChoiceSchema = z.object({ path: z.string(), kept: z.boolean(), reason: z.string() });

export const ProfileExplainSchema = z.object({
  chain: LayerChainSchema,
  /** The drivers the profile keeps (in its order) and those it leaves out, with why. */
  drivers: z.array(DriverChoiceSchema),
  notes: z.array(z.string()),
});

export const BindingsSyncResultSchema = z.object({
  /** override-app-keys: override layer files scoped by app_keys (loaders before 1.3.251); loader-settings: vk_loader_settings.json. */
  mechanism: z.enum(['override-app-keys', 'loader-settings']),
  loaderVersion: z.string(),
  files: z.array(z.object({ path: z.string(), profile: z.string().nullable(), apps: z.array(z.string()), appKeys: z.array(z.string()), written: z.boolean() })),
  removed: z.array(z.string()),
  /** Each bound application checked against the chain model: does it get exactly its profile's override? */
  checks: z.array(z.object({ app: z.string(), profile: z.string(), ok: z.boolean(), message: z.string(), chain: z.array(z.string()) })),
  notes: z.array(z.string()),
});
export type BindingsSyncResult = z.infer<typeof BindingsSyncResultSchema>;

const loaderVersion = z
  .string()
  .regex(/^\d+\.\d+\.\d+$/)
  .optional()
  .describe('model this loader version instead of asking the installed loader');

export const ProfileBindRequestSchema = z
  .object({
    appPath: z.string().min(1),
    profile: name,
    args: z.array(z.string()).max(REQUEST_LIMITS.commandArgs, tooMany('arguments', REQUEST_LIMITS.commandArgs)).optional(),
    cwd: z.string().min(1).optional(),
    env: z.record(z.string().min(1), z.string().nullable()).optional(),
    label: z.string().max(200).optional(),
    force: z.boolean().optional(),
    loaderVersion,
  })
  .strict();

export const ProfileBindResultSchema = z.object({ application: ApplicationSchema, sync: BindingsSyncResultSchema, notes: z.array(z.string()) });

export const ProfileUnbindRequestSchema = z.object({ appPath: z.string().min(1), force: z.boolean().optional(), loaderVersion }).strict();

export const ProfileDeleteResultSchema = z.object({ deleted: StoredProfileSchema, unbound: z.array(z.string()) });

export const channelsOfProfiles = {
  'profiles.list': {
    summary:
      'Profiles (one file each in $XDG_CONFIG_HOME/strata/profiles), the built-in presets with their availability here, files that do not read (file and field), and the applications with their bound profiles.',
    request: z.object({}).strict(),
    response: ProfilesListSchema,
  },
  'profiles.create': {
    summary: 'Create a profile, empty or from a preset or profile (`from`) or from a whole draft (`profile`); refuses a name that is taken.',
    request: ProfileCreateRequestSchema,
    response: StoredProfileSchema,
  },
  'profiles.save': {
    summary:
      'Replace a stored profile with a new version of it (same name); applications bound to it get the new version outside Strata at once (their per-application files are rewritten).',
    request: z.object({ profile: ProfileSchema }).strict(),
    response: StoredProfileSchema,
  },
  'profiles.copy': {
    summary: 'Copy a profile or preset under a new name.',
    request: z.object({ from: name, to: ProfileNameSchema }).strict(),
    response: StoredProfileSchema,
  },
  'profiles.rename': {
    summary: 'Rename a profile (its file follows; applications bound to it stay bound).',
    request: z.object({ from: name, to: ProfileNameSchema }).strict(),
    response: StoredProfileSchema,
  },
  'profiles.delete': {
    summary: 'Delete a profile; refuses while applications are bound to it unless `force` (which unbinds them).',
    request: z.object({ name, force: z.boolean().optional() }).strict(),
    response: ProfileDeleteResultSchema,
  },
  'profiles.export': {
    summary: 'A profile or preset as a file to move to another machine (current schema version).',
    request: z.object({ name }).strict(),
    response: ProfileExportSchema,
  },
  'profiles.import': {
    summary:
      'Store a profile file (any schema version) or a VkLayer_override.json as a profile; errors point at the field, unknown layer names are kept with a warning.',
    request: ProfileImportRequestSchema,
    response: ProfileImportResultSchema,
  },
  'profiles.apply': {
    summary: "Install a profile as Strata's global override layer (through the override writer: atomic, backed up, foreign files protected).",
    request: z.object({ name, force: z.boolean().optional(), system: z.boolean().optional() }).strict(),
    response: ProfileApplyResultSchema,
  },
  'profiles.overrideExport': {
    summary: 'The VkLayer_override.json of a profile or preset, without installing it, and what the override layer cannot express of it.',
    request: z.object({ name }).strict(),
    response: ProfileOverrideExportSchema,
  },
  'profiles.launchEnvironment': {
    summary:
      'The environment additions (null = unset) that give one launch from Strata the profile, for the installed loader version, and what that loader cannot express.',
    request: z.object({ name, loaderVersion }).strict(),
    response: LaunchEnvironmentResultSchema,
  },
  'profiles.explain': {
    summary: 'The layer chain an application would get with the profile installed as the override layer, and the drivers it keeps.',
    request: ProfileExplainRequestSchema,
    response: ProfileExplainSchema,
  },
  'profiles.bind': {
    summary:
      'Bind an application (executable path, arguments, folder, environment) to a profile and make it take effect outside Strata as far as the loader allows; every bound application is checked.',
    request: ProfileBindRequestSchema,
    response: ProfileBindResultSchema,
  },
  'profiles.unbind': {
    summary: 'Remove an application from the list and its profile binding; the per-application override layers are rewritten.',
    request: ProfileUnbindRequestSchema,
    response: z.object({ sync: BindingsSyncResultSchema }),
  },
} as const;

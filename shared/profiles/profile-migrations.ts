import * as z from 'zod';
import { LayerControlSchema } from '../override/override-config-schema';
import { SettingsByLayerSchema } from '../settings/setting-values';
import { LoaderMessageLevelSchema, PROFILE_SCHEMA_VERSION, ProfileNameSchema, type Profile, type ProfileIssue } from './profile-schema';

/**
 * Profiles written by older Strata versions, and how each becomes the current shape. A migration
 * is a pure function from one version's validated shape to the next; reading a file runs every
 * step from its version up, so a version-1 file still loads after any number of later changes.
 *
 * Version 1 (Strata 0.0.x) kept layers as an object, name → state, with its key order as the layer
 * order, the version under "version", and the loader's messages as VK_LOADER_DEBUG's own text:
 *
 *   { "version": 1, "name": "Sync", "layers": { "VK_LAYER_KHRONOS_validation": "on" },
 *     "loaderDebug": "error,warn", "settings": { … } }
 *
 * Version 2 made layers an array (an order that survives every JSON tool, and room for more fields
 * per layer), renamed the version field, and added drivers, the application layers position,
 * override paths and bound applications.
 */
export const ProfileV1Schema = z
  .object({
    version: z.literal(1),
    name: ProfileNameSchema,
    description: z.string().max(4000).optional(),
    layers: z.record(z.string().min(1).regex(/^\S+$/, 'a layer name has no spaces'), LayerControlSchema),
    loaderDebug: z.string().optional(),
    settings: z.optional(SettingsByLayerSchema),
  })
  .strict();
export type ProfileV1 = z.infer<typeof ProfileV1Schema>;

export type MigrationResult = { ok: true; value: unknown } | { ok: false; issues: ProfileIssue[] };

export function migrateV1(v1: ProfileV1): MigrationResult {
  const levels: z.infer<typeof LoaderMessageLevelSchema>[] = [];
  const issues: ProfileIssue[] = [];
  for (const word of (v1.loaderDebug ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)) {
    const level = LoaderMessageLevelSchema.safeParse(word);
    if (level.success) levels.push(level.data);
    else issues.push({ path: 'loaderDebug', message: `"${word}" is not a VK_LOADER_DEBUG level (${LoaderMessageLevelSchema.options.join(', ')})` });
  }
  if (issues.length) return { ok: false, issues };
  const v2: Profile = {
    schemaVersion: PROFILE_SCHEMA_VERSION,
    name: v1.name,
    ...(v1.description !== undefined ? { description: v1.description } : {}),
    layers: Object.entries(v1.layers).map(([name, state]) => ({ name, state })),
    ...(v1.settings !== undefined ? { settings: v1.settings } : {}),
    ...(levels.length ? { loaderMessages: levels } : {}),
  };
  return { ok: true, value: v2 };
}

interface Migration {
  from: number;
  /** The shape of a file of version `from`. */
  schema: z.ZodType;
  migrate(value: never): MigrationResult;
}

/** Every step, oldest first; the last step's result is checked against ProfileSchema by the reader. */
export const MIGRATIONS: readonly Migration[] = [{ from: 1, schema: ProfileV1Schema, migrate: migrateV1 as (v: never) => MigrationResult }];

/** A file's schema version: `schemaVersion` (2+), `version` (1), or null when neither is a whole number. */
export function schemaVersionOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const n = 'schemaVersion' in v ? v['schemaVersion'] : v['version'];
  return typeof n === 'number' && Number.isInteger(n) ? n : null;
}

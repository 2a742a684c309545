import * as z from 'zod';
import { OverrideConfigSchema } from './override-config-schema';
import { OverrideOwnershipSchema, OverrideScopeFieldSchema } from './override-status';

/**
 * override.preview: exactly which files an apply (or, with `config: null`, a remove) would change, with
 * the text on disk now and the text after, computed by the writer's own functions so the preview is
 * what apply writes. Nothing is written.
 */
export const OverridePreviewRequestSchema = z
  .object({
    /** The configuration to install; null: no layer is on or off, so Strata's override would be removed. */
    config: OverrideConfigSchema.nullable(),
    system: OverrideScopeFieldSchema,
  })
  .strict();

export const PreviewFileSchema = z.object({
  /** override: VkLayer_override.json; settings: vk_layer_settings.txt. */
  role: z.enum(['override', 'settings']),
  path: z.string(),
  /** The file's text now (null: no file). */
  before: z.string().nullable(),
  /** The file's text after (null: no file). */
  after: z.string().nullable(),
  action: z.enum(['create', 'replace', 'delete', 'restore', 'unchanged']),
  /** Whose the file on disk is (override-status.ts). */
  ownership: OverrideOwnershipSchema,
  /** The writer refuses this change without `force` (a file Strata did not write, or one changed since). */
  needsForce: z.boolean(),
  /** Why it needs force, for the dialog (null when it does not). */
  conflict: z.string().nullable(),
  /** Windows: the registry key whose value (the file's path, DWORD 0) makes the loader, or the layers, read the file. */
  registeredIn: z.string().optional(),
});
export type PreviewFile = z.infer<typeof PreviewFileSchema>;

export const OverridePreviewSchema = z.object({
  scope: z.enum(['user', 'system']),
  files: z.array(PreviewFileSchema),
  /** Some file needs `force` (then Apply becomes "Overwrite"). */
  needsForce: z.boolean(),
});
export type OverridePreview = z.infer<typeof OverridePreviewSchema>;

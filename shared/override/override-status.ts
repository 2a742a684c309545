import * as z from 'zod';
import { OverrideConfigSchema } from './override-config-schema';

/**
 * What crosses IPC for the override writer (main/override/override-writer.ts): where the override
 * file is, whose it is, and what apply / remove did.
 */

/** user: $XDG_DATA_HOME/vulkan/implicit_layer.d; system: /etc/vulkan/implicit_layer.d (root only). */
export const OverrideScopeSchema = z.enum(['user', 'system']);
export type OverrideScope = z.infer<typeof OverrideScopeSchema>;

/**
 * absent: no file. strata: the file is what Strata last wrote. modified: Strata wrote it, then a
 * person or another tool changed it. foreign: there is a file and Strata never wrote one here.
 */
export const OverrideOwnershipSchema = z.enum(['absent', 'strata', 'modified', 'foreign']);
export type OverrideOwnership = z.infer<typeof OverrideOwnershipSchema>;

/**
 * true: the system scope; false: the user's; absent: the scope this Strata's applications read (on
 * Windows an elevated Strata's applications read only HKLM, so the system one; else the user's:
 * main/override/override-service.ts defaultOverrideSystem). The CLI always says which (`--system`);
 * the window and the page leave it out.
 */
export const OverrideScopeFieldSchema = z.boolean().optional();
const scopeField = { system: OverrideScopeFieldSchema };

export const OverrideStatusRequestSchema = z.object(scopeField).strict();
export const OverrideApplyRequestSchema = /* @__PURE__ */ z.object({ config: OverrideConfigSchema, force: z.boolean().optional(), ...scopeField }).strict();
export const OverrideRemoveRequestSchema = /* @__PURE__ */ z.object({ force: z.boolean().optional(), ...scopeField }).strict();
export const OverrideExportRequestSchema = z.object({ config: OverrideConfigSchema }).strict();

/** A settings file the layers would read if Strata's per-user vk_layer_settings.txt were not there (shared/settings/settings-file-location.ts). */
export const HiddenSettingsFileSchema = z.object({ path: z.string(), origin: z.string(), reason: z.string() });

/**
 * Windows: the loader finds implicit layers only through the registry, so Strata's override file
 * (in a folder Strata owns) is registered as a value of HKCU (user) or HKLM (system)
 * SOFTWARE\Khronos\Vulkan\ImplicitLayers whose DWORD is 0; the layers find their settings file the
 * same way, under SOFTWARE\Khronos\Vulkan\Settings (main/override/windows-override.ts).
 */
export const OverrideRegistrationSchema = z.object({
  /** `HKCU\SOFTWARE\Khronos\Vulkan\ImplicitLayers` or the HKLM one (the settings file: `…\Settings`). */
  key: z.string(),
  /** The value's name: the file's path. */
  value: z.string(),
  /** Whether the value is there with DWORD 0 now (the loader, or the layers, read the file). */
  registered: z.boolean(),
  /**
   * What this request did to the value. added / unchanged / enabled (it was there, not 0);
   * removed / restored (its pre-Strata data is back) / nothing; status: null.
   */
  action: z.enum(['added', 'unchanged', 'enabled', 'removed', 'restored', 'nothing']).nullable(),
  /** Other values of the same key a forced apply disabled (DWORD 1: another override layer, another settings file); remove re-enables them. */
  disabled: z.array(z.string()),
  /** Why applications may still not see it (user scope: elevated applications skip HKCU; a settings file registered in HKLM is read first). */
  note: z.string().nullable(),
});
export type OverrideRegistration = z.infer<typeof OverrideRegistrationSchema>;

/**
 * Strata's vk_layer_settings.txt (Linux, per user: $XDG_DATA_HOME/vulkan/settings.d, where the layers
 * look first; Windows: a folder of Strata's, registered under …\Khronos\Vulkan\Settings), kept with
 * the same guarantees as the override file: record, backup, foreign-file refusal.
 */
export const SettingsFileStatusSchema = z.object({
  path: z.string(),
  ownership: OverrideOwnershipSchema,
  text: z.string().nullable(),
  writtenAt: z.string().nullable(),
  /** The file that was there before Strata, restored by `override remove` (null: there was none). */
  originalBackup: z.string().nullable(),
  /** modified: what changed since Strata wrote it, as a unified diff. */
  diff: z.string().nullable(),
  /** Settings files the layers ignore while this one exists (VK_LAYER_SETTINGS_PATH). */
  hides: z.array(HiddenSettingsFileSchema),
  /** Windows: the file's registry value. */
  registration: z.optional(OverrideRegistrationSchema),
});
export type SettingsFileStatus = z.infer<typeof SettingsFileStatusSchema>;

export const SettingsFileResultSchema = z.object({
  path: z.string(),
  /**
   * created / replaced / unchanged: as for the override; removed: the configuration has no settings,
   * so Strata's file was deleted (or the pre-Strata file restored); nothing: no settings, and no file
   * of Strata's to remove (a person's own file is left alone).
   */
  action: z.enum(['created', 'replaced', 'unchanged', 'removed', 'nothing']),
  before: OverrideOwnershipSchema,
  backup: z.string().nullable(),
  originalBackup: z.string().nullable(),
  /** The file's text now (null: no file). */
  text: z.string().nullable(),
  hides: z.array(HiddenSettingsFileSchema),
  /** Windows: what this request did to the file's registry value. */
  registration: z.optional(OverrideRegistrationSchema),
});
export type SettingsFileResult = z.infer<typeof SettingsFileResultSchema>;

export const OverrideStatusSchema = z.object({
  scope: OverrideScopeSchema,
  /** The override file the loader reads. */
  path: z.string(),
  ownership: OverrideOwnershipSchema,
  /** The file's text, when there is one. */
  text: z.string().nullable(),
  sha256: z.string().nullable(),
  /** When Strata last wrote it (ISO 8601), if it ever did. */
  writtenAt: z.string().nullable(),
  /** What the file asks of the loader, when it parses (null otherwise). */
  layers: z
    .object({
      componentLayers: z.array(z.string()),
      blacklistedLayers: z.array(z.string()),
      appKeys: z.array(z.string()),
      overridePaths: z.array(z.string()),
    })
    .nullable(),
  /** The file that was there before Strata, kept for `override remove` (null: there was none). */
  originalBackup: z.string().nullable(),
  /** Strata's record of what it wrote (sha256, time, path). */
  recordPath: z.string(),
  /** modified: what changed since Strata wrote it, as a unified diff. */
  diff: z.string().nullable(),
  /** The per-user layer settings file (user scope only). */
  settings: z.optional(SettingsFileStatusSchema),
  /** Windows: the override's registry value. */
  registration: z.optional(OverrideRegistrationSchema),
});
export type OverrideStatus = z.infer<typeof OverrideStatusSchema>;

export const OverrideApplyResultSchema = z.object({
  scope: OverrideScopeSchema,
  path: z.string(),
  /**
   * created: there was no file; replaced: there was one; unchanged: it already had these bytes;
   * removed: the configuration forces no layer (settings only), so Strata's override was removed
   * (or the pre-Strata one restored; `text` is what is there now, '' for none).
   */
  action: z.enum(['created', 'replaced', 'unchanged', 'removed']),
  /** Whose file was there before this apply. */
  before: OverrideOwnershipSchema,
  /** A copy of the file this apply replaced (null: nothing replaced). */
  backup: z.string().nullable(),
  /** The pre-Strata file that `override remove` will restore (null: remove deletes the file). */
  originalBackup: z.string().nullable(),
  sha256: z.string(),
  text: z.string(),
  /** The layer settings file (absent when the configuration has no settings and Strata never wrote one). */
  settings: z.optional(SettingsFileResultSchema),
  /** Windows: the override's registry value. */
  registration: z.optional(OverrideRegistrationSchema),
});
export type OverrideApplyResult = z.infer<typeof OverrideApplyResultSchema>;

export const OverrideRemoveResultSchema = z.object({
  scope: OverrideScopeSchema,
  path: z.string(),
  /** restored: the pre-Strata file is back; deleted: there was none, so no file now; nothing: Strata had not written one. */
  action: z.enum(['restored', 'deleted', 'nothing']),
  /** A copy of what was removed (null: nothing removed). */
  backup: z.string().nullable(),
  /** action nothing: why. */
  reason: z.string().nullable(),
  /** Strata's layer settings file, surrendered with the override (absent: Strata never wrote one). */
  settings: z.optional(SettingsFileResultSchema),
  /** Windows: the override's registry value. */
  registration: z.optional(OverrideRegistrationSchema),
});
export type OverrideRemoveResult = z.infer<typeof OverrideRemoveResultSchema>;

export const OverrideExportSchema = z.object({
  fileName: z.string(),
  text: z.string(),
});
export type OverrideExport = z.infer<typeof OverrideExportSchema>;

import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import type { Environment } from '../loader/xdg-directories';
import { resolveXdgDirectories } from '../loader/xdg-directories';
import { LOADER_FEATURES } from '../profiles/loader-features';
import { LOADER_SETTINGS_FILE_NAME } from '../profiles/loader-settings';
import { OverrideOwnershipSchema } from '../override/override-status';

/**
 * "What is active for whom": every file that changes which layers applications get, whose file it
 * is, and for whom it counts. Strata's own files (the global override layer, its layer settings
 * file, the per-application override layers or loader settings file of the bindings) and the files
 * other tools wrote (an override layer or a vk_loader_settings.json Strata did not write).
 */

/** Who wrote a file: Strata (and it is as Strata wrote it), Strata but changed since, or another tool. */
export const FileOwnerSchema = z.enum(['strata', 'modified', 'foreign']);
export type FileOwner = z.infer<typeof FileOwnerSchema>;

export const ActiveFileRoleSchema = z.enum(['global-override', 'layer-settings', 'app-override', 'loader-settings']);

export const ActiveFileSchema = z.object({
  path: z.string(),
  role: ActiveFileRoleSchema,
  owner: FileOwnerSchema,
  /** The loader versions that read it, in words ("every loader", "loader 1.3.251 and later"). */
  loaders: z.string(),
  /** Does the installed loader read it (null: no loader answered)? */
  readByLoader: z.boolean().nullable(),
  /** One sentence: what it does, for whom. */
  summary: z.string(),
});
export type ActiveFile = z.infer<typeof ActiveFileSchema>;

export const ActiveBindingSchema = z.object({
  app: z.string(),
  label: z.string().nullable(),
  profile: z.string(),
  /** The file that gives the application its profile outside Strata (null: none written, see message). */
  file: z.string().nullable(),
  /** The override layer files the chain model says the application gets, in the loader's order. */
  gets: z.array(z.string()),
  /** Does the application get exactly its profile's file? */
  ok: z.boolean(),
  message: z.string(),
});
export type ActiveBinding = z.infer<typeof ActiveBindingSchema>;

export const ActivityStatusSchema = z.object({
  loaderVersion: z.string().nullable(),
  /** Strata's global override layer (every application not bound to a profile). */
  global: z.object({
    path: z.string(),
    ownership: OverrideOwnershipSchema,
    writtenAt: z.string().nullable(),
    on: z.array(z.string()),
    off: z.array(z.string()),
  }),
  bindings: z.array(ActiveBindingSchema),
  /** Every file that is there now, Strata's and other tools', in the order above. */
  files: z.array(ActiveFileSchema),
  notes: z.array(z.string()),
});
export type ActivityStatus = z.infer<typeof ActivityStatusSchema>;

export const ActivityDisableRequestSchema = /* @__PURE__ */ z
  .object({
    /** Remove Strata's global override layer and its layer settings file (the earlier files come back). */
    global: z.boolean(),
    /** Drop the profile binding of these applications (they stay in the applications list); their files are removed. */
    apps: z.array(z.string().min(1)).max(REQUEST_LIMITS.profileListItems, tooMany('applications', REQUEST_LIMITS.profileListItems)),
    /** Remove files of Strata's that were changed since Strata wrote them. */
    force: z.boolean().optional(),
  })
  .strict();
export type ActivityDisableRequest = z.infer<typeof ActivityDisableRequestSchema>;

export const ActivityDisableResultSchema = z.object({
  /** Files deleted, or put back to the file that was there before Strata. */
  removed: z.array(z.string()),
  unbound: z.array(z.string()),
  notes: z.array(z.string()),
  status: ActivityStatusSchema,
});
export type ActivityDisableResult = z.infer<typeof ActivityDisableResultSchema>;

export const channelsOfActivity = {
  'activity.status': {
    summary:
      "What is active for whom: Strata's global override layer, every application bound to a profile (the file that gives it the profile and whether the chain model agrees), and every override layer or vk_loader_settings.json another tool wrote, each with its file and the loader versions that read it.",
    request: z.object({}).strict(),
    response: ActivityStatusSchema,
  },
  'activity.disable': {
    summary:
      'Undo what Strata changed, all of it or the parts named: the global override (and its layer settings file) and the profile bindings of the applications given (they stay listed, without a profile); files of another tool are never touched.',
    request: ActivityDisableRequestSchema,
    response: ActivityDisableResultSchema,
  },
} as const;

export interface LoaderSettingsCandidate {
  path: string;
  /** The folder name: settings.d (loader 1.3.251–1.3.252) or loader_settings.d (1.3.253+). */
  folder: 'settings.d' | 'loader_settings.d';
}

/**
 * Where loaders look for vk_loader_settings.json, in their order (loader/settings.c
 * get_unix_settings_path, 1.4.341): $XDG_CONFIG_HOME (else ~/.config), $XDG_DATA_HOME (else
 * ~/.local/share), each $XDG_CONFIG_DIRS, /etc, each $XDG_DATA_DIRS; each under vulkan/<folder>/.
 * The first file found is the one read. Both folder names are listed: a file for another loader
 * version is still a file someone wrote.
 */
export function loaderSettingsCandidates(env: Environment, home: string): LoaderSettingsCandidate[] {
  const xdg = resolveXdgDirectories(env, home);
  const bases = [xdg.configHome.value, xdg.dataHome.value, ...xdg.configDirs.value, '/etc', ...xdg.dataDirs.value];
  const out: LoaderSettingsCandidate[] = [];
  const seen = new Set<string>();
  for (const folder of ['loader_settings.d', 'settings.d'] as const)
    for (const base of bases) {
      const path = `${base.replace(/\/+$/, '')}/vulkan/${folder}/${LOADER_SETTINGS_FILE_NAME}`;
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ path, folder });
    }
  return out;
}

/** "loader 1.3.251 and later" for a folder. */
export function loadersReadingFolder(folder: LoaderSettingsCandidate['folder']): string {
  return folder === 'settings.d'
    ? `loaders ${LOADER_FEATURES.settingsFile}–1.3.252 (settings.d)`
    : `loader ${LOADER_FEATURES.settingsFolderRenamed} and later (loader_settings.d)`;
}

/** The status strip's one line: "Global: on A, off B · 2 applications bound · 1 file of another tool". */
export function activityHeadline(s: ActivityStatus): string {
  const parts: string[] = [];
  const g = s.global;
  if (g.ownership === 'absent') parts.push('Global override: none');
  else if (g.ownership === 'foreign') parts.push('Global override: another tool’s');
  else
    parts.push(
      `Global override: ${[g.on.length ? `on ${g.on.length}` : '', g.off.length ? `off ${g.off.length}` : ''].filter(Boolean).join(', ') || 'settings only'}${g.ownership === 'modified' ? ' (changed since)' : ''}`,
    );
  parts.push(s.bindings.length === 0 ? 'no application bound' : `${s.bindings.length} application${s.bindings.length === 1 ? '' : 's'} bound`);
  const foreign = s.files.filter((f) => f.owner === 'foreign').length;
  if (foreign) parts.push(`${foreign} file${foreign === 1 ? '' : 's'} of another tool`);
  return parts.join(' · ');
}

/** Does Strata have anything in place that Disable would undo? */
export function strataHasChanges(s: ActivityStatus): boolean {
  return s.files.some((f) => f.owner !== 'foreign') || s.bindings.length > 0;
}

import * as z from 'zod';
import { tooMany } from '../ipc/request-limits';

/**
 * The diagnostics bundle saved as a folder (issue #18: "a zip or folder"). The page cannot write a
 * folder (the browser host has no file system access), so the renderer builds the bundle's files with
 * the one builder it uses for the zip (renderer/src/diagnostics/bundle.ts) and main writes them under
 * a folder the user names, as a new folder of their own: nothing there is overwritten, and a failure
 * leaves nothing half-written (the folder appears whole, by rename, or not at all).
 */

/** Far above a real bundle (every manifest of a machine is a few hundred files). */
export const MAX_BUNDLE_FILES = 20_000;

/**
 * A name inside the bundle: relative, "/"-separated, no "." or ".." segment, no empty segment, no
 * backslash or NUL (hidden parts are fine: manifests live under ~/.config and ~/.local). The zip's own
 * names already follow this (manifestEntryName), so a valid zip entry is a valid folder entry.
 */
export const BundleEntryNameSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((n) => !/[\\\0]/.test(n) && n.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s.length <= 255), {
    message: 'a relative name of "/"-separated parts, none empty, ".", ".." or over 255 characters',
  });

export const BundleFolderRequestSchema = z
  .object({
    /** The folder to save into (absolute, or starting with "~/"): the bundle becomes a new folder inside it. */
    parent: z.string().min(1).max(4096),
    /** The new folder's name (strata-diagnostics-<time>); a number is added when it exists. */
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a folder name: letters, digits, ".", "-" and "_"'),
    files: z
      .array(z.object({ name: BundleEntryNameSchema, text: z.string() }).strict())
      .min(1)
      .max(MAX_BUNDLE_FILES, tooMany('files', MAX_BUNDLE_FILES))
      .refine((files) => new Set(files.map((f) => f.name)).size === files.length, { message: 'each file name once' }),
  })
  .strict();
export type BundleFolderRequest = z.input<typeof BundleFolderRequestSchema>;

export const BundleFolderResultSchema = z.object({
  /** The folder written (absolute). */
  path: z.string(),
  files: z.number().int(),
  bytes: z.number().int(),
});
export type BundleFolderResult = z.infer<typeof BundleFolderResultSchema>;

import * as z from 'zod';
import { DiscoveredManifestSchema } from '../discovery/manifest-inventory-schema';

/**
 * The loader settings file as main found it (settings-file-locations.ts), with every manifest its
 * layer entries name, for the chain model to read for any application: `strata explain`, the
 * profile what-if and the Layers editor's live chain all pass this through `chainSettingsFor`.
 */
export const ChainSettingsSourceSchema = z.object({
  path: z.string(),
  /** The file's text; null when it could not be read (`why` says why). */
  text: z.string().nullable(),
  why: z.string().optional(),
  /** The manifests the file's layer entries name (by path; one that could not be read has a problem or no text). */
  // Pure: a renderer that never reads this schema drops it, and the inventory's schemas with it (vite.config.ts).
  manifests: z.array(/* @__PURE__ */ DiscoveredManifestSchema.pick({ path: true, kind: true, origin: true, text: true, problem: true })),
});
export type ChainSettingsSource = z.infer<typeof ChainSettingsSourceSchema>;

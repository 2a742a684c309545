import * as z from 'zod';
import { ManifestKindSchema, LocationStatusSchema } from '../loader/search-paths-schema';
import { DiagnosticSchema } from '../lint/diagnostic-schema';

/**
 * The schemas of discovery's answer (manifest-inventory.ts builds it), apart from the code that
 * builds it: the CLI prints the answer as made and builds none of them (issue #19).
 */
export const LayerSummarySchema = z.object({
  name: z.string().nullable(),
  /** The manifest's "type" (GLOBAL, INSTANCE…); `meta` is whether it has component_layers. */
  type: z.string().nullable(),
  meta: z.boolean(),
  apiVersion: z.string().nullable(),
  implementationVersion: z.string().nullable(),
  description: z.string().nullable(),
  libraryPath: z.string().nullable(),
  componentLayers: z.array(z.string()),
  disableEnvironment: z.array(z.string()),
  enableEnvironment: z.array(z.string()),
});
export type LayerSummary = z.infer<typeof LayerSummarySchema>;

export const DriverSummarySchema = z.object({
  libraryPath: z.string().nullable(),
  apiVersion: z.string().nullable(),
  libraryArch: z.string().nullable(),
  isPortabilityDriver: z.boolean(),
});

export const DiscoveredManifestSchema = z.object({
  path: z.string(),
  kind: ManifestKindSchema,
  origin: z.string(),
  location: z.string(),
  order: z.number().int().nonnegative(),
  readdirOrder: z.boolean(),
  problem: z.enum(['missing', 'dangling-symlink', 'symlink-loop', 'not-a-file', 'not-regular', 'too-large', 'unreadable']).nullable(),
  duplicateOf: z.number().int().nullable(),
  text: z.string().nullable(),
  fileFormatVersion: z.string().nullable(),
  layers: z.array(LayerSummarySchema),
  driver: z.nullable(DriverSummarySchema),
  diagnostics: z.array(DiagnosticSchema),
});
export type DiscoveredManifest = z.infer<typeof DiscoveredManifestSchema>;

export const ManifestInventorySchema = z.object({
  locations: z.record(ManifestKindSchema, z.array(LocationStatusSchema)),
  manifests: z.record(ManifestKindSchema, z.array(DiscoveredManifestSchema)),
  /** What vk_loader_settings.json does to the driver list (shared/loader/settings-drivers.ts); absent: nothing. */
  driverNotes: z.array(z.string()).optional(),
});
export type ManifestInventory = z.infer<typeof ManifestInventorySchema>;

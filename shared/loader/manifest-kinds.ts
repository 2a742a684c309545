/**
 * The kinds of manifest the loader reads, as a plain constant: code that only lists them (the
 * renderer's first view among it) builds no schema (issue #19: first render), and
 * search-paths-schema.ts builds ManifestKindSchema from it without importing the search itself.
 */
export const MANIFEST_KINDS = ['implicit_layer', 'explicit_layer', 'driver'] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];

/**
 * The words of a session record's closed sets, as plain arrays: the zod enums in session-records.ts
 * are built from them, and the CLI's option help lists them without loading zod (issue #19).
 */

/** One scale for the loader's levels and the validation layer's severities, so one filter serves both. */
export const SEVERITIES = ['error', 'warning', 'info', 'perf', 'debug', 'verbose'] as const;

/** Who said a line: the application itself, the loader (VK_LOADER_DEBUG), or the validation layer. */
export const LINE_SOURCES = ['app', 'loader', 'validation'] as const;

/** VK_LOADER_DEBUG's words in loader 1.3.239 (loader.c, "VK_LOADER_DEBUG"): a comma-separated list of these. */
export const LOADER_DEBUG_WORDS = ['error', 'warn', 'info', 'debug', 'perf', 'layer', 'driver', 'implem', 'validation', 'all'] as const;

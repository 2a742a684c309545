import * as z from 'zod';
import { CANDIDATE_OUTCOMES, LIBRARY_SEARCH_VIA, type LibraryResolution } from './library-search';

/**
 * A library lookup (library-search.ts) as the answers of layers.inspect and drivers.negotiate carry
 * it. Kept apart from the lookup itself, which the renderer's first view runs (the lint): a module
 * there builds no schema (issue #19: first render).
 */
export const LibraryResolutionSchema = z.object({
  libraryPath: z.string(),
  path: z.string().nullable(),
  via: z.enum(LIBRARY_SEARCH_VIA),
  outcome: z.enum(CANDIDATE_OUTCOMES),
  tried: z.array(z.object({ path: z.string(), via: z.enum(LIBRARY_SEARCH_VIA), outcome: z.enum(CANDIDATE_OUTCOMES) })),
}) satisfies z.ZodType<LibraryResolution>;

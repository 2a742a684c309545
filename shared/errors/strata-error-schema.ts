import * as z from 'zod';
import type { StrataError } from './strata-error';

/**
 * The zod schema of a StrataError, for the contract and the probe's answers. Kept apart from
 * strata-error.ts so that code which only makes or prints errors (the CLI's argument parsing, its
 * `--help`) does not load zod (issue #19: start-up).
 */
export const StrataErrorSchema = z.object({
  code: z.string().min(1),
  message: z.string().min(1),
  /** Where the problem is: a file, a channel, an option. */
  where: z.string().optional(),
  /** What the user can do about it. */
  fix: z.string().optional(),
  data: z.unknown().optional(),
});

// The interface in strata-error.ts and this schema describe the same value, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof StrataErrorSchema>, StrataError> = true;
void sameShape;

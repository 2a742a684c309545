import { z } from 'zod';

/**
 * Errors are values: a stable code for machines, a sentence for people, and (where we know it)
 * the fix. The CLI and the UI render the same StrataError the same way (see formatStrataError).
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
export type StrataError = z.infer<typeof StrataErrorSchema>;

export function strataError(code: string, message: string, extra: Omit<StrataError, 'code' | 'message'> = {}): StrataError {
  return { code, message, ...extra };
}

/** One line: "what (where). Fix: how" — the shape the CLI prints to stderr and the UI shows in dialogs. */
export function formatStrataError(error: StrataError): string {
  let line = error.message;
  if (error.where) line += ` (${error.where})`;
  if (error.fix) line += `. Fix: ${error.fix}`;
  return line;
}

/** Thrown on the client side when a call comes back as an error value, so `await` code can use try/catch. */
export class StrataRequestError extends Error {
  readonly error: StrataError;
  constructor(error: StrataError) {
    super(formatStrataError(error));
    this.name = 'StrataRequestError';
    this.error = error;
  }
}

/**
 * Errors are values: a stable code for machines, a sentence for people, and (where we know it)
 * the fix. The CLI and the UI render the same StrataError the same way (see formatStrataError).
 * Its zod schema is in strata-error-schema.ts: this module stays free of zod, so what only makes or
 * prints errors loads nothing else.
 */
export interface StrataError {
  code: string;
  message: string;
  /** Where the problem is: a file, a channel, an option. */
  where?: string | undefined;
  /** What the user can do about it. */
  fix?: string | undefined;
  data?: unknown;
}

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

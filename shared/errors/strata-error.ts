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

/**
 * A StrataError as an exception, on both sides of a call. In main/, a service raises it with
 * serviceError() (below), and the router turns it back into the call's error value with its code,
 * where and fix; anything else a service throws reaches the user as `internal`, a bug. On the client
 * side, createStrataApi (shared/ipc/api.ts) raises it when a call comes back as an error value, so
 * `await` code can use try/catch.
 */
export class StrataRequestError extends Error {
  readonly error: StrataError;
  constructor(error: StrataError) {
    super(formatStrataError(error));
    this.name = 'StrataRequestError';
    this.error = error;
  }
}

/**
 * The one way a service in main/ raises a structured error: what (a stable code and a sentence),
 * where, and the fix — or a StrataError it already has (one from a file helper, or passed on with more
 * said). Returns the error for `throw serviceError(…)`, so the compiler sees the throw.
 */
export function serviceError(error: StrataError): StrataRequestError;
export function serviceError(code: string, message: string, extra?: Omit<StrataError, 'code' | 'message'>): StrataRequestError;
export function serviceError(codeOrError: string | StrataError, message?: string, extra: Omit<StrataError, 'code' | 'message'> = {}): StrataRequestError {
  return new StrataRequestError(typeof codeOrError === 'string' ? strataError(codeOrError, message ?? codeOrError, extra) : codeOrError);
}

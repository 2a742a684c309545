import { strataError, type StrataError } from '../../../shared/errors/strata-error';

/** The life of one call to main, as the UI shows it. */
export type RequestState<T> = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: StrataError };

function isStrataError(value: unknown): value is StrataError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const optionalString = (x: unknown) => x === undefined || typeof x === 'string';
  return typeof v['code'] === 'string' && v['code'] !== '' && typeof v['message'] === 'string' && optionalString(v['where']) && optionalString(v['fix']);
}

/**
 * Anything a call can throw, as a StrataError the UI can render with formatStrataError.
 * The check is by shape, not `instanceof StrataRequestError`: the preload is a separate bundle
 * with its own copy of that class.
 */
export function toStrataError(thrown: unknown, where: string): StrataError {
  if (typeof thrown === 'object' && thrown !== null && isStrataError((thrown as { error?: unknown }).error)) {
    return (thrown as { error: StrataError }).error;
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  // An Error that lost its fields (e.g. copied across Electron's contextBridge) but whose message is
  // already formatStrataError's line: show it as it is instead of adding a second where and fix.
  if (/\. Fix: /.test(message)) return strataError('ui/unexpected', message);
  return strataError('ui/unexpected', message || 'Unknown error', { where, fix: 'reload the window; if it happens again, report it with this message' });
}

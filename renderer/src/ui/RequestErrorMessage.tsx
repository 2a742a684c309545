import { formatStrataError, type StrataError } from '../../../shared/errors/strata-error';
import { RetryIcon } from './Icon';

/** A failed call, worded the way the CLI words it, with a way to try again. */
export function RequestErrorMessage({ title, error, onRetry }: { title: string; error: StrataError; onRetry: () => void }) {
  return (
    <div className="request-error" role="alert">
      <div className="request-error-text">
        <p className="request-error-title">{title}</p>
        <p className="request-error-message">{formatStrataError(error)}</p>
        <p className="request-error-code">
          Error code <code>{error.code}</code>
        </p>
      </div>
      <button type="button" className="button" onClick={onRetry}>
        <RetryIcon />
        Retry
      </button>
    </div>
  );
}

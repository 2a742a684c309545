import { RetryIcon } from './Icon';

/**
 * Asks a panel's channels again. While busy it stays focusable and says so (aria-disabled, not
 * disabled, so keyboard focus is not thrown away) and shows a spinner in place of its icon.
 */
export function RefreshButton({ busy, onRefresh }: { busy: boolean; onRefresh: () => void }) {
  return (
    <button
      type="button"
      className="button refresh-button"
      aria-disabled={busy}
      onClick={() => {
        if (!busy) onRefresh();
      }}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : <RetryIcon />}
      Refresh
    </button>
  );
}

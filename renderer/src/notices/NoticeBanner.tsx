import { useNotices } from './notice-store';
import { CloseIcon } from '../ui/Icon';

const LEVEL_LABELS = { info: 'Notice', warning: 'Warning', error: 'Error' } as const;

/** Messages the host sent (`host.notice`), newest first, until the user dismisses them. */
export function NoticeBanner() {
  const notices = useNotices((s) => s.notices);
  const dismiss = useNotices((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((n) => (
        <div className={`notice notice-${n.level}`} role="alert" key={n.id}>
          <span className="notice-level">{LEVEL_LABELS[n.level]}</span>
          <p className="notice-message">{n.message}</p>
          <button type="button" className="icon-button" aria-label={`Dismiss: ${n.message}`} onClick={() => dismiss(n.id)}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}

import { useEffect } from 'react';
import { selectDirty, useDraft } from './draft-store';

/** The unsaved-changes dot on the Layers item of the sidebar. */
export function DraftNavBadge() {
  const dirty = useDraft(selectDirty);
  if (!dirty) return null;
  return <span className="nav-draft-dot" data-testid="nav-unsaved" role="img" aria-label="unsaved changes" title="Unsaved changes in the Layers draft" />;
}

/** The window's title says when the draft has unsaved changes ("● Strata — unsaved changes"), as editors do. */
export function useDraftTitle() {
  const dirty = useDraft(selectDirty);
  useEffect(() => {
    document.title = dirty ? '● Strata — unsaved changes' : 'Strata';
  }, [dirty]);
}

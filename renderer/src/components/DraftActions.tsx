import { useEffect } from 'react';
import { draftChanges } from '../../../shared/configurator/layer-draft';
import type { OverrideStatus } from '../../../shared/override/override-status';
import { useApply } from '../stores/apply-store';
import { selectDirty, useDraft } from '../stores/draft-store';
import { useLayersView } from '../stores/layers-view-store';
import { RequestErrorMessage } from './RequestErrorMessage';

function ownershipText(status: OverrideStatus): string {
  switch (status.ownership) {
    case 'absent':
      return 'Strata’s override is not installed: every application gets the layers it asks for.';
    case 'strata':
      return `Strata’s override is installed${status.writtenAt ? ` (written ${new Date(status.writtenAt).toLocaleString()})` : ''}.`;
    case 'modified':
      return 'Strata’s override was changed by someone else since Strata wrote it.';
    case 'foreign':
      return 'An override written by another tool is installed; applying replaces it only if you choose Overwrite.';
  }
}

/** "3 layers changed, order changed" */
function changeSummary(states: number, reordered: boolean, settings: boolean): string {
  const parts: string[] = [];
  if (states) parts.push(`${states} layer${states === 1 ? '' : 's'} changed`);
  if (reordered) parts.push('order changed');
  if (settings || parts.length === 0) parts.push('settings changed');
  return parts.join(', ');
}

/**
 * The draft's state and what to do with it: the unsaved-changes indicator, Revert, Apply… and
 * "Disable Strata's override". Ctrl+S (⌘S) opens Apply, as Save does elsewhere.
 */
export function DraftActions() {
  const status = useDraft((s) => s.status);
  const dirty = useDraft(selectDirty);
  const draft = useDraft((s) => s.draft);
  const installed = useDraft((s) => s.installed);
  const hasOverride = status.status === 'ready' && (status.value.ownership === 'strata' || status.value.ownership === 'modified');

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 's' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      e.preventDefault();
      if (selectDirty(useDraft.getState()) && useApply.getState().dialog.kind === 'closed') void useApply.getState().openApply();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  if (status.status === 'error')
    return <RequestErrorMessage title="Could not read Strata’s override, so the layers cannot be edited" error={status.error} onRetry={() => void useDraft.getState().loadStatus()} />;

  const changes = dirty && draft ? draftChanges(draft, installed) : null;
  const settingsChanged = dirty && JSON.stringify(draft?.config.settings ?? {}) !== JSON.stringify(installed?.settings ?? {});
  return (
    <div className={`draft-bar${dirty ? ' is-dirty' : ''}`} data-testid="draft-bar">
      <div className="draft-bar-text">
        <p className="draft-bar-override" data-testid="override-ownership" data-ownership={status.status === 'ready' ? status.value.ownership : ''}>
          {status.status === 'ready' ? ownershipText(status.value) : 'Reading Strata’s override…'}
        </p>
        <p className="draft-bar-state" role="status" data-testid="draft-state">
          {dirty && changes ? (
            <>
              <span className="draft-dot" aria-hidden="true" />
              <strong>Unsaved changes</strong>
              <span className="draft-bar-summary"> · {changeSummary(changes.states.length, changes.reordered, settingsChanged)}</span>
            </>
          ) : (
            <span className="muted">No unsaved changes</span>
          )}
        </p>
      </div>
      <div className="draft-bar-actions">
        <button type="button" className="button" disabled={!dirty} data-testid="draft-revert" onClick={() => {
          useDraft.getState().revert();
          useLayersView.getState().announce('Reverted: the draft is what is installed.');
        }}>
          Revert
        </button>
        <button type="button" className="button" disabled={!hasOverride} data-testid="override-disable" onClick={() => useApply.getState().openRemove()}>
          Disable Strata’s override…
        </button>
        <button type="button" className="button button-primary" disabled={!dirty} aria-keyshortcuts="Control+S" data-testid="draft-apply" onClick={() => void useApply.getState().openApply()}>
          Apply…
        </button>
      </div>
    </div>
  );
}

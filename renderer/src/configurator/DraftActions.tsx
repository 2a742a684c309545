import { useEffect } from 'react';
import { draftChanges } from '../../../shared/configurator/layer-draft';
import type { OverrideStatus } from '../../../shared/override/override-status';
import { useActivity } from '../activity/activity-store';
import { useApply } from './apply-store';
import { selectDirty, selectSourceEdited, useDraft } from './draft-store';
import { useProfiles } from '../profiles/profiles-store';
import { saveEditedProfile } from '../profiles/ProfileEditBar';
import { useLayersView } from '../layers/layers-view-store';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import { settingChanges } from './setting-changes';

/** True for every application: the bound ones keep their profile whatever the global override is. */
function ownershipText(status: OverrideStatus, bound: number): string {
  const others = bound
    ? ` ${bound} application${bound === 1 ? ' is' : 's are'} bound to ${bound === 1 ? 'a profile' : 'profiles'} and get${bound === 1 ? 's' : ''} that instead (see the status bar).`
    : '';
  switch (status.ownership) {
    case 'absent':
      return bound
        ? `Strata’s global override is not installed: other applications get the layers they ask for.${others}`
        : 'Strata’s override is not installed: every application gets the layers it asks for.';
    case 'strata':
      return `Strata’s global override is installed${status.writtenAt ? ` (written ${new Date(status.writtenAt).toLocaleString()})` : ''}.${others}`;
    case 'modified':
      return 'Strata’s override was changed by someone else since Strata wrote it.';
    case 'foreign':
      return 'An override written by another tool is installed; applying replaces it only if you choose Overwrite.';
  }
}

/** "3 layers changed, order changed, 2 settings changed" */
function changeSummary(states: number, reordered: boolean, settings: number): string {
  const parts: string[] = [];
  if (states) parts.push(`${states} layer${states === 1 ? '' : 's'} changed`);
  if (reordered) parts.push('order changed');
  if (settings) parts.push(`${settings} setting${settings === 1 ? '' : 's'} changed`);
  if (parts.length === 0) parts.push('changed');
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
  const fromProfile = useDraft((s) => s.source?.key.startsWith('profile:') ?? false);
  const bound = useActivity((s) => (s.status.status === 'ready' ? s.status.value.bindings.length : 0));
  const hasOverride = (status.status === 'ready' && (status.value.ownership === 'strata' || status.value.ownership === 'modified')) || bound > 0;

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 's' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      e.preventDefault();
      // Editing a profile, Ctrl+S saves the profile (as Save does in any editor); otherwise it opens Apply.
      const d = useDraft.getState();
      const list = useProfiles.getState().list;
      const stored =
        d.source?.key.startsWith('profile:') && list.status === 'ready' ? list.value.profiles.find((p) => `profile:${p.name}` === d.source?.key) : undefined;
      if (stored) {
        if (selectSourceEdited(d)) void saveEditedProfile(stored.profile);
        return;
      }
      if (selectDirty(d) && useApply.getState().dialog.kind === 'closed') void useApply.getState().openApply();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  if (status.status === 'error')
    return (
      <RequestErrorMessage
        title="Could not read Strata’s override, so the layers cannot be edited"
        error={status.error}
        onRetry={() => void useDraft.getState().loadStatus()}
      />
    );

  const changes = dirty && draft ? draftChanges(draft, installed) : null;
  const settingsChanged = dirty ? settingChanges(installed?.settings, draft?.config.settings).length : 0;
  return (
    <div className={`draft-bar${dirty ? ' is-dirty' : ''}`} data-testid="draft-bar">
      <div className="draft-bar-text">
        <p className="draft-bar-override" data-testid="override-ownership" data-ownership={status.status === 'ready' ? status.value.ownership : ''}>
          {status.status === 'ready' ? ownershipText(status.value, bound) : 'Reading Strata’s override…'}
        </p>
        <p className="draft-bar-state" role="status" data-testid="draft-state">
          {dirty && changes ? (
            <>
              <span className="draft-dot" aria-hidden="true" />
              <strong>{fromProfile ? 'Not what is installed' : 'Unsaved changes'}</strong>
              <span className="draft-bar-summary"> · {changeSummary(changes.states.length, changes.reordered, settingsChanged)}</span>
            </>
          ) : (
            <span className="muted">No unsaved changes</span>
          )}
        </p>
      </div>
      <div className="draft-bar-actions">
        <button
          type="button"
          className="button"
          disabled={!dirty && !fromProfile}
          data-testid="draft-revert"
          onClick={() => {
            useDraft.getState().revert();
            useLayersView
              .getState()
              .announce(fromProfile ? 'Editing the global override: the draft is what is installed.' : 'Reverted: the draft is what is installed.');
          }}
        >
          {fromProfile ? 'Edit the global override' : 'Revert'}
        </button>
        <button type="button" className="button" disabled={!hasOverride} data-testid="override-disable" onClick={() => useActivity.getState().openDisable()}>
          Disable Strata’s override…
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={!dirty}
          aria-keyshortcuts={fromProfile ? undefined : 'Control+S'}
          data-testid="draft-apply"
          onClick={() => void useApply.getState().openApply()}
        >
          {fromProfile ? 'Apply as global override…' : 'Apply…'}
        </button>
      </div>
    </div>
  );
}

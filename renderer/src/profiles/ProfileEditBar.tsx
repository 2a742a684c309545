import { useState } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import { sameProfileName } from '../../../shared/profiles/profile-file-name';
import type { Profile } from '../../../shared/profiles/profile-schema';
import { settingChanges, settingValueText } from '../configurator/setting-changes';
import { profileDiff, profileFromDraft } from './profile-edit';
import { selectSourceEdited, useDraft } from '../configurator/draft-store';
import { useLayersView } from '../layers/layers-view-store';
import { useNavigation } from '../navigation/navigation-store';
import { useProfiles } from './profiles-store';
import { DiffText } from '../ui/DiffView';
import { Dialog } from '../ui/Dialog';

/** The stored profile the draft was loaded from (null: a preset, or no profile). */
export function useEditedProfile(): { name: string; profile: Profile; bound: string[] } | null {
  const source = useDraft((s) => s.source);
  const list = useProfiles((s) => s.list);
  if (!source?.key.startsWith('profile:') || list.status !== 'ready') return null;
  const stored = list.value.profiles.find((p) => `profile:${p.name}` === source.key);
  if (!stored) return null;
  const bound = list.value.applications.filter((a) => a.profile && sameProfileName(a.profile, stored.name)).map((a) => a.path);
  return { name: stored.name, profile: stored.profile, bound };
}

/** Save the draft into the profile it came from; applications bound to it get it at once (profiles.save). */
export async function saveEditedProfile(original: Profile): Promise<boolean> {
  const draft = useDraft.getState().draft;
  if (!draft) return false;
  const r = await useProfiles
    .getState()
    .run('profiles.save', { profile: profileFromDraft(original, draft) }, (saved) => ({ message: `Saved “${saved.name}” (${saved.file}).` }));
  if (!r) return false;
  useDraft.getState().sourceSaved();
  useLayersView.getState().announce(`Saved the profile “${r.name}”.`);
  return true;
}

/**
 * The Layers editor working on a profile (the header's switcher, or Edit in Profiles): the same
 * states, order and settings, saved back into the profile file, reverted to it, duplicated under
 * a new name, with the file's diff before saving. Apply… still installs the draft as the global
 * override: the global configuration is the profile every application without its own gets.
 */
export function ProfileEditBar() {
  const edited = useEditedProfile();
  const changed = useDraft(selectSourceEdited);
  const draft = useDraft((s) => s.draft);
  const busy = useProfiles((s) => s.busy);
  const outcome = useProfiles((s) => s.outcome);
  const [dialog, setDialog] = useState<'none' | 'diff' | 'duplicate'>('none');
  const [copyName, setCopyName] = useState('');
  if (!edited || !draft) return null;
  const next = profileFromDraft(edited.profile, draft);
  const diff = profileDiff(edited.profile, next);
  // The settings Save changes, one line each, as Apply's summary lists them.
  const settingsChanged = settingChanges(edited.profile.settings, next.settings);
  const duplicate = async () => {
    const name = copyName.trim();
    if (!name) return;
    const r = await useProfiles
      .getState()
      .run('profiles.create', { name, profile: { ...next, name } }, (p) => ({ message: `Created “${p.name}” from the draft.`, select: `profile:${p.name}` }));
    if (!r) return;
    const stored = r.profile;
    useDraft.getState().loadConfig(useDraft.getState().draft!.config, { key: `profile:${stored.name}`, name: stored.name });
    setDialog('none');
  };
  return (
    <div className={`profile-edit-bar${changed ? ' is-dirty' : ''}`} data-testid="profile-edit-bar" data-profile={edited.name}>
      <div className="profile-edit-text">
        <p>
          Editing the profile <strong>“{edited.name}”</strong>
          {edited.bound.length ? (
            <>
              {' '}
              · bound to{' '}
              {edited.bound.map((a, i) => (
                <span key={a}>
                  {i ? ', ' : ''}
                  <code className="profile-edit-app">{a}</code>
                </span>
              ))}{' '}
              (Save gives them the new version)
            </>
          ) : (
            ' · no application is bound to it'
          )}
        </p>
        <p className="muted" role="status" data-testid="profile-edit-state">
          {changed ? 'Changed since it was saved.' : 'As saved.'}
          {outcome && !outcome.ok && <span className="profile-edit-error"> {outcome.error ? formatStrataError(outcome.error) : outcome.message}</span>}
        </p>
      </div>
      <div className="profile-edit-actions">
        <button type="button" className="button" disabled={!changed} data-testid="profile-edit-revert" onClick={() => useDraft.getState().revertToSource()}>
          Revert to saved
        </button>
        <button type="button" className="button" disabled={!diff} data-testid="profile-edit-diff" onClick={() => setDialog('diff')}>
          Diff…
        </button>
        <button
          type="button"
          className="button"
          data-testid="profile-edit-duplicate"
          onClick={() => {
            setCopyName(`Copy of ${edited.name}`.slice(0, 80));
            setDialog('duplicate');
          }}
        >
          Duplicate…
        </button>
        <button type="button" className="button" data-testid="profile-edit-bind" onClick={() => useNavigation.getState().open('applications')}>
          Bind…
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={!diff || busy}
          aria-keyshortcuts="Control+S"
          data-testid="profile-edit-save"
          onClick={() => void saveEditedProfile(edited.profile)}
        >
          {busy ? 'Saving…' : 'Save profile'}
        </button>
      </div>
      {dialog === 'diff' && (
        <Dialog
          title={`What Save changes in “${edited.name}”`}
          testId="profile-diff-dialog"
          wide
          onClose={() => setDialog('none')}
          description={<p>The profile file as saved, and as Save would write it.</p>}
          actions={
            <>
              <button type="button" className="button" data-autofocus onClick={() => setDialog('none')}>
                Close
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={busy}
                onClick={() =>
                  void saveEditedProfile(edited.profile).then((ok) => {
                    if (ok) setDialog('none');
                  })
                }
              >
                Save profile
              </button>
            </>
          }
        >
          {settingsChanged.length > 0 && (
            <ul className="apply-changes" data-testid="profile-setting-changes">
              {settingsChanged.map((c) => (
                <li key={`${c.layer}:${c.key}`} data-testid="profile-setting-change">
                  <code>{c.layer}</code> setting <code>{c.key}</code>: {settingValueText(c.from)} → <strong>{settingValueText(c.to)}</strong>
                </li>
              ))}
            </ul>
          )}
          <DiffText diff={diff} label={`The profile file of “${edited.name}”`} testId="profile-diff" />
        </Dialog>
      )}
      {dialog === 'duplicate' && (
        <Dialog
          title="Duplicate the profile"
          testId="profile-duplicate-dialog"
          onClose={() => setDialog('none')}
          description={<p>A new profile with the draft as it is now; the editor then works on the copy.</p>}
          actions={
            <>
              <button type="button" className="button" onClick={() => setDialog('none')}>
                Cancel
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={!copyName.trim() || busy}
                data-testid="profile-duplicate-confirm"
                onClick={() => void duplicate()}
              >
                Create
              </button>
            </>
          }
        >
          <label className="profile-edit-field">
            <span>Name of the copy</span>
            <input
              className="profile-input"
              type="text"
              value={copyName}
              data-autofocus
              data-testid="profile-duplicate-name"
              onChange={(e) => setCopyName(e.target.value)}
            />
          </label>
        </Dialog>
      )}
    </div>
  );
}

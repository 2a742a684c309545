import { useEffect, useId, useMemo, useState } from 'react';
import { profileEntries, type ProfileEntry } from './profile-entries';
import { selectFirstAnswerPending, useDiscovery } from '../discovery/discovery-store';
import { selectDirty, selectSourceEdited, useDraft } from '../configurator/draft-store';
import { useProfiles } from './profiles-store';
import { Dialog } from '../ui/Dialog';

/** The switcher's entry for the global override, the configuration of every application without a profile of its own. */
const GLOBAL = 'global';
const GLOBAL_ENTRY: ProfileEntry = {
  key: GLOBAL,
  kind: 'profile',
  name: 'the global override',
  profile: { schemaVersion: 2, name: 'global', layers: [] },
  summary: '',
  warnings: [],
  preset: null,
  file: null,
};

/** The draft needs discovery and the installed override first (the Layers panel may not have been opened yet). */
async function draftReady(): Promise<boolean> {
  if (useDiscovery.getState().manifests.status !== 'ready') await useDiscovery.getState().loadManifests();
  if (useDraft.getState().status.status !== 'ready') await useDraft.getState().loadStatus();
  return useDraft.getState().basis !== null;
}

export async function loadIntoDraft(entry: ProfileEntry): Promise<boolean> {
  if (!(await draftReady())) return false;
  // Loaded when a profile is first picked: it checks the profile against the override's schema, which
  // the first view does not build (issue #19: first render).
  const { profileToOverrideConfig } = await import('../../../shared/profiles/profile-override');
  // A profile that forces nothing is refused as an override file; as a draft it is every layer left to the applications.
  const r = profileToOverrideConfig(entry.profile);
  useDraft.getState().loadConfig(r.ok ? r.config : { layers: [] }, { key: entry.key, name: entry.name });
  return true;
}

/**
 * The header's profile switcher: a native <select> of the presets and the user's profiles. Choosing
 * one loads it into the Layers draft (nothing is applied: Apply stays the Layers editor's) and the
 * select then shows where the draft came from, "(edited)" once it was changed. Unsaved work is only
 * replaced after a question; a draft that is an unedited profile is no work (it can be picked
 * again), so arrowing through the list does not ask at every step.
 */
export function ProfileSwitcher() {
  const id = useId();
  const list = useProfiles((s) => s.list);
  const source = useDraft((s) => s.source);
  const edited = useDraft(selectSourceEdited);
  const [pending, setPending] = useState<ProfileEntry | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // After the first view's discovery answer (profiles.list discovers too).
  const waitForDiscovery = useDiscovery(selectFirstAnswerPending);
  useEffect(() => {
    if (!waitForDiscovery && useProfiles.getState().list.status === 'idle') void useProfiles.getState().load();
  }, [waitForDiscovery]);

  const entries = useMemo(() => (list.status === 'ready' ? profileEntries(list.value) : []), [list]);
  const presets = entries.filter((e) => e.kind === 'preset');
  const profiles = entries.filter((e) => e.kind === 'profile');
  const sourceGone = source !== null && !entries.some((e) => e.key === source.key);

  const load = (entry: ProfileEntry) => {
    setProblem(null);
    if (entry === GLOBAL_ENTRY) return useDraft.getState().revert();
    void loadIntoDraft(entry).then((ok) => setProblem(ok ? null : 'The Layers draft could not be read; open Layers to see why.'));
  };
  const choose = (key: string) => {
    if (key === GLOBAL) {
      // Back to the global override as installed (unsaved profile edits are asked about first).
      const s = useDraft.getState();
      if (selectDirty(s) && (s.source === null || selectSourceEdited(s))) setPending(GLOBAL_ENTRY);
      else s.revert();
      return;
    }
    const entry = entries.find((e) => e.key === key);
    if (!entry) return;
    const s = useDraft.getState();
    if (selectDirty(s) && (s.source === null || selectSourceEdited(s))) setPending(entry);
    else load(entry);
  };

  return (
    <div className="profile-switcher" data-testid="profile-switcher" data-source={source?.key ?? ''} data-edited={edited ? 'true' : 'false'}>
      <label htmlFor={`${id}-select`} className="profile-switcher-label">
        Profile
      </label>
      <select
        id={`${id}-select`}
        className="profile-switcher-select"
        data-testid="profile-switcher-select"
        aria-describedby={`${id}-state`}
        value={source?.key ?? GLOBAL}
        disabled={list.status !== 'ready'}
        onChange={(e) => choose(e.target.value)}
      >
        <option value={GLOBAL} disabled={list.status !== 'ready'}>
          {list.status === 'ready' ? 'Global override (every application)' : list.status === 'error' ? 'Profiles could not be listed' : 'Reading profiles…'}
        </option>
        {sourceGone && (
          <option value={source.key} disabled>
            {source.name} (no longer listed)
          </option>
        )}
        {presets.length > 0 && (
          <optgroup label="Presets">
            {presets.map((e) => (
              <option key={e.key} value={e.key}>
                {e.name}
                {e.preset && !e.preset.available ? ' (layers missing here)' : ''}
              </option>
            ))}
          </optgroup>
        )}
        {profiles.length > 0 && (
          <optgroup label="Your profiles">
            {profiles.map((e) => (
              <option key={e.key} value={e.key}>
                {e.name}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      <span className="profile-switcher-state" id={`${id}-state`} data-testid="profile-switcher-state" aria-live="polite">
        {problem ?? (edited ? '(edited)' : '')}
      </span>
      {pending && (
        <Dialog
          title="Replace the unsaved draft?"
          description={
            <p>
              The Layers draft has unsaved changes. Loading “{pending.name}” replaces them; nothing is applied or saved until you press Apply or Save in Layers.
            </p>
          }
          testId="profile-switch-dialog"
          onClose={() => setPending(null)}
          actions={
            <>
              <button type="button" className="button" data-testid="profile-switch-cancel" onClick={() => setPending(null)}>
                Keep my changes
              </button>
              <button
                type="button"
                className="button button-primary"
                data-testid="profile-switch-confirm"
                onClick={() => {
                  load(pending);
                  setPending(null);
                }}
              >
                Load “{pending.name}”
              </button>
            </>
          }
        />
      )}
    </div>
  );
}

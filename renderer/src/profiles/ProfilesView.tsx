import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import { freeName, profileEntries } from './profile-entries';
import { useProfiles } from './profiles-store';
import { LoadingLine } from '../ui/LoadingLine';
import { ProfileDetails } from './ProfileDetails';
import { ProfileList } from './ProfileList';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import '../styles/profiles.css';

/** Profile files are small; anything larger is refused here before it crosses to main (which refuses it too). */
const MAX_IMPORT_BYTES = 1 << 20;

/** The last action's outcome, spoken politely: what happened, warnings and notes, or the error line. */
function Outcome() {
  const outcome = useProfiles((s) => s.outcome);
  const clear = useProfiles((s) => s.clearOutcome);
  if (!outcome) return <div role="status" aria-live="polite" className="visually-hidden" />;
  return (
    <div
      role="status"
      aria-live="polite"
      className={`profile-outcome ${outcome.ok ? 'profile-outcome-ok' : 'profile-outcome-error'}`}
      data-testid="profile-outcome"
      data-ok={String(outcome.ok)}
    >
      <p className="profile-outcome-message">{outcome.error ? formatStrataError(outcome.error) : outcome.message}</p>
      {outcome.details.length > 0 && (
        <ul>
          {outcome.details.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      )}
      <button type="button" className="icon-button profile-outcome-close" aria-label="Dismiss" onClick={clear}>
        ×
      </button>
    </div>
  );
}

/** Import: a file picker, and the whole panel as a drop target; the text goes to profiles.import. */
function useImport() {
  const run = useProfiles((s) => s.run);
  return async (file: File) => {
    if (file.size > MAX_IMPORT_BYTES) {
      useProfiles.setState({
        outcome: { ok: false, message: `${file.name} is ${file.size} bytes; a profile is at most ${MAX_IMPORT_BYTES} bytes`, details: [], error: null },
      });
      return;
    }
    const text = await file.text();
    await run('profiles.import', { text, source: file.name }, (r) => ({
      message: `Imported "${r.stored.name}"${r.kind === 'override-layer' ? ' from an override layer file' : ''}.`,
      details: r.warnings,
      select: `profile:${r.stored.name}`,
    }));
  };
}

/** Profiles: presets and the user's profiles; create, copy, rename, delete, import, export, apply, bind. */
export function ProfilesView() {
  const list = useProfiles((s) => s.list);
  const load = useProfiles((s) => s.load);
  const selected = useProfiles((s) => s.selected);
  const select = useProfiles((s) => s.select);
  const importFile = useImport();
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    void load();
    // An outcome belongs to the view it happened in: it does not follow the user to other panels.
    return () => useProfiles.getState().clearOutcome();
  }, [load]);

  const entries = useMemo(() => (list.status === 'ready' ? profileEntries(list.value) : []), [list]);
  const current = entries.find((e) => e.key === selected) ?? entries.find((e) => e.kind === 'profile') ?? entries[0] ?? null;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    for (const f of e.dataTransfer.files) void importFile(f);
  };

  return (
    <div
      className={`profiles-view${dragging ? ' profiles-view-dragging' : ''}`}
      data-testid="profiles-view"
      onDragOver={(e) => {
        if ([...e.dataTransfer.types].includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <div className="profiles-toolbar">
        <button
          type="button"
          className="button"
          data-testid="profile-new"
          disabled={list.status !== 'ready'}
          onClick={() => {
            if (list.status !== 'ready') return;
            // An empty profile (every layer as the application asks) under a free name; rename it and edit its layers from its details.
            const name = freeName('New profile', list.value);
            void useProfiles.getState().run('profiles.create', { name, profile: { schemaVersion: 2, name, layers: [] } }, (p) => ({
              message: `Created “${p.name}”: rename it below, then Edit layers, order and settings.`,
              select: `profile:${p.name}`,
            }));
          }}
        >
          New profile
        </button>
        <button type="button" className="button" data-testid="profile-import" onClick={() => picker.current?.click()}>
          Import…
        </button>
        <input
          ref={picker}
          type="file"
          accept=".json,application/json"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Profile or VkLayer_override.json file to import"
          data-testid="profile-import-input"
          onChange={(e) => {
            for (const f of e.target.files ?? []) void importFile(f);
            e.target.value = '';
          }}
        />
        <span className="muted profiles-hint">or drop a profile file (or vkconfig&apos;s VkLayer_override.json) anywhere here</span>
      </div>
      <Outcome />
      {list.status === 'error' ? (
        <RequestErrorMessage title="Could not list the profiles" error={list.error} onRetry={() => void load()} />
      ) : list.status !== 'ready' ? (
        <LoadingLine text="Reading profiles…" />
      ) : (
        <div className="profiles-layout">
          <ProfileList entries={entries} list={list.value} selected={current?.key ?? null} onSelect={select} />
          {current ? <ProfileDetails key={current.key} entry={current} list={list.value} /> : <p className="muted">Nothing selected.</p>}
        </div>
      )}
    </div>
  );
}

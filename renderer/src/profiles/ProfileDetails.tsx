import { useState, type FormEvent } from 'react';
import type { ProfilesList } from '../../../shared/profiles/profile-channels';
import { LAYER_CONTROL_LABELS } from '../../../shared/configurator/layer-draft';
import { boundApplications, freeName, type ProfileEntry } from './profile-entries';
import { downloadText } from '../files/download-file';
import { selectDirty, selectSourceEdited, useDraft } from '../configurator/draft-store';
import { useNavigation } from '../navigation/navigation-store';
import { useProfiles } from './profiles-store';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { loadIntoDraft } from './ProfileSwitcher';
import { Badge } from '../ui/Card';

const STATE_TONE = { on: 'ok', off: 'error', auto: 'neutral' } as const;

/** A one-field form (a name, a path) that submits with Enter or its button. */
function InlineForm({
  id,
  label,
  initial,
  submit,
  onSubmit,
  placeholder,
  clearOnSubmit,
}: {
  id: string;
  label: string;
  initial: string;
  submit: string;
  onSubmit: (value: string) => void;
  placeholder?: string;
  clearOnSubmit?: boolean;
}) {
  const [value, setValue] = useState(initial);
  const go = (e: FormEvent) => {
    e.preventDefault();
    if (!value.trim()) return;
    onSubmit(value.trim());
    if (clearOnSubmit) setValue('');
  };
  return (
    <form className="profile-inline-form" onSubmit={go}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="profile-input"
        type="text"
        spellCheck={false}
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        data-testid={id}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className="button" data-testid={`${id}-submit`} disabled={!value.trim()}>
        {submit}
      </button>
    </form>
  );
}

type ProfileLayer = ProfileEntry['profile']['layers'][number];
const LAYER_COLUMNS: readonly DataColumn<ProfileLayer>[] = [
  { id: 'index', header: '#', cell: (_, i) => i + 1 },
  { id: 'layer', header: 'Layer', cellClassName: 'profile-layer-name', cell: (l) => l.name },
  { id: 'state', header: 'State', cell: (l) => <Badge tone={STATE_TONE[l.state]}>{LAYER_CONTROL_LABELS[l.state]}</Badge> },
];

function LayersTable({ entry }: { entry: ProfileEntry }) {
  const p = entry.profile;
  if (p.layers.length === 0) return <p className="muted">No layers listed: every layer is left to the applications.</p>;
  return (
    <DataTable
      label={`Layers of ${entry.name}`}
      testId="profile-layers"
      className="profile-layers"
      columns={LAYER_COLUMNS}
      rows={p.layers}
      rowKey={(l) => l.name}
      rowAttributes={(l) => ({ 'data-layer': l.name, 'data-state': l.state })}
    />
  );
}

/**
 * Opens a stored profile in the Layers editor (states, order, settings; Save writes it back). Unsaved
 * work in the draft is never replaced from here: the header's switcher asks about it.
 */
async function editInLayers(entry: ProfileEntry) {
  const d = useDraft.getState();
  const work = selectDirty(d) && (d.source === null || selectSourceEdited(d)) && d.source?.key !== entry.key;
  if (work) {
    useProfiles.setState({
      outcome: {
        ok: false,
        message:
          'The Layers draft has unsaved changes: apply or revert them first, or choose this profile in the header’s Profile menu (it asks what to do with them).',
        details: [],
        error: null,
      },
    });
    return;
  }
  if (d.source?.key !== entry.key && !(await loadIntoDraft(entry))) return;
  useNavigation.getState().open('layers');
}

/** One profile or preset: what it holds, and what can be done with it. */
export function ProfileDetails({ entry, list }: { entry: ProfileEntry; list: ProfilesList }) {
  const run = useProfiles((s) => s.run);
  const busy = useProfiles((s) => s.busy);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const p = entry.profile;
  const bound = entry.kind === 'profile' ? boundApplications(list, entry.name) : [];
  const settings = Object.entries(p.settings ?? {}).flatMap(([layer, values]) =>
    Object.entries(values).map(([k, v]) => `${layer}.${k} = ${JSON.stringify(v)}`),
  );

  const exportFile = async () => {
    const r = await run('profiles.export', { name: entry.name }, (x) => ({ message: `Exported "${entry.name}" as ${x.fileName}.` }));
    if (r) downloadText(r.fileName, r.text);
  };
  const exportOverride = async () => {
    const r = await run('profiles.overrideExport', { name: entry.name }, (x) => ({
      message: `Exported the override layer of "${entry.name}" as ${x.fileName} (a download: nothing was installed).`,
      details: x.notes,
    }));
    if (r) downloadText(r.fileName, r.text);
  };

  return (
    <article className="card profile-details" aria-labelledby="profile-details-title" data-testid="profile-details" data-key={entry.key}>
      <header className="card-header">
        <h2 className="card-title" id="profile-details-title">
          {entry.name}
        </h2>
        <Badge tone={entry.kind === 'preset' ? 'accent' : 'neutral'}>{entry.kind === 'preset' ? 'Preset (read-only)' : 'Profile'}</Badge>
      </header>
      <div className="card-body profile-details-body">
        {p.description && <p className="profile-description">{p.description}</p>}
        {entry.file && <p className="path profile-file">{entry.file}</p>}
        {entry.warnings.map((w, i) => (
          <p key={i} className="profile-warning" role="note">
            {w}
          </p>
        ))}
        <LayersTable entry={entry} />
        {settings.length > 0 && (
          <details className="profile-settings">
            <summary>{`${settings.length} layer setting${settings.length === 1 ? '' : 's'}`}</summary>
            <ul>
              {settings.map((s) => (
                <li key={s}>
                  <code>{s}</code>
                </li>
              ))}
            </ul>
          </details>
        )}
        {(p.loaderMessages?.length || p.drivers) && (
          <dl className="facts">
            {p.loaderMessages?.length ? (
              <>
                <dt>Loader messages</dt>
                <dd>{p.loaderMessages.join(', ')}</dd>
              </>
            ) : null}
            {p.drivers?.select?.length ? (
              <>
                <dt>Only drivers</dt>
                <dd>{p.drivers.select.join(', ')}</dd>
              </>
            ) : null}
            {p.drivers?.disable?.length ? (
              <>
                <dt>Never drivers</dt>
                <dd>{p.drivers.disable.join(', ')}</dd>
              </>
            ) : null}
          </dl>
        )}

        <div className="profile-actions" role="group" aria-label="Profile actions">
          {entry.kind === 'profile' && (
            <button type="button" className="button button-primary" disabled={busy} data-testid="profile-edit" onClick={() => void editInLayers(entry)}>
              Edit layers, order and settings
            </button>
          )}
          <button
            type="button"
            className={`button${entry.kind === 'preset' ? ' button-primary' : ''}`}
            disabled={busy}
            data-testid="profile-apply"
            onClick={() =>
              void run('profiles.apply', { name: entry.name }, (r) => ({
                message: `${r.result.action === 'unchanged' ? 'Already installed' : 'Installed'}: "${entry.name}" is the override at ${r.result.path}.`,
                details: r.notes,
              }))
            }
          >
            Apply as override
          </button>
          <button type="button" className="button" disabled={busy} data-testid="profile-export" onClick={() => void exportFile()}>
            Export file
          </button>
          <button type="button" className="button" disabled={busy} data-testid="profile-export-override" onClick={() => void exportOverride()}>
            Export override JSON
          </button>
          {entry.kind === 'profile' &&
            (confirmDelete ? (
              <button
                type="button"
                className="button button-danger"
                disabled={busy}
                data-testid="profile-delete-confirm"
                onClick={() =>
                  void run('profiles.delete', { name: entry.name, force: true }, (r) => ({
                    message: `Deleted "${r.deleted.name}".`,
                    details: r.unbound.length ? [`Unbound: ${r.unbound.join(', ')}`] : [],
                    select: null,
                  })).then(() => setConfirmDelete(false))
                }
              >
                {bound.length ? `Delete and unbind ${bound.length}` : 'Delete: sure?'}
              </button>
            ) : (
              <button type="button" className="button" disabled={busy} data-testid="profile-delete" onClick={() => setConfirmDelete(true)}>
                Delete…
              </button>
            ))}
        </div>

        <div className="profile-forms">
          <InlineForm
            key={`copy:${entry.key}`}
            id="profile-copy-name"
            label={entry.kind === 'preset' ? 'Create a profile from this preset' : 'Copy as'}
            initial={freeName(entry.kind === 'preset' ? entry.name.replace(/ \(.*\)$/, '') : `Copy of ${entry.name}`, list)}
            submit={entry.kind === 'preset' ? 'Create' : 'Copy'}
            onSubmit={(to) => void run('profiles.copy', { from: entry.name, to }, (r) => ({ message: `Created "${r.name}".`, select: `profile:${r.name}` }))}
          />
          {entry.kind === 'profile' && (
            <InlineForm
              key={`rename:${entry.key}`}
              id="profile-rename-name"
              label="Rename to"
              initial={entry.name}
              submit="Rename"
              onSubmit={(to) =>
                void run('profiles.rename', { from: entry.name, to }, (r) => ({ message: `Renamed to "${r.name}".`, select: `profile:${r.name}` }))
              }
            />
          )}
          {entry.kind === 'profile' && (
            <InlineForm
              key={`bind:${entry.key}`}
              id="profile-bind-path"
              label="Bind an application (its executable's full path)"
              initial=""
              placeholder="/usr/bin/vkcube"
              clearOnSubmit
              submit="Bind"
              onSubmit={(appPath) =>
                void run('profiles.bind', { appPath, profile: entry.name }, (r) => ({
                  message: `Bound ${r.application.path} to "${entry.name}" (${r.sync.mechanism === 'override-app-keys' ? `override layers scoped by app_keys, loader ${r.sync.loaderVersion}` : 'vk_loader_settings.json'}).`,
                  details: [...r.notes, ...r.sync.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.app}: ${c.message}`), ...r.sync.notes],
                }))
              }
            />
          )}
        </div>
        {bound.length > 0 && (
          <section aria-labelledby="profile-bound-title">
            <h3 className="profile-subtitle" id="profile-bound-title">
              Bound applications
            </h3>
            <ul className="profile-bound" data-testid="profile-bound">
              {bound.map((app) => (
                <li key={app}>
                  <span className="path">{app}</span>
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    data-testid="profile-unbind"
                    onClick={() => void run('profiles.unbind', { appPath: app }, (r) => ({ message: `Unbound ${app}.`, details: r.sync.notes }))}
                  >
                    Unbind
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </article>
  );
}

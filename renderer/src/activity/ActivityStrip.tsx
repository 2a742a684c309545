import { useEffect, useState } from 'react';
import { activityHeadline, strataHasChanges, type ActiveFile, type ActivityStatus } from '../../../shared/activity/activity-status';
import { formatStrataError } from '../../../shared/errors/strata-error';
import { hasStrataApi } from '../strata-bridge';
import { useActivity } from './activity-store';
import { useChain } from '../chain/chain-store';
import { selectFirstAnswerPending, useDiscovery } from '../discovery/discovery-store';
import { useDraft } from '../configurator/draft-store';
import { useNavigation } from '../navigation/navigation-store';
import { useProfiles } from '../profiles/profiles-store';
import { useLayersView } from '../layers/layers-view-store';
import { Dialog } from '../ui/Dialog';
import '../styles/activity.css';

const OWNER_WORDS: Record<ActiveFile['owner'], string> = { strata: 'Strata’s', modified: 'Strata’s, changed since', foreign: 'another tool’s' };
const ROLE_WORDS: Record<ActiveFile['role'], string> = {
  'global-override': 'Override layer (global)',
  'layer-settings': 'Layer settings',
  'app-override': 'Override layer (per application)',
  'loader-settings': 'Loader settings file',
};

function FileLine({ file }: { file: ActiveFile }) {
  return (
    <li className={`activity-file owner-${file.owner}`} data-testid="activity-file" data-owner={file.owner} data-role={file.role} data-path={file.path}>
      <span className="activity-file-role">
        {ROLE_WORDS[file.role]} · <span className="activity-owner">{OWNER_WORDS[file.owner]}</span>
      </span>
      <code className="activity-path">{file.path}</code>
      <span className="activity-file-summary">
        {file.summary} <span className="muted">Read by: {file.loaders}.</span>
      </span>
    </li>
  );
}

function Details({ status }: { status: ActivityStatus }) {
  const g = status.global;
  const showChain = (app: string) => {
    useChain.getState().explainApp(app);
    useNavigation.getState().open('chain');
  };
  return (
    <div className="activity-details" id="activity-details" data-testid="activity-details">
      <section aria-labelledby="activity-global-title">
        <h3 className="activity-heading" id="activity-global-title">
          Every application not bound to a profile
        </h3>
        <p data-testid="activity-global">
          {g.ownership === 'absent'
            ? 'Strata’s global override is not installed: these applications get the layers they ask for.'
            : g.ownership === 'foreign'
              ? `An override another tool wrote is installed (${g.path}).`
              : `Strata’s global override${g.on.length ? ` forces on ${g.on.join(', ')}` : ''}${g.off.length ? `${g.on.length ? ';' : ''} forces off ${g.off.join(', ')}` : ''}${!g.on.length && !g.off.length ? ' holds layer settings only' : ''}.`}
        </p>
      </section>
      <section aria-labelledby="activity-bound-title">
        <h3 className="activity-heading" id="activity-bound-title">
          Applications bound to a profile
        </h3>
        {status.bindings.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="activity-bindings">
            {status.bindings.map((b) => (
              <li key={b.app} className="activity-binding" data-testid="activity-binding" data-app={b.app} data-ok={b.ok}>
                <code className="activity-path">{b.app}</code>
                <span>
                  → profile <strong>{b.profile}</strong>
                  {b.file && (
                    <>
                      {' '}
                      through <code className="activity-path">{b.file}</code>
                    </>
                  )}
                </span>
                <span className={b.ok ? 'activity-ok' : 'activity-bad'}>{b.ok ? `✓ ${b.message}` : `✗ ${b.message}`}</span>
                <button type="button" className="button button-small" onClick={() => showChain(b.app)} aria-label={`Show the chain of ${b.app}`}>
                  Show chain
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="activity-files-title">
        <h3 className="activity-heading" id="activity-files-title">
          Files that decide the layers
        </h3>
        {status.files.length === 0 ? (
          <p className="muted">None: no override layer, layer settings or loader settings file is installed.</p>
        ) : (
          <ul className="activity-files">
            {status.files.map((f) => (
              <FileLine key={f.path} file={f} />
            ))}
          </ul>
        )}
      </section>
      {status.notes.length > 0 && (
        <ul className="activity-notes">
          {status.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      <p className="muted activity-loader">Installed loader: {status.loaderVersion ?? 'none answered'}</p>
    </div>
  );
}

/**
 * The status strip in the window frame: one line saying what Strata has changed for whom (the
 * global override, each bound application, any file another tool wrote), details on demand, and
 * Disable for all of it or the parts chosen.
 */
export function ActivityStrip() {
  const status = useActivity((s) => s.status);
  const expanded = useActivity((s) => s.expanded);
  const dialog = useActivity((s) => s.disable.kind);

  // After the first view's discovery answer (it asks the probe for the loader version, and discovers too).
  const waitForDiscovery = useDiscovery(selectFirstAnswerPending);
  useEffect(() => {
    if (!waitForDiscovery && hasStrataApi() && useActivity.getState().status.status === 'idle') void useActivity.getState().load();
  }, [waitForDiscovery]);

  const value = status.status === 'ready' ? status.value : null;
  const foreign = value?.files.some((f) => f.owner === 'foreign') ?? false;
  const bad = value?.bindings.some((b) => !b.ok) ?? false;
  return (
    <footer className={`activity-strip${foreign || bad ? ' has-warning' : ''}`} aria-label="What is active for whom" data-testid="activity-strip">
      {expanded && value && <Details status={value} />}
      <div className="activity-line">
        <span className={`activity-dot${value && strataHasChanges(value) ? ' is-active' : ''}`} aria-hidden="true" />
        <p className="activity-headline" data-testid="activity-headline" aria-live="polite">
          {status.status === 'ready'
            ? activityHeadline(status.value)
            : status.status === 'error'
              ? `Could not read what is active: ${formatStrataError(status.error)}`
              : 'Reading what is active…'}
        </p>
        <button
          type="button"
          className="button button-small"
          aria-expanded={expanded}
          aria-controls="activity-details"
          disabled={!value}
          data-testid="activity-toggle"
          onClick={() => useActivity.getState().setExpanded(!expanded)}
        >
          {expanded ? 'Hide details' : 'Details'}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={!value || !strataHasChanges(value)}
          data-testid="activity-disable"
          onClick={() => useActivity.getState().openDisable()}
        >
          Disable…
        </button>
      </div>
      {dialog === 'open' && <DisableDialog />}
    </footer>
  );
}

/** Disable: every file of Strata's is chosen; the user may keep some. Another tool's files are listed and left alone. */
export function DisableDialog() {
  const status = useActivity((s) => s.status);
  const dialog = useActivity((s) => s.disable);
  const value = status.status === 'ready' ? status.value : null;
  const hasGlobal = value !== null && (value.global.ownership === 'strata' || value.global.ownership === 'modified');
  const [global, setGlobal] = useState(true);
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  if (dialog.kind !== 'open') return null;
  const close = () => useActivity.getState().closeDisable();
  const apps = value?.bindings.filter((b) => !kept.has(b.app)).map((b) => b.app) ?? [];
  const nothing = (!hasGlobal || !global) && apps.length === 0;
  const modified = value?.files.some((f) => f.owner === 'modified') ?? false;
  const canForce = dialog.error?.code === 'override/not-strata-file' || dialog.error?.code === 'profile/foreign-override';
  const run = async (force: boolean) => {
    const r = await useActivity.getState().runDisable({ global: hasGlobal && global, apps, ...(force ? { force: true } : {}) });
    if (!r) return;
    // The draft starts again from what is left; discovery shows the files gone.
    void useDraft.getState().loadStatus();
    void useDiscovery.getState().refresh();
    void useProfiles.getState().load();
    const said = `Disabled: ${r.removed.length} file${r.removed.length === 1 ? '' : 's'} of Strata’s removed${r.unbound.length ? `, ${r.unbound.length} application${r.unbound.length === 1 ? '' : 's'} no longer bound` : ''}.`;
    useLayersView.getState().announce(said);
    close();
  };
  const foreign = value?.files.filter((f) => f.owner === 'foreign') ?? [];
  return (
    <Dialog
      title="Disable what Strata changed?"
      tone="danger"
      testId="disable-dialog"
      wide
      onClose={close}
      focusKey={value ? 'ready' : 'loading'}
      description={
        <p>
          Chosen files of Strata’s are removed; where there was a file before Strata, it is put back. Bound applications stay in the applications list, without
          a profile.
        </p>
      }
      actions={
        <>
          <button type="button" className="button" data-autofocus onClick={close}>
            Cancel
          </button>
          {canForce && (
            <button type="button" className="button button-danger" disabled={dialog.busy} data-testid="disable-force" onClick={() => void run(true)}>
              Remove anyway
            </button>
          )}
          <button
            type="button"
            className="button button-danger"
            disabled={!value || nothing || dialog.busy}
            data-testid="disable-confirm"
            onClick={() => void run(false)}
          >
            {dialog.busy ? 'Disabling…' : 'Disable chosen'}
          </button>
        </>
      }
    >
      {!value ? (
        <p>Reading what is active…</p>
      ) : (
        <fieldset className="disable-choices">
          <legend>What to disable</legend>
          {hasGlobal && (
            <label className="disable-choice">
              <input type="checkbox" checked={global} data-testid="disable-global" onChange={(e) => setGlobal(e.target.checked)} />
              <span>
                The global override (every application not bound to a profile) <code className="activity-path">{value.global.path}</code>
              </span>
            </label>
          )}
          {value.bindings.map((b) => (
            <label className="disable-choice" key={b.app}>
              <input
                type="checkbox"
                checked={!kept.has(b.app)}
                data-testid="disable-app"
                data-app={b.app}
                onChange={(e) =>
                  setKept((k) => {
                    const next = new Set(k);
                    if (e.target.checked) next.delete(b.app);
                    else next.add(b.app);
                    return next;
                  })
                }
              />
              <span>
                <code className="activity-path">{b.app}</code> bound to “{b.profile}”
                {b.file ? (
                  <>
                    {' '}
                    (<code className="activity-path">{b.file}</code>)
                  </>
                ) : null}
              </span>
            </label>
          ))}
          {!hasGlobal && value.bindings.length === 0 && <p className="muted">Strata has changed nothing that Disable would undo.</p>}
        </fieldset>
      )}
      {modified && (
        <p className="apply-conflict">Some of Strata’s files were changed by someone else since Strata wrote them: Strata asks before it removes them.</p>
      )}
      {foreign.length > 0 && (
        <div className="disable-foreign">
          <p>Left alone (another tool wrote them):</p>
          <ul>
            {foreign.map((f) => (
              <li key={f.path}>
                <code className="activity-path">{f.path}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {dialog.error && (
        <p className="apply-error" role="alert" data-testid="disable-error">
          {formatStrataError(dialog.error)}
        </p>
      )}
    </Dialog>
  );
}

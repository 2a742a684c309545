import { useEffect } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import { commandLabel, durationLabel, exitLabel, exitTone, STATUS_LABELS, countsLabel } from '../sessions/session-labels';
import { useSessions } from '../stores/sessions-store';
import { Badge } from './Card';
import { LoadingLine } from './LoadingLine';
import { RequestErrorMessage } from './RequestErrorMessage';

/** Every recorded session, newest first: open one, pick two to compare, export, delete. */
export function SessionHistory() {
  const list = useSessions((s) => s.list);
  const load = useSessions((s) => s.loadList);
  const open = useSessions((s) => s.open);
  const compare = useSessions((s) => s.compare);
  const toggleCompare = useSessions((s) => s.toggleCompare);
  const runDiff = useSessions((s) => s.runDiff);
  const remove = useSessions((s) => s.remove);
  const exportSession = useSessions((s) => s.exportSession);
  const actionError = useSessions((s) => s.actionError);

  useEffect(() => {
    void load();
  }, [load]);

  if (list.status === 'error') return <RequestErrorMessage title="The sessions could not be listed" error={list.error} onRetry={() => void load()} />;
  if (list.status !== 'ready') return <LoadingLine text="Reading the sessions…" />;
  const sessions = list.value.sessions;

  return (
    <div className="session-history" data-testid="session-history">
      <div className="toolbar">
        <span className="toolbar-status">
          {sessions.length} session{sessions.length === 1 ? '' : 's'} in <code>{list.value.dir}</code>
        </span>
        <span className="toolbar-spacer" />
        <button type="button" className="button" disabled={compare.length !== 2} onClick={() => void runDiff()} data-testid="session-compare">
          Compare {compare.length}/2
        </button>
        <button type="button" className="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {actionError && (
        <p className="request-error-message" role="alert">
          {formatStrataError(actionError)}
        </p>
      )}
      {sessions.length === 0 ? (
        <p className="card-empty">
          No sessions yet: start an application from the Launch tab, or run <code>strata launch -- COMMAND</code>.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table session-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Compare</span>
                </th>
                <th scope="col">Application</th>
                <th scope="col">Profile</th>
                <th scope="col">Result</th>
                <th scope="col">Errors</th>
                <th scope="col">Warnings</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id} data-testid="session-row" data-session={s.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Compare ${s.id}`}
                      checked={compare.includes(s.id)}
                      onChange={() => toggleCompare(s.id)}
                      data-testid="session-pick"
                    />
                  </td>
                  <td className="session-command" title={s.id}>
                    <code>{commandLabel(s)}</code>
                    <time className="session-started" dateTime={s.startedAt}>
                      {new Date(s.startWall).toLocaleString()}
                    </time>
                  </td>
                  <td>{s.profile ?? '—'}</td>
                  <td className="session-result">
                    {s.status !== 'ended' && <Badge tone={s.status === 'running' ? 'accent' : 'warning'}>{STATUS_LABELS[s.status]}</Badge>}{' '}
                    <Badge tone={exitTone(s.exit)}>{exitLabel(s.exit, s.status)}</Badge> <span className="muted">{durationLabel(s.durationMs)}</span>
                  </td>
                  <td title={s.counts ? countsLabel(s.counts) : undefined}>
                    {s.counts ? s.counts.messages.error : '?'}
                    {s.counts && s.counts.loader.error > 0 && <span className="muted"> +{s.counts.loader.error} loader</span>}
                  </td>
                  <td title={s.counts ? countsLabel(s.counts) : undefined}>
                    {s.counts ? s.counts.messages.warning : '?'}
                    {s.counts && s.counts.loader.warning > 0 && <span className="muted"> +{s.counts.loader.warning} loader</span>}
                  </td>
                  <td className="session-actions">
                    <button type="button" className="button button-compact" onClick={() => void open(s.id)} data-testid="session-open">
                      Open
                    </button>
                    <button
                      type="button"
                      className="button button-compact"
                      onClick={() => void exportSession(s.id, 'html')}
                      title="A report with no external resources"
                    >
                      HTML
                    </button>
                    <button type="button" className="button button-compact" onClick={() => void exportSession(s.id, 'json')}>
                      JSON
                    </button>
                    <button
                      type="button"
                      className="button button-compact"
                      disabled={s.status === 'running'}
                      onClick={() => void remove(s.id)}
                      aria-label={`Delete ${s.id}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

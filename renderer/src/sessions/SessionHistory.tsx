import { useEffect } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import type { SessionSummary } from '../../../shared/sessions/session-ipc';
import { commandLabel, durationLabel, exitLabel, exitTone, STATUS_LABELS, countsLabel } from './session-labels';
import { useSessions } from './sessions-store';
import { DataTable } from '../ui/DataTable';
import { Badge } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';

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
      <DataTable<SessionSummary>
        label="Sessions"
        className="session-table"
        rows={sessions}
        rowKey={(s) => s.id}
        rowAttributes={(s) => ({ 'data-testid': 'session-row', 'data-session': s.id })}
        empty={
          <>
            No sessions yet: start an application from the Launch tab, or run <code>strata launch -- COMMAND</code>.
          </>
        }
        columns={[
          {
            id: 'compare',
            header: <span className="visually-hidden">Compare</span>,
            cell: (s) => (
              <input
                type="checkbox"
                aria-label={`Compare ${s.id}`}
                checked={compare.includes(s.id)}
                onChange={() => toggleCompare(s.id)}
                data-testid="session-pick"
              />
            ),
          },
          {
            id: 'application',
            header: 'Application',
            cellClassName: 'session-command',
            cellAttributes: (s) => ({ title: s.id }),
            cell: (s) => (
              <>
                <code>{commandLabel(s)}</code>
                <time className="session-started" dateTime={s.startedAt}>
                  {new Date(s.startWall).toLocaleString()}
                </time>
              </>
            ),
          },
          { id: 'profile', header: 'Profile', cell: (s) => s.profile ?? '—' },
          {
            id: 'result',
            header: 'Result',
            cellClassName: 'session-result',
            cell: (s) => (
              <>
                {s.status !== 'ended' && <Badge tone={s.status === 'running' ? 'accent' : 'warning'}>{STATUS_LABELS[s.status]}</Badge>}{' '}
                <Badge tone={exitTone(s.exit)}>{exitLabel(s.exit, s.status)}</Badge> <span className="muted">{durationLabel(s.durationMs)}</span>
              </>
            ),
          },
          {
            id: 'errors',
            header: 'Errors',
            cellAttributes: (s) => ({ title: s.counts ? countsLabel(s.counts) : undefined }),
            cell: (s) => (
              <>
                {s.counts ? s.counts.messages.error : '?'}
                {s.counts && s.counts.loader.error > 0 && <span className="muted"> +{s.counts.loader.error} loader</span>}
              </>
            ),
          },
          {
            id: 'warnings',
            header: 'Warnings',
            cellAttributes: (s) => ({ title: s.counts ? countsLabel(s.counts) : undefined }),
            cell: (s) => (
              <>
                {s.counts ? s.counts.messages.warning : '?'}
                {s.counts && s.counts.loader.warning > 0 && <span className="muted"> +{s.counts.loader.warning} loader</span>}
              </>
            ),
          },
          {
            id: 'actions',
            header: <span className="visually-hidden">Actions</span>,
            cellClassName: 'session-actions',
            cell: (s) => (
              <>
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
              </>
            ),
          },
        ]}
      />
      {list.value.unreadable.length > 0 && <UnreadableSessions files={list.value.unreadable} onDelete={(id) => void remove(id)} />}
    </div>
  );
}

/** A file of the sessions folder's name (`ID.jsonl`) as the id sessions.delete takes; null when the name is not one. */
function sessionIdOfFile(file: string): string | null {
  const m = /(?:^|[\\/])([A-Za-z0-9][A-Za-z0-9._-]{0,127})\.jsonl$/.exec(file);
  return m ? m[1]! : null;
}

/**
 * Files in the sessions folder that are not readable sessions (a crash before the header, another
 * program's file, a permission): listed with why, not silently left out, and each can be deleted.
 */
function UnreadableSessions({ files, onDelete }: { files: readonly { file: string; reason: string }[]; onDelete(id: string): void }) {
  return (
    <section className="unreadable-sessions" aria-labelledby="unreadable-sessions-title" data-testid="unreadable-sessions">
      <h3 id="unreadable-sessions-title" className="unreadable-sessions-title">
        {files.length} file{files.length === 1 ? '' : 's'} in the sessions folder {files.length === 1 ? 'is' : 'are'} not{' '}
        {files.length === 1 ? 'a readable session' : 'readable sessions'}
      </h3>
      <ul className="unreadable-list">
        {files.map((f) => {
          const id = sessionIdOfFile(f.file);
          return (
            <li key={f.file} data-testid="unreadable-session" data-file={f.file}>
              <div className="unreadable-text">
                <code className="unreadable-file">{f.file}</code>
                <span className="unreadable-reason" data-testid="unreadable-reason">
                  {f.reason}
                </span>
              </div>
              {id ? (
                <button
                  type="button"
                  className="button button-compact"
                  onClick={() => onDelete(id)}
                  aria-label={`Delete ${f.file}`}
                  data-testid="unreadable-delete"
                >
                  Delete
                </button>
              ) : (
                <span className="muted">Remove it by hand: its name is not a session's</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

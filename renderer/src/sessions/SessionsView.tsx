import { useEffect, useId, useMemo } from 'react';
import type { SessionOpen } from '../../../shared/sessions/session-ipc';
import { commandLabel, countsLabel, durationLabel, exitLabel, exitTone, STATUS_LABELS } from './session-labels';
import { liveCounts, overrideWarningsNote } from './session-notes';
import { useSessions, type SessionsTab } from './sessions-store';
import { Badge, Card } from '../ui/Card';
import { LaunchForm } from './LaunchForm';
import { LoadingLine } from '../ui/LoadingLine';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import { SessionDiffView } from './SessionDiffView';
import { SessionHistory } from './SessionHistory';
import { SessionLog } from './SessionLog';
import '../styles/layers.css';
import '../styles/layers-editor.css';
import '../styles/shaders.css';
import '../styles/sessions.css';

const TABS: readonly { id: SessionsTab; label: string }[] = [
  { id: 'launch', label: 'Launch' },
  { id: 'history', label: 'History' },
];

/**
 * The Sessions panel: Launch (the form and the live log of the run in progress) and History (the
 * recorded sessions; one opened, or two compared side by side).
 */
export function SessionsView() {
  const tab = useSessions((s) => s.tab);
  const setTab = useSessions((s) => s.setTab);
  const listen = useSessions((s) => s.listen);
  const group = useId();
  useEffect(() => listen(), [listen]);

  return (
    <div className="sessions-view" data-testid="sessions-view">
      <fieldset className="sessions-tabs">
        <legend className="visually-hidden">View</legend>
        <div className="segmented segmented-inline">
          {TABS.map((t) => (
            <label className="segment" key={t.id}>
              <input
                type="radio"
                name={`${group}-tab`}
                value={t.id}
                checked={tab === t.id}
                onChange={() => setTab(t.id)}
                data-testid={`sessions-tab-${t.id}`}
              />
              <span className="segment-face">{t.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {tab === 'launch' ? <LaunchTab /> : <HistoryTab />}
    </div>
  );
}

function LaunchTab() {
  const live = useSessions((s) => s.live);
  const counts = useMemo(() => (live ? liveCounts(live.log.records, live.footer?.counts).label : ''), [live]);
  const note = useMemo(() => (live ? overrideWarningsNote(live.summary, live.log.records) : null), [live]);
  return (
    <>
      <Card id="launcher" title="Launcher">
        <LaunchForm />
      </Card>
      {live && (
        <Card
          id="live-session"
          title={live.footer ? 'Last launch' : 'Running'}
          className="session-card"
          aside={
            <span className="session-card-status" data-testid="live-status" data-session={live.summary.id} data-ended={live.footer ? 'true' : 'false'}>
              <code>{commandLabel(live.summary)}</code>{' '}
              {live.footer ? <Badge tone={exitTone(live.footer.exit)}>{exitLabel(live.footer.exit)}</Badge> : <Badge tone="accent">running</Badge>}{' '}
              <span className="session-card-counts" data-testid="live-counts">
                {counts}
              </span>
              {live.log.dropped > 0 && <span className="muted"> · {live.log.dropped.toLocaleString('en-US')} lines only in the session file</span>}
            </span>
          }
        >
          {note && (
            <p className="session-note" data-testid="live-override-note">
              {note}
            </p>
          )}
          <SessionLog records={live.log.records} live={!live.footer} testId="live-log" />
        </Card>
      )}
    </>
  );
}

function HistoryTab() {
  const opened = useSessions((s) => s.opened);
  const closeOpened = useSessions((s) => s.closeOpened);
  const open = useSessions((s) => s.open);
  const diff = useSessions((s) => s.diff);
  const runDiff = useSessions((s) => s.runDiff);
  return (
    <>
      <Card id="session-history" title="Sessions">
        <SessionHistory />
      </Card>
      {diff.status === 'loading' && <LoadingLine text="Comparing…" />}
      {diff.status === 'error' && <RequestErrorMessage title="The sessions could not be compared" error={diff.error} onRetry={() => void runDiff()} />}
      {diff.status === 'ready' && (
        <Card id="session-diff" title="Comparison">
          <SessionDiffView diff={diff.value} />
        </Card>
      )}
      {opened.status === 'loading' && <LoadingLine text="Reading the session…" />}
      {opened.status === 'error' && <RequestErrorMessage title="The session could not be read" error={opened.error} onRetry={closeOpened} />}
      {opened.status === 'ready' && (
        <Card
          id="opened-session"
          title={`Session ${opened.value.header.id}`}
          className="session-card"
          aside={
            <span className="button-group">
              <button type="button" className="button button-compact" onClick={() => void open(opened.value.header.id)}>
                Reload
              </button>
              <button type="button" className="button button-compact" onClick={closeOpened}>
                Close
              </button>
            </span>
          }
        >
          <OpenedSession session={opened.value} />
        </Card>
      )}
    </>
  );
}

function OpenedSession({ session }: { session: SessionOpen }) {
  const { header, footer, counts, summary } = session;
  const note = useMemo(() => overrideWarningsNote(summary, session.records), [summary, session.records]);
  return (
    <div data-testid="opened-session">
      <dl className="facts session-facts">
        <dt>Application</dt>
        <dd>
          <code>{commandLabel(summary)}</code>
        </dd>
        <dt>Profile</dt>
        <dd>{header.profile?.name ?? 'none'}</dd>
        <dt>Started</dt>
        <dd>{new Date(header.startWall).toLocaleString()}</dd>
        <dt>Status</dt>
        <dd>{STATUS_LABELS[summary.status]}</dd>
        <dt>Exit</dt>
        <dd>
          <Badge tone={exitTone(footer?.exit ?? null)}>{exitLabel(footer?.exit ?? null, summary.status)}</Badge> after{' '}
          {durationLabel(footer?.durationMs ?? null)}
        </dd>
        <dt>Messages</dt>
        <dd data-testid="opened-counts">{countsLabel(counts)}</dd>
        <dt>Predicted chain</dt>
        <dd>{header.chain ? header.chain.chain.map((e) => e.name).join(' → ') || 'no layers' : (header.chainError ?? 'not predicted')}</dd>
        <dt>Loader messages</dt>
        <dd>{header.loaderDebug ?? 'off'}</dd>
      </dl>
      {header.notes.length > 0 && (
        <ul className="session-notes">
          {header.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {note && (
        <p className="session-note" data-testid="opened-override-note">
          {note}
        </p>
      )}
      {session.total > session.records.length && (
        <p className="muted">
          Showing the first {session.records.length.toLocaleString('en-US')} of {session.total.toLocaleString('en-US')} records; export JSON for all of them.
        </p>
      )}
      <SessionLog records={session.records} live={false} testId="opened-log" />
    </div>
  );
}

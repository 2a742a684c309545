import type { MessageDelta, SessionDiff } from '../../../shared/sessions/session-diff';
import { exitLabel } from './session-labels';
import { SEVERITY_LABELS } from './session-labels';
import { DataTable, type DataColumn } from '../ui/DataTable';

const SEVERITIES = ['error', 'warning', 'info', 'verbose'] as const;

/** A row of a side's counts: what is counted, and how many. */
type CountRow = [label: string, count: number];
const COUNT_COLUMNS: readonly DataColumn<CountRow>[] = [
  { id: 'what', rowHeader: true, cell: (row) => row[0] },
  { id: 'count', cell: (row) => row[1] },
];

/**
 * Two sessions side by side: the predicted chains, the validation messages that appeared or
 * disappeared (by VUID) or changed in number, and the counts by severity.
 */
export function SessionDiffView({ diff }: { diff: SessionDiff }) {
  const side = (which: 'a' | 'b') => {
    const s = diff[which];
    const chain = diff.chain[which];
    const only = which === 'a' ? diff.messages.disappeared : diff.messages.appeared;
    const counts = diff.counts[which];
    return (
      <section className="diff-side" aria-label={`Session ${which.toUpperCase()}`} data-testid={`session-diff-${which}`}>
        <h3>
          {which.toUpperCase()}: <code>{s.id}</code>
        </h3>
        <p className="muted">
          {s.command} · {exitLabel(s.exit)}
        </p>
        <h4>Predicted chain</h4>
        {chain === null ? (
          <p className="muted">not predicted</p>
        ) : chain.length === 0 ? (
          <p className="muted">no layers</p>
        ) : (
          <ol className="diff-chain">
            {chain.map((name) => {
              const changed = which === 'a' ? diff.chain.removed.includes(name) : diff.chain.added.includes(name);
              return (
                <li key={name} className={changed ? (which === 'a' ? 'is-removed' : 'is-added') : diff.chain.moved.includes(name) ? 'is-moved' : ''}>
                  {name}
                </li>
              );
            })}
          </ol>
        )}
        <h4>{which === 'a' ? 'Messages only here (gone in B)' : 'Messages only here (new in B)'}</h4>
        <MessageList items={only} count={(m) => (which === 'a' ? m.a : m.b)} testId={`session-diff-only-${which}`} />
        <h4>Counts</h4>
        <DataTable
          label={`Counts of session ${which.toUpperCase()}`}
          scroll={false}
          columns={COUNT_COLUMNS}
          rows={[
            ...SEVERITIES.map((sev): CountRow => [SEVERITY_LABELS[sev], counts.messages[sev]]),
            ['Output lines', counts.lines.stdout + counts.lines.stderr],
          ]}
          rowKey={(row) => row[0]}
        />
      </section>
    );
  };
  return (
    <div className="session-diff" data-testid="session-diff">
      <p className="session-diff-summary">
        {diff.chain.same ? 'Same predicted chain. ' : 'The predicted chains differ. '}
        {diff.messages.appeared.length} message id{diff.messages.appeared.length === 1 ? '' : 's'} appeared, {diff.messages.disappeared.length} disappeared,{' '}
        {diff.messages.changed.length} changed in number.
      </p>
      <div className="diff-sides">
        {side('a')}
        {side('b')}
      </div>
      {diff.messages.changed.length > 0 && (
        <>
          <h4>In both, a different number of times</h4>
          <MessageList items={diff.messages.changed} count={(m) => `${m.a} → ${m.b}`} testId="session-diff-changed" />
        </>
      )}
    </div>
  );
}

function MessageList({ items, count, testId }: { items: readonly MessageDelta[]; count: (m: MessageDelta) => number | string; testId: string }) {
  if (items.length === 0) return <p className="muted">none</p>;
  return (
    <ul className="diff-messages" data-testid={testId}>
      {items.map((m) => (
        <li key={m.vuid} className={`log-${m.severity}`} title={m.text}>
          <span className="log-severity">{SEVERITY_LABELS[m.severity]}</span> <code>{m.vuid}</code> × {count(m)}
        </li>
      ))}
    </ul>
  );
}

import { useLayoutEffect, useMemo, useState } from 'react';
import { compileQuery } from '../../../shared/sessions/session-query';
import type { CaptureRecord, LineSource, MessageRecord, Severity } from '../../../shared/sessions/session-records';
import { foldRepeatedLoaderLines, recordTag, recordText, SEVERITY_LABELS, SOURCE_LABELS, timeLabel } from '../sessions/session-labels';
import { virtualWindow } from '../virtual/virtual-window';
import { useScrollViewport } from '../virtual/use-scroll-viewport';
import { ALL_SEVERITIES, ALL_SOURCES, useSessions } from '../stores/sessions-store';
import { SearchIcon } from './ViewIcons';

/** Must match .log-row's height in sessions.css: the window math counts rows of this height. */
const ROW_HEIGHT = 20;

/**
 * A session's records as a virtualized list: only the rows in view are in the DOM, so a run of any
 * length scrolls smoothly and a live run stays responsive. Filters by source and severity and a
 * text search (the same query the CLI's `sessions show` uses); follow-tail keeps the newest row in
 * view until the user scrolls up. A click on a row shows it whole below (a message: its objects and
 * the specification's valid-usage entry).
 */
export function SessionLog({ records, live, testId }: { records: readonly CaptureRecord[]; live: boolean; testId: string }) {
  const filters = useSessions((s) => s.filters);
  const setFilters = useSessions((s) => s.setFilters);
  const follow = useSessions((s) => s.follow);
  const setFollow = useSessions((s) => s.setFollow);
  const pausedAt = useSessions((s) => s.pausedAt);
  const setPaused = useSessions((s) => s.setPaused);
  const [selected, setSelected] = useState<number | null>(null);
  const [fold, setFold] = useState(true);
  const { scroller, view, sync } = useScrollViewport(400);

  const shown = useMemo(() => {
    const match = compileQuery({
      ...(filters.text.trim() ? { text: filters.text.trim() } : {}),
      ...(filters.sources.length < ALL_SOURCES.length ? { source: filters.sources.length ? filters.sources : ['app'] } : {}),
      ...(filters.severities.length ? { severity: filters.severities } : {}),
    });
    const noSource = filters.sources.length === 0;
    const kept = records.filter((r) => !noSource && (!live || pausedAt === null || r.seq <= pausedAt) && match(r));
    return fold ? foldRepeatedLoaderLines(kept) : kept.map((record) => ({ record, repeats: 1 }));
  }, [records, filters, live, pausedAt, fold]);

  // Lines that match, folded repeats counted (the status compares it with every line).
  const matched = useMemo(() => shown.reduce((n, r) => n + r.repeats, 0), [shown]);

  // Follow the tail: after each render with new rows, the newest is in view.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box || !follow) return;
    box.scrollTop = box.scrollHeight;
    sync();
  }, [shown.length, follow]);

  const win = virtualWindow({ scrollTop: view.scrollTop, viewportHeight: view.height, rowHeight: ROW_HEIGHT, rowCount: shown.length });
  const rows = [];
  for (let i = win.start; i < win.end; i++) {
    const { record: r, repeats } = shown[i]!;
    const tag = recordTag(r);
    const text = recordText(r);
    rows.push(
      <div
        key={r.seq}
        className={`log-row log-${tag.source}${tag.severity ? ` log-${tag.severity}` : ''}${r.kind === 'message' ? ' log-message' : ''}${selected === r.seq ? ' is-selected' : ''}`}
        data-seq={r.seq}
        data-testid={r.kind === 'message' ? 'log-message' : 'log-line'}
        onClick={() => setSelected(r.seq)}
      >
        <span className="log-time">{timeLabel(r.t)}</span>
        <span className="log-source">{r.kind === 'message' ? 'Message' : tag.source === 'app' ? r.stream : SOURCE_LABELS[tag.source]}</span>
        <span className="log-severity">{tag.severity ? SEVERITY_LABELS[tag.severity] : ''}</span>
        <span className="log-text" title={text}>
          {text}
        </span>
        {repeats > 1 && (
          <span className="log-repeats" data-testid="log-repeats" title={`The loader said this ${repeats} times; shown once`}>
            ×{repeats}
          </span>
        )}
      </div>,
    );
  }
  const selectedRecord = selected === null ? null : (records.find((r) => r.seq === selected) ?? null);
  const toggle = <T extends string>(list: readonly T[], item: T) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);

  return (
    <div className="session-log" data-testid={testId}>
      <div className="toolbar log-toolbar">
        <label className="filter-box">
          <SearchIcon />
          <span className="visually-hidden">Search the output</span>
          <input
            className="filter-input"
            type="search"
            value={filters.text}
            placeholder="Search (text, VUID, object name…)"
            spellCheck={false}
            onChange={(e) => setFilters({ text: e.currentTarget.value })}
            data-testid="log-search"
          />
        </label>
        <fieldset className="log-filter">
          <legend className="visually-hidden">Sources</legend>
          {ALL_SOURCES.map((s: LineSource) => (
            <label key={s} className="log-check">
              <input
                type="checkbox"
                checked={filters.sources.includes(s)}
                onChange={() => setFilters({ sources: toggle(filters.sources, s) })}
                data-testid={`log-source-${s}`}
              />
              {SOURCE_LABELS[s]}
            </label>
          ))}
        </fieldset>
        <fieldset className="log-filter">
          <legend className="visually-hidden">Severities (none checked: all lines)</legend>
          {ALL_SEVERITIES.filter((s) => s !== 'perf').map((s: Severity) => (
            <label key={s} className="log-check">
              <input
                type="checkbox"
                checked={filters.severities.includes(s)}
                onChange={() => setFilters({ severities: toggle(filters.severities, s) })}
                data-testid={`log-severity-${s}`}
              />
              {SEVERITY_LABELS[s]}
            </label>
          ))}
        </fieldset>
        <span className="toolbar-spacer" />
        {live && (
          <button
            type="button"
            className="button button-compact"
            aria-pressed={pausedAt !== null}
            onClick={() => setPaused(pausedAt === null)}
            data-testid="log-pause"
          >
            {pausedAt === null ? 'Pause' : 'Resume'}
          </button>
        )}
        <button
          type="button"
          className="button button-compact"
          aria-pressed={fold}
          onClick={() => setFold(!fold)}
          title="Show a loader line said many times once, with its count"
          data-testid="log-fold"
        >
          Fold repeats
        </button>
        <button
          type="button"
          className="button button-compact"
          aria-pressed={follow}
          onClick={() => setFollow(!follow)}
          title="Keep the newest line in view"
          data-testid="log-follow"
        >
          Follow
        </button>
        <span className="toolbar-status" role="status" data-testid="log-status">
          {matched.toLocaleString('en-US')} of {records.length.toLocaleString('en-US')}
        </span>
        {matched > shown.length && (
          <span className="toolbar-status muted" data-testid="log-folded">
            ({(matched - shown.length).toLocaleString('en-US')} repeats folded)
          </span>
        )}
      </div>
      <div
        className="log-scroller"
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label="Captured output"
        data-testid={`${testId}-scroller`}
        onScroll={(e) => {
          const box = e.currentTarget;
          sync();
          // Scrolling up leaves the tail; scrolling back to the bottom follows it again.
          const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < ROW_HEIGHT;
          if (atBottom !== follow && (pausedAt === null || !atBottom)) setFollow(atBottom);
        }}
      >
        <div className="log-canvas" style={{ height: win.totalHeight }}>
          <div className="log-rows" style={{ transform: `translateY(${win.offset}px)` }}>
            {rows}
          </div>
        </div>
      </div>
      {selectedRecord && <RecordDetails record={selectedRecord} onClose={() => setSelected(null)} />}
    </div>
  );
}

function RecordDetails({ record, onClose }: { record: CaptureRecord; onClose: () => void }) {
  return (
    <div className="log-details" data-testid="log-details">
      <div className="log-details-head">
        <strong>{record.kind === 'message' ? record.vuid : `Line ${record.seq} (${record.stream})`}</strong>
        <button type="button" className="button button-compact" onClick={onClose}>
          Close
        </button>
      </div>
      {record.kind === 'message' ? <MessageDetails m={record} /> : <pre className="log-details-text">{record.text}</pre>}
    </div>
  );
}

function MessageDetails({ m }: { m: MessageRecord }) {
  return (
    <>
      <dl className="facts">
        <dt>Severity</dt>
        <dd>{SEVERITY_LABELS[m.severity]}</dd>
        <dt>Message id</dt>
        <dd>
          {m.specUrl ? (
            <a href={m.specUrl} target="_blank" rel="noreferrer noopener" data-testid="log-spec-link">
              {m.vuid}
            </a>
          ) : (
            m.vuid
          )}{' '}
          <span className="muted">({m.messageId})</span>
        </dd>
        {m.specText && (
          <>
            <dt>Valid usage</dt>
            <dd>{m.specText}</dd>
          </>
        )}
        <dt>Objects</dt>
        <dd>
          {m.objects.length === 0
            ? 'none'
            : m.objects.map((o) => (
                <div key={o.index} data-testid="log-object">
                  {o.typeName ?? `type ${o.type}`} <code>{o.handle}</code>
                  {o.name ? ` “${o.name}”` : ''}
                </div>
              ))}
        </dd>
      </dl>
      <pre className="log-details-text">{m.text}</pre>
    </>
  );
}

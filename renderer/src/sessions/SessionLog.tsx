import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { compileQuery } from '../../../shared/sessions/session-query';
import type { CaptureRecord, LineSource, MessageRecord, Severity } from '../../../shared/sessions/session-records';
import { foldRepeatedLoaderLines, recordTag, recordText, SEVERITY_LABELS, SOURCE_LABELS, timeLabel } from './session-labels';
import { rowOffsets, wrappedLineCount, wrappedWindow } from '../virtual/wrapped-rows';
import { useScrollViewport } from '../virtual/use-scroll-viewport';
import { ALL_SEVERITIES, ALL_SOURCES, useSessions } from './sessions-store';
import { SearchIcon } from '../ui/ViewIcons';
import { followAfterScroll } from './follow-tail';

/** Must match .log-rows' line height in sessions.css: a row is this many pixels per wrapped line. */
const LINE_HEIGHT = 20;
/** The row's fixed columns before and after its text (time 9ch, source 10ch, severity 7ch, repeats 7ch) in characters, and its padding and gaps in pixels (sessions.css .log-row). */
const FIXED_CHARS = 33;
const FIXED_PX = 20 + 4 * 10;

/**
 * The text column's width in characters, from the scroller's width and the log font's character
 * width (a hidden 100-character probe), kept current as the window resizes.
 */
function useTextColumns(scroller: RefObject<HTMLDivElement | null>, probe: RefObject<HTMLSpanElement | null>): number {
  const [columns, setColumns] = useState(120);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => {
      const ch = (probe.current?.getBoundingClientRect().width ?? 0) / 100;
      if (ch <= 0 || box.clientWidth <= 0) return;
      setColumns(Math.max(8, Math.floor((box.clientWidth - FIXED_PX) / ch) - FIXED_CHARS));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [scroller, probe]);
  return columns;
}

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
  const probe = useRef<HTMLSpanElement>(null);
  const columns = useTextColumns(scroller, probe);
  // Heights measured on screen, by record (an estimate can be off for wide characters); cleared when the column width changes.
  // Estimates are kept too, so a live batch costs only its own rows' arithmetic.
  const measured = useRef<{ columns: number; heights: Map<number, number>; estimates: Map<number, number> }>({
    columns,
    heights: new Map(),
    estimates: new Map(),
  });
  const [measuredVersion, setMeasuredVersion] = useState(0);
  if (measured.current.columns !== columns) measured.current = { columns, heights: new Map(), estimates: new Map() };
  const rowsBox = useRef<HTMLDivElement>(null);
  /** The scroller's scrollTop at its last scroll event: which way the view moved. */
  const lastTop = useRef(0);

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

  const offsets = useMemo(() => {
    const { heights, estimates } = measured.current;
    // Rows trimmed from a long live run leave their entries behind: start over rather than grow without bound.
    if (estimates.size > 2 * shown.length + 10_000) {
      estimates.clear();
      heights.clear();
    }
    const heightOf = (record: CaptureRecord) => {
      const known = heights.get(record.seq) ?? estimates.get(record.seq);
      if (known !== undefined) return known;
      const estimate = LINE_HEIGHT * wrappedLineCount(recordText(record), columns);
      estimates.set(record.seq, estimate);
      return estimate;
    };
    return rowOffsets(shown.map(({ record }) => heightOf(record)));
    // measuredVersion: a new measurement changes the heights held in the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown, columns, measuredVersion]);
  const win = wrappedWindow(offsets, view.scrollTop, view.height);

  // Follow the tail: after each render with new rows, or rows measured taller than their estimate
  // (the list grows below the view without a scroll event), the newest is in view.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box || !follow) return;
    box.scrollTop = box.scrollHeight;
    sync();
  }, [shown.length, win.totalHeight, follow, scroller, sync]);

  // Rows on screen whose real height differs from the estimate: remember it, and lay the list out again.
  useLayoutEffect(() => {
    const box = rowsBox.current;
    if (!box) return;
    let changed = false;
    for (const el of box.children) {
      const i = Number((el as HTMLElement).dataset['index']);
      const h = (el as HTMLElement).offsetHeight;
      const row = shown[i];
      if (!row || h <= 0) continue;
      if (Math.abs(offsets[i + 1]! - offsets[i]! - h) > 0.5) {
        measured.current.heights.set(row.record.seq, h);
        changed = true;
      }
    }
    if (changed) setMeasuredVersion((v) => v + 1);
  }, [shown, offsets, win.start, win.end]);
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
        data-index={i}
        data-testid={r.kind === 'message' ? 'log-message' : 'log-line'}
        onClick={() => setSelected(r.seq)}
      >
        <span className="log-time">{timeLabel(r.t)}</span>
        <span className="log-source">{r.kind === 'message' ? 'Message' : tag.source === 'app' ? r.stream : SOURCE_LABELS[tag.source]}</span>
        <span className="log-severity">{tag.severity ? SEVERITY_LABELS[tag.severity] : ''}</span>
        <span className="log-text">{text}</span>
        <span className="log-repeat-cell">
          {repeats > 1 && (
            <span className="log-repeats" data-testid="log-repeats" title={`The loader said this ${repeats} times; shown once`}>
              ×{repeats}
            </span>
          )}
        </span>
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
          const top = box.scrollTop;
          const next = followAfterScroll({
            follow,
            paused: pausedAt !== null,
            atBottom: box.scrollHeight - top - box.clientHeight < LINE_HEIGHT,
            movedUp: top < lastTop.current - 1,
          });
          lastTop.current = top;
          if (next !== follow) setFollow(next);
        }}
      >
        <div className="log-canvas" style={{ height: win.totalHeight }}>
          <div className="log-rows" ref={rowsBox} style={{ transform: `translateY(${win.offset}px)` }}>
            {rows}
          </div>
          <span className="log-measure" ref={probe} aria-hidden="true">
            {'0'.repeat(100)}
          </span>
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

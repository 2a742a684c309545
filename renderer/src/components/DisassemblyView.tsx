import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { definitionLines, searchLines, splitAtMatch, splitLines, stepMatch, tokenizeLine, type DisassemblyToken } from '../shaders/disassembly-lines';
import { scrollTopFor, virtualWindow } from '../shaders/virtual-window';
import { useShaders } from '../stores/shaders-store';
import { SearchIcon } from './ViewIcons';

/** Must match .dis-line's height in shaders.css: the window math counts rows of this height. */
const ROW_HEIGHT = 20;

/**
 * spirv-dis text, virtualized: only the rows in view (plus a margin) are in the DOM, so a module of
 * any length scrolls smoothly. `%N` ids are links to their definition; search steps through lines.
 */
export function DisassemblyView({ text, name }: { text: string; name: string }) {
  const lines = useMemo(() => splitLines(text), [text]);
  const defs = useMemo(() => definitionLines(lines), [lines]);
  const query = useShaders((s) => s.query);
  const setQuery = useShaders((s) => s.setQuery);
  const matches = useMemo(() => searchLines(lines, query), [lines, query]);
  const matchSet = useMemo(() => new Set(matches), [matches]);
  const [current, setCurrent] = useState(-1);
  const [target, setTarget] = useState<number | null>(null);
  const [back, setBack] = useState<number[]>([]);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: 480 });

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => setView({ scrollTop: box.scrollTop, height: box.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  const win = virtualWindow({ scrollTop: view.scrollTop, viewportHeight: view.height, rowHeight: ROW_HEIGHT, rowCount: lines.length });

  const reveal = (line: number) => {
    setTarget(line);
    const box = scroller.current;
    if (!box) return;
    box.scrollTop = scrollTopFor(line, { scrollTop: box.scrollTop, viewportHeight: box.clientHeight, rowHeight: ROW_HEIGHT, rowCount: lines.length });
    setView({ scrollTop: box.scrollTop, height: box.clientHeight });
  };

  const jump = (id: number, fromLine: number) => {
    const line = defs.get(id);
    if (line === undefined) return;
    setBack((b) => [...b.slice(-49), fromLine]);
    reveal(line);
  };

  const step = (direction: 1 | -1, list = matches, from = current) => {
    const next = stepMatch(list.length, from, direction);
    setCurrent(next);
    if (next >= 0) reveal(list[next]!);
  };

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      step(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape' && query) {
      event.preventDefault();
      setQuery('');
      setCurrent(-1);
    }
  };

  const status = !query.trim() ? `${lines.length.toLocaleString('en-US')} lines` : matches.length === 0 ? 'No matches' : `${current >= 0 ? current + 1 : '–'} of ${matches.length}`;
  const rows = [];
  for (let i = win.start; i < win.end; i++) {
    const cls = `dis-line${i === target ? ' is-target' : ''}${matchSet.has(i) ? ' has-match' : ''}${current >= 0 && matches[current] === i ? ' is-current' : ''}`;
    rows.push(
      <div key={i} className={cls} data-line={i + 1} data-testid={i === target ? 'dis-target-line' : undefined}>
        <code className="dis-text">
          <LineTokens tokens={tokenizeLine(lines[i]!)} line={i} defs={defs} query={matchSet.has(i) ? query : ''} onJump={jump} />
        </code>
      </div>,
    );
  }

  return (
    <div className="disassembly">
      <div className="toolbar dis-toolbar">
        <label className="filter-box dis-search">
          <SearchIcon />
          <span className="visually-hidden">Search the disassembly</span>
          <input
            className="filter-input"
            type="search"
            value={query}
            placeholder="Find (an opcode, %id, name…)"
            spellCheck={false}
            data-testid="dis-search"
            onChange={(e) => {
              const q = e.currentTarget.value;
              setQuery(q);
              // Type to find: show the first match as the query grows.
              const found = searchLines(lines, q);
              step(1, found, -1);
            }}
            onKeyDown={onSearchKey}
          />
        </label>
        <span className="toolbar-status dis-status" role="status" data-testid="dis-status">
          {status}
        </span>
        <span className="button-group">
          <button type="button" className="button button-compact" onClick={() => step(-1)} disabled={matches.length === 0} aria-label="Previous match" title="Previous match (Shift+Enter)" data-testid="dis-prev">
            ↑
          </button>
          <button type="button" className="button button-compact" onClick={() => step(1)} disabled={matches.length === 0} aria-label="Next match" title="Next match (Enter)" data-testid="dis-next">
            ↓
          </button>
        </span>
        <span className="toolbar-spacer" />
        {back.length > 0 && (
          <button
            type="button"
            className="button button-compact"
            data-testid="dis-back"
            onClick={() => {
              const line = back[back.length - 1]!;
              setBack(back.slice(0, -1));
              reveal(line);
            }}
          >
            ← Back to line {back[back.length - 1]! + 1}
          </button>
        )}
      </div>
      <div
        className="dis-scroller"
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label={`Disassembly of ${name}`}
        data-testid="dis-scroller"
        onScroll={(e) => setView({ scrollTop: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
      >
        <div className="dis-canvas" style={{ height: win.totalHeight }}>
          <pre className="dis-rows" style={{ transform: `translateY(${win.offset}px)` }} data-testid="dis-rows">
            {rows}
          </pre>
        </div>
      </div>
      <p className="source-footer muted">
        Read-only · identical to <code>spirv-dis --raw-id</code> · click an <code>%id</code> to go to its definition
      </p>
    </div>
  );
}

function Marked({ text, query }: { text: string; query: string }) {
  const parts = query ? splitAtMatch(text, query) : null;
  if (!parts) return <>{text}</>;
  return (
    <>
      {parts[0]}
      <mark className="dis-match">{parts[1]}</mark>
      <Marked text={parts[2]} query={query} />
    </>
  );
}

function LineTokens({ tokens, line, defs, query, onJump }: { tokens: DisassemblyToken[]; line: number; defs: Map<number, number>; query: string; onJump: (id: number, from: number) => void }) {
  return (
    <>
      {tokens.map((t, j) => {
        if (t.kind !== 'id') return <span key={j} className={`dis-${t.kind}`}>{t.kind === 'comment' ? t.text : <Marked text={t.text} query={query} />}</span>;
        const at = defs.get(t.id);
        if (at === line || at === undefined) {
          return (
            <span key={j} className={at === line ? 'dis-def' : 'dis-id-undefined'} title={at === undefined ? `%${t.id} has no definition in this module` : undefined}>
              <Marked text={t.text} query={query} />
            </span>
          );
        }
        return (
          <button key={j} type="button" className="dis-id" data-id={t.id} title={`Go to the definition of %${t.id} (line ${at + 1})`} onClick={() => onJump(t.id, line)}>
            <Marked text={t.text} query={query} />
          </button>
        );
      })}
    </>
  );
}

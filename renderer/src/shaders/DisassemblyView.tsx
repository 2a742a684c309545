import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { DisassemblyTexts } from '../../../shared/shader/shader-inspect-bytes';
import {
  definitionLines,
  idsByNameOf,
  searchLines,
  splitAtMatch,
  splitLines,
  stepMatch,
  tokenizeLine,
  type DisassemblyToken,
  type IdsByName,
} from './disassembly-lines';
import { scrollTopFor, virtualWindow } from '../virtual/virtual-window';
import { useScrollViewport } from '../virtual/use-scroll-viewport';
import { useShaders, type IdMode } from './shaders-store';
import { SearchIcon } from '../ui/ViewIcons';

/** Must match .dis-line's height in shaders.css: the window math counts rows of this height. */
const ROW_HEIGHT = 20;

const ID_MODES: readonly { mode: IdMode; label: string; hint: string }[] = [
  { mode: 'friendly', label: 'Friendly', hint: 'names from OpName, types and constants, like spirv-dis' },
  { mode: 'raw', label: 'Raw ids', hint: '%N for every id, like spirv-dis --raw-id' },
];

/**
 * spirv-dis text, virtualized: only the rows in view (plus a margin) are in the DOM, so a module of
 * any length scrolls smoothly. Ids are links to their definition; search steps through lines. The
 * Friendly / Raw ids switch swaps the text line for line (both texts have the same lines), so the
 * place, the search and the way back stay where they were.
 */
export function DisassemblyView({ texts, name }: { texts: DisassemblyTexts; name: string }) {
  const idMode = useShaders((s) => s.idMode);
  const text = idMode === 'raw' ? texts.rawDisassembly : texts.disassembly;
  const idsByName = useMemo<IdsByName>(() => (idMode === 'raw' ? new Map() : idsByNameOf(texts.idNames)), [idMode, texts.idNames]);
  const lines = useMemo(() => splitLines(text), [text]);
  const defs = useMemo(() => definitionLines(lines, idsByName), [lines, idsByName]);
  const query = useShaders((s) => s.query);
  const setQuery = useShaders((s) => s.setQuery);
  const matches = useMemo(() => searchLines(lines, query), [lines, query]);
  const matchSet = useMemo(() => new Set(matches), [matches]);
  const [current, setCurrent] = useState(-1);
  const [target, setTarget] = useState<number | null>(null);
  const [back, setBack] = useState<number[]>([]);
  const { scroller, view, sync } = useScrollViewport(480);

  const win = virtualWindow({ scrollTop: view.scrollTop, viewportHeight: view.height, rowHeight: ROW_HEIGHT, rowCount: lines.length });

  const reveal = (line: number) => {
    setTarget(line);
    const box = scroller.current;
    if (!box) return;
    box.scrollTop = scrollTopFor(line, { scrollTop: box.scrollTop, viewportHeight: box.clientHeight, rowHeight: ROW_HEIGHT, rowCount: lines.length });
    sync();
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

  const status = !query.trim()
    ? `${lines.length.toLocaleString('en-US')} lines`
    : matches.length === 0
      ? 'No matches'
      : `${current >= 0 ? current + 1 : '–'} of ${matches.length}`;
  const rows = [];
  for (let i = win.start; i < win.end; i++) {
    const cls = `dis-line${i === target ? ' is-target' : ''}${matchSet.has(i) ? ' has-match' : ''}${current >= 0 && matches[current] === i ? ' is-current' : ''}`;
    rows.push(
      <div key={i} className={cls} data-line={i + 1} data-testid={i === target ? 'dis-target-line' : undefined}>
        <code className="dis-text">
          <LineTokens tokens={tokenizeLine(lines[i]!, idsByName)} line={i} defs={defs} query={matchSet.has(i) ? query : ''} onJump={jump} />
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
          <button
            type="button"
            className="button button-compact"
            onClick={() => step(-1)}
            disabled={matches.length === 0}
            aria-label="Previous match"
            title="Previous match (Shift+Enter)"
            data-testid="dis-prev"
          >
            ↑
          </button>
          <button
            type="button"
            className="button button-compact"
            onClick={() => step(1)}
            disabled={matches.length === 0}
            aria-label="Next match"
            title="Next match (Enter)"
            data-testid="dis-next"
          >
            ↓
          </button>
        </span>
        <IdModeSwitch />
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
      <div className="dis-scroller" ref={scroller} tabIndex={0} role="region" aria-label={`Disassembly of ${name}`} data-testid="dis-scroller" onScroll={sync}>
        <div className="dis-canvas" style={{ height: win.totalHeight }}>
          <pre className="dis-rows" style={{ transform: `translateY(${win.offset}px)` }} data-testid="dis-rows">
            {rows}
          </pre>
        </div>
      </div>
      <p className="source-footer muted">
        Read-only · identical to <code>{idMode === 'raw' ? 'spirv-dis --raw-id' : 'spirv-dis'}</code> · click an <code>%id</code> to go to its definition
      </p>
    </div>
  );
}

/** Native radio buttons drawn as a segmented control (as the theme switcher): arrow keys and Tab work as for any radio group. */
function IdModeSwitch() {
  const idMode = useShaders((s) => s.idMode);
  const setIdMode = useShaders((s) => s.setIdMode);
  const group = useId();
  return (
    <fieldset className="dis-id-mode" data-testid="dis-id-mode">
      <legend className="visually-hidden">Ids</legend>
      <div className="segmented segmented-inline">
        {ID_MODES.map((m) => (
          <label className="segment" key={m.mode} title={m.hint}>
            <input
              type="radio"
              name={`${group}-id-mode`}
              value={m.mode}
              checked={idMode === m.mode}
              onChange={() => setIdMode(m.mode)}
              data-testid={`dis-id-mode-${m.mode}`}
            />
            <span className="segment-face">{m.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
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

function LineTokens({
  tokens,
  line,
  defs,
  query,
  onJump,
}: {
  tokens: DisassemblyToken[];
  line: number;
  defs: Map<number, number>;
  query: string;
  onJump: (id: number, from: number) => void;
}) {
  return (
    <>
      {tokens.map((t, j) => {
        if (t.kind !== 'id')
          return (
            <span key={j} className={`dis-${t.kind}`}>
              {t.kind === 'comment' ? t.text : <Marked text={t.text} query={query} />}
            </span>
          );
        const at = defs.get(t.id);
        if (at === line || at === undefined) {
          return (
            <span
              key={j}
              className={at === line ? 'dis-def' : 'dis-id-undefined'}
              title={at === undefined ? `${t.text} has no definition in this module` : undefined}
            >
              <Marked text={t.text} query={query} />
            </span>
          );
        }
        return (
          <button
            key={j}
            type="button"
            className="dis-id"
            data-id={t.id}
            title={`Go to the definition of ${t.text} (line ${at + 1})`}
            onClick={() => onJump(t.id, line)}
          >
            <Marked text={t.text} query={query} />
          </button>
        );
      })}
    </>
  );
}

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useRovingList } from '../navigation/use-roving-list';
import { severityName, SEVERITY_LABELS } from './diagnostic-severity';
import { ProblemBody } from './ProblemBody';
import { estimateGroupHeight, flatRows, KIND_LABELS, splitPath, type ProblemGroup } from './problem-groups';
import { useProblemsView } from './problems-view-store';
import { ProblemCounts } from './ProblemCounts';
import { FileIcon, SeverityIcon } from '../ui/ViewIcons';
import { useScrollViewport } from '../virtual/use-scroll-viewport';
import { rowOffsets, wrappedWindow } from '../virtual/wrapped-rows';

/** Characters of a problem message per line, for a list this many pixels wide (13px text: ~7px a character, 60px of row padding and icon). */
const columnsFor = (width: number) => (width - 60) / 7;

/**
 * Diagnostics grouped by file, as a listbox: one Tab stop, arrows move, Enter/Space or a click
 * opens the source. Only the files in view are rendered (1,000 files with problems are one screen
 * of DOM, not 10,000 elements laid out before the panel shows): each group's height is estimated
 * from its text until it has been on screen, then measured.
 */
export function ProblemList({ groups, draftPath = null }: { groups: readonly ProblemGroup[]; draftPath?: string | null }) {
  const selected = useProblemsView((s) => s.selected);
  const select = useProblemsView((s) => s.select);
  const { scroller, view, sync } = useScrollViewport(720);
  const rows = useMemo(() => flatRows(groups), [groups]);
  const keys = useMemo(() => rows.map((r) => r.key), [rows]);
  /** Each row's group, and each group's first row's place in `keys` (the group header's id). */
  const groupOf = useMemo(() => new Map(groups.flatMap((g, i) => g.rows.map((r) => [r.key, i] as const))), [groups]);
  const firstRow = useMemo(() => {
    let n = 0;
    return groups.map((g) => {
      const at = n;
      n += g.rows.length;
      return at;
    });
  }, [groups]);

  // Heights measured on screen, by file; cleared when the list's width changes (the text wraps anew).
  const [width, setWidth] = useState(720);
  const measured = useRef<{ width: number; heights: Map<string, number> }>({ width, heights: new Map() });
  const [measuredVersion, setMeasuredVersion] = useState(0);
  if (measured.current.width !== width) measured.current = { width, heights: new Map() };
  const offsets = useMemo(() => {
    const { heights } = measured.current;
    return rowOffsets(groups.map((g) => heights.get(g.path) ?? estimateGroupHeight(g, columnsFor(width))));
    // measuredVersion: a new measurement changed the heights held in the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [groups, width, measuredVersion]);
  const win = wrappedWindow(offsets, view.scrollTop, view.height, 3);

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => setWidth((w) => (box.clientWidth > 0 && Math.abs(box.clientWidth - w) >= 1 ? box.clientWidth : w));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [scroller]);

  // The rendered groups' real heights replace their estimates (once per change, so no render loop).
  const groupEls = useRef(new Map<string, HTMLDivElement>());
  useLayoutEffect(() => {
    const { heights } = measured.current;
    let changed = false;
    for (const [path, el] of groupEls.current) {
      const h = el.offsetHeight;
      if (h > 0 && Math.abs((heights.get(path) ?? -1) - h) >= 1) {
        heights.set(path, h);
        changed = true;
      }
    }
    if (changed) setMeasuredVersion((v) => v + 1);
  }, [groups, offsets, win.start, win.end]);

  /** Scroll so the group holding `key` is rendered (it then takes focus, or is simply in view). */
  const reveal = useCallback(
    (key: string) => {
      const box = scroller.current;
      const group = groupOf.get(key);
      if (!box || group === undefined) return;
      const top = offsets[group]!;
      const bottom = offsets[group + 1]!;
      if (top >= box.scrollTop && bottom <= box.scrollTop + box.clientHeight) return;
      box.scrollTop = bottom - top > box.clientHeight ? top : Math.max(0, top - box.clientHeight / 3);
      sync();
    },
    [scroller, groupOf, offsets, sync],
  );
  const roving = useRovingList(keys, selected, select, reveal);

  // A selection made elsewhere ("show in Problems" from Layers or Diagnostics) is scrolled into view.
  const revealRef = useRef(reveal);
  revealRef.current = reveal;
  useEffect(() => {
    if (selected) revealRef.current(selected);
  }, [selected]);

  const shown = groups.slice(win.start, win.end);
  return (
    <div className="problem-list-scroll" ref={scroller} onScroll={sync} data-testid="problem-list-scroll">
      <div role="listbox" aria-label="Problems" className="problem-list" data-testid="problem-list" style={{ height: win.totalHeight }}>
        <div className="problem-list-window" style={{ transform: `translateY(${win.offset}px)` }}>
          {shown.map((group, i) => {
            const { folder, name } = splitPath(group.path);
            const headerId = `problem-file-${firstRow[win.start + i]}`;
            return (
              <div
                role="group"
                aria-labelledby={headerId}
                className="problem-group"
                key={group.path}
                data-testid="problem-group"
                data-path={group.path}
                ref={(el) => {
                  if (el) groupEls.current.set(group.path, el);
                  else groupEls.current.delete(group.path);
                }}
              >
                <div className="problem-group-header" id={headerId} title={group.path}>
                  <FileIcon />
                  <span className="problem-file">
                    <span className="problem-file-name">{name}</span>
                    <span className="problem-file-folder">{folder}</span>
                  </span>
                  {group.path === draftPath && (
                    <span className="draft-badge" data-testid="problem-draft-badge" title="The override as your unsaved draft would write it">
                      Draft
                    </span>
                  )}
                  <span className="problem-group-kind">
                    {KIND_LABELS[group.kind]} · {group.origin}
                  </span>
                  <ProblemCounts counts={group.counts} />
                </div>
                {group.rows.map((row, j) => {
                  const d = row.diagnostic;
                  const sev = severityName(d.severity);
                  const isSelected = row.key === selected;
                  const index = firstRow[win.start + i]! + j;
                  return (
                    <div
                      key={row.key}
                      role="option"
                      aria-selected={isSelected}
                      aria-setsize={keys.length}
                      aria-posinset={index + 1}
                      tabIndex={row.key === roving.tabStop ? 0 : -1}
                      className={`problem-row severity-row-${sev}${isSelected ? ' is-selected' : ''}`}
                      data-testid="problem-row"
                      data-code={String(d.code ?? '')}
                      ref={roving.ref(row.key)}
                      onClick={() => roving.choose(row.key)}
                      onFocus={() => roving.onFocus(row.key)}
                      onKeyDown={(e) => roving.onKeyDown(e, index)}
                    >
                      <span className="problem-severity" title={SEVERITY_LABELS[sev]}>
                        <SeverityIcon severity={sev} />
                        <span className="visually-hidden">{SEVERITY_LABELS[sev]}:</span>
                      </span>
                      <ProblemBody diagnostic={d} />
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

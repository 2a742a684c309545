import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { DndContext, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { LAYER_CONTROL_DESCRIPTIONS, LAYER_CONTROL_LABELS } from '../../../shared/configurator/layer-draft';
import { LAYER_CONTROLS, type LayerControl } from '../../../shared/override/override-config';
import { moveAnnouncement, type EditorRow } from './editor-rows';
import { rowTitle } from './layer-rows';
import { rovingAction } from '../navigation/roving-focus';
import { scrollTopFor, virtualWindow } from '../virtual/virtual-window';
import { useScrollViewport } from '../virtual/use-scroll-viewport';
import { useDraft } from '../configurator/draft-store';
import { useLayersView } from './layers-view-store';
import { ProblemCounts } from '../problems/ProblemCounts';

/** Every row has this height, so only the rows in view need to be in the DOM (1,000 layers cost one screen). */
export const LAYER_ROW_HEIGHT = 84;

/** Move a layer past its neighbour in the list as shown (a filter may hide the layers between). */
export function moveRow(rows: readonly EditorRow[], index: number, delta: -1 | 1): void {
  const row = rows[index];
  const announce = useLayersView.getState().announce;
  if (!row?.name || row.draftIndex < 0) return;
  if (!row.orderability.orderable) {
    announce(`${row.name} cannot be moved: ${row.orderability.reason ?? 'its place is fixed'}`);
    return;
  }
  let j = index + delta;
  while (j >= 0 && j < rows.length && (rows[j]!.draftIndex < 0 || rows[j]!.name === row.name)) j += delta;
  const neighbour = rows[j];
  const place = neighbour?.name ? useDraft.getState().moveTo(row.name, neighbour.name) : null;
  if (place) announce(moveAnnouncement(row.name, place));
  else announce(`${row.name} is already ${delta < 0 ? 'first' : 'last'}`);
}

function StateSelect({ row, tabbable, editable }: { row: EditorRow; tabbable: boolean; editable: boolean }) {
  if (row.state === null || row.name === null) return <span className="layer-state-none">{row.shadowedBy ? 'Shadowed' : 'Fixed'}</span>;
  const name = row.name;
  return (
    <select
      className={`layer-state-select state-${row.state}`}
      aria-label={`State of ${name}`}
      title={LAYER_CONTROL_DESCRIPTIONS[row.state]}
      value={row.state}
      tabIndex={tabbable ? 0 : -1}
      disabled={!editable}
      data-testid="layer-state"
      onChange={(e) => {
        const state = e.target.value as LayerControl;
        useDraft.getState().setState(name, state);
        useLayersView.getState().announce(`${name}: ${LAYER_CONTROL_LABELS[state]}`);
      }}
    >
      {LAYER_CONTROLS.map((c) => (
        <option key={c} value={c}>
          {LAYER_CONTROL_LABELS[c]}
        </option>
      ))}
    </select>
  );
}

interface RowProps {
  row: EditorRow;
  index: number;
  selected: boolean;
  tabbable: boolean;
  editable: boolean;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>, index: number): void;
  onChoose(key: string): void;
  onFocusRow(key: string): void;
  rowRef(key: string, el: HTMLDivElement | null): void;
}

const LayerGridRow = memo(function LayerGridRow({ row, index, selected, tabbable, editable, onKeyDown, onChoose, onFocusRow, rowRef }: RowProps) {
  const orderable = editable && row.orderability.orderable;
  const { listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: row.key,
    disabled: { draggable: !orderable, droppable: !editable || row.draftIndex < 0 },
  });
  const layer = row.row?.layer ?? null;
  const manifest = row.row?.manifest ?? null;
  const title = row.row ? rowTitle(row.row) : (row.name ?? '');
  const whyId = `layer-why-${index}`;
  const why = row.orderability.reason ?? row.note;
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selected}
      aria-describedby={why ? whyId : undefined}
      tabIndex={tabbable ? 0 : -1}
      className={`layer-row${selected ? ' is-selected' : ''}${layer || row.vanished ? '' : ' is-unreadable'}${isDragging ? ' is-dragging' : ''}${row.vanished ? ' is-vanished' : ''}${row.shadowedBy ? ' is-shadowed' : ''}`}
      data-testid="layer-row"
      data-layer={row.name ?? ''}
      data-state={row.state ?? ''}
      data-orderable={String(row.orderability.orderable)}
      ref={(el) => {
        setNodeRef(el);
        rowRef(row.key, el);
      }}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('select')) return;
        onChoose(row.key);
      }}
      onFocus={(e) => {
        if (e.target === e.currentTarget) onFocusRow(row.key);
      }}
      onKeyDown={(e) => onKeyDown(e, index)}
    >
      <div role="gridcell" className="layer-cell-handle">
        {orderable ? (
          <span
            className="drag-handle"
            ref={setActivatorNodeRef}
            {...listeners}
            aria-hidden="true"
            title="Drag to reorder (keyboard: Alt+↑ / Alt+↓)"
            data-testid="layer-drag-handle"
          >
            <svg viewBox="0 0 10 16" width="10" height="16" aria-hidden="true">
              {[3, 8, 13].map((y) => [3, 7].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.3" />))}
            </svg>
          </span>
        ) : (
          <span className="drag-locked" aria-hidden="true" title={why ?? 'Its place is fixed'}>
            <svg viewBox="0 0 12 14" width="11" height="13" aria-hidden="true">
              <rect x="1.5" y="6" width="9" height="7" rx="1.5" />
              <path d="M3.5 6V4.2a2.5 2.5 0 0 1 5 0V6" fill="none" />
            </svg>
          </span>
        )}
        <span className="layer-pos" title="Place in the draft's order">
          {row.draftIndex >= 0 ? row.draftIndex + 1 : '–'}
        </span>
      </div>
      <div role="gridcell" className="layer-cell-main">
        <div className="layer-row-head">
          <span className="layer-name">{title}</span>
          <span className={`type-chip type-${row.kind}`}>{row.vanished ? 'missing' : row.kind}</span>
          {layer?.meta && <span className="type-chip type-meta">meta</span>}
          <span
            className={`chain-pos-chip${row.chainPosition ? ' is-loaded' : ''}`}
            title={row.chainOrder?.full ?? (row.chainPosition ? 'Its place in the chain (Chain panel)' : 'Not in the chain the Chain panel shows')}
            data-testid="layer-chain-pos"
          >
            {row.chainPosition ? `chain #${row.chainPosition}` : 'not loaded'}
            {row.chainOrder && <span className="chain-pos-why"> · {row.chainOrder.short}</span>}
          </span>
          <span className="layer-row-spacer" />
          {row.row && <ProblemCounts counts={row.row.counts} />}
        </div>
        <p className="layer-description">
          {row.note ? (
            <span className="layer-why">{row.note}</span>
          ) : layer ? (
            (layer.description ?? <span className="muted">No description</span>)
          ) : (
            <span className="muted">No layer could be read from this manifest</span>
          )}
        </p>
        {why && (
          <span className="visually-hidden" id={whyId}>
            {why}
          </span>
        )}
        <div className="layer-row-foot">
          {manifest ? (
            <>
              <span className="origin-chip" title={`Found through ${manifest.origin}: ${manifest.location}`}>
                {manifest.origin}
              </span>
              <span className="layer-path" title={manifest.path}>
                {manifest.path}
              </span>
            </>
          ) : (
            <span className="layer-path">not found by discovery</span>
          )}
          {layer && (layer.apiVersion || layer.implementationVersion) && (
            <span className="layer-versions">
              <span title="api_version">API {layer.apiVersion ?? '—'}</span>
              <span title="implementation_version">v{layer.implementationVersion ?? '—'}</span>
            </span>
          )}
        </div>
      </div>
      <div role="gridcell" className="layer-cell-state">
        <StateSelect row={row} tabbable={tabbable} editable={editable} />
      </div>
    </div>
  );
});

/**
 * false until the frame of the first render has been painted (a task after the next animation frame),
 * then true. The Layers list is the first view: rows out of sight (8 below) were a third of its DOM
 * and of what the page did before the user saw anything (issue #19: first render).
 */
function useFirstPaintDone(): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setDone(true), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return done;
}

/**
 * The Layers editor's list, a grid of rows in the draft's order. One Tab stop (the focused row, then
 * its state control); ↑ ↓ Home End move, Enter or Space selects, Alt+↑ / Alt+↓ move the layer
 * (announced); a row's handle drags it. Only the rows in view are rendered.
 */
export function LayerList({ rows, total, editable }: { rows: readonly EditorRow[]; total: number; editable: boolean }) {
  const selected = useLayersView((s) => s.selected);
  const select = useLayersView((s) => s.select);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const { scroller, view, sync } = useScrollViewport(720);
  const painted = useFirstPaintDone();
  const items = useRef(new Map<string, HTMLDivElement>());
  const pendingFocus = useRef<string | null>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));

  const keys = rows.map((r) => r.key);
  const tabStop = focusKey && keys.includes(focusKey) ? focusKey : selected && keys.includes(selected) ? selected : (keys[0] ?? null);

  useEffect(() => {
    if (selected) setFocusKey(selected);
  }, [selected]);

  // Focus follows the keyboard even to a row that was not rendered: scroll it into view first.
  useLayoutEffect(() => {
    const key = pendingFocus.current;
    const box = scroller.current;
    if (!key || !box) return;
    const index = rows.findIndex((r) => r.key === key);
    if (index < 0) {
      pendingFocus.current = null;
      return;
    }
    const top = scrollTopFor(index, { scrollTop: box.scrollTop, viewportHeight: box.clientHeight, rowHeight: LAYER_ROW_HEIGHT, rowCount: rows.length });
    if (top !== box.scrollTop) {
      box.scrollTop = top;
      sync();
    }
    const el = items.current.get(key);
    if (el) {
      pendingFocus.current = null;
      if (document.activeElement !== el) el.focus();
    }
  });

  const focusRow = useCallback((key: string) => {
    pendingFocus.current = key;
    setFocusKey(key);
  }, []);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>, index: number) => {
      if (e.target !== e.currentTarget || e.ctrlKey || e.metaKey) return;
      const current = rowsRef.current;
      if (e.altKey) {
        if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
        e.preventDefault();
        if (!editable) return;
        moveRow(current, index, e.key === 'ArrowUp' ? -1 : 1);
        focusRow(current[index]!.key);
        return;
      }
      const action = rovingAction(e.key, index, current.length);
      if (!action) return;
      e.preventDefault();
      if (action.kind === 'move') focusRow(current[action.index]!.key);
      else select(current[index]!.key);
    },
    [editable, focusRow, select],
  );
  const onChoose = useCallback(
    (key: string) => {
      setFocusKey(key);
      select(key);
    },
    [select],
  );
  const rowRef = useCallback((key: string, el: HTMLDivElement | null) => {
    if (el) items.current.set(key, el);
    else items.current.delete(key);
  }, []);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = rows.find((r) => r.key === active.id);
    const to = rows.find((r) => r.key === over.id);
    if (!from?.name || !to?.name) return;
    const place = useDraft.getState().moveTo(from.name, to.name);
    if (place) useLayersView.getState().announce(moveAnnouncement(from.name, place));
    focusRow(from.key);
  };

  if (rows.length === 0) {
    return (
      <div className="list-empty" data-testid="layers-empty">
        {total === 0 ? 'The loader finds no layer manifests on this system.' : 'No layer matches the filter.'}
      </div>
    );
  }

  // The first render draws the rows in view alone; those above and below (the overscan) follow once it is painted.
  const win = virtualWindow({
    scrollTop: view.scrollTop,
    viewportHeight: view.height,
    rowHeight: LAYER_ROW_HEIGHT,
    rowCount: rows.length,
    ...(painted ? {} : { overscan: 0 }),
  });
  const shown = rows.slice(win.start, win.end);
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: { draggable: 'To move a layer with the keyboard, focus its row and press Alt+Up or Alt+Down.' },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${rows.find((r) => r.key === active.id)?.name ?? 'a layer'}`,
          onDragOver: () => undefined,
          onDragEnd: () => undefined,
          onDragCancel: () => 'Move cancelled',
        },
      }}
    >
      <SortableContext items={keys} strategy={verticalListSortingStrategy}>
        <div className="layer-grid-scroll" ref={scroller} onScroll={sync}>
          <div
            role="grid"
            aria-label="Layers in load order"
            aria-rowcount={rows.length}
            aria-describedby="layer-grid-keys"
            className="layer-list layer-grid"
            data-testid="layer-list"
            style={{ height: win.totalHeight }}
          >
            <div role="rowgroup" className="layer-grid-rows" style={{ transform: `translateY(${win.offset}px)` }}>
              {shown.map((row, i) => (
                <LayerGridRow
                  key={row.key}
                  row={row}
                  index={win.start + i}
                  selected={row.key === selected}
                  tabbable={row.key === tabStop}
                  editable={editable}
                  onKeyDown={onKeyDown}
                  onChoose={onChoose}
                  onFocusRow={setFocusKey}
                  rowRef={rowRef}
                />
              ))}
            </div>
          </div>
        </div>
        <p className="visually-hidden" id="layer-grid-keys">
          Up and Down arrows move between layers, Enter selects, Alt+Up and Alt+Down move the layer, Tab reaches its state.
        </p>
      </SortableContext>
    </DndContext>
  );
}

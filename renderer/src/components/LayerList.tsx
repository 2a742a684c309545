import type { KeyboardEvent } from 'react';
import { useRovingList } from '../navigation/use-roving-list';
import { rowTitle, type LayerRow } from '../layers/layer-rows';
import { useLayersView } from '../stores/layers-view-store';
import { ProblemCounts } from './ProblemCounts';

const GROUPS = [
  { kind: 'implicit', title: 'Implicit layers', note: 'Loaded into every application unless disabled' },
  { kind: 'explicit', title: 'Explicit layers', note: 'Loaded when an application or VK_INSTANCE_LAYERS asks' },
] as const;

function LayerOption({ row, selected, tabbable, onSelect, onFocus, onKeyDown, refCallback }: {
  row: LayerRow;
  selected: boolean;
  tabbable: boolean;
  onSelect(): void;
  onFocus(): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  refCallback(el: HTMLDivElement | null): void;
}) {
  const { layer, manifest } = row;
  return (
    <div
      role="option"
      aria-selected={selected}
      tabIndex={tabbable ? 0 : -1}
      className={`layer-row${selected ? ' is-selected' : ''}${layer ? '' : ' is-unreadable'}`}
      data-testid="layer-row"
      data-layer={layer?.name ?? ''}
      ref={refCallback}
      onClick={onSelect}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
    >
      <div className="layer-row-head">
        <span className="layer-name">{rowTitle(row)}</span>
        <span className={`type-chip type-${row.kind}`}>{row.kind}</span>
        {layer?.meta && <span className="type-chip type-meta">meta</span>}
        <span className="layer-row-spacer" />
        <ProblemCounts counts={row.counts} />
      </div>
      <p className="layer-description">{layer ? (layer.description ?? <span className="muted">No description</span>) : <span className="muted">No layer could be read from this manifest</span>}</p>
      <div className="layer-row-foot">
        <span className="origin-chip" title={`Found through ${manifest.origin}: ${manifest.location}`}>
          {manifest.origin}
        </span>
        <span className="layer-path" title={manifest.path}>
          {manifest.path}
        </span>
        {layer && (layer.apiVersion || layer.implementationVersion) && (
          <span className="layer-versions">
            <span title="api_version">API {layer.apiVersion ?? '—'}</span>
            <span title="implementation_version">v{layer.implementationVersion ?? '—'}</span>
          </span>
        )}
      </div>
    </div>
  );
}

/**
 * The layers as a listbox: one Tab stop, arrows and Home/End move, Enter or Space selects (the
 * details follow the selection, not the focus, so browsing with arrows stays cheap).
 */
export function LayerList({ rows, total }: { rows: readonly LayerRow[]; total: number }) {
  const selected = useLayersView((s) => s.selected);
  const select = useLayersView((s) => s.select);
  const keys = rows.map((r) => r.key);
  const roving = useRovingList(keys, selected, select);

  if (rows.length === 0) {
    return (
      <div className="list-empty" data-testid="layers-empty">
        {total === 0 ? 'The loader finds no layer manifests on this system.' : 'No layer matches the filter.'}
      </div>
    );
  }

  return (
    <div role="listbox" aria-label="Layers" className="layer-list" data-testid="layer-list">
      {GROUPS.map(({ kind, title, note }) => {
        const groupRows = rows.filter((r) => r.kind === kind);
        if (groupRows.length === 0) return null;
        return (
          <div role="group" aria-labelledby={`layer-group-${kind}`} className="layer-group" key={kind}>
            <div className="layer-group-header" id={`layer-group-${kind}`}>
              <span className="layer-group-title">{title}</span>
              <span className="layer-group-count">{groupRows.length}</span>
              <span className="layer-group-note">{note}</span>
            </div>
            {groupRows.map((row) => {
              const index = keys.indexOf(row.key);
              return (
                <LayerOption
                  key={row.key}
                  row={row}
                  selected={row.key === selected}
                  tabbable={row.key === roving.tabStop}
                  onSelect={() => roving.choose(row.key)}
                  onFocus={() => roving.onFocus(row.key)}
                  onKeyDown={(e) => roving.onKeyDown(e, index)}
                  refCallback={roving.ref(row.key)}
                />
              );
            })}
          </div>
        );
      })}
    </div>
  );
}

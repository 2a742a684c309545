import { useEffect, useMemo, useRef } from 'react';
import { filterLayerRows, isFilterShortcut, layerRows, LAYER_TYPE_FILTERS, LAYER_TYPE_FILTER_LABELS, typeCounts } from '../layers/layer-rows';
import { useDiscoveryLoaded } from '../discovery/use-discovery-loaded';
import { useDiscovery } from '../stores/discovery-store';
import { useLayersView } from '../stores/layers-view-store';
import { LayerDetails } from './LayerDetails';
import { LayerList } from './LayerList';
import { LoadingLine } from './LoadingLine';
import { DiscoveryRefreshButton } from './DiscoveryRefreshButton';
import { RequestErrorMessage } from './RequestErrorMessage';
import { SearchOrderSection } from './SearchOrderSection';
import { SearchIcon } from './ViewIcons';
import '../styles/layers.css';

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Layers: every layer manifest the loader reads, in its order, with a filter and a details pane. */
export function LayersView() {
  useDiscoveryLoaded();
  const state = useDiscovery((s) => s.manifests);
  const retry = useDiscovery((s) => s.loadManifests);
  const query = useLayersView((s) => s.query);
  const type = useLayersView((s) => s.type);
  const selected = useLayersView((s) => s.selected);
  const setQuery = useLayersView((s) => s.setQuery);
  const setType = useLayersView((s) => s.setType);
  const filterBox = useRef<HTMLInputElement>(null);

  const rows = useMemo(() => (state.status === 'ready' ? layerRows(state.value) : []), [state]);
  const shown = useMemo(() => filterLayerRows(rows, query, type), [rows, query, type]);
  const counts = useMemo(() => typeCounts(rows), [rows]);
  const selectedRow = rows.find((r) => r.key === selected) ?? null;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isFilterShortcut(event, isEditable(event.target))) return;
      event.preventDefault();
      filterBox.current?.focus();
      filterBox.current?.select();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="layers-view">
      <div className="toolbar" role="search">
        <label className="filter-box">
          <SearchIcon />
          <span className="visually-hidden">Filter layers</span>
          <input
            ref={filterBox}
            type="search"
            className="filter-input"
            placeholder="Filter by name, path or description"
            value={query}
            aria-keyshortcuts="/"
            data-testid="layer-filter"
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && query) {
                e.preventDefault();
                setQuery('');
              }
            }}
          />
          <kbd className="filter-kbd" aria-hidden="true">
            /
          </kbd>
        </label>
        <div className="type-filter" role="radiogroup" aria-label="Layer type">
          {LAYER_TYPE_FILTERS.map((t) => (
            <label className="segment" key={t}>
              <input type="radio" name="layer-type" value={t} checked={type === t} onChange={() => setType(t)} />
              <span className="segment-face">
                {LAYER_TYPE_FILTER_LABELS[t]}
                <span className="segment-count">{counts[t]}</span>
              </span>
            </label>
          ))}
        </div>
        <span className="toolbar-spacer" />
        <span className="toolbar-status" aria-live="polite" data-testid="layer-count">
          {state.status === 'ready' ? (shown.length === rows.length ? `${rows.length} layers` : `${shown.length} of ${rows.length} layers`) : ''}
        </span>
        <DiscoveryRefreshButton />
      </div>

      {state.status === 'error' ? (
        <RequestErrorMessage title="Could not discover the layers" error={state.error} onRetry={() => void retry()} />
      ) : state.status !== 'ready' ? (
        <LoadingLine text="Reading the layer manifests…" />
      ) : (
        <div className="split">
          <LayerList rows={shown} total={rows.length} />
          <LayerDetails row={selectedRow} />
        </div>
      )}

      <SearchOrderSection />
    </div>
  );
}

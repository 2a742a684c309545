import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { createDraft, discoveredLayerNames } from '../../../shared/configurator/layer-draft';
import { driverLabels } from '../chain/chain-layout';
import { useDraftChain, useDraftLoaded, useDraftView } from '../configurator/draft-view';
import { editorRows, filterEditorRows } from './editor-rows';
import { isFilterShortcut, layerRows, LAYER_TYPE_FILTERS, LAYER_TYPE_FILTER_LABELS, typeCounts } from './layer-rows';
import { useChain } from '../chain/chain-store';
import { useDiscovery } from '../discovery/discovery-store';
import { useDraft } from '../configurator/draft-store';
import { useLayersView } from './layers-view-store';
import { ApplyDialogs } from '../configurator/ApplyDialogs';
import { ChainCard } from '../chain/ChainCard';
import { useChainDevices } from '../chain/ChainView';
import { DiscoveryRefreshButton } from '../discovery/DiscoveryRefreshButton';
import { DraftActions } from '../configurator/DraftActions';
import { ProfileEditBar } from '../profiles/ProfileEditBar';
import { LayerDetails } from './LayerDetails';
import { LayerList, moveRow } from './LayerList';
import { LoadingLine } from '../ui/LoadingLine';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import { SearchOrderSection } from '../discovery/SearchOrderSection';
import { SearchIcon } from '../ui/ViewIcons';
import '../styles/layers.css';
import '../styles/layers-editor.css';
import '../styles/chain.css';

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** The polite live region every editor action speaks through (moves, state changes, apply). */
function Announcer() {
  const announcement = useLayersView((s) => s.announcement);
  return (
    <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="layers-announcer" data-seq={announcement.seq}>
      {announcement.text}
    </p>
  );
}

/**
 * Layers: the editor. Every discovered layer in the draft's order with its state (Application-
 * controlled / On / Off); reorder by dragging or Alt+↑/↓; the chain of the draft beside it, live;
 * Apply writes the draft through the override writer after showing exactly what changes.
 */
export function LayersView() {
  useDraftLoaded();
  const state = useDiscovery((s) => s.manifests);
  const retry = useDiscovery((s) => s.loadManifests);
  const query = useLayersView((s) => s.query);
  const type = useLayersView((s) => s.type);
  const selected = useLayersView((s) => s.selected);
  const setQuery = useLayersView((s) => s.setQuery);
  const setType = useLayersView((s) => s.setType);
  const wideDetails = useLayersView((s) => s.wideDetails);
  const storeDraft = useDraft((s) => s.draft);
  const statusState = useDraft((s) => s.status.status);
  const view = useDraftView();
  const chain = useDraftChain(view);
  const apiVersion = useChain((s) => s.explained.apiVersion);
  const filterBox = useRef<HTMLInputElement>(null);
  const firstRender = useRef(false);

  const rows = useMemo(() => (view.inventory ? layerRows(view.inventory) : []), [view.inventory]);
  // Until Strata's override has been read the list is shown read-only, every layer application-controlled.
  const draft = useMemo(() => storeDraft ?? (view.inventory ? createDraft(null, discoveredLayerNames(view.inventory)) : null), [storeDraft, view.inventory]);
  const entries = useMemo(() => (draft ? editorRows(rows, draft, chain) : []), [rows, draft, chain]);
  const shown = useMemo(() => filterEditorRows(entries, query, type), [entries, query, type]);
  const counts = useMemo(() => typeCounts(rows), [rows]);
  const selectedEntry = entries.find((r) => r.key === selected) ?? null;
  const editable = storeDraft !== null && statusState === 'ready';
  const drivers = useMemo(() => (state.status === 'ready' ? driverLabels(state.value.manifests.driver) : []), [state]);
  const devices = useChainDevices(drivers, false);

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

  // For bench/ui-1k-layers: the first time the list is on screen (Performance API, read by the page's own code only).
  useLayoutEffect(() => {
    if (firstRender.current || entries.length === 0) return;
    firstRender.current = true;
    performance.mark('strata:layers-rendered');
  }, [entries.length]);

  return (
    <div className="layers-view layers-editor">
      <Announcer />
      <ProfileEditBar />
      <DraftActions />
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
          {state.status === 'ready' ? (shown.length === entries.length ? `${entries.length} layers` : `${shown.length} of ${entries.length} layers`) : ''}
        </span>
        <DiscoveryRefreshButton />
      </div>

      {state.status === 'error' ? (
        <RequestErrorMessage title="Could not discover the layers" error={state.error} onRetry={() => void retry()} />
      ) : state.status !== 'ready' ? (
        <LoadingLine text="Reading the layer manifests…" />
      ) : (
        <div className={`split${wideDetails ? ' is-details-wide' : ''}`}>
          <LayerList rows={shown} total={entries.length} editable={editable} />
          <LayerDetails
            entry={selectedEntry}
            editable={editable}
            onMove={(delta) => {
              const index = shown.findIndex((r) => r.key === selectedEntry?.key);
              if (index >= 0) moveRow(shown, index, delta);
            }}
          />
        </div>
      )}

      {chain && <ChainCard chain={chain} drivers={drivers} devices={devices} apiVersion={apiVersion} draft={view.dirty} compact />}

      <SearchOrderSection />
      <ApplyDialogs />
    </div>
  );
}

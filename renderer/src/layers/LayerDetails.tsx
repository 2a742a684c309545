import { useId } from 'react';
import { LAYER_CONTROL_DESCRIPTIONS, LAYER_CONTROL_LABELS } from '../../../shared/configurator/layer-draft';
import { LAYER_CONTROLS, type LayerControl } from '../../../shared/override/override-config';
import type { EditorRow } from './editor-rows';
import { rowTitle, type LayerRow } from './layer-rows';
import { LayerSettingsEditor } from '../settings/LayerSettingsEditor';
import { useDraft } from '../configurator/draft-store';
import { useLayersView } from './layers-view-store';
import { messageText, severityName, splitFix, positionLabel } from '../problems/diagnostic-severity';
import { problemKey } from '../problems/problem-groups';
import { useNavigation } from '../navigation/navigation-store';
import { useProblemsView } from '../problems/problems-view-store';
import { useSettingsView } from '../settings/settings-view-store';
import { PathText } from '../ui/PathText';
import { LayerLibraryCard } from './LayerLibraryCard';
import { ArrowRightIcon, SeverityIcon } from '../ui/ViewIcons';

function VariableList({ names, empty }: { names: readonly string[]; empty: string }) {
  if (names.length === 0) return <span className="muted">{empty}</span>;
  return (
    <ul className="chip-list">
      {names.map((n) => (
        <li key={n}>
          <code className="code-chip">{n}</code>
        </li>
      ))}
    </ul>
  );
}

/** The state of the selected layer as three radio buttons, each with what it does. */
function StateControl({ entry, editable }: { entry: EditorRow; editable: boolean }) {
  const base = useId();
  const name = entry.name!;
  const setState = (state: LayerControl) => {
    useDraft.getState().setState(name, state);
    useLayersView.getState().announce(`${name}: ${LAYER_CONTROL_LABELS[state]}`);
  };
  return (
    <fieldset className="state-control" disabled={!editable} data-testid="layer-state-control">
      <legend className="details-section-title">State</legend>
      {LAYER_CONTROLS.map((c) => (
        <label className={`state-option${entry.state === c ? ' is-checked' : ''}`} key={c}>
          <input type="radio" name={`${base}-state`} value={c} checked={entry.state === c} aria-describedby={`${base}-${c}`} onChange={() => setState(c)} />
          <span className="state-option-text">
            <span className="state-option-label">{LAYER_CONTROL_LABELS[c]}</span>
            <span className="state-option-desc" id={`${base}-${c}`}>
              {LAYER_CONTROL_DESCRIPTIONS[c]}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** Where the layer sits in the draft, and buttons that move it (the same as Alt+↑ / Alt+↓ on its row). */
function OrderControl({ entry, editable, onMove }: { entry: EditorRow; editable: boolean; onMove: (delta: -1 | 1) => void }) {
  const total = useDraft((s) => s.draft?.config.layers.length ?? 0);
  return (
    <section className="details-section" aria-labelledby="details-order">
      <h3 className="details-section-title" id="details-order">
        Order
      </h3>
      <p className="order-line">
        <span
          data-testid="layer-draft-position"
          title="Counts the layers Strata can order; the list also shows manifests with no usable layer and the override itself"
        >
          Position {entry.draftIndex + 1} of the {total} layers Strata orders
        </span>
        {entry.chainPosition ? <span className="muted"> · #{entry.chainPosition} in the chain</span> : <span className="muted"> · not in the chain</span>}
      </p>
      {entry.chainOrder && (
        <p className="muted order-why" data-testid="layer-chain-order-why">
          {entry.chainOrder.full}
        </p>
      )}
      {entry.orderability.orderable ? (
        <div className="order-buttons">
          <button type="button" className="button" disabled={!editable} onClick={() => onMove(-1)} aria-label={`Move ${entry.name} up`}>
            Move up
          </button>
          <button type="button" className="button" disabled={!editable} onClick={() => onMove(1)} aria-label={`Move ${entry.name} down`}>
            Move down
          </button>
        </div>
      ) : (
        <p className="muted" data-testid="layer-order-reason">
          {entry.orderability.reason}
        </p>
      )}
    </section>
  );
}

/** What the editor knows of the selected layer: its state, its place, its settings. */
function EditorSections({ entry, editable, onMove }: { entry: EditorRow; editable: boolean; onMove: (delta: -1 | 1) => void }) {
  const values = useDraft((s) => (entry.name ? s.draft?.config.settings?.[entry.name] : undefined));
  if (entry.state === null || entry.name === null) return entry.note ? <p className="details-note">{entry.note}</p> : null;
  const name = entry.name;
  const manifest = entry.row?.manifest;
  return (
    <>
      {entry.vanished && <p className="details-note is-warning">{entry.note}</p>}
      <StateControl entry={entry} editable={editable} />
      <OrderControl entry={entry} editable={editable} onMove={onMove} />
      {manifest?.text && (
        <section className="details-section" aria-labelledby="details-settings">
          <div className="details-section-head">
            <h3 className="details-section-title" id="details-settings">
              Settings
            </h3>
            <button
              type="button"
              className="button button-small"
              data-testid="open-settings-view"
              onClick={() => {
                useSettingsView.getState().select(name);
                useNavigation.getState().open('settings');
              }}
            >
              Open in Settings
            </button>
          </div>
          <LayerSettingsEditor
            layerName={name}
            manifestPath={manifest.path}
            manifestText={manifest.text}
            values={values ?? {}}
            onChange={(key, value) => useDraft.getState().setSetting(name, key, value)}
          />
        </section>
      )}
    </>
  );
}

/** The selected layer: its state, place and settings in the draft, everything its manifest says, where it came from, and what is wrong with it. */
/** Gives the details and settings the wide column (and back): settings trees want the room. */
function WidenButton() {
  const wide = useLayersView((s) => s.wideDetails);
  return (
    <button
      type="button"
      className="button button-small details-widen"
      aria-pressed={wide}
      data-testid="details-widen"
      onClick={() => useLayersView.getState().setWideDetails(!wide)}
    >
      {wide ? 'Narrow' : 'Widen'}
    </button>
  );
}

export function LayerDetails({
  entry,
  editable = false,
  onMove = () => {},
}: {
  entry: EditorRow | null;
  editable?: boolean;
  onMove?: (delta: -1 | 1) => void;
}) {
  const row: LayerRow | null = entry?.row ?? null;
  const openProblem = (key: string) => {
    useProblemsView.getState().select(key);
    useNavigation.getState().open('problems');
  };

  if (!entry) {
    return (
      <aside className="details-pane details-empty" aria-label="Layer details">
        <p>Select a layer to set its state, see its manifest, library and environment variables.</p>
        <p className="muted">
          <kbd>↑</kbd> <kbd>↓</kbd> move, <kbd>Enter</kbd> selects, <kbd>Alt</kbd>+<kbd>↑</kbd> <kbd>↓</kbd> reorders, <kbd>/</kbd> filters.
        </p>
      </aside>
    );
  }
  if (!row) {
    return (
      <aside className="details-pane" aria-label="Layer details" data-testid="layer-details">
        <header className="details-header">
          <h2 className="details-title">{entry.name}</h2>
        </header>
        <EditorSections entry={entry} editable={editable} onMove={onMove} />
      </aside>
    );
  }

  const { layer, manifest } = row;
  return (
    <aside className="details-pane" aria-label="Layer details" data-testid="layer-details">
      <header className="details-header">
        <WidenButton />
        <h2 className="details-title">{rowTitle(row)}</h2>
        <div className="details-chips">
          <span className={`type-chip type-${row.kind}`}>{row.kind}</span>
          {layer?.meta && <span className="type-chip type-meta">meta</span>}
          {layer?.type && <span className="type-chip">{layer.type}</span>}
        </div>
        {layer?.description && <p className="details-description">{layer.description}</p>}
      </header>

      <EditorSections entry={entry} editable={editable} onMove={onMove} />

      <dl className="facts details-facts">
        {layer && (
          <>
            <dt>API version</dt>
            <dd>{layer.apiVersion ?? <span className="muted">missing</span>}</dd>
            <dt>Implementation</dt>
            <dd>{layer.implementationVersion ?? <span className="muted">missing</span>}</dd>
            {layer.meta ? (
              <>
                <dt>Components</dt>
                <dd data-testid="layer-components">
                  <VariableList names={layer.componentLayers} empty="None listed" />
                </dd>
              </>
            ) : (
              <>
                <dt>Library</dt>
                <dd className="path" data-testid="layer-library">
                  {layer.libraryPath ? <PathText path={layer.libraryPath} /> : <span className="muted">missing</span>}
                </dd>
              </>
            )}
          </>
        )}
        <dt>Manifest</dt>
        <dd className="path" data-testid="layer-manifest">
          <PathText path={manifest.path} />
        </dd>
        <dt>Found via</dt>
        <dd>
          <code className="code-chip">{manifest.origin}</code>{' '}
          <span className="muted">
            #{row.position} in the loader’s {row.kind} list
          </span>
        </dd>
        <dt>File format</dt>
        <dd>{manifest.fileFormatVersion ?? <span className="muted">unknown</span>}</dd>
      </dl>

      {layer && row.kind === 'implicit' && (
        <section className="details-section" aria-labelledby="details-env">
          <h3 className="details-section-title" id="details-env">
            Environment variables
          </h3>
          <dl className="facts details-facts">
            <dt>Disable with</dt>
            <dd data-testid="layer-disable-env">
              <VariableList names={layer.disableEnvironment} empty="None: the loader skips this layer" />
            </dd>
            <dt>Enable only with</dt>
            <dd data-testid="layer-enable-env">
              <VariableList names={layer.enableEnvironment} empty="Not needed: always on" />
            </dd>
          </dl>
        </section>
      )}
      {layer && row.kind === 'explicit' && (layer.enableEnvironment.length > 0 || layer.disableEnvironment.length > 0) && (
        <section className="details-section" aria-labelledby="details-env">
          <h3 className="details-section-title" id="details-env">
            Environment variables
          </h3>
          <p className="muted">
            Listed in the manifest ({[...layer.enableEnvironment, ...layer.disableEnvironment].join(', ')}) but ignored: the loader reads them only for implicit
            layers.
          </p>
        </section>
      )}

      {layer && !layer.meta && layer.libraryPath && <LayerLibraryCard key={`${manifest.path}\n${layer.name}`} name={layer.name} manifest={manifest.path} />}
      <section className="details-section" aria-labelledby="details-problems">
        <h3 className="details-section-title" id="details-problems">
          Problems in this manifest
        </h3>
        {manifest.diagnostics.length === 0 ? (
          <p className="details-ok">None found.</p>
        ) : (
          <ul className="details-problems">
            {manifest.diagnostics.map((d, i) => {
              const sev = severityName(d.severity);
              const { text } = splitFix(messageText(d.message));
              return (
                <li key={i}>
                  <button type="button" className="details-problem" onClick={() => openProblem(problemKey(manifest.path, i))}>
                    <SeverityIcon severity={sev} size={14} />
                    <span className="details-problem-text">
                      <code className="diag-code">{String(d.code ?? '')}</code> {text}
                    </span>
                    <span className="details-problem-pos">{positionLabel(d.range.start)}</span>
                    <ArrowRightIcon />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </aside>
  );
}

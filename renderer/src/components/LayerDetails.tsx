import { rowTitle, type LayerRow } from '../layers/layer-rows';
import { messageText, severityName, splitFix, positionLabel } from '../problems/diagnostic-severity';
import { problemKey } from '../problems/problem-groups';
import { useNavigation } from '../stores/navigation-store';
import { useProblemsView } from '../stores/problems-view-store';
import { PathText } from './PathText';
import { ArrowRightIcon, SeverityIcon } from './ViewIcons';

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

/** The selected layer: everything its manifest says, where it came from, and what is wrong with it. */
export function LayerDetails({ row }: { row: LayerRow | null }) {
  const openProblem = (key: string) => {
    useProblemsView.getState().select(key);
    useNavigation.getState().open('problems');
  };

  if (!row) {
    return (
      <aside className="details-pane details-empty" aria-label="Layer details">
        <p>Select a layer to see its manifest, library and environment variables.</p>
        <p className="muted">
          <kbd>↑</kbd> <kbd>↓</kbd> move, <kbd>Enter</kbd> selects, <kbd>/</kbd> filters.
        </p>
      </aside>
    );
  }

  const { layer, manifest } = row;
  return (
    <aside className="details-pane" aria-label="Layer details" data-testid="layer-details">
      <header className="details-header">
        <h2 className="details-title">{rowTitle(row)}</h2>
        <div className="details-chips">
          <span className={`type-chip type-${row.kind}`}>{row.kind}</span>
          {layer?.meta && <span className="type-chip type-meta">meta</span>}
          {layer?.type && <span className="type-chip">{layer.type}</span>}
        </div>
        {layer?.description && <p className="details-description">{layer.description}</p>}
      </header>

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
          <code className="code-chip">{manifest.origin}</code> <span className="muted">#{row.position} in the loader’s {row.kind} list</span>
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
            Listed in the manifest ({[...layer.enableEnvironment, ...layer.disableEnvironment].join(', ')}) but ignored: the loader reads them only for implicit layers.
          </p>
        </section>
      )}

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

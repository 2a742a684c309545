import { useState } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import type { LayerInspection } from '../../../shared/vulkan/layer-inspection';
import { formatElapsed } from '../devices/device-labels';
import { inspectionFor, interfaceText, libraryText, symbolLines } from '../devices/layer-library-labels';
import type { RequestState } from '../requests/request-state';
import { toStrataError } from '../requests/request-state';
import { strataApi } from '../strata-bridge';
import { Badge } from '../ui/Card';
import { PathText } from '../ui/PathText';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';

const STATE_TEXT = { exported: 'exported', missing: 'not exported', 'not-looked-up': 'not looked up', info: '' } as const;

function InspectionResult({ result }: { result: LayerInspection }) {
  const library = libraryText(result);
  return (
    <div className="layer-library-result" data-testid="layer-library-result" data-ok={String(result.ok)}>
      <p>
        {result.ok ? (
          <Badge tone={result.warnings.length ? 'warning' : 'ok'}>{result.warnings.length ? 'Loads, with warnings' : 'Loads'}</Badge>
        ) : (
          <Badge tone="error">Fails</Badge>
        )}{' '}
        <span data-testid="layer-library-interface">{interfaceText(result)}</span> <span className="muted">· {formatElapsed(result.elapsedMs)}</span>
      </p>
      <dl className="facts details-facts">
        {library.path && (
          <>
            <dt>Loaded from</dt>
            <dd className="path" data-testid="layer-library-path">
              <PathText path={library.path} />
              {library.how && <span className="muted"> · {library.how}</span>}
            </dd>
          </>
        )}
        {result.negotiation && (
          <>
            <dt>Negotiation</dt>
            <dd>
              <code>{result.negotiation.result ?? 'no answer'}</code>
              {result.negotiation.interfaceVersion !== null && <span className="muted"> · agreed to {result.negotiation.interfaceVersion}</span>}
            </dd>
          </>
        )}
      </dl>
      {result.symbols.length > 0 && (
        <ul className="layer-library-symbols" data-testid="layer-library-symbols">
          {symbolLines(result).map((s) => (
            <li key={s.key} data-state={s.state}>
              <code>{s.label}</code>
              {s.symbol && (
                <span className="muted">
                  {' '}
                  as <code>{s.symbol}</code>
                </span>
              )}
              {STATE_TEXT[s.state] && <span className={s.state === 'exported' ? '' : 'muted'}> — {STATE_TEXT[s.state]}</span>}
            </li>
          ))}
        </ul>
      )}
      {[...(result.error ? [result.error] : []), ...result.warnings].map((e, i) => (
        <p
          key={i}
          className={i === 0 && result.error ? 'layer-library-error' : 'muted'}
          role={i === 0 && result.error ? 'alert' : undefined}
          data-testid="layer-library-problem"
        >
          <code>{e.code}</code> {formatStrataError(e)}
        </p>
      ))}
    </div>
  );
}

/**
 * The layer's library, loaded on request in a probe of its own (layers.inspect): where it was found,
 * what it exports, the interface version it negotiates. A crash or hang there is this layer's error.
 * One card per layer: LayerDetails keys it by manifest and name, so another layer's card starts empty
 * and an answer that arrives after the selection moved on is dropped with its card. (A reset in an
 * effect showed the previous layer's answer for a frame, and let a late answer land on the next layer.)
 */
export function LayerLibraryCard({ name, manifest }: { name: string | null; manifest: string }) {
  const [state, setState] = useState<RequestState<LayerInspection | null>>({ status: 'idle' });

  const inspect = async () => {
    if (name === null) return;
    setState({ status: 'loading' });
    try {
      const report = await strataApi().call('layers.inspect', { names: [name] });
      setState({ status: 'ready', value: inspectionFor(report, manifest, name) });
    } catch (e) {
      setState({ status: 'error', error: toStrataError(e, 'layers.inspect') });
    }
  };

  return (
    <section className="details-section" aria-labelledby="details-library" data-testid="layer-library-card" data-layer={name ?? undefined}>
      <h3 className="details-section-title" id="details-library">
        Library
      </h3>
      <p>
        <button
          type="button"
          className="button"
          onClick={() => void inspect()}
          disabled={name === null || state.status === 'loading'}
          aria-busy={state.status === 'loading'}
        >
          {state.status === 'loading' ? 'Inspecting…' : state.status === 'ready' ? 'Inspect again' : 'Inspect library'}
        </button>{' '}
        <span className="muted">Loads it on its own, as the loader would, in a separate process.</span>
      </p>
      {state.status === 'error' && <RequestErrorMessage title="Could not inspect the layer's library" error={state.error} onRetry={() => void inspect()} />}
      {state.status === 'ready' &&
        (state.value ? <InspectionResult result={state.value} /> : <p className="muted">The loader no longer finds this layer here; refresh the list.</p>)}
    </section>
  );
}

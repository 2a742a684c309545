import { useEffect, useId, useMemo, useRef } from 'react';
import type { LayerChain } from '../../../shared/loader/chain';
import { apiVersionProblem, baseName, driverLabels, explicitLayerNames, parseRequestedLayers, reasonSummary, reasonTag, type DriverLabel } from '../chain/chain-layout';
import { useDiscoveryLoaded } from '../discovery/use-discovery-loaded';
import { useChain } from '../stores/chain-store';
import { useDiscovery } from '../stores/discovery-store';
import { Badge } from './Card';
import { ChainDiagram } from './ChainDiagram';
import { LoadingLine } from './LoadingLine';
import { RequestErrorMessage } from './RequestErrorMessage';
import '../styles/chain.css';

const SVG_PRESENTATION = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-family', 'font-size', 'font-weight', 'letter-spacing'] as const;

/**
 * The diagram as a stand-alone .svg file: the theme's colours, which live in CSS, are copied onto
 * each element as presentation attributes (not style attributes, which the CSP would refuse), then
 * the file is offered as a download through a Blob URL.
 */
function downloadSvg(svg: SVGSVGElement, fileName: string) {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const live = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  live.forEach((el, i) => {
    const target = copies[i];
    if (!target || el.tagName === 'title') return;
    const style = getComputedStyle(el);
    for (const p of SVG_PRESENTATION) {
      const v = style.getPropertyValue(p);
      if (v) target.setAttribute(p, v);
    }
  });
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', getComputedStyle(svg.closest('.chain-canvas') ?? svg).backgroundColor || '#ffffff');
  copy.insertBefore(background, copy.firstChild);
  copy.removeAttribute('class');
  copy.removeAttribute('data-testid');
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function ChainForm({ names }: { names: readonly string[] }) {
  const requestedText = useChain((s) => s.requestedText);
  const apiVersion = useChain((s) => s.apiVersion);
  const setRequestedText = useChain((s) => s.setRequestedText);
  const setApiVersion = useChain((s) => s.setApiVersion);
  const toggleLayer = useChain((s) => s.toggleLayer);
  const explain = useChain((s) => s.explain);
  const busy = useChain((s) => s.result.status === 'loading');
  const requested = parseRequestedLayers(requestedText);
  const apiProblem = apiVersionProblem(apiVersion);

  return (
    <form
      className="card chain-form"
      aria-label="Application to explain"
      onSubmit={(e) => {
        e.preventDefault();
        void explain();
      }}
    >
      <div className="chain-form-row">
        <div className="chain-field chain-field-layers">
          <label htmlFor="chain-layers">Requested layers</label>
          <input
            id="chain-layers"
            className="chain-input chain-input-mono"
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder="VK_LAYER_KHRONOS_validation, …"
            aria-describedby="chain-layers-hint"
            data-testid="chain-layers-input"
            value={requestedText}
            onChange={(e) => setRequestedText(e.target.value)}
          />
        </div>
        <div className="chain-field chain-field-api">
          <label htmlFor="chain-api">API version</label>
          <input
            id="chain-api"
            className="chain-input chain-input-mono"
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder="1.0"
            aria-invalid={apiProblem ? true : undefined}
            aria-describedby={apiProblem ? 'chain-api-problem' : undefined}
            data-testid="chain-api-input"
            value={apiVersion}
            onChange={(e) => setApiVersion(e.target.value)}
          />
        </div>
        <button type="submit" className="chain-explain-button" disabled={apiProblem !== null} data-testid="chain-explain">
          {busy ? 'Explaining…' : 'Explain'}
        </button>
      </div>
      <p className="chain-hint" id="chain-layers-hint">
        ppEnabledLayerNames in order, separated by commas{apiProblem ? '' : ' · the API version is VkApplicationInfo::apiVersion'}
        {apiProblem && (
          <span className="chain-field-problem" id="chain-api-problem" role="alert">
            {' '}
            · API version: {apiProblem}
          </span>
        )}
      </p>
      {names.length > 0 && (
        <div className="chain-picker" role="group" aria-label="Explicit layers found">
          <span className="chain-picker-label">Explicit layers</span>
          {names.map((n) => (
            <button type="button" key={n} className="chain-chip" aria-pressed={requested.includes(n)} data-testid="chain-chip" data-layer={n} onClick={() => toggleLayer(n)}>
              {n}
            </button>
          ))}
        </div>
      )}
    </form>
  );
}

function ExcludedList({ excluded }: { excluded: LayerChain['excluded'] }) {
  const base = useId();
  return (
    <section className="chain-excluded" aria-labelledby={`${base}-title`} data-testid="chain-excluded-list">
      <h3 className="chain-side-title" id={`${base}-title`}>
        Left out <span className="chain-side-count">{excluded.length}</span>
      </h3>
      {excluded.length === 0 ? (
        <p className="chain-side-empty">Every layer the loader found is in the chain.</p>
      ) : (
        <ul className="chain-excluded-list">
          {excluded.map((e, i) => {
            const summary = reasonSummary(e.reasons);
            const tip = `${base}-tip-${i}`;
            return (
              <li className="chain-excluded-row" key={`${i}:${e.name}`}>
                <span className="chain-excluded-item" tabIndex={0} aria-describedby={tip} data-testid="chain-excluded" data-layer={e.name}>
                  <span className="chain-excluded-name">{e.name}</span>
                  <span className="chain-excluded-tag">{e.reasons[0] ? reasonTag(e.reasons[0].code) : 'left out'}</span>
                </span>
                <span className="chain-tooltip" role="tooltip" id={tip} data-testid="chain-excluded-reason">
                  {summary.full.split('\n').map((line, j) => (
                    <span className="chain-tooltip-line" key={j}>
                      {line}
                    </span>
                  ))}
                  <span className="chain-tooltip-path">{e.manifest ? baseName(e.manifest) : 'no manifest has this name'}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function ChainResult({ chain, drivers, apiVersion }: { chain: LayerChain; drivers: readonly DriverLabel[]; apiVersion: string }) {
  const svg = useRef<SVGSVGElement>(null);
  const ok = chain.result === 'VK_SUCCESS';
  const n = chain.chain.length;
  return (
    <section className="card chain-result" aria-labelledby="chain-result-title">
      <header className="card-header">
        <div className="chain-result-heading">
          <h2 className="card-title" id="chain-result-title">
            Instance layer chain
          </h2>
          <span className="chain-result-note">{ok ? `${n === 1 ? '1 layer' : `${n} layers`} · ${drivers.length === 1 ? '1 driver' : `${drivers.length} drivers`}` : 'vkCreateInstance fails'}</span>
        </div>
        <div className="chain-result-actions">
          <span data-testid="chain-result" data-result={chain.result}>
            <Badge tone={ok ? 'ok' : 'error'}>{chain.result}</Badge>
          </span>
          <button type="button" className="button" data-testid="chain-export" onClick={() => svg.current && downloadSvg(svg.current, 'strata-layer-chain.svg')}>
            Export SVG
          </button>
        </div>
      </header>
      <div className="chain-result-body">
        <div className="chain-canvas">
          <ChainDiagram ref={svg} chain={chain} drivers={drivers} apiVersion={apiVersion} />
        </div>
        <ExcludedList excluded={chain.excluded} />
      </div>
      {(chain.notes.length > 0 || chain.metaLayers.length > 0) && (
        <div className="chain-notes" data-testid="chain-notes">
          <h3 className="chain-side-title">Notes</h3>
          <ul>
            {chain.metaLayers.map((m) => (
              <li key={`meta:${m.manifest}:${m.name}`}>
                Meta-layer <code>{m.name}</code> expanded into {m.components.join(', ') || 'nothing'}
              </li>
            ))}
            {chain.notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** Chain: which layers an application gets, in which order, and why the others are left out. */
export function ChainView() {
  useDiscoveryLoaded();
  const manifests = useDiscovery((s) => s.manifests);
  const result = useChain((s) => s.result);
  const explained = useChain((s) => s.explained);
  const explain = useChain((s) => s.explain);

  useEffect(() => {
    if (useChain.getState().result.status === 'idle') void explain();
  }, [explain]);

  const names = useMemo(() => (manifests.status === 'ready' ? explicitLayerNames(manifests.value.manifests.explicit_layer) : []), [manifests]);
  const drivers = useMemo(() => (manifests.status === 'ready' ? driverLabels(manifests.value.manifests.driver) : []), [manifests]);

  return (
    <div className="chain-view" data-testid="chain-view">
      <ChainForm names={names} />
      {result.status === 'error' ? (
        <RequestErrorMessage title="Could not explain the layer chain" error={result.error} onRetry={() => void explain()} />
      ) : result.status !== 'ready' ? (
        <LoadingLine text="Working out the layer chain…" />
      ) : (
        <ChainResult chain={result.value} drivers={drivers} apiVersion={explained?.apiVersion ?? '1.0'} />
      )}
    </div>
  );
}

import { memo, useId, useRef, useState } from 'react';
import type { LayerChain } from '../../../shared/loader/chain';
import { downloadPng, downloadSvg } from './chain-export';
import { baseName, reasonSummary, reasonTag, type DeviceLabel, type DriverLabel } from './chain-layout';
import { useNavigation } from '../navigation/navigation-store';
import { Badge } from '../ui/Card';
import { ChainDiagram } from './ChainDiagram';

/** More than this many left-out layers are summed up in one line (1,000-layer trees stay responsive). */
const EXCLUDED_SHOWN = 200;

function ExcludedList({ excluded }: { excluded: LayerChain['excluded'] }) {
  const base = useId();
  const shown = excluded.slice(0, EXCLUDED_SHOWN);
  return (
    <section className="chain-excluded" aria-labelledby={`${base}-title`} data-testid="chain-excluded-list">
      <h3 className="chain-side-title" id={`${base}-title`}>
        Left out <span className="chain-side-count">{excluded.length}</span>
      </h3>
      {excluded.length === 0 ? (
        <p className="chain-side-empty">Every layer the loader found is in the chain.</p>
      ) : (
        <ul className="chain-excluded-list">
          {shown.map((e, i) => {
            const summary = reasonSummary(e.reasons);
            const tip = `${base}-tip-${i}`;
            return (
              <li className="chain-excluded-row" key={`${i}:${e.name}`}>
                <span className="chain-excluded-item" tabIndex={0} aria-describedby={tip} data-testid="chain-excluded" data-layer={e.name}>
                  <span className="chain-excluded-name">{e.name}</span>
                  <span className="chain-excluded-tag">{e.reasons[0] ? reasonTag(e.reasons[0].code, e.reasons[0].message) : 'left out'}</span>
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
          {excluded.length > shown.length && (
            <li className="chain-side-empty">…and {excluded.length - shown.length} more (strata explain --json lists them all)</li>
          )}
        </ul>
      )}
    </section>
  );
}

const MemoDiagram = memo(ChainDiagram);

/**
 * The chain as a card: the result badge, the diagram, and (unless `compact`) the layers left out and
 * the notes. `draft`: the chain is the unsaved draft's, not what is installed. Exports as SVG and PNG.
 */
export function ChainCard({
  chain,
  drivers,
  devices,
  apiVersion,
  draft,
  compact = false,
}: {
  chain: LayerChain;
  drivers: readonly DriverLabel[];
  devices: readonly DeviceLabel[];
  apiVersion: string;
  draft: boolean;
  compact?: boolean;
}) {
  const svg = useRef<SVGSVGElement>(null);
  const titleId = useId();
  const [exportError, setExportError] = useState<string | null>(null);
  const ok = chain.result === 'VK_SUCCESS';
  const n = chain.chain.length;
  return (
    <section className={`card chain-result${compact ? ' is-compact' : ''}`} aria-labelledby={titleId} data-testid={compact ? 'chain-preview' : 'chain-card'}>
      <header className="card-header">
        <div className="chain-result-heading">
          <h2 className="card-title" id={titleId}>
            {compact ? 'Live chain' : 'Instance layer chain'}
          </h2>
          {draft && (
            <span className="draft-badge" data-testid="chain-draft-badge" title="This is the chain of your unsaved draft; Apply makes it real">
              Draft
            </span>
          )}
          <span className="chain-result-note">
            {ok ? `${n === 1 ? '1 layer' : `${n} layers`} · ${drivers.length === 1 ? '1 driver' : `${drivers.length} drivers`}` : 'vkCreateInstance fails'}
          </span>
        </div>
        <div className="chain-result-actions">
          <span data-testid="chain-result" data-result={chain.result}>
            <Badge tone={ok ? 'ok' : 'error'}>{chain.result}</Badge>
          </span>
          {compact ? (
            <button type="button" className="button" onClick={() => useNavigation.getState().open('chain')}>
              Open in Chain
            </button>
          ) : (
            <>
              <button
                type="button"
                className="button"
                data-testid="chain-export"
                onClick={() => svg.current && downloadSvg(svg.current, 'strata-layer-chain.svg')}
              >
                Export SVG
              </button>
              <button
                type="button"
                className="button"
                data-testid="chain-export-png"
                onClick={() => {
                  if (!svg.current) return;
                  setExportError(null);
                  downloadPng(svg.current, 'strata-layer-chain.png').catch((e: unknown) => setExportError(e instanceof Error ? e.message : String(e)));
                }}
              >
                Export PNG
              </button>
            </>
          )}
        </div>
      </header>
      {exportError && (
        <p className="chain-export-error" role="alert">
          Could not make the PNG: {exportError}
        </p>
      )}
      <div className="chain-result-body">
        <div className="chain-canvas">
          <MemoDiagram ref={svg} chain={chain} drivers={drivers} devices={devices} apiVersion={apiVersion} />
        </div>
        {!compact && <ExcludedList excluded={chain.excluded} />}
      </div>
      {(chain.notes.length > 0 || (!compact && chain.metaLayers.length > 0)) && (
        <div className="chain-notes" data-testid="chain-notes">
          <h3 className="chain-side-title">Notes</h3>
          <ul>
            {!compact &&
              chain.metaLayers.map((m) => (
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

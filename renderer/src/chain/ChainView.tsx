import { useEffect, useMemo } from 'react';
import { apiVersionProblem, deviceLabels, driverLabels, explicitLayerNames, parseRequestedLayers } from './chain-layout';
import { useDraftChain, useDraftDifferences, useDraftLoaded, useDraftView } from '../configurator/draft-view';
import { PROVEN_LOADERS } from '../../../shared/loader/loader-rules';
import { useActivity } from '../activity/activity-store';
import { useChain } from './chain-store';
import { useChainContext } from './chain-context-store';
import { useDiscovery } from '../discovery/discovery-store';
import { useDriversDevices } from '../devices/drivers-devices-store';
import { ChainCard } from './ChainCard';
import { LoadingLine } from '../ui/LoadingLine';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import '../styles/chain.css';

function ChainForm({ names }: { names: readonly string[] }) {
  const appPathText = useChain((s) => s.appPathText);
  const setAppPathText = useChain((s) => s.setAppPathText);
  const bound = useActivity((s) => (s.status.status === 'ready' ? s.status.value.bindings : null));
  const requestedText = useChain((s) => s.requestedText);
  const apiVersion = useChain((s) => s.apiVersion);
  const setRequestedText = useChain((s) => s.setRequestedText);
  const setApiVersion = useChain((s) => s.setApiVersion);
  const toggleLayer = useChain((s) => s.toggleLayer);
  const explain = useChain((s) => s.explain);
  const requested = parseRequestedLayers(requestedText);
  const apiProblem = apiVersionProblem(apiVersion);

  return (
    <form
      className="card chain-form"
      aria-label="Application to explain"
      onSubmit={(e) => {
        e.preventDefault();
        explain();
      }}
    >
      <div className="chain-form-row">
        <div className="chain-field chain-field-app">
          <label htmlFor="chain-app">Application</label>
          <input
            id="chain-app"
            className="chain-input chain-input-mono"
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder="/usr/bin/vkcube (any application)"
            aria-describedby="chain-app-hint"
            list="chain-app-bound"
            data-testid="chain-app-input"
            value={appPathText}
            onChange={(e) => setAppPathText(e.target.value)}
          />
          {bound && bound.length > 0 && (
            <datalist id="chain-app-bound">
              {bound.map((b) => (
                <option key={b.app} value={b.app} label={`bound to ${b.profile}`} />
              ))}
            </datalist>
          )}
        </div>
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
        <LoaderSelect />
        <button type="submit" className="chain-explain-button" disabled={apiProblem !== null} data-testid="chain-explain">
          Explain
        </button>
      </div>
      <p className="chain-hint" id="chain-app-hint">
        The executable’s full path, links resolved (the loader matches override layers’ app_keys against it, as <code>strata explain --app</code> does); empty:
        an application no override names
      </p>
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
            <button
              type="button"
              key={n}
              className="chain-chip"
              aria-pressed={requested.includes(n)}
              data-testid="chain-chip"
              data-layer={n}
              onClick={() => toggleLayer(n)}
            >
              {n}
            </button>
          ))}
        </div>
      )}
    </form>
  );
}

/** Which loader the chain is modeled for: the installed one, or any loader of the matrix (`strata explain --loader-version`). */
function LoaderSelect() {
  const loaderVersion = useChain((s) => s.explained.loaderVersion);
  const setLoaderVersion = useChain((s) => s.setLoaderVersion);
  const installed = useChainContext((s) => (s.context.status === 'ready' ? s.context.value.loaderVersion : null));
  return (
    <div className="chain-field chain-field-loader">
      <label htmlFor="chain-loader">Loader</label>
      <select
        id="chain-loader"
        className="chain-input"
        data-testid="chain-loader-select"
        value={loaderVersion ?? ''}
        onChange={(e) => setLoaderVersion(e.target.value || null)}
      >
        <option value="">Installed ({installed ?? 'version unknown'})</option>
        {PROVEN_LOADERS.map((l) => (
          <option key={l.version} value={l.version}>
            {l.version} — {l.who}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "Differs on": the loaders of the matrix that would give this application another chain, and the rules why. */
function DiffersOn({ differences, shown }: { differences: { version: string; rules: string[] }[]; shown: string }) {
  if (differences.length === 0)
    return (
      <p className="chain-differs chain-differs-same" data-testid="chain-differs" role="status">
        Same chain on every loader Strata is checked against ({PROVEN_LOADERS.map((l) => l.version).join(', ')}).
      </p>
    );
  return (
    <p className="chain-differs" data-testid="chain-differs" role="status">
      <span className="chain-differs-badge">Differs on {differences.map((d) => d.version).join(', ')}</span>{' '}
      {differences.map((d) => (
        <span key={d.version} className="chain-differs-detail" title={d.rules.join(', ')}>
          {d.version} vs {shown}: {d.rules.length ? d.rules.join(', ') : 'a loader rule between the two'}
          {'. '}
        </span>
      ))}
      <span className="chain-hint">
        Compare in a terminal: <code>strata explain --compare {[shown, ...differences.map((d) => d.version)].join(',')}</code>
      </span>
    </p>
  );
}

/** The physical devices, once the Drivers & Devices probe has answered (asked for here if nobody has yet). */
export function useChainDevices(drivers: ReturnType<typeof driverLabels>, ask: boolean) {
  const devices = useDriversDevices((s) => s.devices);
  const idle = devices.status === 'idle';
  useEffect(() => {
    if (ask && idle) void useDriversDevices.getState().refresh();
  }, [ask, idle]);
  return useMemo(() => (devices.status === 'ready' ? deviceLabels(devices.value.devices, drivers) : []), [devices, drivers]);
}

/**
 * Chain: which layers an application gets, in which order, and why the others are left out. Worked
 * out here, from the draft, with the same model as `strata explain`: every edit in the Layers panel
 * shows at once, before anything is written.
 */
export function ChainView() {
  useDraftLoaded();
  const manifests = useDiscovery((s) => s.manifests);
  const context = useChainContext((s) => s.context);
  const explained = useChain((s) => s.explained);
  const view = useDraftView();
  const chain = useDraftChain(view);
  const differences = useDraftDifferences(view, chain);

  const names = useMemo(() => (manifests.status === 'ready' ? explicitLayerNames(manifests.value.manifests.explicit_layer) : []), [manifests]);
  const drivers = useMemo(() => (manifests.status === 'ready' ? driverLabels(manifests.value.manifests.driver) : []), [manifests]);
  const devices = useChainDevices(drivers, true);

  return (
    <div className="chain-view" data-testid="chain-view">
      <ChainForm names={names} />
      {manifests.status === 'error' ? (
        <RequestErrorMessage title="Could not discover the layers" error={manifests.error} onRetry={() => void useDiscovery.getState().loadManifests()} />
      ) : context.status === 'error' ? (
        <RequestErrorMessage
          title="Could not read what the layer chain depends on"
          error={context.error}
          onRetry={() => void useChainContext.getState().load()}
        />
      ) : !chain ? (
        <LoadingLine text="Working out the layer chain…" />
      ) : (
        <>
          <DiffersOn differences={differences} shown={chain.loaderVersion ?? chain.rulesVersion} />
          <ChainCard chain={chain} drivers={drivers} devices={devices} apiVersion={explained.apiVersion} draft={view.dirty} />
        </>
      )}
    </div>
  );
}

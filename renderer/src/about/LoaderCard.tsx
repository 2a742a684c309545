import { useAppInfo } from './app-info-store';
import { Badge, Card } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';
import { PathText } from '../ui/PathText';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';

/** The Vulkan loader the host actually loaded (version and file), or why there is none. */
export function LoaderCard() {
  const state = useAppInfo((s) => s.appInfo);
  const retry = useAppInfo((s) => s.loadAppInfo);

  if (state.status !== 'ready') {
    return (
      <Card id="loader" title="Vulkan loader" className="loader-card">
        {state.status === 'error' ? (
          <RequestErrorMessage title="Could not ask Strata about the Vulkan loader" error={state.error} onRetry={() => void retry()} />
        ) : (
          <LoadingLine text="Asking the Vulkan loader…" />
        )}
      </Card>
    );
  }

  const loader = state.value.loader;
  if (!loader.found) {
    return (
      <Card id="loader" title="Vulkan loader" className="loader-card" aside={<Badge tone="error">Not found</Badge>}>
        <p className="loader-missing" data-testid="loader-missing">
          Strata could not load <code>{loader.library}</code>.
        </p>
        <dl className="facts">
          <dt>Reason</dt>
          <dd>{loader.reason}</dd>
          {loader.fix && (
            <>
              <dt>Fix</dt>
              <dd>{loader.fix}</dd>
            </>
          )}
        </dl>
      </Card>
    );
  }

  return (
    <Card id="loader" title="Vulkan loader" className="loader-card" aside={<Badge tone="ok">Loaded</Badge>}>
      <div className="loader-version-block">
        <span className="loader-version" data-testid="loader-version">
          {loader.version}
        </span>
        <span className="loader-version-label">Instance version</span>
      </div>
      <dl className="facts">
        <dt>Library</dt>
        <dd>
          <code>{loader.library}</code>
        </dd>
        <dt>Loaded from</dt>
        <dd className="path" data-testid="loader-path">
          {loader.path ? <PathText path={loader.path} /> : <span className="muted">not reported by this platform</span>}
        </dd>
      </dl>
    </Card>
  );
}

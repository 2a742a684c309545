import { useAppInfo } from './app-info-store';
import { hostLabel, platformLabel, runtimeVersion } from './about-labels';
import { Card } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';

/** Strata's own version and the runtimes under it. Errors are shown once, by LoaderCard (same call). */
export function StrataCard() {
  const state = useAppInfo((s) => s.appInfo);
  return (
    <Card id="strata" title="Strata" className="strata-card">
      {state.status === 'ready' ? (
        <dl className="facts">
          <dt>Version</dt>
          <dd data-testid="strata-version">{state.value.version}</dd>
          <dt>Running as</dt>
          <dd>{hostLabel(state.value.host)}</dd>
          <dt>Platform</dt>
          <dd>{platformLabel(state.value.platform, state.value.arch)}</dd>
          <dt>Node.js</dt>
          <dd>{state.value.versions.node}</dd>
          <dt>V8</dt>
          <dd>{state.value.versions.v8}</dd>
          <dt>Electron</dt>
          <dd className={state.value.versions.electron ? undefined : 'muted'}>{runtimeVersion(state.value.versions.electron)}</dd>
          <dt>Chrome</dt>
          <dd className={state.value.versions.chrome ? undefined : 'muted'}>{runtimeVersion(state.value.versions.chrome)}</dd>
        </dl>
      ) : state.status === 'error' ? (
        <p className="muted">Not available: see the error beside this.</p>
      ) : (
        <LoadingLine text="Loading…" />
      )}
    </Card>
  );
}

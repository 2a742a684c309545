import type { VulkanVariable } from '../../../shared/loader/environment-summary';
import { useAppInfo } from '../stores/app-info-store';
import { Badge, Card } from './Card';
import { LoadingLine } from './LoadingLine';
import { PathText } from './PathText';
import { RequestErrorMessage } from './RequestErrorMessage';

function VariableRow({ variable }: { variable: VulkanVariable }) {
  return (
    <tr>
      <th scope="row">
        <code>{variable.name}</code>
      </th>
      <td className="path">{variable.value === '' ? <span className="muted">(empty)</span> : <PathText path={variable.value} />}</td>
      <td>
        {variable.summary ?? <span className="muted">Read by a layer or driver, not by the loader</span>}
        {variable.ignoredWhenElevated && (
          <>
            {' '}
            <Badge tone="warning" title="The loader ignores this variable in programs running with elevated privileges (setuid, setgid or administrator).">
              Ignored when elevated
            </Badge>
          </>
        )}
      </td>
    </tr>
  );
}

/** The Vulkan-related variables in the host's environment: what the loader will act on. */
export function EnvironmentVariablesCard() {
  const state = useAppInfo((s) => s.envSummary);
  const retry = useAppInfo((s) => s.loadEnvSummary);
  const count = state.status === 'ready' ? state.value.variables.length : null;

  return (
    <Card id="env-vars" title="Vulkan environment variables" aside={count !== null && <Badge tone="neutral">{count} set</Badge>}>
      {state.status === 'error' ? (
        <RequestErrorMessage title="Could not read the environment" error={state.error} onRetry={() => void retry()} />
      ) : state.status !== 'ready' ? (
        <LoadingLine text="Reading the environment…" />
      ) : state.value.variables.length === 0 ? (
        <p className="card-empty" data-testid="env-vars-empty">
          No Vulkan-related variables are set, so the loader uses its default search paths and settings.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="env-vars">
            <thead>
              <tr>
                <th scope="col" className="col-fit">
                  Variable
                </th>
                <th scope="col">Value</th>
                <th scope="col">What it does</th>
              </tr>
            </thead>
            <tbody>
              {state.value.variables.map((v) => (
                <VariableRow variable={v} key={v.name} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

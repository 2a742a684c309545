import type { VulkanVariable } from '../../../shared/loader/environment-summary';
import { useAppInfo } from './app-info-store';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Badge, Card } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';
import { PathText } from '../ui/PathText';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';

const VARIABLE_COLUMNS: readonly DataColumn<VulkanVariable>[] = [
  { id: 'variable', header: 'Variable', headerClassName: 'col-fit', rowHeader: true, cell: (v) => <code>{v.name}</code> },
  {
    id: 'value',
    header: 'Value',
    cellClassName: 'path',
    cell: (v) => (v.value === '' ? <span className="muted">(empty)</span> : <PathText path={v.value} />),
  },
  {
    id: 'effect',
    header: 'What it does',
    cell: (v) => (
      <>
        {v.summary ?? <span className="muted">Read by a layer or driver, not by the loader</span>}
        {v.ignoredWhenElevated && (
          <>
            {' '}
            <Badge tone="warning" title="The loader ignores this variable in programs running with elevated privileges (setuid, setgid or administrator).">
              Ignored when elevated
            </Badge>
          </>
        )}
      </>
    ),
  },
];

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
      ) : (
        <DataTable
          label="Vulkan environment variables"
          testId="env-vars"
          columns={VARIABLE_COLUMNS}
          rows={state.value.variables}
          rowKey={(v) => v.name}
          empty="No Vulkan-related variables are set, so the loader uses its default search paths and settings."
          emptyTestId="env-vars-empty"
        />
      )}
    </Card>
  );
}

import { formatStrataError } from '../../../shared/errors/strata-error';
import { INTERFACE_VERSION_FEATURES, type DriverNegotiation } from '../../../shared/vulkan/driver-negotiation';
import { baseName, countLabel, driverSourceLabel, formatElapsed, summarizeDrivers } from './device-labels';
import { useDriversDevices } from './drivers-devices-store';
import { DataTable, type DataColumn } from '../ui/DataTable';
import { Badge, Card } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';
import { PathText } from '../ui/PathText';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';

/**
 * The drivers table's columns. `devicesOf`: the names of the physical devices that came from a
 * manifest; null while unknown.
 */
function driverColumns(devicesOf: (manifest: string) => string[] | null): DataColumn<DriverNegotiation>[] {
  return [
    {
      id: 'driver',
      header: 'Driver',
      rowHeader: true,
      cell: (driver) => {
        const devices = devicesOf(driver.manifest);
        return (
          <>
            <span className="row-label">{baseName(driver.manifest)}</span>
            <span className="driver-path">
              <span className="driver-path-label">Manifest</span>
              <span className="path">
                <PathText path={driver.manifest} />
              </span>
            </span>
            <span className="driver-path">
              <span className="driver-path-label">Library</span>
              {(driver.library ?? driver.libraryPath) ? (
                <span className="path" data-testid="driver-library">
                  <PathText path={(driver.library ?? driver.libraryPath)!} />
                </span>
              ) : (
                <span className="muted">not read</span>
              )}
            </span>
            {devices && (
              <span className="driver-path" data-testid="driver-devices">
                <span className="driver-path-label">Devices</span>
                <span>{devices.length ? devices.join(', ') : <span className="muted">none</span>}</span>
              </span>
            )}
            {driver.apiVersion && (
              <span className="driver-path">
                <span className="driver-path-label">API</span>
                <span>{driver.apiVersion}</span>
              </span>
            )}
          </>
        );
      },
    },
    {
      id: 'exports',
      header: 'Exports',
      headerClassName: 'col-fit',
      cell: (driver) =>
        driver.exports === null ? (
          <span className="muted nowrap">library not opened</span>
        ) : driver.exports.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <ul className="driver-exports">
            {driver.exports.map((e) => (
              <li key={e}>
                <code>{e}</code>
              </li>
            ))}
          </ul>
        ),
    },
    {
      id: 'interface',
      header: 'Interface',
      headerClassName: 'col-fit',
      cellAttributes: () => ({ 'data-testid': 'driver-interface' }),
      cell: (driver) =>
        driver.interfaceVersion === null ? (
          <span className="muted">—</span>
        ) : (
          <span className="driver-interface" title={INTERFACE_VERSION_FEATURES[driver.interfaceVersion]}>
            <span className="driver-interface-version">{driver.interfaceVersion}</span>
            <span className="driver-interface-note">
              of {driver.requestedVersion} offered
              {driver.negotiateFrom === 'vk_icdGetInstanceProcAddr' ? ', via GetInstanceProcAddr' : ''}
            </span>
          </span>
        ),
    },
    {
      id: 'result',
      header: 'Result',
      headerClassName: 'col-fit',
      cellAttributes: () => ({ 'data-testid': 'driver-result' }),
      cell: (driver) => (
        <>
          {driver.ok ? <Badge tone="ok">OK</Badge> : <Badge tone="error">Failed</Badge>}
          <span className="driver-result-detail">{driver.ok ? driver.negotiateResult : (driver.error?.code ?? driver.negotiateResult)}</span>
        </>
      ),
    },
    { id: 'time', header: 'Time', headerClassName: 'col-fit num', cellClassName: 'num', cell: (driver) => formatElapsed(driver.elapsedMs) },
  ];
}

/** A driver that could not be used: its error value, worded as the CLI words it. */
function DriverErrorCard({ driver }: { driver: DriverNegotiation }) {
  const error = driver.error;
  return (
    <div className="driver-error" data-testid="driver-error" data-manifest={driver.manifest}>
      <svg className="driver-error-icon" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path d="M12 7.5v5.5M12 16.5h.01" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <div className="driver-error-text">
        <p className="driver-error-title">{baseName(driver.manifest)} cannot be used</p>
        {error ? (
          <>
            <p className="driver-error-message">{formatStrataError(error)}</p>
            <p className="request-error-code">
              Error code <code>{error.code}</code>
            </p>
          </>
        ) : (
          <p className="driver-error-message">
            Negotiation returned {driver.negotiateResult ?? 'nothing'}
            {driver.createInstanceFound === false ? ' and vkCreateInstance could not be found' : ''}.
          </p>
        )}
      </div>
    </div>
  );
}

/** drivers.negotiate: every driver manifest, loaded on its own, with the handshake's result. */
export function DriversCard() {
  const state = useDriversDevices((s) => s.drivers);
  const refresh = useDriversDevices((s) => s.refresh);
  const devicesState = useDriversDevices((s) => s.devices);
  // Which devices each manifest accounts for (devices' origins); unknown until devices answered with origins.
  const devicesOf = (manifest: string): string[] | null =>
    devicesState.status === 'ready' && devicesState.value.driverManifests !== null
      ? devicesState.value.devices.filter((d) => d.origin?.manifest === manifest).map((d) => d.deviceName)
      : null;
  const summary = state.status === 'ready' ? summarizeDrivers(state.value.drivers) : null;

  const aside = summary && (
    <span className="card-badges">
      {summary.ok > 0 && <Badge tone="ok">{summary.ok} working</Badge>}
      {summary.failed > 0 && <Badge tone="error">{summary.failed} failed</Badge>}
    </span>
  );

  return (
    <Card id="drivers" title="Drivers" aside={aside} className="drivers-card">
      {state.status === 'error' ? (
        <RequestErrorMessage title="Could not load the drivers" error={state.error} onRetry={() => void refresh()} />
      ) : state.status !== 'ready' ? (
        <LoadingLine text="Loading each driver in a probe of its own…" />
      ) : (
        <>
          <p className="card-note" data-testid="drivers-source">
            {countLabel(state.value.drivers.length, 'manifest')} from {driverSourceLabel(state.value.source)}. Each driver is loaded on its own and offered
            loader–driver interface version {state.value.loaderInterfaceVersion}, as the loader does.
          </p>
          <DataTable
            label="Drivers"
            testId="drivers"
            className="drivers-table"
            scrollClassName="drivers-table-scroll"
            columns={driverColumns(devicesOf)}
            rows={state.value.drivers}
            // The index too: a manifest the loader reaches twice is listed twice.
            rowKey={(d, i) => `${i}:${d.manifest}`}
            rowAttributes={(d) => ({
              'data-testid': 'driver-row',
              'data-manifest': d.manifest,
              'data-ok': String(d.ok),
              className: d.ok ? undefined : 'driver-row-failed',
            })}
            empty="No driver manifests were found, so no application can use Vulkan here. Install a Vulkan driver, or point VK_DRIVER_FILES at a driver manifest."
            emptyTestId="drivers-empty"
          />
          {summary && summary.failed > 0 && (
            <div className="driver-errors">
              {state.value.drivers
                .filter((d) => !d.ok)
                .map((d, i) => (
                  <DriverErrorCard driver={d} key={`${i}:${d.manifest}`} />
                ))}
            </div>
          )}
        </>
      )}
    </Card>
  );
}

import { useEffect } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import { countLabel } from './device-labels';
import { useDriversDevices } from './drivers-devices-store';
import { DeviceCard } from './DeviceCard';
import { DriversCard } from './DriversCard';
import { LoadingLine } from '../ui/LoadingLine';
import { PathText } from '../ui/PathText';
import { RefreshButton } from '../ui/RefreshButton';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import '../styles/drivers-devices.css';

/** The loader the probe mapped (loader.info), in one line above the cards. */
function LoaderLine() {
  const state = useDriversDevices((s) => s.loader);
  if (state.status === 'error') {
    return (
      <p className="dd-loader dd-loader-error" data-testid="loader-line">
        <span className="dd-loader-label">Vulkan loader</span>
        <span>{formatStrataError(state.error)}</span>
      </p>
    );
  }
  if (state.status !== 'ready') {
    return (
      <p className="dd-loader" data-testid="loader-line">
        <span className="dd-loader-label">Vulkan loader</span>
        <span className="muted">asking…</span>
      </p>
    );
  }
  const info = state.value;
  return (
    <p className="dd-loader" data-testid="loader-line">
      <span className="dd-loader-label">Vulkan loader</span>
      <span className="dd-loader-version" data-testid="dd-loader-version">
        {info.version}
      </span>
      <span className="dd-loader-path path">
        <PathText path={info.path ?? info.library} />
      </span>
      <span className="dd-loader-counts muted">
        {countLabel(info.layers.length, 'instance layer')} · {countLabel(info.extensions.length, 'instance extension')}
      </span>
    </p>
  );
}

function DevicesSection() {
  const state = useDriversDevices((s) => s.devices);
  const refresh = useDriversDevices((s) => s.refresh);
  const count = state.status === 'ready' ? state.value.devices.length : null;

  return (
    <section className="dd-devices" aria-labelledby="devices-heading">
      <div className="dd-section-header">
        <h2 className="dd-section-title" id="devices-heading">
          Physical devices
        </h2>
        {count !== null && <span className="dd-section-note">{count === 0 ? 'none' : `${count} · in the order applications see them`}</span>}
      </div>
      {state.status === 'error' ? (
        <div data-testid="devices-error">
          <RequestErrorMessage title="The Vulkan loader could not enumerate physical devices" error={state.error} onRetry={() => void refresh()} />
        </div>
      ) : state.status !== 'ready' ? (
        <div className="card dd-placeholder">
          <LoadingLine text="Creating an instance and enumerating physical devices…" />
        </div>
      ) : count === 0 ? (
        <div className="card dd-placeholder">
          <p className="card-empty" data-testid="devices-empty">
            The loader created an instance but no driver exposed a physical device. See the drivers above for why.
          </p>
        </div>
      ) : (
        <div className="device-list">
          {state.value.notes?.length ? (
            <ul className="muted dd-notes" data-testid="devices-notes">
              {state.value.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
          {state.value.devices.map((d, i) => (
            <DeviceCard device={d} index={i} key={`${i}:${d.deviceName}`} originsAsked={state.value.driverManifests !== null} />
          ))}
        </div>
      )}
    </section>
  );
}

/** Drivers & Devices: the loader, every driver manifest negotiated on its own, every physical device. */
export function DriversDevicesView() {
  const refresh = useDriversDevices((s) => s.refresh);
  const busy = useDriversDevices((s) => s.busy);
  const announcement = useDriversDevices((s) => s.announcement);

  // Asked again each time the panel opens: drivers come and go (installs, VK_DRIVER_FILES in a profile).
  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <div className="dd" aria-busy={busy} data-testid="drivers-devices">
      <div className="dd-toolbar">
        <LoaderLine />
        <RefreshButton busy={busy} onRefresh={() => void refresh()} />
      </div>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="dd-status">
        {announcement}
      </p>
      <DriversCard />
      <DevicesSection />
    </div>
  );
}

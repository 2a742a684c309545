import { useId } from 'react';
import type { PhysicalDevice } from '../../../shared/vulkan/devices';
import {
  countLabel,
  deviceLocalBytes,
  deviceOriginText,
  deviceTypeLabel,
  formatBytes,
  heapSummaries,
  hexId,
  queueFamilyLabels,
  vendorLabel,
} from './device-labels';
import { PathText } from '../ui/PathText';
import { Badge } from '../ui/Card';
import { ExtensionList } from './ExtensionList';

/** One physical device as the loader enumerates it. A card of its own, h3 under "Physical devices". */
export function DeviceCard({ device, index, originsAsked = false }: { device: PhysicalDevice; index: number; originsAsked?: boolean }) {
  const id = useId();
  const origin = deviceOriginText(device.origin, originsAsked);
  const local = deviceLocalBytes(device.memoryHeaps);
  return (
    <section className="card device-card" aria-labelledby={`${id}-name`} data-testid="device-card">
      <header className="device-header">
        <div className="device-title">
          <span className="device-index">Device {index}</span>
          <h3 className="device-name" id={`${id}-name`} data-testid="device-name">
            {device.deviceName}
          </h3>
        </div>
        <div className="device-badges">
          <Badge tone="accent">{deviceTypeLabel(device.deviceType)}</Badge>
          <Badge tone="neutral" title="The Vulkan version the device supports (VkPhysicalDeviceProperties.apiVersion)">
            Vulkan {device.apiVersion}
          </Badge>
        </div>
      </header>
      <div className="device-body">
        <dl className="facts device-facts">
          <dt>API version</dt>
          <dd>{device.apiVersion}</dd>
          <dt>Driver</dt>
          <dd>
            {device.driver ? (
              <>
                <span data-testid="device-driver-name">{device.driver.driverName}</span>
                {device.driver.driverInfo && <span className="muted"> · {device.driver.driverInfo}</span>}
              </>
            ) : (
              <span className="muted">not reported (no VK_KHR_driver_properties before Vulkan 1.2)</span>
            )}
          </dd>
          {device.driver && (
            <>
              <dt>Driver ID</dt>
              <dd>
                <code>{device.driver.driverIDName ?? 'unknown'}</code> <span className="muted">({device.driver.driverID})</span>
              </dd>
              <dt>Conformance</dt>
              <dd>{device.driver.conformanceVersion}</dd>
            </>
          )}
          {(origin.manifest || origin.note) && (
            <>
              <dt>Driver manifest</dt>
              <dd data-testid="device-manifest">
                {origin.manifest && (
                  <span className="path">
                    <PathText path={origin.manifest} />
                  </span>
                )}
                {origin.note && (
                  <span className="muted">
                    {origin.manifest ? ' · ' : ''}
                    {origin.note}
                  </span>
                )}
              </dd>
            </>
          )}
          <dt>Driver version</dt>
          <dd>
            {device.driverVersion} <span className="muted">(raw {hexId(device.driverVersionRaw, 8)})</span>
          </dd>
          <dt>Vendor</dt>
          <dd data-testid="device-vendor">{vendorLabel(device)}</dd>
          <dt>Device ID</dt>
          <dd>
            <code>{hexId(device.deviceID)}</code>
          </dd>
          <dt>Pipeline cache</dt>
          <dd>
            <code className="device-uuid">{device.pipelineCacheUUID}</code>
          </dd>
        </dl>
        <div className="device-side">
          <div className="device-group">
            <h4 className="device-group-title">
              Memory heaps <span className="device-group-note">{formatBytes(local)} device-local</span>
            </h4>
            <ul className="device-rows" data-testid="memory-heaps">
              {heapSummaries(device.memoryHeaps).map((h) => (
                <li key={h.index} className="device-row">
                  <span className="device-row-name">Heap {h.index}</span>
                  <span className="device-row-value">{h.size}</span>
                  <span className="device-row-tags">
                    {h.deviceLocal ? <Badge tone="ok">Device-local</Badge> : <Badge tone="neutral">Host</Badge>}
                    {h.otherFlags.map((f) => (
                      <Badge tone="neutral" key={f}>
                        {f}
                      </Badge>
                    ))}
                  </span>
                </li>
              ))}
            </ul>
          </div>
          <div className="device-group">
            <h4 className="device-group-title">Queue families</h4>
            <ul className="device-rows" data-testid="queue-families">
              {device.queueFamilies.map((q, i) => (
                <li key={i} className="device-row">
                  <span className="device-row-name">Family {i}</span>
                  <span className="device-row-value">{countLabel(q.count, 'queue')}</span>
                  <span className="device-row-tags">
                    {queueFamilyLabels(q.flags).map((f) => (
                      <span className="chip" key={f}>
                        {f}
                      </span>
                    ))}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
      <ExtensionList extensions={device.extensions} owner={device.deviceName} />
    </section>
  );
}

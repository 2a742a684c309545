import type { DevicesReport } from '../../shared/vulkan/devices';
import type { LoaderInfo } from '../../shared/vulkan/loader-info';
import { formatPairs } from './cli-output';
import type { DriversNegotiateReport } from '../../shared/vulkan/driver-negotiation';
import { formatStrataError } from '../../shared/errors/strata-error';

/** Left-aligned columns with a header row, indented by two spaces. */
function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${Number.isInteger(n) ? n : n.toFixed(1)} ${units[i]}`;
}

const hex = (n: number, width: number) => `0x${n.toString(16).padStart(width, '0')}`;

export function formatLoaderInfo(info: LoaderInfo): string {
  const lines = [formatPairs([['Vulkan loader', `${info.version} (${info.path ?? info.library})`]]), ''];
  lines.push(`Instance layers: ${info.layers.length}`);
  if (info.layers.length) {
    lines.push(
      formatTable(
        ['NAME', 'SPEC', 'IMPL', 'DESCRIPTION', 'EXTENSIONS'],
        info.layers.map((l) => [l.name, l.specVersion, String(l.implementationVersion), l.description, l.extensions.map((e) => e.name).join(', ')]),
      ),
    );
  }
  lines.push('', `Instance extensions: ${info.extensions.length}`);
  if (info.extensions.length) lines.push(formatTable(['NAME', 'REVISION'], info.extensions.map((e) => [e.name, String(e.specVersion)])));
  return lines.join('\n');
}

export function formatDevices(report: DevicesReport): string {
  if (report.devices.length === 0) return 'The Vulkan loader enumerates no physical devices (no driver loaded, or none has a device).';
  return report.devices
    .map((d, i) => {
      const pairs: [string, string][] = [
        [`GPU${i}`, d.deviceName],
        ['  type', d.deviceType],
        ['  apiVersion', d.apiVersion],
        ['  driverVersion', d.driverVersion],
        ['  vendorID', `${hex(d.vendorID, 4)}${d.vendorName ? ` (${d.vendorName})` : ''}`],
        ['  deviceID', hex(d.deviceID, 4)],
      ];
      if (d.driver) {
        pairs.push(
          ['  driver', `${d.driver.driverName} (${d.driver.driverIDName ?? `id ${d.driver.driverID}`})`],
          ['  driverInfo', d.driver.driverInfo],
          ['  conformance', d.driver.conformanceVersion],
        );
      }
      pairs.push(
        ['  memory heaps', d.memoryHeaps.map((h) => `${formatBytes(h.size)}${h.flags.length ? ` [${h.flags.join(', ')}]` : ''}`).join('; ')],
        ['  queue families', d.queueFamilies.map((q) => `${q.count}× ${q.flags.join('+')}`).join('; ')],
        ['  extensions', String(d.extensions.length)],
      );
      return formatPairs(pairs);
    })
    .join('\n\n');
}

const ENTRY_POINT_SHORT: Readonly<Record<string, string>> = {
  vk_icdNegotiateLoaderICDInterfaceVersion: 'negotiate',
  vk_icdGetInstanceProcAddr: 'icdGIPA',
  vk_icdGetPhysicalDeviceProcAddr: 'icdGPDPA',
  vk_icdEnumerateAdapterPhysicalDevices: 'enumAdapters',
  vkGetInstanceProcAddr: 'vkGIPA',
};

/** `strata drivers negotiate`: one row per driver, then each failure on its own line with its fix. */
export function formatDriverNegotiation(report: DriversNegotiateReport): string {
  if (report.drivers.length === 0) return `No driver manifests found (${report.source}).`;
  const lines = [
    `Loader–driver interface version offered: ${report.loaderInterfaceVersion} (manifests from ${report.source})`,
    '',
    formatTable(
      ['DRIVER', 'LIBRARY', 'EXPORTS', 'INTERFACE', 'RESULT', 'TIME'],
      report.drivers.map((d) => [
        d.manifest.split('/').pop() ?? d.manifest,
        d.library ?? d.libraryPath ?? '—',
        d.exports === null ? '—' : d.exports.map((e) => ENTRY_POINT_SHORT[e] ?? e).join(',') || 'none',
        d.interfaceVersion === null ? (d.negotiateResult ?? '—') : `${d.interfaceVersion}${d.negotiateFrom === 'vk_icdGetInstanceProcAddr' ? ' (via GIPA)' : ''}`,
        d.ok ? 'ok' : (d.error?.code ?? 'failed'),
        `${Math.round(d.elapsedMs)} ms`,
      ]),
    ),
  ];
  const failed = report.drivers.filter((d) => !d.ok && d.error);
  if (failed.length) {
    lines.push('', 'Problems:');
    for (const d of failed) lines.push(`  ${formatStrataError(d.error!)}`);
  }
  return lines.join('\n');
}

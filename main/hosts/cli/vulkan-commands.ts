import type { DevicesReport } from '../../../shared/vulkan/devices';
import type { LoaderInfo } from '../../../shared/vulkan/loader-info';
import { formatPairs, formatTable as formatTableIndented } from './cli-output';
import type { DriversNegotiateReport } from '../../../shared/vulkan/driver-negotiation';
import { formatStrataError } from '../../../shared/errors/strata-error';

/** Left-aligned columns with a header row, indented by two spaces, no trailing blanks (an empty last cell). */
const formatTable = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  formatTableIndented(header, rows, '  ')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');

/** What the probe commands' --env / --unset say they set. */
export const PROBE_ENV_WHAT = 'the probe (ask in this environment, e.g. --env VK_DRIVER_FILES=/path/icd.json)';

/** The request of a probe command: `{ env }` when --env / --unset were given, else `{}`. */
export { envRequest as probeRequest } from './env-option';

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

/** The loader's own log (VK_LOADER_DEBUG in --env), after the answer. */
function formatLoaderLog(log: readonly string[] | undefined): string {
  return log?.length ? `\n\nLoader log (VK_LOADER_DEBUG), ${log.length} line${log.length === 1 ? '' : 's'}:\n${log.map((l) => `  ${l}`).join('\n')}` : '';
}

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
  if (info.extensions.length)
    lines.push(
      formatTable(
        ['NAME', 'REVISION'],
        info.extensions.map((e) => [e.name, String(e.specVersion)]),
      ),
    );
  return lines.join('\n') + formatLoaderLog(info.loaderLog);
}

export function formatDevices(report: DevicesReport): string {
  if (report.devices.length === 0)
    return `The Vulkan loader enumerates no physical devices (no driver loaded, or none has a device).${formatDriverManifests(report)}${formatNotes(report.notes)}${formatLoaderLog(report.loaderLog)}`;
  return (
    report.devices
      .map((d, i) => {
        const pairs: [string, string][] = [
          [`GPU${i}`, d.deviceName],
          ['  type', d.deviceType],
          ['  apiVersion', d.apiVersion],
          ['  driverVersion', d.driverVersion],
          ['  vendorID', `${hex(d.vendorID, 4)}${d.vendorName ? ` (${d.vendorName})` : ''}`],
          ['  deviceID', hex(d.deviceID, 4)],
        ];
        if (d.origin) {
          const also = d.origin.candidates.filter((c) => c !== d.origin!.manifest);
          pairs.push(['  manifest', `${d.origin.manifest}${also.length ? ` (or ${also.join(', ')}: identical devices, told apart by order only)` : ''}`]);
        } else if (report.driverManifests) {
          pairs.push(['  manifest', 'none of the driver manifests alone enumerates this device']);
        }
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
      .join('\n\n') +
    formatDriverManifests(report) +
    formatNotes(report.notes) +
    formatLoaderLog(report.loaderLog)
  );
}

function formatNotes(notes: readonly string[] | undefined): string {
  return notes?.length ? `\n\nNotes:\n${notes.map((n) => `  - ${n}`).join('\n')}` : '';
}

/** Each driver manifest with the devices it accounts for (the loader enumerating with it alone). */
function formatDriverManifests(report: DevicesReport): string {
  if (!report.driverManifests?.length) return '';
  const rows = report.driverManifests.map((m) => [
    m.manifest,
    String(report.devices.filter((d) => d.origin?.manifest === m.manifest).length),
    String(m.deviceCount),
    m.error ?? '',
  ]);
  return `\n\nDriver manifests (in the loader's order):\n${formatTable(['MANIFEST', 'DEVICES', 'ALONE', 'NOTE'], rows)}`;
}

const ENTRY_POINT_SHORT: Readonly<Record<string, string>> = {
  vk_icdNegotiateLoaderICDInterfaceVersion: 'negotiate',
  vk_icdGetInstanceProcAddr: 'icdGIPA',
  vk_icdGetPhysicalDeviceProcAddr: 'icdGPDPA',
  vk_icdEnumerateAdapterPhysicalDevices: 'enumAdapters',
  vkGetInstanceProcAddr: 'vkGIPA',
};

/** `strata driver negotiate`: one row per driver, then each failure on its own line with its fix. */
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
        d.interfaceVersion === null
          ? (d.negotiateResult ?? '—')
          : `${d.interfaceVersion}${d.negotiateFrom === 'vk_icdGetInstanceProcAddr' ? ' (via GIPA)' : ''}`,
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

/**
 * How the Drivers & Devices panel words what `devices` and `drivers.negotiate` report. Pure (no
 * React) so every label is unit-tested (tests/unit/renderer-device-labels.test.ts).
 */
import type { DevicesReport, PhysicalDevice } from '../../../shared/vulkan/devices';
import type { DriverNegotiation } from '../../../shared/vulkan/driver-negotiation';
import type { ExtensionProperties } from '../../../shared/vulkan/loader-info';

const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/**
 * Binary units, as vulkaninfo and drivers mean them (a "2 GiB" heap is 2^31 bytes): at most one
 * decimal, none when it is zero ("2 GiB", "1.5 GiB", "512 B").
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown size';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  // 1023.96 KiB rounds to "1024.0": say 1 MiB instead.
  if (Number(value.toFixed(1)) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${BYTE_UNITS[unit]}`;
}

const DEVICE_TYPE_LABELS: Readonly<Record<PhysicalDevice['deviceType'], string>> = {
  other: 'Other',
  'integrated-gpu': 'Integrated GPU',
  'discrete-gpu': 'Discrete GPU',
  'virtual-gpu': 'Virtual GPU',
  cpu: 'CPU',
};

export function deviceTypeLabel(type: PhysicalDevice['deviceType']): string {
  return DEVICE_TYPE_LABELS[type];
}

/** "graphics" → "Graphics", "sparse-binding" → "Sparse binding"; a bit without a name stays visible as hex. */
export function flagLabel(token: string): string {
  if (/^0x[0-9a-f]+$/i.test(token)) return `Unknown bit ${token}`;
  const words = token.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function queueFamilyLabels(flags: readonly string[]): string[] {
  return flags.map(flagLabel);
}

/** "1 queue", "16 queues". */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** PCI-style ids: at least four hex digits, as vulkaninfo prints them ("0x10de", "0x0000", "0x10005"). */
export function hexId(value: number, digits = 4): string {
  return `0x${(value >>> 0).toString(16).padStart(digits, '0')}`;
}

/** "NVIDIA (0x10de)"; ids our table does not know say so rather than guess. */
export function vendorLabel(device: Pick<PhysicalDevice, 'vendorID' | 'vendorName'>): string {
  return `${device.vendorName ?? 'Unknown vendor'} (${hexId(device.vendorID)})`;
}

export interface HeapSummary {
  index: number;
  size: string;
  deviceLocal: boolean;
  /** Flags other than device-local, as labels. */
  otherFlags: string[];
}

export function heapSummaries(heaps: PhysicalDevice['memoryHeaps']): HeapSummary[] {
  return heaps.map((h, index) => ({
    index,
    size: formatBytes(h.size),
    deviceLocal: h.flags.includes('device-local'),
    otherFlags: h.flags.filter((f) => f !== 'device-local').map(flagLabel),
  }));
}

/** The sum of the device-local heaps: "how much video memory", the number people look for first. */
export function deviceLocalBytes(heaps: PhysicalDevice['memoryHeaps']): number {
  return heaps.filter((h) => h.flags.includes('device-local')).reduce((n, h) => n + h.size, 0);
}

/**
 * Extensions whose name contains every word of `query` (case-insensitive, in any order), so
 * "khr storage" finds VK_KHR_8bit_storage. An empty query keeps them all.
 */
export function filterExtensions(extensions: readonly ExtensionProperties[], query: string): ExtensionProperties[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...extensions];
  return extensions.filter((e) => {
    const name = e.name.toLowerCase();
    return words.every((w) => name.includes(w));
  });
}

/** "0.4 ms", "33 ms", "1.25 s". */
export function formatElapsed(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** The file name of a manifest or library path (either separator). */
export function baseName(path: string): string {
  const parts = path.split(/[/\\]/);
  return parts[parts.length - 1] || path;
}

export interface DriverSummary {
  total: number;
  ok: number;
  failed: number;
}

export function summarizeDrivers(drivers: readonly DriverNegotiation[]): DriverSummary {
  const ok = drivers.filter((d) => d.ok).length;
  return { total: drivers.length, ok, failed: drivers.length - ok };
}

/** The negotiated interface version as a person reads it, or why there is none. */
export function interfaceVersionText(driver: Pick<DriverNegotiation, 'interfaceVersion' | 'requestedVersion'>): string {
  return driver.interfaceVersion === null ? 'not negotiated' : `${driver.interfaceVersion} (of ${driver.requestedVersion} offered)`;
}

const SOURCE_LABELS: Readonly<Record<string, string>> = {
  request: 'the manifests asked for',
  'default-folders': 'the default driver folders',
  VK_DRIVER_FILES: 'VK_DRIVER_FILES',
  VK_ICD_FILENAMES: 'VK_ICD_FILENAMES',
};

/** Where drivers.negotiate took its manifest list from. */
export function driverSourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source;
}

/** What the live region says once a refresh has finished: the counts, or which call failed. */
export function refreshAnnouncement(parts: { devices: DevicesReport | null; drivers: DriverNegotiation[] | null; failed: string[] }): string {
  const said: string[] = [];
  if (parts.drivers) {
    const s = summarizeDrivers(parts.drivers);
    said.push(`${countLabel(s.total, 'driver')}${s.failed ? `, ${s.failed} failed` : ''}`);
  }
  if (parts.devices) said.push(countLabel(parts.devices.devices.length, 'physical device'));
  const failed = parts.failed.length ? ` Could not load: ${parts.failed.join(', ')}.` : '';
  return `Updated${said.length ? `: ${said.join('; ')}` : ''}.${failed}`;
}

/**
 * Where a device came from, as the card says it: the manifest, and when copies of one driver make
 * identical devices, the other manifests it could as well be (shared/vulkan/device-origin.ts).
 */
export function deviceOriginText(origin: PhysicalDevice['origin'], asked: boolean): { manifest: string | null; note: string | null } {
  if (!origin) return { manifest: null, note: asked ? 'No driver manifest alone enumerates this device' : null };
  const others = origin.candidates.filter((c) => c !== origin.manifest).map(baseName);
  return {
    manifest: origin.manifest,
    note: others.length ? `Or ${others.join(', ')}: identical devices from copies of one driver, told apart only by order` : null,
  };
}

/**
 * The Chain panel's pure logic: where each box of the diagram goes, the words a layer's reasons
 * are summed up in, and reading the "requested layers" field. No React, no DOM: unit-tested in
 * tests/unit/renderer-chain-layout.test.ts.
 */

export const DIAGRAM = {
  width: 560,
  pad: 20,
  appHeight: 46,
  layerHeight: 60,
  loaderHeight: 46,
  driverHeight: 42,
  /** Vertical space between two boxes of the main column (the arrow runs through it). */
  gap: 30,
  driverGap: 12,
  driversPerRow: 3,
  deviceHeight: 40,
} as const;

export type DiagramNodeKind = 'application' | 'layer' | 'loader' | 'driver' | 'device';

export interface DiagramNode {
  key: string;
  kind: DiagramNodeKind;
  /** Position in its kind's list (layers: 0 is nearest the application). */
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DiagramEdge {
  from: string;
  to: string;
  /** SVG path data, from the bottom of `from` to the top of `to`. */
  d: string;
}

export interface ChainLayout {
  width: number;
  height: number;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
}

/**
 * Application on top, then each layer in chain order, the loader, the drivers in rows under it, and
 * the physical devices under those (`devices[i]`: the index of the driver device i comes from, or null
 * when that is not known: its edge then comes from the middle of the drivers' rows). When
 * vkCreateInstance fails (`failed`) no driver is reached, so neither drivers nor devices are drawn.
 */
export function layoutChain(layerCount: number, driverCount: number, options: { failed?: boolean; devices?: readonly (number | null)[] } = {}): ChainLayout {
  const { width, pad, gap } = DIAGRAM;
  const inner = width - 2 * pad;
  const nodes: DiagramNode[] = [];
  const edges: DiagramEdge[] = [];
  let y = pad;
  const column = (key: string, kind: DiagramNodeKind, index: number, height: number) => {
    const node: DiagramNode = { key, kind, index, x: pad, y, width: inner, height };
    const prev = nodes[nodes.length - 1];
    if (prev) {
      const cx = pad + inner / 2;
      edges.push({ from: prev.key, to: key, d: `M${cx} ${prev.y + prev.height}V${y}` });
    }
    nodes.push(node);
    y += height + gap;
  };
  column('application', 'application', 0, DIAGRAM.appHeight);
  for (let i = 0; i < Math.max(0, Math.floor(layerCount)); i++) column(`layer-${i}`, 'layer', i, DIAGRAM.layerHeight);
  column('loader', 'loader', 0, DIAGRAM.loaderHeight);
  const loader = nodes[nodes.length - 1]!;

  const drivers = options.failed ? 0 : Math.max(0, Math.floor(driverCount));
  const perRow: number = DIAGRAM.driversPerRow;
  const driverWidth = (inner - (perRow - 1) * DIAGRAM.driverGap) / perRow;
  for (let i = 0; i < drivers; i++) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, drivers - row * perRow);
    const col = i % perRow;
    const rowWidth = inRow * driverWidth + (inRow - 1) * DIAGRAM.driverGap;
    const x = pad + (inner - rowWidth) / 2 + col * (driverWidth + DIAGRAM.driverGap);
    const top = y + row * (DIAGRAM.driverHeight + DIAGRAM.driverGap);
    const key = `driver-${i}`;
    nodes.push({ key, kind: 'driver', index: i, x, y: top, width: driverWidth, height: DIAGRAM.driverHeight });
    // Loader → driver: down to the middle of the gap, across, down (rows below the first go down the gutter).
    const x1 = loader.x + loader.width / 2;
    const y1 = loader.y + loader.height;
    const mid = y1 + gap / 2;
    const cx = x + driverWidth / 2;
    edges.push({
      from: 'loader',
      to: key,
      d: row === 0 ? `M${x1} ${y1}V${mid}H${cx}V${top}` : `M${x1} ${y1}V${mid}H${x - DIAGRAM.driverGap / 2}V${top - DIAGRAM.driverGap / 2}H${cx}V${top}`,
    });
  }
  const rows = Math.ceil(drivers / perRow);
  let bottom = drivers > 0 ? y + rows * DIAGRAM.driverHeight + (rows - 1) * DIAGRAM.driverGap : y - gap;

  const devices = drivers > 0 ? (options.devices ?? []) : [];
  const deviceTop = bottom + gap;
  for (let i = 0; i < devices.length; i++) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, devices.length - row * perRow);
    const col = i % perRow;
    const rowWidth = inRow * driverWidth + (inRow - 1) * DIAGRAM.driverGap;
    const x = pad + (inner - rowWidth) / 2 + col * (driverWidth + DIAGRAM.driverGap);
    const top = deviceTop + row * (DIAGRAM.deviceHeight + DIAGRAM.driverGap);
    const key = `device-${i}`;
    nodes.push({ key, kind: 'device', index: i, x, y: top, width: driverWidth, height: DIAGRAM.deviceHeight });
    const from = devices[i];
    const driver = from !== null && from !== undefined ? nodes.find((n) => n.kind === 'driver' && n.index === from) : undefined;
    const x1 = driver ? driver.x + driver.width / 2 : pad + inner / 2;
    const mid = bottom + gap / 2;
    const cx = x + driverWidth / 2;
    const y1 = driver ? driver.y + driver.height : bottom;
    // Down out of the driver to the gap, across, and down into the device (later rows use the gutter).
    edges.push({
      from: driver?.key ?? 'drivers',
      to: key,
      d: row === 0 ? `M${x1} ${y1}V${mid}H${cx}V${top}` : `M${x1} ${y1}V${mid}H${x - DIAGRAM.driverGap / 2}V${top - DIAGRAM.driverGap / 2}H${cx}V${top}`,
    });
  }
  if (devices.length > 0) {
    const deviceRows = Math.ceil(devices.length / perRow);
    bottom = deviceTop + deviceRows * DIAGRAM.deviceHeight + (deviceRows - 1) * DIAGRAM.driverGap;
  }
  return { width, height: bottom + pad, nodes, edges };
}

export interface DeviceLabel {
  label: string;
  /** Index into the drivers drawn, or null when the device's driver is not known. */
  driver: number | null;
  hover: string;
}

/** One box per physical device, tied to the driver box of the manifest it came from (when the probe found it). */
export function deviceLabels(
  devices: readonly { deviceName: string; deviceType: string; origin?: { manifest: string } | null }[],
  drivers: readonly DriverLabel[],
): DeviceLabel[] {
  return devices.map((d) => {
    const at = d.origin ? drivers.findIndex((x) => x.manifest === d.origin!.manifest) : -1;
    return { label: d.deviceName, driver: at >= 0 ? at : null, hover: `${d.deviceName} (${d.deviceType})${d.origin ? `\nfrom ${d.origin.manifest}` : ''}` };
  });
}

/** `text` cut to `max` characters with an ellipsis (SVG text does not wrap). */
export function fitText(text: string, max: number): string {
  if (max < 2) return text.slice(0, Math.max(0, max));
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export interface ReasonLike {
  code: string;
  message: string;
}

export interface ReasonSummary {
  /** The first reason's message, or a word for none. */
  first: string;
  /** How many reasons come after the first. */
  more: number;
  /** "+2 more" or "". */
  moreLabel: string;
  /** Every message, one per line (for a tooltip or a <title>). */
  full: string;
}

export function reasonSummary(reasons: readonly ReasonLike[]): ReasonSummary {
  if (reasons.length === 0) return { first: 'no reason recorded', more: 0, moreLabel: '', full: 'no reason recorded' };
  const more = reasons.length - 1;
  return {
    first: sentence(reasons[0]!.message),
    more,
    moreLabel: more > 0 ? `+${more} more` : '',
    full: reasons.map((r) => sentence(r.message)).join('\n'),
  };
}

/** The model's messages start lower-case ("requested by …"); a summary line reads better capitalized. */
function sentence(message: string): string {
  return message.length ? message[0]!.toUpperCase() + message.slice(1) : message;
}

/** Layer names from the "requested layers" field: commas, spaces or new lines between; first of repeats kept. */
export function parseRequestedLayers(text: string): string[] {
  const out: string[] = [];
  for (const name of text.split(/[\s,;]+/)) if (name && !out.includes(name)) out.push(name);
  return out;
}

/** The field's text with `name` added at the end, or removed when it is there. */
export function toggleRequestedLayer(text: string, name: string): string {
  const list = parseRequestedLayers(text);
  const next = list.includes(name) ? list.filter((n) => n !== name) : [...list, name];
  return next.join(', ');
}

/** Why the API version field will be refused by chain.explain, or null when it is fine (empty means 1.0). */
export function apiVersionProblem(text: string): string | null {
  const t = text.trim();
  if (t === '' || /^\d+\.\d+(\.\d+)?$/.test(t)) return null;
  return 'Use MAJOR.MINOR, e.g. 1.3';
}

/** Explicit layer names in the loader's order, each once (what the requested-layers picker offers). */
export function explicitLayerNames(manifests: readonly { layers: readonly { name: string | null }[] }[]): string[] {
  const out: string[] = [];
  for (const m of manifests) for (const l of m.layers) if (l.name && !out.includes(l.name)) out.push(l.name);
  return out;
}

export interface DriverLabel {
  label: string;
  /** The manifest (shown on hover). */
  manifest: string;
}

/** One box per driver manifest the loader reads: its library's file name, repeats of a manifest dropped. */
export function driverLabels(
  manifests: readonly { path: string; problem?: string | null; duplicateOf?: number | null; driver: { libraryPath: string | null } | null }[],
): DriverLabel[] {
  const out: DriverLabel[] = [];
  for (const m of manifests) {
    if (m.problem || (m.duplicateOf !== null && m.duplicateOf !== undefined)) continue;
    out.push({ label: baseName(m.driver?.libraryPath ?? m.path), manifest: m.path });
  }
  return out;
}

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/**
 * A reason as a short tag: "explicit/not-requested" → "not requested". When vkCreateInstance fails
 * (a requested layer is missing) the model gives every other layer its usual code with the failure
 * as the message; the tag then says that, not "not requested" for a layer that was requested.
 */
export function reasonTag(code: string, message = ''): string {
  if (/vkCreateInstance fails/.test(message) && !code.endsWith('/not-found')) return 'instance fails';
  const tail = code.includes('/') ? code.slice(code.indexOf('/') + 1) : code;
  // The settings file's reasons say so: "on" alone would not tell who turned the layer on.
  return `${code.startsWith('settings/') ? 'settings file: ' : ''}${tail.replace(/-/g, ' ')}`;
}

/** The diagram's accessible name: the chain read from the application to the drivers. */
export function chainSentence(layers: readonly string[], driverCount: number, failed: boolean, result = 'VK_ERROR_LAYER_NOT_PRESENT'): string {
  const steps = ['Application', ...layers, 'Vulkan loader'];
  const end = failed ? failureText(result) : driverCount === 1 ? '1 driver' : `${driverCount} drivers`;
  return `${steps.join(' → ')} → ${end}`;
}

/** What a failed prediction means, in words (LOADER_CRASH is this loader's own crash or hang, not a VkResult). */
export function failureText(result: string): string {
  return result === 'LOADER_CRASH' ? 'the loader crashes or hangs in vkCreateInstance' : `vkCreateInstance fails with ${result}`;
}

import type { JsonKind, LocatedJson, LocatedProperty } from './located-json';
import { parseLocatedJson } from './located-json';
import type {
  DriverManifest,
  ExtensionEntry,
  Field,
  LayerEntry,
  LayerManifest,
  ParsedManifest,
  StringEntry,
  StringItem,
  VersionTriple,
} from './manifest-model';

function field<T>(p: LocatedProperty | undefined, expected: JsonKind, read: (n: LocatedJson) => T | undefined): Field<T> | undefined {
  if (!p) return undefined;
  const value = p.value.kind === expected ? read(p.value) : undefined;
  return { key: p.key, keyRange: p.keyRange, range: p.value.range, node: p.value, expected, value };
}

function first(obj: LocatedJson, key: string): LocatedProperty | undefined {
  return obj.kind === 'object' ? obj.properties.find((p) => p.key === key) : undefined;
}

const str = (obj: LocatedJson, key: string) => field(first(obj, key), 'string', (n) => (n.kind === 'string' ? n.value : undefined));
const node = (obj: LocatedJson, key: string, kind: JsonKind) => field(first(obj, key), kind, (n) => n);

function stringItems(n: LocatedJson): StringItem[] | undefined {
  if (n.kind !== 'array') return undefined;
  return n.items.map((i) => ({ range: i.range, node: i, value: i.kind === 'string' ? i.value : undefined }));
}

function stringEntries(n: LocatedJson): StringEntry[] | undefined {
  if (n.kind !== 'object') return undefined;
  return n.properties.map((p) => ({ key: p.key, keyRange: p.keyRange, value: field(p, 'string', (v) => (v.kind === 'string' ? v.value : undefined))! }));
}

function extensions(n: LocatedJson): ExtensionEntry[] | undefined {
  if (n.kind !== 'array') return undefined;
  return n.items.map((e) => {
    const entry: ExtensionEntry = { range: e.range };
    if (e.kind !== 'object') return entry;
    const name = str(e, 'name');
    const spec = str(e, 'spec_version');
    const entrypoints = field(first(e, 'entrypoints'), 'array', stringItems);
    if (name) entry.name = name;
    if (spec) entry.spec_version = spec;
    if (entrypoints) entry.entrypoints = entrypoints;
    return entry;
  });
}

function layerEntry(n: LocatedJson, index: number | undefined): LayerEntry {
  // Every field named, absent ones undefined: one object shape for every layer, whichever fields its
  // manifest has, so that the lint and the summaries read them through one shape and are optimized
  // once (issue #19: the 10,000-manifest listing's layers came in ~10 shapes; lintLayer, layerEntry
  // and summarizeLayer were each optimized twice, after a "wrong map" deopt).
  const entry: LayerEntry = {
    range: n.range,
    index,
    isObject: n.kind === 'object',
    name: undefined,
    type: undefined,
    library_path: undefined,
    library_arch: undefined,
    api_version: undefined,
    implementation_version: undefined,
    description: undefined,
    functions: undefined,
    instance_extensions: undefined,
    device_extensions: undefined,
    enable_environment: undefined,
    disable_environment: undefined,
    component_layers: undefined,
    override_paths: undefined,
    blacklisted_layers: undefined,
    app_keys: undefined,
    pre_instance_functions: undefined,
    settings: undefined,
    keys: [],
  };
  if (n.kind !== 'object') return entry;
  entry.keys = n.properties.map((p) => ({ key: p.key, keyRange: p.keyRange }));
  const set = <K extends keyof LayerEntry>(k: K, v: LayerEntry[K] | undefined) => {
    if (v !== undefined) entry[k] = v;
  };
  for (const k of ['name', 'type', 'library_path', 'library_arch', 'api_version', 'implementation_version', 'description'] as const) set(k, str(n, k));
  for (const k of ['functions', 'enable_environment', 'disable_environment', 'pre_instance_functions'] as const)
    set(k, field(first(n, k), 'object', stringEntries));
  for (const k of ['instance_extensions', 'device_extensions'] as const) set(k, field(first(n, k), 'array', extensions));
  for (const k of ['component_layers', 'override_paths', 'blacklisted_layers', 'app_keys'] as const) set(k, field(first(n, k), 'array', stringItems));
  // Settings (1.2.0) are kept as they are, whatever their shape, for the settings editor.
  const settings = first(n, 'settings');
  if (settings)
    set(
      'settings',
      field(settings, settings.value.kind, (v) => v),
    );
  return entry;
}

function layerManifest(root: LocatedJson): LayerManifest | undefined {
  const layer = node(root, 'layer', 'object');
  const layersArray = field(first(root, 'layers'), 'array', (n) => (n.kind === 'array' ? n.items : undefined));
  if (!layer && !layersArray) return undefined;
  const form = layer && layersArray ? 'both' : layersArray ? 'layers' : 'layer';
  const layers: LayerEntry[] = [];
  // The loader reads "layers" when present and ignores "layer" then.
  if (layersArray?.value) layersArray.value.forEach((item, i) => layers.push(layerEntry(item, i)));
  else if (!layersArray && layer?.value) layers.push(layerEntry(layer.node, undefined));
  const m: LayerManifest = { kind: 'layer', form, layers };
  const ffv = str(root, 'file_format_version');
  if (ffv) m.fileFormatVersion = ffv;
  if (layer) m.layer = layer;
  if (layersArray) m.layersArray = layersArray;
  return m;
}

function driverManifest(root: LocatedJson): DriverManifest | undefined {
  const icd = node(root, 'ICD', 'object');
  if (!icd) return undefined;
  const m: DriverManifest = { kind: 'driver', icd };
  const ffv = str(root, 'file_format_version');
  if (ffv) m.fileFormatVersion = ffv;
  if (icd.node.kind === 'object') {
    const lp = str(icd.node, 'library_path');
    const api = str(icd.node, 'api_version');
    const arch = str(icd.node, 'library_arch');
    const port = field(first(icd.node, 'is_portability_driver'), 'boolean', (n) => (n.kind === 'boolean' ? n.value : undefined));
    if (lp) m.library_path = lp;
    if (api) m.api_version = api;
    if (arch) m.library_arch = arch;
    if (port) m.is_portability_driver = port;
  }
  return m;
}

/**
 * Parse a layer or driver manifest. Never throws; every problem is left for the linter to report.
 * `positions: false`: every range is line 0, column 0 (parseLocatedJson), for a reader of values alone.
 */
export function parseManifest(text: string, options: { positions?: boolean } = {}): ParsedManifest {
  const { root, errors, lines } = parseLocatedJson(text, options);
  const rootKeys = root?.kind === 'object' ? root.properties.map((p) => ({ key: p.key, keyRange: p.keyRange })) : [];
  let manifest: ParsedManifest['manifest'];
  if (root?.kind === 'object') manifest = first(root, 'ICD') ? driverManifest(root) : layerManifest(root);
  return { text, root, syntaxErrors: errors, manifest, wholeRange: lines.range(0, text.length), rootKeys };
}

const EXACT_VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/**
 * The loader's reading of a version string (loader_parse_version_string: strtol on each dot-separated
 * part, missing parts 0). `wellFormed` says whether it is the exact "M.m.p" form.
 */
export function parseVersion(text: string): VersionTriple {
  // The usual exact form in one match (a manifest has two or three versions, 10,000 manifests: issue #19).
  const exact = EXACT_VERSION.exec(text);
  if (exact) return { major: Number.parseInt(exact[1]!, 10), minor: Number.parseInt(exact[2]!, 10), patch: Number.parseInt(exact[3]!, 10), wellFormed: true };
  const parts = text.split('.').map((p) => {
    const m = /^\s*[+-]?\d+/.exec(p);
    return m ? Number.parseInt(m[0], 10) : 0;
  });
  return { major: parts[0] ?? 0, minor: parts[1] ?? 0, patch: parts[2] ?? 0, wellFormed: false };
}

export function compareVersions(a: Pick<VersionTriple, 'major' | 'minor' | 'patch'>, b: Pick<VersionTriple, 'major' | 'minor' | 'patch'>): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/**
 * The Windows loader's VK_LOADER_DEBUG=all output (loader 1.4.359 built with mingw-w64, under Wine),
 * split into what discovery compares: per search, the registry values the loader took ("Located
 * json file "X" from registry "HIVE\KEY"") and every manifest it then opened, in order ("Found
 * manifest file X", "Found ICD manifest file X", or a failure to open or parse X).
 *
 * The layer searches come before the marker of tests/fixtures/discovery/loader-scan-probe.c, the
 * driver search after it.
 */
export interface WindowsLoaderSearch {
  /** `[hive\key, value name]` in the order the loader took them. */
  registry: [string, string][];
  /** Every manifest file the loader opened (or failed to), in order. */
  files: string[];
  /** "Checking for … in Registry at" lines: which keys it looked in. */
  keys: string[];
  /** Variables the loader said it ignored because the process is elevated. */
  ignoredVariables: string[];
}

export interface WindowsLoaderLog {
  implicit_layer: WindowsLoaderSearch;
  explicit_layer: WindowsLoaderSearch;
  driver: WindowsLoaderSearch;
  raw: string;
}

const empty = (): WindowsLoaderSearch => ({ registry: [], files: [], keys: [], ignoredVariables: [] });

function parseSearches(part: string): { kind: string; search: WindowsLoaderSearch }[] {
  const out: { kind: string; search: WindowsLoaderSearch }[] = [];
  let current: WindowsLoaderSearch | null = null;
  let pendingIgnored: string[] = [];
  for (const rawLine of part.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    const msg = line.replace(/^\[Vulkan Loader\] [A-Z |]*:\s*/, '');
    let m: RegExpMatchArray | null;
    if ((m = msg.match(/^Loader is running with elevated permissions\. Environment variable (\S+) will be ignored/))) {
      pendingIgnored.push(m[1]!);
      continue;
    }
    if ((m = msg.match(/^Searching for (implicit layer|explicit layer|driver) manifest files/))) {
      current = empty();
      current.ignoredVariables = pendingIgnored;
      pendingIgnored = [];
      out.push({ kind: m[1]!.replace(' ', '_'), search: current });
      continue;
    }
    if (!current) continue;
    if ((m = msg.match(/^Checking for (?:Layer|Driver) Manifest files in Registry at (.*)$/))) current.keys.push(m[1]!);
    else if ((m = msg.match(/^Located json file "(.*)" from registry "(.*)"$/))) current.registry.push([m[2]!, m[1]!]);
    else if ((m = msg.match(/^Found manifest file (.*) \(file version .*\)$/))) current.files.push(m[1]!);
    else if ((m = msg.match(/^Found ICD manifest file (.*), version .*$/))) current.files.push(m[1]!);
    else if ((m = msg.match(/^loader_get_json: (?:Failed to open JSON file|Invalid JSON file|Failed to read (?:file size of|entire) JSON file) (.*?)\.?$/)))
      current.files.push(m[1]!);
  }
  return out;
}

export function parseWindowsLoaderLog(log: string): WindowsLoaderLog {
  const [before, after = ''] = log.split('STRATA-PROBE: layers enumerated');
  const layers = parseSearches(before!);
  const drivers = parseSearches(after).filter((s) => s.kind === 'driver');
  const implicit = layers.find((s) => s.kind === 'implicit_layer');
  const explicit = layers.filter((s) => s.kind === 'explicit_layer').at(-1);
  if (!implicit || !explicit) throw new Error(`expected an implicit and an explicit layer search in the loader log:\n${log.slice(0, 3000)}`);
  return { implicit_layer: implicit.search, explicit_layer: explicit.search, driver: drivers[0]?.search ?? empty(), raw: log };
}

import type { ManifestKind } from '../../shared/loader/search-paths';

/** One "Searching for … manifest files" block of VK_LOADER_DEBUG=all output (every loader of the matrix). */
export interface LoaderSearch {
  locations: string[];
  files: string[];
}

/**
 * Splits the log of tests/fixtures/discovery/loader-scan-probe.c into its searches: LAYER searches
 * before the probe's marker (vkEnumerateInstanceLayerProperties), the first DRIVER search after it
 * (vkCreateInstance).
 */
export function parseLoaderSearches(raw: string): Record<ManifestKind, LoaderSearch> {
  // Loaders since 1.3.2xx put "[Vulkan Loader] " before every line; the rest of the layout is the same.
  const log = raw.replace(/^\[Vulkan Loader\] /gm, '');
  const [before, after = ''] = log.split('STRATA-PROBE: layers enumerated');
  const layers = searches(before!, 'LAYER');
  const drivers = searches(after, 'DRIVER');
  if (layers.length < 1) throw new Error(`expected a layer search in the loader log:\n${log.slice(0, 3000)}`);
  // The implicit search comes first and repeats identically; the explicit one is the last search
  // with other locations. With VK_LAYER_PATH set but empty the loader logs no explicit search at all.
  const implicit = layers[0]!;
  const explicit = layers.filter((b) => b.locations.join('\n') !== implicit.locations.join('\n')).at(-1) ?? { locations: [], files: [] };
  // With an empty VK_DRIVER_FILES the loader logs no driver search at all, only "Found no drivers!".
  if (drivers.length === 0 && !/Found no drivers/.test(after)) throw new Error(`no driver search in the loader log:\n${after.slice(0, 3000)}`);
  return { implicit_layer: implicit, explicit_layer: explicit, driver: drivers[0] ?? { locations: [], files: [] } };
}

function searches(log: string, tag: 'LAYER' | 'DRIVER'): LoaderSearch[] {
  const out: LoaderSearch[] = [];
  const lines = log.split('\n');
  // Entries are indented deeper than the block's own headings ("In following locations:"); the
  // column differs between versions (and between LAYER and DRIVER lines), so it is measured.
  const entry = new RegExp(`^${tag}:(\\s+)(\\S.*)$`);
  let headingIndent = Infinity;
  let current: LoaderSearch | null = null;
  let part: 'locations' | 'files' | null = null;
  for (const line of lines) {
    // 1.3.239: "Searching for layer manifest files"; later loaders name the kind (81c4aa292).
    if (
      line.startsWith(`${tag}:`) &&
      (tag === 'LAYER' ? /Searching for (implicit |explicit )?layer manifest files/ : /Searching for driver manifest files/).test(line)
    ) {
      current = { locations: [], files: [] };
      out.push(current);
      part = null;
      continue;
    }
    if (!current) continue;
    const heading = /In following locations:|Found the following files:/.test(line) ? line.match(entry) : null;
    if (heading) headingIndent = heading[1]!.length;
    if (/In following locations:/.test(line)) part = 'locations';
    else if (/Found the following files:/.test(line)) part = 'files';
    else if (/Found no files/.test(line)) {
      part = null;
      current = null;
    } else {
      const m = line.match(entry);
      if (m && part && m[1]!.length > headingIndent) current[part].push(m[2]!);
      else if (part === 'files') {
        part = null;
        current = null;
      }
    }
  }
  return out;
}

/**
 * The driver manifests the loader parses in vkCreateInstance (its first driver search after the
 * probe's "layers enumerated" marker), in order, less those its filters then ignore ("Driver … ignored
 * because" follows the manifest's own "Found" line). Throws when the log shows no driver search: a
 * silent log must not read as "no driver".
 */
export function loaderDriverScan(log: string): string[] {
  const after = log.split('STRATA-PROBE: layers enumerated')[1] ?? '';
  if (!/Searching for driver manifest files/.test(after)) throw new Error(`no driver scan in the loader's log:\n${after.slice(0, 2000)}`);
  const out: string[] = [];
  let scans = 0;
  for (const line of after.split('\n')) {
    if (/Searching for driver manifest files/.test(line) && ++scans > 1) break;
    const found = /Found ICD manifest file (.+), version /.exec(line);
    if (found) out.push(found[1]!);
    if (/Driver ".*" ignored because/.test(line)) out.pop();
  }
  return out;
}

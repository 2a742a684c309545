import type { ManifestKind } from '../../shared/loader/search-paths';

/** One "Searching for … manifest files" block of VK_LOADER_DEBUG=all output (loader 1.3.239's layout). */
export interface LoaderSearch {
  locations: string[];
  files: string[];
}

/**
 * Splits the log of tests/fixtures/discovery/loader-scan-probe.c into its searches: LAYER searches
 * before the probe's marker (vkEnumerateInstanceLayerProperties), the first DRIVER search after it
 * (vkCreateInstance).
 */
export function parseLoaderSearches(log: string): Record<ManifestKind, LoaderSearch> {
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
  // Entries are indented deeper than the block's own headings ("In following locations:").
  const entry = new RegExp(`^${tag}:\\s{16,}(\\S.*)$`);
  let current: LoaderSearch | null = null;
  let part: 'locations' | 'files' | null = null;
  for (const line of lines) {
    if (line.startsWith(`${tag}:`) && line.includes(`Searching for ${tag === 'LAYER' ? 'layer' : 'driver'} manifest files`)) {
      current = { locations: [], files: [] };
      out.push(current);
      part = null;
      continue;
    }
    if (!current) continue;
    if (/In following locations:/.test(line)) part = 'locations';
    else if (/Found the following files:/.test(line)) part = 'files';
    else if (/Found no files/.test(line)) {
      part = null;
      current = null;
    } else {
      const m = line.match(entry);
      if (m && part) current[part].push(m[1]!);
      else if (part === 'files') {
        part = null;
        current = null;
      }
    }
  }
  return out;
}

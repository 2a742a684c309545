import { access, opendir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { ScannedManifest } from '../../shared/discovery/manifest-inventory';
import { MANIFEST_KINDS, type ManifestKind, type SearchLocation, type SearchPaths } from '../../shared/loader/search-paths';

/**
 * The I/O half of discovery: reads the search locations of shared/loader/search-paths.ts the way
 * Debian's loader 1.3.239 does (checked by tests/integration/discovery-vs-loader.test.ts).
 *
 * Order inside a folder: the loader uses readdir(3) order, not sorted ("the order contents are
 * read by the loader in each directory is random due to the behavior of readdir"). That order is
 * the filesystem's (ext4: hash order; tmpfs: newest first), stable while the folder is unchanged.
 * We read folders with opendir (libuv's readdir, unsorted; fs.readdir would sort them) so `order`
 * is the loader's order on this machine, and each folder's files carry `readdirOrder: true`.
 */

/** One manifest file as the loader lists it (shared/discovery/manifest-inventory.ts parses and lints it). */
export type ManifestFile = ScannedManifest;
export type ManifestProblem = NonNullable<ScannedManifest['problem']>;

export interface ScannedLocation extends SearchLocation {
  exists: boolean | null;
  /** Why a folder could not be read (ENOTDIR, EACCES …); a missing folder is `exists: false`, not an error. */
  error: string | null;
}

export interface ScanResult {
  locations: Record<ManifestKind, ScannedLocation[]>;
  manifests: Record<ManifestKind, ManifestFile[]>;
}

export interface ScanOptions {
  /** Relative entries of VK_LAYER_PATH etc. are relative to the application's working directory. */
  cwd?: string;
}

interface Listed {
  path: string;
  location: SearchLocation;
  readdirOrder: boolean;
  /** The folder entry was a symlink (so ENOENT on read means dangling). */
  symlink: boolean;
}

const errCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? String(e);

/** One folder: its `*.json` entries in readdir order. The loader matches ".json" case-sensitively, of any file type. */
async function listFolder(location: SearchLocation, cwd: string): Promise<{ exists: boolean; error: string | null; files: Listed[] }> {
  const files: Listed[] = [];
  try {
    const dir = await opendir(isAbsolute(location.path) ? location.path : resolve(cwd, location.path));
    for await (const d of dir) {
      if (d.name.endsWith('.json')) files.push({ path: `${location.path}/${d.name}`, location, readdirOrder: true, symlink: d.isSymbolicLink() });
    }
    return { exists: true, error: null, files };
  } catch (e) {
    const code = errCode(e);
    return code === 'ENOENT' ? { exists: false, error: null, files } : { exists: true, error: code, files };
  }
}

async function readManifest(item: Listed, cwd: string): Promise<{ text: string | null; problem: ManifestProblem | null; real: string | null }> {
  const abs = isAbsolute(item.path) ? item.path : resolve(cwd, item.path);
  // One read and one realpath per file, in parallel; the error of the read says what is wrong, no stat needed.
  const [text, real] = await Promise.allSettled([readFile(abs, 'utf8'), realpath(abs)]);
  const realPath = real.status === 'fulfilled' ? real.value : null;
  if (text.status === 'fulfilled') return { text: text.value, problem: null, real: realPath };
  const code = errCode(text.reason);
  const problem: ManifestProblem =
    code === 'ENOENT' ? (item.symlink ? 'dangling-symlink' : 'missing') : code === 'EISDIR' ? 'not-a-file' : 'unreadable';
  return { text: null, problem, real: realPath };
}

async function scanKind(kind: ManifestKind, locations: readonly SearchLocation[], cwd: string) {
  // All folders of a kind are read at once; results are put back in search order.
  const listed = await Promise.all(
    locations.map(async (loc) => {
      if (loc.entry === 'folder') return listFolder(loc, cwd);
      if (loc.entry === 'file') return { exists: null, error: null, files: [{ path: loc.path, location: loc, readdirOrder: false, symlink: false }] };
      return { exists: null, error: null, files: [] }; // registry keys: read on Windows only (not yet)
    }),
  );
  const items = listed.flatMap((l) => l.files);
  const read = await Promise.all(items.map((item) => readManifest(item, cwd)));
  const firstByReal = new Map<string, number>();
  const manifests: ManifestFile[] = items.map((item, order) => {
    const r = read[order]!;
    let duplicateOf: number | null = null;
    if (r.real !== null) {
      duplicateOf = firstByReal.get(r.real) ?? null;
      if (duplicateOf === null) firstByReal.set(r.real, order);
    }
    return {
      path: item.path,
      kind,
      origin: item.location.origin,
      location: item.location.path,
      order,
      readdirOrder: item.readdirOrder,
      text: r.text,
      problem: r.problem,
      duplicateOf,
    };
  });
  const scanned: ScannedLocation[] = locations.map((loc, i) => {
    const l = listed[i]!;
    // A single file's existence is what reading it found.
    const exists = loc.entry === 'file' ? read[items.findIndex((it) => it.location === loc)]?.problem !== 'missing' : l.exists;
    return { ...loc, exists, error: l.error };
  });
  return { manifests, scanned };
}

export async function scanManifests(paths: SearchPaths, options: ScanOptions = {}): Promise<ScanResult> {
  const cwd = options.cwd ?? process.cwd();
  const results = await Promise.all(MANIFEST_KINDS.map((k) => scanKind(k, paths[k], cwd)));
  const locations = {} as ScanResult['locations'];
  const manifests = {} as ScanResult['manifests'];
  MANIFEST_KINDS.forEach((k, i) => {
    locations[k] = results[i]!.scanned;
    manifests[k] = results[i]!.manifests;
  });
  return { locations, manifests };
}

/** Only whether a location is there (one access() each), for `discovery.paths`. */
export async function locationExists(location: SearchLocation, cwd: string): Promise<boolean | null> {
  if (location.entry === 'registry-key') return null;
  try {
    await access(isAbsolute(location.path) ? location.path : resolve(cwd, location.path));
    return true;
  } catch {
    return false;
  }
}

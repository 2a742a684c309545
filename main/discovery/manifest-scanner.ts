import { realpathSync } from 'node:fs';
import { accessAsync, opendirAsync, realpathAsync } from '../platform/fs-async';
import { GuardedReadError, readTextGuardedSync } from '../platform/guarded-read';
import { isAbsolute, resolve } from 'node:path';
import type { ScannedManifest } from '../../shared/discovery/manifest-inventory';
import { MANIFEST_KINDS, type ManifestKind, type SearchLocation, type SearchPaths } from '../../shared/loader/search-paths';
import { registryManifests, type RegistryReader } from './windows-registry';
import type { FolderListings } from './library-check';
import { normalizePosixPath } from '../../shared/vulkan/library-search';
import { monotonicMs } from '../platform/monotonic-clock';

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
  /**
   * Every name in each folder listed (absolute, already normal paths; POSIX separators only): what the
   * library check needs to know a library beside its manifest is absent without asking the kernel
   * again (library-check.ts FolderListings).
   */
  listings: FolderListings;
}

export interface ScanOptions {
  /** Relative entries of VK_LAYER_PATH etc. are relative to the application's working directory. */
  cwd?: string;
  /** Windows: where registry-key locations are read (main/discovery/windows-registry.ts); without one they list nothing. */
  registry?: RegistryReader | null;
  /** How the loader joins a folder and a file name: "\\" on Windows (DIRECTORY_SYMBOL), "/" elsewhere. */
  separator?: '/' | '\\';
}

interface Listed {
  path: string;
  location: SearchLocation;
  readdirOrder: boolean;
  /** The folder entry was a symlink (so ENOENT on read means dangling). */
  symlink: boolean;
  /** The folder entry was a regular file, and its real path is that of the folder plus its name. */
  realIfRegular: string | null;
}

const errCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? String(e);

/** One folder: its `*.json` entries in readdir order. The loader matches ".json" case-sensitively, of any file type. */
async function listFolder(
  location: SearchLocation,
  cwd: string,
  sep: '/' | '\\' = '/',
  folder: string = location.path,
  listings?: Map<string, ReadonlySet<string>>,
): Promise<{ exists: boolean; error: string | null; files: Listed[] }> {
  const files: Listed[] = [];
  try {
    const abs = isAbsolute(folder) ? folder : resolve(cwd, folder);
    // Every name, for the library check; only for a path the kernel and a lexical join read alike (no "." or "..", no "//").
    const names = listings && sep === '/' && abs === normalizePosixPath(abs) ? new Set<string>() : null;
    // 1,024 entries per read instead of Node's 32: one thread-pool round trip per thousand files,
    // about half the listing time of a 10,000-manifest tree (issue #19). The order is readdir's either way.
    const dir = await opendirAsync(abs, { bufferSize: 1024 });
    const regular: { index: number; name: string }[] = [];
    for await (const d of dir) {
      names?.add(d.name);
      if (!d.name.endsWith('.json')) continue;
      if (d.isFile()) regular.push({ index: files.length, name: d.name });
      files.push({ path: `${folder}${sep}${d.name}`, location, readdirOrder: true, symlink: d.isSymbolicLink(), realIfRegular: null });
    }
    // One realpath for the folder instead of one per file: a regular file's real path is the
    // folder's plus its name. Symlinks (and file systems that do not report types) still get their own.
    if (regular.length > 0) {
      const real = await realpathAsync(abs).catch(() => null);
      if (real !== null) for (const r of regular) files[r.index]!.realIfRegular = real.endsWith(sep) ? `${real}${r.name}` : `${real}${sep}${r.name}`;
    }
    if (names) listings!.set(abs, names);
    return { exists: true, error: null, files };
  } catch (e) {
    const code = errCode(e);
    return code === 'ENOENT' ? { exists: false, error: null, files } : { exists: true, error: code, files };
  }
}

type ReadResult = { text: string | null; problem: ManifestProblem | null; real: string | null };

function readManifest(item: Listed, cwd: string): ReadResult {
  const abs = isAbsolute(item.path) ? item.path : resolve(cwd, item.path);
  // One guarded read per file (plus a realpath unless listFolder knows it); the read's error says
  // what is wrong, no stat needed. It opens O_NONBLOCK and fstats before reading, so a FIFO or a
  // device named *.json (a symlink to /dev/zero) is that file's diagnostic, not a hang or gigabytes.
  let text: string | null = null;
  let code: string | null = null;
  try {
    text = readTextGuardedSync(abs, 'manifest');
  } catch (e) {
    code = e instanceof GuardedReadError ? (e.reason === 'too-large' ? 'too-large' : e.folder ? 'EISDIR' : 'not-regular') : errCode(e);
  }
  let real: string | null = code === null ? item.realIfRegular : null;
  if (real === null)
    try {
      real = realpathSync.native(abs);
    } catch {
      // No real path: a missing file, a dangling link or a loop, which the read's error already says.
    }
  if (code === null) return { text, problem: null, real };
  const problem: ManifestProblem =
    code === 'ENOENT'
      ? item.symlink
        ? 'dangling-symlink'
        : 'missing'
      : code === 'ELOOP'
        ? 'symlink-loop'
        : code === 'EISDIR'
          ? 'not-a-file'
          : code === 'not-regular' || code === 'ENXIO'
            ? 'not-regular'
            : code === 'too-large'
              ? 'too-large'
              : 'unreadable';
  return { text: null, problem, real };
}

/** How long the reads may hold the event loop before they let other work (IPC, HTTP) run. */
const READ_SLICE_MS = 8;

/**
 * Reads the files synchronously, yielding to the event loop every READ_SLICE_MS. Small local files
 * read ~8× faster this way than through fs.promises (four thread-pool round trips per file, and
 * promise churn): 10,000 manifests in ~0.2 s instead of ~1.6 s on 2 cores (bench/discovery-10k).
 */
async function readAll(items: readonly Listed[], cwd: string): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  let sliceStart = monotonicMs();
  for (const item of items) {
    out.push(readManifest(item, cwd));
    if (monotonicMs() - sliceStart > READ_SLICE_MS) {
      await new Promise((resolveSlice) => setImmediate(resolveSlice));
      sliceStart = monotonicMs();
    }
  }
  return out;
}

const singleFile = (path: string, location: SearchLocation): Listed => ({ path, location, readdirOrder: false, symlink: false, realIfRegular: null });

/**
 * A registry key's manifests in the key's order; nothing without a registry. As the loader's
 * add_data_files reads each name (loader 1.3.239 … 1.4.359): split at ";" (its PATH_SEPARATOR on
 * Windows, empty parts skipped), a part ending in ".json" (case-sensitive) is one manifest, any
 * other part a folder whose *.json files are read in directory order.
 */
async function listRegistryKey(location: SearchLocation, registry: RegistryReader | null, cwd: string, sep: '/' | '\\') {
  if (!registry) return { exists: null, error: null, files: [] };
  try {
    const found = await registryManifests(location, registry);
    const files: Listed[] = [];
    for (const part of found.paths.flatMap((p) => p.split(';')).filter((p) => p.length > 0)) {
      if (part.endsWith('.json')) files.push(singleFile(part, location));
      else files.push(...(await listFolder(location, cwd, sep, part)).files);
    }
    return { exists: found.exists, error: null, files };
  } catch (e) {
    return { exists: null, error: e instanceof Error ? e.message : String(e), files: [] };
  }
}

async function scanKind(
  kind: ManifestKind,
  locations: readonly SearchLocation[],
  cwd: string,
  registry: RegistryReader | null,
  sep: '/' | '\\',
  listings: Map<string, ReadonlySet<string>>,
) {
  // All folders (and registry keys) of a kind are read at once; results are put back in search order.
  const listed = await Promise.all(
    locations.map(async (loc) => {
      if (loc.entry === 'folder') return listFolder(loc, cwd, sep, loc.path, listings);
      if (loc.entry === 'file') return { exists: null, error: null, files: [singleFile(loc.path, loc)] };
      return listRegistryKey(loc, registry, cwd, sep);
    }),
  );
  const items = listed.flatMap((l) => l.files);
  const read = await readAll(items, cwd);
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
  const listings = new Map<string, ReadonlySet<string>>();
  const results = await Promise.all(MANIFEST_KINDS.map((k) => scanKind(k, paths[k], cwd, options.registry ?? null, options.separator ?? '/', listings)));
  const locations = {} as ScanResult['locations'];
  const manifests = {} as ScanResult['manifests'];
  MANIFEST_KINDS.forEach((k, i) => {
    locations[k] = results[i]!.scanned;
    manifests[k] = results[i]!.manifests;
  });
  return { locations, manifests, listings };
}

/** Only whether a location is there (one access() each), for `discovery.paths`. */
export async function locationExists(location: SearchLocation, cwd: string): Promise<boolean | null> {
  if (location.entry === 'registry-key') return null;
  try {
    await accessAsync(isAbsolute(location.path) ? location.path : resolve(cwd, location.path));
    return true;
  } catch {
    return false;
  }
}

import { closeSync, existsSync, readSync, statSync } from 'node:fs';
import { GuardedReadError, openRegularFileSync } from '../platform/guarded-read';
import { candidateOutcome, ldsoFacts, librarySearchSystem, linkerCache } from '../../native-bridge/library-resolver';
import { resolveLibrary, type LibraryResolution, type LibrarySearchSystem } from '../../shared/vulkan/library-search';
import { classifyLibraryHeader, LIBRARY_HEAD_BYTES, type LibraryTarget } from '../../shared/vulkan/library-header';
import { windowsLibraryFile } from '../../shared/vulkan/windows-library-path';
import type { LibraryCheck, LibraryFileState, LibraryLookup } from '../../shared/lint/library-lint';

/**
 * The I/O side of shared/lint/library-lint.ts: resolve a manifest's "library_path" as the loader of
 * this process would (native-bridge/library-resolver.ts's search, shared/vulkan/library-search.ts's
 * rules; shared/vulkan/windows-library-path.ts on Windows) and read the first bytes of what it
 * names through the guarded reader (a FIFO or device named as a library is refused, never waited
 * on; at most LIBRARY_HEAD_BYTES are read, whatever the file's size).
 *
 * One lookup per lint run: every path is looked at and read once however many manifests name it (the
 * 10,000-manifest tree of bench/ names 10,000 libraries; Debian's name a handful), and the answers
 * are not kept past the run, so an edited or installed library shows at the next lint. A host that
 * keeps a lint's answer passes `seen`, and asks `libraryFilesUnchanged(seen)` before it hands that
 * answer out again (main/discovery/manifest-catalogue.ts: the manifest watcher sees the manifest
 * folders, not the libraries they name).
 */

/** One buffer for every header read: the reads are synchronous and the classifier keeps no reference to the bytes. */
const scratch = Buffer.allocUnsafe(LIBRARY_HEAD_BYTES);
/** An ELF header is 64 bytes; only a PE file (MZ) needs more to be judged. */
const ELF_HEAD = 64;

/**
 * The first bytes of a regular file, opened by the guarded reader (O_NONBLOCK, fstat on the
 * descriptor): 64 for an ELF header, up to LIBRARY_HEAD_BYTES for a PE file. A view of `scratch`,
 * valid until the next call.
 */
function readHead(path: string, target: LibraryTarget): { head: Buffer; size: number } {
  const { fd, size } = openRegularFileSync(path);
  try {
    const fill = (from: number, to: number): number => {
      let total = from;
      // A short read (the file shrank under us) ends it: what was read is what is judged.
      while (total < to) {
        const n = readSync(fd, scratch, total, to - total, total);
        if (n === 0) break;
        total += n;
      }
      return total;
    };
    let total = fill(0, Math.min(ELF_HEAD, size));
    const mz = total >= 2 && scratch[0] === 0x4d && scratch[1] === 0x5a;
    if ((mz || target.os === 'windows') && size > total) total = fill(total, Math.min(LIBRARY_HEAD_BYTES, size));
    return { head: scratch.subarray(0, total), size };
  } finally {
    closeSync(fd);
  }
}

/**
 * What stat(2) says of `path`, as a string that changes when the file is replaced, written or
 * removed (inode, size, mtime, ctime; "-" when nothing is there or it cannot be statted).
 */
export function fileSignature(path: string): string {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : '-';
  } catch {
    return '-';
  }
}

/** Whether every path of `seen` (a lookup's, from libraryLookup) still has the signature it had when the lookup read it. */
export function libraryFilesUnchanged(seen: ReadonlyMap<string, string>): boolean {
  for (const [path, signature] of seen) if (fileSignature(path) !== signature) return false;
  return true;
}

/** What is at `path` for a process of `target`. */
export function readLibraryFile(path: string, target: LibraryTarget): LibraryFileState {
  // access(2) first: an absent library (the common failure) costs one syscall, no Stats object
  // and no thrown error, which were most of the time of 10,000 failed opens (bench/discovery-10k
  // names 10,000 absent libraries). A folder above that this user may not search reads as absent
  // too (the loader's open fails there all the same). What is there is opened by the guarded
  // reader, which judges the descriptor.
  if (!existsSync(path)) return { state: 'missing' };
  try {
    const { head, size } = readHead(path, target);
    return { state: 'read', size, header: classifyLibraryHeader(head, size, target) };
  } catch (e) {
    if (e instanceof GuardedReadError)
      return {
        state: 'not-a-file',
        what:
          /^.* is (a folder|a FIFO \(named pipe\)|a character device|a block device|a socket|not a regular file), not a regular file$/.exec(e.message)?.[1] ??
          'not a regular file',
      };
    const code = (e as NodeJS.ErrnoException).code;
    // ENOTDIR: a path through a file ("lib.so/x.so"): absent, as the loader's open sees it. ELOOP: a link cycle.
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    return { state: 'unreadable', reason: code === 'EACCES' || code === 'EPERM' ? `${code}: permission denied` : (code ?? String(e)) };
  }
}

/**
 * The names in folders a scan has just listed, by absolute folder path (manifest-scanner.ts
 * ScanResult.listings): a library named beside its manifest (`./libX.so`, the common relative
 * "library_path") whose name is not in its folder's listing is absent, known without a syscall. The
 * 10,000-manifest tree of bench/ names 10,000 absent libraries, and one access(2) each was ~7% of
 * `strata layer list` (issue #19). A name that is listed is looked at as before (it may be a
 * dangling link, a folder, a file of another architecture).
 */
export type FolderListings = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * A LibraryLookup for a loader in a process like this one, with environment `env` (LD_LIBRARY_PATH)
 * and working folder `cwd`; null on a platform whose loader's search Strata does not model (macOS),
 * or when `os` (the platform the manifests are for) is not this process's.
 */
export function libraryLookup(
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
  os: 'linux' | 'windows' | 'other' = platformOs(),
  /** As a setuid/setgid application (`--elevated`): ld.so ignores LD_LIBRARY_PATH in secure-execution mode (ld.so(8)). */
  elevated = false,
  {
    seen,
    listings,
  }: {
    /** Filled with every path looked at and its fileSignature, taken before it is read (one stat more per path). */
    seen?: Map<string, string>;
    /** Folders just listed (Linux: names are case-sensitive, as the listing's test needs). */
    listings?: FolderListings;
  } = {},
): LibraryLookup | null {
  if (os !== platformOs() || os === 'other') return null;
  const target: LibraryTarget = { os, arch: process.arch };
  const files = new Map<string, LibraryFileState>();
  const unlisted = (path: string): boolean => {
    if (!listings || os !== 'linux' || !path.startsWith('/')) return false;
    const slash = path.lastIndexOf('/');
    const names = listings.get(slash === 0 ? '/' : path.slice(0, slash));
    return names !== undefined && !names.has(path.slice(slash + 1));
  };
  const fileAt = (path: string): LibraryFileState => {
    let f = files.get(path);
    if (!f && unlisted(path)) {
      // fileSignature's word for nothing there: a kept answer is checked against it as for any path.
      seen?.set(path, '-');
      files.set(path, (f = { state: 'missing' }));
    }
    if (!f) {
      // Before the read: a change between the two shows as a changed signature at the next check.
      seen?.set(path, fileSignature(path));
      files.set(path, (f = readLibraryFile(path, target)));
    }
    return f;
  };
  const outcome = (path: string) => {
    const f = fileAt(path);
    return f.state === 'read' ? candidateOutcome(f.header) : 'missing';
  };
  // Bare names resolve the same from every manifest: searched once each.
  const bare = new Map<string, LibraryResolution>();
  const base = os === 'linux' ? librarySearchSystem(env, cwd, outcome) : null;
  const sys: LibrarySearchSystem | null =
    base && elevated
      ? {
          ldLibraryPath: base.ldLibraryPath,
          secure: true,
          cwd: base.cwd,
          arch: base.arch,
          cacheEntries: (name) => base.cacheEntries(name),
          get ldso() {
            return base.ldso;
          },
          check: base.check,
        }
      : base;

  return (manifestPath, libraryPath) => {
    if (!sys) {
      // Windows: a bare name goes through LoadLibrary's search (the application's folder, System32, PATH …), which Strata does not model.
      const file = windowsLibraryFile(manifestPath, libraryPath);
      if (!file) return null;
      const state = fileAt(file.path);
      const resolution: LibraryResolution = {
        libraryPath,
        path: file.path,
        via: file.via,
        outcome: state.state === 'read' ? candidateOutcome(state.header) : 'missing',
        tried: [],
      };
      return { os, arch: process.arch, ldLibraryPath: undefined, resolution, file: state, cacheRead: false, defaultFolders: [] };
    }
    const isBare = !libraryPath.includes('/') && !libraryPath.includes('$');
    let resolution = isBare ? bare.get(libraryPath) : undefined;
    if (!resolution) {
      resolution = resolveLibrary(manifestPath, libraryPath, sys);
      if (isBare) bare.set(libraryPath, resolution);
    }
    const searched = resolution.via !== 'absolute' && resolution.via !== 'manifest-relative';
    const file = resolution.path === null ? null : fileAt(resolution.path);
    return new LinuxCheck(sys.ldLibraryPath, resolution, file, searched ? linkerCache().cacheRead : true, searched);
  };
}

/**
 * A check on Linux. A class rather than the object literal it was (a spread, more properties, a
 * getter): Node 20's V8 gave each such check a hidden class of its own, ~9 µs to make, and the lint
 * reading them thousands of shapes (one check per library_path: `strata layer list --json` on
 * bench/'s 10,000 manifests was ~13–23 % slower, issue #19; docs/architecture.md, "Object shapes
 * on Node 20"). The lazy `defaultFolders` is one getter on the prototype.
 */
class LinuxCheck implements LibraryCheck {
  readonly os = 'linux';
  readonly arch = process.arch;
  constructor(
    readonly ldLibraryPath: string | undefined,
    readonly resolution: LibraryResolution,
    readonly file: LibraryFileState | null,
    readonly cacheRead: boolean,
    private readonly searched: boolean,
  ) {}

  // Named only in a message about a library not found: the linker is asked for them
  // (`ld.so --list-diagnostics`, a process) only when such a message is written (issue #19).
  get defaultFolders(): readonly string[] {
    if (!this.searched) return [];
    const dirs = ldsoFacts().systemDirs;
    return dirs.length ? dirs : ['/lib', '/usr/lib'];
  }
}

function platformOs(): 'linux' | 'windows' | 'other' {
  return process.platform === 'win32' ? 'windows' : process.platform === 'linux' || process.platform === 'freebsd' ? 'linux' : 'other';
}

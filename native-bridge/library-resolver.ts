/**
 * The I/O side of shared/vulkan/library-search.ts: asks this machine's dynamic linker for its cache
 * (`ldconfig -p`, parsed once per process) and its own values (`ld.so --list-diagnostics`: $LIB,
 * $PLATFORM, the default folders), and reads ELF headers. No koffi here: main/ uses it to report
 * where a manifest's library is without loading it, and the probe uses it before dlopen.
 */
import { createRequire } from 'node:module';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { classifyLibraryHeader, LIBRARY_HEAD_BYTES, type LibraryHeaderVerdict } from '../shared/vulkan/library-header';
import { windowsLibraryFile } from '../shared/vulkan/windows-library-path';
import {
  parseLdconfigCache,
  parseLdsoDiagnostics,
  resolveLibrary,
  type CandidateOutcome,
  type LdCacheEntry,
  type LdsoFacts,
  type LibraryResolution,
  type LibrarySearchSystem,
} from '../shared/vulkan/library-search';
import { readLdSoCache, type LdSoCache } from '../shared/vulkan/ld-so-cache';
import { machineFact } from '../shared/app/machine-facts';

interface LinkerCache {
  /** The entries named `name`, in the cache's order. */
  entriesNamed(name: string): LdCacheEntry[];
  /** The cache was read (from the file, or from `ldconfig -p`): a name with no entries is really not in ld.so.cache. */
  cacheRead: boolean;
}

/** Runs the first of `commands` that exists; its stdout, or null when none runs. */
function firstOutput(commands: readonly (readonly [string, string[]])[]): string | null {
  // Loaded here, not with this module: node:child_process costs ~5 ms of a start, and a search
  // that needs no process never gets here (issue #19).
  const { execFileSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  for (const [file, args] of commands) {
    try {
      return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000, maxBuffer: 32 << 20 });
    } catch (e) {
      // ENOENT: try the next spelling. ld.so --list-diagnostics exits 0; anything else gave no facts.
      const out = (e as { stdout?: unknown }).stdout;
      if (typeof out === 'string' && out.length > 0) return out;
    }
  }
  return null;
}

/** The dynamic linker this process runs under, read back from its mappings ("/lib64/ld-linux-x86-64.so.2"). */
function runningLinker(): string | null {
  try {
    const maps = readFileSync('/proc/self/maps', 'utf8');
    const m = /\s(\/\S*\/ld-linux[^/\s]*\.so[.\d]*)$/m.exec(maps) ?? /\s(\/\S*\/ld-musl[^/\s]*\.so[.\d]*)$/m.exec(maps);
    return m?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The linker's cache, read once per process (it changes only when packages are installed): the file
 * itself (shared/vulkan/ld-so-cache.ts, no process), else what `ldconfig -p` prints (a cache in a
 * format that reader does not know; musl has none). `ldconfig` lives in /sbin on Debian, which is not
 * on a normal user's PATH.
 */
export const linkerCache: () => LinkerCache = machineFact(() => {
  let fromFile: LdSoCache | null = null;
  try {
    const bytes = readFileSync('/etc/ld.so.cache');
    fromFile = readLdSoCache(bytes, (start, end) => bytes.toString('latin1', start, end));
  } catch {
    // No cache file (musl, a minimal container): ldconfig says whether there is one elsewhere.
  }
  if (fromFile) return { entriesNamed: (name) => fromFile.entriesNamed(name), cacheRead: true };
  const cacheText = firstOutput([
    ['ldconfig', ['-p']],
    ['/sbin/ldconfig', ['-p']],
    ['/usr/sbin/ldconfig', ['-p']],
  ]);
  const printed = cacheText ? parseLdconfigCache(cacheText) : [];
  return { entriesNamed: (name) => printed.filter((e) => e.name === name), cacheRead: cacheText !== null };
});

/**
 * Where the linker's values are kept between processes (main/discovery/linker-facts-file.ts; the
 * probe keeps none). Asking the linker is a process: ~8–15 ms of every `strata layer list` on a
 * machine whose manifests name "$LIB" (MangoHud, vkBasalt) or a bare name missing from ld.so.cache
 * (issue #19).
 * `key` names the linker's file as it is now (its path, device, inode, size and modification time):
 * an upgraded glibc gives another key, and values kept under an older one are asked again.
 */
export interface KeptLinkerFacts {
  read(key: string): LdsoFacts | null;
  write(key: string, facts: LdsoFacts): void;
}

let kept: KeptLinkerFacts | null = null;

/** Sets (or, with null, clears) where ldsoFacts keeps what the linker said. */
export function keepLinkerFactsIn(store: KeptLinkerFacts | null): void {
  kept = store;
}

function linkerKey(linker: string): string | null {
  try {
    const st = statSync(linker, { bigint: true });
    return `${linker}\n${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return null;
  }
}

/** The linker's own values ($LIB, $PLATFORM, its default folders), asked once per process and only when a search gets that far. */
export const ldsoFacts: () => LdsoFacts = machineFact(() => {
  const linker = runningLinker();
  const key = linker && kept ? linkerKey(linker) : null;
  const saved = key ? kept!.read(key) : null;
  if (saved) return saved;
  const diagnostics = linker ? firstOutput([[linker, ['--list-diagnostics']]]) : null;
  if (!diagnostics) return { dstLib: null, platform: null, systemDirs: [] };
  const facts = parseLdsoDiagnostics(diagnostics);
  if (key) kept!.write(key, facts);
  return facts;
});

/**
 * Reads the first LIBRARY_HEAD_BYTES of `path`; null when it cannot be opened or read, or is not a
 * regular file. O_NONBLOCK, then fstat on the descriptor (as main/platform/guarded-read.ts, which
 * native-bridge/ may not import): a FIFO named as a library is refused, never waited on.
 */
function readHead(path: string): { head: Buffer; size: number } | null {
  let fd: number | null = null;
  const head = Buffer.alloc(LIBRARY_HEAD_BYTES);
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const read = readSync(fd, head, 0, head.length, 0);
    return { head: head.subarray(0, read), size: st.size };
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** A header verdict (shared/vulkan/library-header.ts, the one classifier) as the resolver's outcome. */
export function candidateOutcome(v: LibraryHeaderVerdict): CandidateOutcome {
  switch (v.verdict) {
    case 'ok':
    case 'unknown':
      return 'ok';
    case 'wrong-class':
    case 'wrong-machine':
      return 'wrong-arch';
    case 'not-a-library':
      return 'not-elf';
  }
}

/** What the file at `path` is to this process: loadable (right ELF class and machine), absent, or skipped. */
export function checkLibraryFile(path: string): CandidateOutcome {
  const read = readHead(path);
  return read ? candidateOutcome(classifyLibraryHeader(read.head, read.size, { os: 'linux', arch: process.arch })) : 'missing';
}

/**
 * The search as seen by a process with environment `env` (LD_LIBRARY_PATH) started in `cwd`. The
 * linker's facts are asked only when a search needs them (a bare name, $LIB): a manifest naming its
 * library by path costs no `ldconfig` process. `check` reads a candidate (default: its ELF header).
 */
export function librarySearchSystem(
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
  check: (path: string) => CandidateOutcome = checkLibraryFile,
): LibrarySearchSystem {
  const secure =
    typeof process.getuid === 'function' &&
    typeof process.geteuid === 'function' &&
    typeof process.getgid === 'function' &&
    typeof process.getegid === 'function'
      ? process.getuid() !== process.geteuid() || process.getgid() !== process.getegid()
      : false;
  return {
    ldLibraryPath: env['LD_LIBRARY_PATH'],
    secure,
    cwd,
    arch: process.arch,
    cacheEntries: (name) => linkerCache().entriesNamed(name),
    get ldso() {
      return ldsoFacts();
    },
    check,
  };
}

/**
 * Where the library of a manifest is (Linux and other ELF systems); null on Windows and macOS,
 * where the loader's rules differ and Strata does not model them yet.
 */
export function resolveManifestLibrary(manifestPath: string, libraryPath: string, env: NodeJS.ProcessEnv = process.env): LibraryResolution | null {
  if (process.platform === 'win32') return resolveWindowsLibrary(manifestPath, libraryPath);
  if (process.platform !== 'linux' && process.platform !== 'freebsd') return null;
  return resolveLibrary(manifestPath, libraryPath, librarySearchSystem(env));
}

/** What a DLL is to this process: loadable (its PE machine type is this process's), absent, or not a PE file ('not-elf'). */
export function checkDllFile(path: string): CandidateOutcome {
  const read = readHead(path);
  return read ? candidateOutcome(classifyLibraryHeader(read.head, read.size, { os: 'windows', arch: process.arch })) : 'missing';
}

/** Windows: an absolute or manifest-relative library_path checked before LoadLibrary; null for a bare name (LoadLibrary's search is not modelled). */
function resolveWindowsLibrary(manifestPath: string, libraryPath: string): LibraryResolution | null {
  const file = windowsLibraryFile(manifestPath, libraryPath);
  if (!file) return null;
  const outcome = checkDllFile(file.path);
  return { libraryPath, path: file.path, via: file.via, outcome, tried: [{ path: file.path, via: file.via, outcome }] };
}

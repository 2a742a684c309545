/**
 * The I/O side of shared/vulkan/library-search.ts: asks this machine's dynamic linker for its cache
 * (`ldconfig -p`, parsed once per process) and its own values (`ld.so --list-diagnostics`: $LIB,
 * $PLATFORM, the default folders), and reads ELF headers. No koffi here: main/ uses it to report
 * where a manifest's library is without loading it, and the probe uses it before dlopen.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { expectedElf, parseElfIdentity } from '../shared/vulkan/elf-header';
import { expectedPeMachine, parsePeHeader } from '../shared/vulkan/pe-header';
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

interface LinkerFacts {
  cache: LdCacheEntry[];
  ldso: LdsoFacts;
}

let facts: LinkerFacts | null = null;

/** Runs the first of `commands` that exists; its stdout, or null when none runs. */
function firstOutput(commands: readonly (readonly [string, string[]])[]): string | null {
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
 * The linker's cache and values, asked once per process (ldconfig -p takes a few milliseconds and
 * the cache changes only when packages are installed). `ldconfig` lives in /sbin on Debian, which
 * is not on a normal user's PATH.
 */
export function linkerFacts(): LinkerFacts {
  if (facts) return facts;
  const cacheText = firstOutput([
    ['ldconfig', ['-p']],
    ['/sbin/ldconfig', ['-p']],
    ['/usr/sbin/ldconfig', ['-p']],
  ]);
  const linker = runningLinker();
  const diagnostics = linker ? firstOutput([[linker, ['--list-diagnostics']]]) : null;
  const ldso = diagnostics ? parseLdsoDiagnostics(diagnostics) : { dstLib: null, platform: null, systemDirs: [] };
  facts = { cache: cacheText ? parseLdconfigCache(cacheText) : [], ldso };
  return facts;
}

/** What the file at `path` is to this process: loadable (right ELF class and machine), absent, or skipped. */
export function checkLibraryFile(path: string): CandidateOutcome {
  let fd: number | null = null;
  const head = Buffer.alloc(20);
  try {
    fd = openSync(path, 'r');
    readSync(fd, head, 0, 20, 0);
  } catch {
    return 'missing';
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const id = parseElfIdentity(head);
  if (!id) return 'not-elf';
  const want = expectedElf(process.arch);
  return want && (id.bits !== want.bits || id.machine !== want.machine) ? 'wrong-arch' : 'ok';
}

/** The search as seen by a process with environment `env` (LD_LIBRARY_PATH) started in `cwd`. */
export function librarySearchSystem(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): LibrarySearchSystem {
  const { cache, ldso } = linkerFacts();
  const secure =
    typeof process.getuid === 'function' &&
    typeof process.geteuid === 'function' &&
    typeof process.getgid === 'function' &&
    typeof process.getegid === 'function'
      ? process.getuid() !== process.geteuid() || process.getgid() !== process.getegid()
      : false;
  return { ldLibraryPath: env['LD_LIBRARY_PATH'], secure, cwd, arch: process.arch, cache, ldso, check: checkLibraryFile };
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
  let fd: number | null = null;
  // The headers (MS-DOS stub, PE signature, COFF and optional header) sit in the first 4 KiB of any DLL a linker writes.
  const head = Buffer.alloc(4096);
  let read: number;
  try {
    fd = openSync(path, 'r');
    read = readSync(fd, head, 0, head.length, 0);
  } catch {
    return 'missing';
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const pe = parsePeHeader(head.subarray(0, read));
  if (!pe) return 'not-elf';
  const want = expectedPeMachine(process.arch);
  return want !== null && pe.machine !== want ? 'wrong-arch' : 'ok';
}

/** Windows: an absolute or manifest-relative library_path checked before LoadLibrary; null for a bare name (LoadLibrary's search is not modelled). */
function resolveWindowsLibrary(manifestPath: string, libraryPath: string): LibraryResolution | null {
  const file = windowsLibraryFile(manifestPath, libraryPath);
  if (!file) return null;
  const outcome = checkDllFile(file.path);
  return { libraryPath, path: file.path, via: file.via, outcome, tried: [{ path: file.path, via: file.via, outcome }] };
}

/**
 * Which file a manifest's "library_path" names, found the way the loader and glibc's dynamic linker
 * find it (Linux). LoaderLayerInterface, "Layer Manifest File Format" (and the same rule for drivers
 * in LoaderDriverInterface, "Driver Manifest File Format"): a full pathname is used as is, a relative
 * pathname is relative to the manifest's folder, and a bare file name "must live in the system's
 * shared object search path": the loader hands it to dlopen, which searches (dlopen(3), ld.so(8))
 * LD_LIBRARY_PATH (not for a secure-execution process), then /etc/ld.so.cache, then the default
 * folders. ld.so also expands the dynamic string tokens $LIB and $PLATFORM in names (MangoHud's
 * manifest says "/usr/$LIB/mangohud/libMangoHud.so").
 *
 * Pure: the file checks and ld.so's own facts (`ldconfig -p`, `ld.so --list-diagnostics`) come in
 * as a LibrarySearchSystem (native-bridge/library-resolver.ts does the I/O).
 */

/** One line of `ldconfig -p`: "libfoo.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libfoo.so.1". */
export interface LdCacheEntry {
  name: string;
  flags: string;
  path: string;
}

/** Parses `ldconfig -p` (the header line and anything else that is not an entry is skipped). */
export function parseLdconfigCache(text: string): LdCacheEntry[] {
  const entries: LdCacheEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s+(\S+) \(([^)]*)\)(?: [^=]*)?=> (.+)$/.exec(line);
    if (m) entries.push({ name: m[1]!, flags: m[2]!, path: m[3]!.trim() });
  }
  return entries;
}

/** What `ld.so --list-diagnostics` (glibc 2.33+) says about the values this linker uses. */
export interface LdsoFacts {
  /** What $LIB expands to ("lib/x86_64-linux-gnu" on Debian amd64). */
  dstLib: string | null;
  /** What $PLATFORM expands to ("x86_64"). */
  platform: string | null;
  /** The default folders, in search order. */
  systemDirs: string[];
}

export function parseLdsoDiagnostics(text: string): LdsoFacts {
  const value = (key: string) => new RegExp(`^${key.replace(/[.[\]]/g, '\\$&')}="([^"]*)"$`, 'm').exec(text)?.[1] ?? null;
  const systemDirs = [...text.matchAll(/^path\.system_dirs\[0x[0-9a-f]+\]="([^"]*)"$/gm)].map((m) => m[1]!.replace(/\/+$/, '') || '/');
  return { dstLib: value('dl_dst_lib'), platform: value('dl_platform'), systemDirs };
}

/**
 * Whether an ld.so.cache entry is for this process's architecture (ldconfig's flags: "libc6,x86-64"
 * for amd64, "libc6" for i386, "libc6,AArch64" for arm64); the linker ignores the others.
 */
export function ldCacheEntryFits(flags: string, arch: string): boolean {
  const parts = flags.split(',').map((p) => p.trim());
  switch (arch) {
    case 'x64':
      return parts.includes('x86-64');
    case 'arm64':
      return parts.includes('AArch64');
    case 'ia32':
      return parts[0] === 'libc6' && !parts.some((p) => p === 'x86-64' || p === 'x32');
    default:
      return true;
  }
}

/** What a candidate file is to this process: loadable, absent, or there but skipped by ld.so. */
export const CANDIDATE_OUTCOMES = ['ok', 'missing', 'wrong-arch', 'not-elf'] as const;
export type CandidateOutcome = (typeof CANDIDATE_OUTCOMES)[number];

export interface LibrarySearchSystem {
  /** LD_LIBRARY_PATH of the process that would dlopen. */
  ldLibraryPath: string | undefined;
  /** A secure-execution (setuid/setgid) process: ld.so ignores LD_LIBRARY_PATH. */
  secure: boolean;
  /** The folder relative LD_LIBRARY_PATH entries (and an empty one) mean. */
  cwd: string;
  arch: string;
  /** The linker cache's entries named `name`, in its order (native-bridge/library-resolver.ts linkerCache). */
  cacheEntries(name: string): readonly LdCacheEntry[];
  ldso: LdsoFacts;
  /** Reads the file's ELF header: can it load into this process? */
  check(path: string): CandidateOutcome;
}

export const LIBRARY_SEARCH_VIA = ['absolute', 'manifest-relative', 'LD_LIBRARY_PATH', 'ld.so.cache', 'default-folder', 'not-found'] as const;
export type LibrarySearchVia = (typeof LIBRARY_SEARCH_VIA)[number];

/** A manifest's library_path looked up (library-resolution-schema.ts describes the same for answers that carry one). */
export interface LibraryResolution {
  /** library_path as written in the manifest. */
  libraryPath: string;
  /** The file dlopen would map; for a path with a slash, the path (whether or not it exists); null when a bare name is found nowhere. */
  path: string | null;
  /** How it was found: the manifest's own path, or which step of the linker's search. */
  via: LibrarySearchVia;
  /** The state of `path` (or 'missing' when there is none). */
  outcome: CandidateOutcome;
  /** Every place looked at, in order, with what was there: why a bare name came from where it did. */
  tried: { path: string; via: LibrarySearchVia; outcome: CandidateOutcome }[];
}

/** $LIB / ${LIB} and $PLATFORM / ${PLATFORM} (ld.so(8), "Dynamic string tokens"); unknown tokens stay. */
export function expandDynamicStringTokens(path: string, ldso: LdsoFacts): string {
  return path.replace(/\$(?:\{(LIB|PLATFORM)\}|(LIB|PLATFORM)(?![A-Za-z0-9_]))/g, (token, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare;
    const value = name === 'LIB' ? ldso.dstLib : ldso.platform;
    return value ?? token;
  });
}

/** What normalizePosixPath changes: an empty part ("//"), a "." or ".." part, a slash at the end (but "/" alone). */
const NOT_NORMAL = /\/\/|(?:^|\/)\.\.?(?:\/|$)|.\/$/;

/** POSIX path normalization ("a/./b/../c" → "a/c"), without node:path (shared/ is platform-free). */
export function normalizePosixPath(path: string): string {
  // Nearly every path is normal already: one test instead of a split and a join, ~3 µs a call run
  // cold, once per manifest's library and folder (issue #19: ~2% of `strata layer list` on 10,000).
  if (path !== '' && !NOT_NORMAL.test(path)) return path;
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(part);
  }
  return (absolute ? '/' : '') + out.join('/') || (absolute ? '/' : '.');
}

/**
 * normalizePosixPath(`${dir}/${rest}`). Leading "./" parts of `rest` ("./libVkLayer_x.so", most
 * relative "library_path"s) go first, as the normalization would drop them: the join is then usually
 * normal already, and takes normalizePosixPath's one-test path instead of its split and join.
 */
export function joinPosixPath(dir: string, rest: string): string {
  let tail = rest;
  while (tail.startsWith('./')) tail = tail.slice(2);
  return normalizePosixPath(`${dir}/${tail}`);
}

function folderOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : file.slice(0, i);
}

/**
 * Where `libraryPath` of the manifest at `manifestPath` leads. A name with a slash is one file; a
 * bare name walks the linker's search, skipping files of another architecture (as ld.so does) and
 * recording every place it looked.
 */
export function resolveLibrary(manifestPath: string, libraryPath: string, sys: LibrarySearchSystem): LibraryResolution {
  // Only a name with a token asks for the linker's facts (sys.ldso may run ld.so to learn them).
  const expanded = libraryPath.includes('$') ? expandDynamicStringTokens(libraryPath, sys.ldso) : libraryPath;
  if (expanded.includes('/')) {
    const absolute = expanded.startsWith('/');
    const path = absolute ? normalizePosixPath(expanded) : joinPosixPath(folderOf(manifestPath), expanded);
    const via = absolute ? 'absolute' : 'manifest-relative';
    const outcome = sys.check(path);
    return { libraryPath, path, via, outcome, tried: [{ path, via, outcome }] };
  }

  const tried: LibraryResolution['tried'] = [];
  const attempt = (path: string, via: (typeof LIBRARY_SEARCH_VIA)[number]): LibraryResolution | null => {
    const outcome = sys.check(path);
    tried.push({ path, via, outcome });
    return outcome === 'ok' ? { libraryPath, path, via, outcome, tried } : null;
  };

  if (!sys.secure && sys.ldLibraryPath !== undefined && sys.ldLibraryPath !== '') {
    // glibc splits LD_LIBRARY_PATH on ':' and ';'; an empty entry is the current folder.
    for (const entry of sys.ldLibraryPath.split(/[:;]/)) {
      const dir = expandDynamicStringTokens(entry, sys.ldso);
      const base = dir === '' ? sys.cwd : dir.startsWith('/') ? dir : joinPosixPath(sys.cwd, dir);
      const found = attempt(joinPosixPath(base, expanded), 'LD_LIBRARY_PATH');
      if (found) return found;
    }
  }
  for (const entry of sys.cacheEntries(expanded)) {
    if (!ldCacheEntryFits(entry.flags, sys.arch)) continue;
    const found = attempt(entry.path, 'ld.so.cache');
    if (found) return found;
  }
  const defaults = sys.ldso.systemDirs.length ? sys.ldso.systemDirs : ['/lib', '/usr/lib'];
  for (const dir of defaults) {
    const found = attempt(joinPosixPath(dir, expanded), 'default-folder');
    if (found) return found;
  }
  return { libraryPath, path: null, via: 'not-found', outcome: 'missing', tried };
}

/** "found through LD_LIBRARY_PATH", "named in the manifest" …: how a person reads `via`. */
export function libraryViaText(via: LibraryResolution['via']): string {
  switch (via) {
    case 'absolute':
      return 'full path in the manifest';
    case 'manifest-relative':
      return "relative to the manifest's folder";
    case 'LD_LIBRARY_PATH':
      return 'found through LD_LIBRARY_PATH';
    case 'ld.so.cache':
      return 'found in the ld.so cache';
    case 'default-folder':
      return "found in the dynamic linker's default folders";
    case 'not-found':
      return "not found on the dynamic linker's search path";
  }
}

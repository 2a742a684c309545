import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ManifestRole } from '../../shared/lint/manifest-lint';
import { APP_ROOT } from './strata-cli';
import { compareLoaderVersions } from '../../shared/loader/loader-rules';

/**
 * What Debian's loader 1.3.239 does with a corpus file, as tests/integration/lint-vs-loader.test.ts
 * observes it (the file is put alone where its role says, library paths swapped for real libraries):
 * - `loads`: every layer the file defines is listed under its name and an instance with it enabled is
 *   created (a file that defines no layer: enumeration succeeds); a driver yields a physical device.
 * - `rejects`: enumeration succeeds but a layer the file defines is not listed; a driver yields none.
 * - `unusable`: listed, but with an empty name, or enabling it fails, crashes or hangs.
 * - `fails`: vkEnumerateInstanceLayerProperties / vkCreateInstance return VK_ERROR_OUT_OF_HOST_MEMORY,
 *   for every application, whatever it asks for.
 * - `crashes`: the process dies by a signal while the loader reads the manifest.
 * The lint must report an error-level diagnostic for every verdict but `loads`.
 */
export type LoaderVerdict = 'loads' | 'rejects' | 'unusable' | 'fails' | 'crashes';

export interface CorpusExpectation {
  role: ManifestRole;
  /** What loader 1.3.239 does. */
  loader: LoaderVerdict;
  /** Where a newer loader does something else: from that version on (oldest first), this verdict. */
  loaderSince?: Record<string, LoaderVerdict>;
  /** Exactly the codes the lint must produce, sorted (a multiset). */
  codes: string[];
  /**
   * The fixture is about its library: "library_path" is kept as written (not swapped for a real
   * library), and materializeLibrary puts this next to the manifest first. The lint is then run
   * with the file system (lint.files), as `strata lint` runs it.
   */
  library?: LibraryFixture;
  /**
   * Where the lint deliberately stays below error although the loader of this (64-bit) process does
   * not load it: its highest severity. A 32-bit library is for 32-bit applications (the loader logs
   * "wrong bit-type" at INFO level); a bare name not on Strata's search path may be on an application's.
   */
  lintSeverity?: 'warning' | 'information';
  /** A regular expression the loader's log (VK_LOADER_DEBUG=all) matches, on every loader of the matrix. */
  loaderLog?: string;
}

/** What materializeLibrary puts where the fixture's relative "library_path" points. */
export type LibraryFixture = 'missing' | 'text' | 'empty' | 'elf32' | 'wrong-machine' | 'folder';

export const BAD_CORPUS_DIR = join(APP_ROOT, 'tests', 'fixtures', 'manifests', 'bad');

export function readBadCorpus(): Record<string, CorpusExpectation> {
  return JSON.parse(readFileSync(join(BAD_CORPUS_DIR, 'expected.json'), 'utf8')) as Record<string, CorpusExpectation>;
}

/** The verdict `e` expects from loader `version`: the last `loaderSince` entry at or below it, else `loader`. */
export function expectedVerdict(e: CorpusExpectation, version: string): LoaderVerdict {
  let verdict = e.loader;
  for (const [since, v] of Object.entries(e.loaderSince ?? {}).sort(([a], [b]) => compareLoaderVersions(a, b)))
    if (compareLoaderVersions(version, since) >= 0) verdict = v;
  return verdict;
}

let built: { elf32: string; aarch64: string } | null = null;
/**
 * Real libraries for the fixtures, built once per process: a 32-bit x86 shared object (gcc -m32
 * -nostdlib: no i386 C library needed) and an x86-64 one whose e_machine is patched to AArch64.
 */
function builtLibraries(): { elf32: string; aarch64: string } {
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), 'strata-corpus-libs-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'layer.c'), 'int vkNegotiateLoaderLayerInterfaceVersion(void *v) { return v ? 0 : -3; }\n');
  const elf32 = join(dir, 'elf32.so');
  const aarch64 = join(dir, 'aarch64.so');
  try {
    execFileSync('gcc', ['-m32', '-shared', '-fPIC', '-nostdlib', '-o', elf32, join(dir, 'layer.c')], { stdio: 'pipe' });
  } catch {
    // No i386 back end: a crafted ELF32 header (ET_DYN, EM_386) is what glibc reads before it says "wrong ELF class".
    const h = Buffer.alloc(4096);
    h.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1], 0);
    h.writeUInt16LE(3, 16); // e_type ET_DYN
    h.writeUInt16LE(3, 18); // e_machine EM_386
    h.writeUInt32LE(1, 20); // e_version
    h.writeUInt16LE(52, 40); // e_ehsize
    writeFileSync(elf32, h);
  }
  execFileSync('gcc', ['-shared', '-fPIC', '-o', aarch64, join(dir, 'layer.c')], { stdio: 'pipe' });
  const bytes = readFileSync(aarch64);
  bytes.writeUInt16LE(183, 18); // EM_AARCH64
  writeFileSync(aarch64, bytes);
  return (built = { elf32, aarch64 });
}

/** Puts the fixture's library where its relative "library_path" (./name) points, for a manifest in `folder`. */
export function materializeLibrary(e: CorpusExpectation, manifestText: string, folder: string): void {
  if (!e.library || e.library === 'missing') return;
  const named = /"library_path"\s*:\s*"([^"]*)"/.exec(manifestText)?.[1];
  if (!named?.startsWith('./')) throw new Error(`a "${e.library}" library fixture needs a "./…" library_path, not ${named}`);
  const target = join(folder, basename(named));
  switch (e.library) {
    case 'text':
      writeFileSync(target, 'This is not a Vulkan layer: a placeholder left where the shared library should be installed.\n');
      break;
    case 'empty':
      writeFileSync(target, '');
      break;
    case 'folder':
      mkdirSync(target, { recursive: true });
      break;
    case 'elf32':
      copyFileSync(builtLibraries().elf32, target);
      break;
    case 'wrong-machine':
      copyFileSync(builtLibraries().aarch64, target);
      break;
  }
  if (!existsSync(target)) throw new Error(`${target} was not made`);
}

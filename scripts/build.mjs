#!/usr/bin/env node
// Builds everything into out/: esbuild for the Node-side entry points and the two preloads,
// Vite for the renderer. Fast enough (a few seconds) that `npm start` and `npm test` always rebuild.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { fileURLToPath } from 'node:url';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const quiet = process.argv.includes('--quiet');

const node = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  define: { __STRATA_BUNDLED__: 'true' },
  logLevel: 'warning',
};

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

export async function buildAll() {
  const started = Date.now();
  rmSync(`${root}/out/main`, { recursive: true, force: true });
  await Promise.all([
    esbuild({ ...node, entryPoints: { 'main/cli': 'main/cli/cli.ts', 'main/electron': 'main/electron/electron-main.ts', 'native-bridge/probe': 'native-bridge/probe.ts' }, outdir: 'out', outExtension: { '.js': '.mjs' } }),
    // A sandboxed preload cannot require anything but 'electron': bundle the rest into one CommonJS file.
    esbuild({ ...node, packages: undefined, external: ['electron'], format: 'cjs', entryPoints: ['preload/electron-preload.ts'], outfile: 'out/preload/electron-preload.cjs' }),
    esbuild({ ...node, packages: undefined, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['preload/browser-preload.ts'], outfile: 'out/preload/browser.js' }),
    viteBuild({ configFile: `${root}/vite.config.ts` }),
  ]);
  writeFileSync(STAMP, new Date().toISOString());
  if (!quiet) console.error(`strata: built out/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildAll().catch((e) => {
    console.error(`strata: build failed: ${e.message}`);
    process.exit(1);
  });
}

#!/usr/bin/env node
// `npm test`: install what is missing, build, then run every test under node's test runner, so the
// run ends with its summary. `npm test -- tests/unit` runs a subset (files or folders).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSetup } from './ensure-setup.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

if (!ensureSetup('test')) process.exit(1);

/**
 * ESLint (eslint.config.mjs) and Prettier's check (.prettierrc.json) over the whole tree, before the
 * build and the tests, so a lint error or an unformatted file fails the run in seconds, not after it.
 */
const LINT_IN_TEST = true; // the tree is formatted (issue #16): ESLint and `prettier --check` run before the build

/** Runs one tool's own bin script with this node; true when it exits 0. */
function runTool(name, script, args) {
  console.error(`strata: ${name}`);
  const run = spawnSync(process.execPath, [join(root, 'node_modules', script), ...args], { cwd: root, stdio: 'inherit' });
  if (run.error) console.error(`strata: ${name} did not start: ${run.error.message}`);
  return run.status === 0;
}

function lintAndFormatCheck() {
  // Both run even when the first fails, so one run lists every problem.
  // Warnings (react-hooks/exhaustive-deps) are shown and do not fail the run; errors do.
  const lint = runTool('eslint .', 'eslint/bin/eslint.js', ['.']);
  const format = runTool('prettier --check .', 'prettier/bin/prettier.cjs', ['--check', '--log-level', 'warn', '.']);
  // Exports, types, files and dependencies nothing uses (knip.jsonc): about 8 s of CPU on this tree.
  const unused = runTool('knip', 'knip/bin/knip.js', ['--no-progress']);
  if (!lint) console.error('strata: ESLint found problems (above, file:line rule). Fix them; `npm run lint -- --fix` fixes the mechanical ones.');
  if (!format) console.error('strata: these files are not formatted as Prettier formats them. Fix: `npx prettier --write .` (or `npm run format`).');
  if (!unused) console.error('strata: knip found code nothing uses (above). Fix: remove it, or stop exporting what only its own module uses.');
  return lint && format && unused;
}

if (LINT_IN_TEST) {
  // STRATA_SKIP_LINT=1 is for iterating on one test locally; CI always runs the check.
  const ci = process.env.CI === 'true';
  if (process.env.STRATA_SKIP_LINT === '1' && !ci) console.error('strata: lint and format check skipped (STRATA_SKIP_LINT=1); CI runs them.');
  else {
    if (process.env.STRATA_SKIP_LINT === '1') console.error('strata: STRATA_SKIP_LINT=1 is ignored under CI=true.');
    if (!lintAndFormatCheck()) process.exit(1);
  }
}

const { buildAll } = await import('./build.mjs');
await buildAll();

function testFiles(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((entry) => (entry === 'fixtures' || entry === 'artifacts' ? [] : testFiles(join(path, entry))))
    .filter((f) => /\.test\.ts$/.test(f));
}

const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['tests/unit', 'tests/integration', 'tests/e2e'];
const files = targets.flatMap((t) => testFiles(join(root, t))).map((f) => relative(root, f));
// Two test files at a time: node's default (cores − 1) runs one at a time on a 2-core machine, and
// most files wait on processes (the loader, Wine, Chromium), not on the CPU. Every file has its own
// HOME, prefix, Xvfb and ports, and loader builds are staged and renamed, so files do not meet.
// STRATA_TEST_CONCURRENCY=1 runs them one by one (to tell a flaky test from a slow machine).
const concurrency = /^[1-8]$/.test(process.env.STRATA_TEST_CONCURRENCY ?? '') ? process.env.STRATA_TEST_CONCURRENCY : '2';
const child = spawn(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

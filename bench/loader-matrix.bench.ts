import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bench } from './harness';
import { findAppRoot } from '../main/platform/app-paths';
import { AS_USERS_RUN, makeTempHome } from '../tests/helpers/temp-home';

/**
 * loader-matrix: the wall time of the loader matrix itself (tests/integration/chain-vs-loader.test.ts
 * over tests/helpers/loader-builds.ts: the chain model against real loaders built from source), so
 * that its growth with every new loader release and scenario shows in `npm run bench` (issue #19).
 *
 * By default one version, STRATA_LOADER_VERSIONS=1.4.359 (its build from the cache); set
 * STRATA_BENCH_MATRIX_VERSIONS to a list, or to `all` for the whole matrix (minutes). The loader
 * builds are not timed when cached (the first run builds them, and says so in `buildsCached`).
 * Reference: the same test runner (node --test, tsx) running one trivial test, in the same run, so
 * the ratio reads "the matrix costs N test-runner starts".
 */
interface TestRun {
  ms: number;
  status: number | null;
  counts: Record<string, number>;
  tail: string;
}

function runTests(file: string, env: NodeJS.ProcessEnv, cwd: string): Promise<TestRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (status) => {
      const counts: Record<string, number> = {};
      for (const m of out.matchAll(/^# (tests|pass|fail|skipped|cancelled) (\d+)$/gm)) counts[m[1]!] = Number(m[2]);
      resolve({ ms: performance.now() - t0, status, counts, tail: out.slice(-2000) });
    });
  });
}

export const loaderMatrixBench: Bench = {
  name: 'loader-matrix',
  async run() {
    const root = findAppRoot();
    const home = makeTempHome(AS_USERS_RUN);
    const dir = mkdtempSync(join(tmpdir(), 'strata-bench-matrix-'));
    try {
      const wanted = process.env['STRATA_BENCH_MATRIX_VERSIONS'] ?? '1.4.359';
      const env: NodeJS.ProcessEnv = { ...process.env, ...home.env, STRATA_LOADER_VERSIONS: wanted === 'all' ? '' : wanted };
      const trivial = join(dir, 'trivial.test.ts');
      writeFileSync(trivial, "import { test } from 'node:test';\ntest('nothing', () => {});\n");
      const reference = await runTests(trivial, env, root);
      const matrix = await runTests(join(root, 'tests', 'integration', 'chain-vs-loader.test.ts'), env, root);
      if (matrix.status !== 0 || (matrix.counts['fail'] ?? 0) > 0) throw new Error(`the loader matrix failed (exit ${matrix.status}): ${matrix.tail}`);
      // One version passes its own test and skips the all-six one; none passing means the matrix did not run.
      if ((matrix.counts['pass'] ?? 0) === 0) throw new Error(`the loader matrix did not run: ${matrix.tail}`);
      return {
        ratio: matrix.ms / reference.ms,
        wallMs: Number(matrix.ms.toFixed(0)),
        referenceMs: Number(reference.ms.toFixed(0)),
        reference: 'node --import tsx --test on one trivial test, same run',
        versions: wanted === 'all' ? 'all six' : wanted,
        scenariosPerVersion: Number(process.env['STRATA_CHAIN_SCENARIOS'] ?? 300),
        tests: matrix.counts['tests'] ?? null,
        passed: matrix.counts['pass'] ?? null,
        skipped: matrix.counts['skipped'] ?? 0,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      home.cleanup();
    }
  },
};

import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bench } from './harness';
import { READ_LIMITS } from '../shared/files/read-limits';
import { AS_USERS_RUN, makeTempHome, type TempHome } from '../tests/helpers/temp-home';
import { strataCommand } from '../tests/helpers/strata-cli';

/**
 * Issue #15: peak RSS with one enormous layer manifest in a layer folder (reported, never asserted).
 *
 * - `million`: 1,000,000 layers in one file (~150 MB). Over the manifest cap (shared/files/read-limits.ts),
 *   so Strata refuses it from fstat alone, with that file's diagnostic: it once took 3.85 GB.
 * - `underCap`: as many layers as fit in the cap (16 MiB, ~100,000 layers), which Strata reads:
 *   `layer list`, `lint` and `explain` (the chain over every layer), the most one manifest can cost.
 *
 * The reference is the same command on the same machine with an empty layer folder (what Strata
 * costs anyway), so `ratio` is the million-layer run's peak RSS over that baseline (1.0: the file
 * costs nothing). The real loader is no reference here: enumerating the under-cap file did not
 * finish in 600 s on the 2-core test machine (its per-layer checks are quadratic).
 * Whole processes under /usr/bin/time (the kernel's peak RSS of the child).
 */
const layer = (i: number) =>
  `{"name":"VK_LAYER_STRATA_huge_${i}","type":"GLOBAL","library_path":"libVkLayer_huge.so","api_version":"1.3.239","implementation_version":"1","description":"bench"}`;

function writeManifest(home: TempHome, name: string, count: number | null): { path: string; layers: number; bytes: number } {
  const dir = join(home.dir, name);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'huge.json');
  const head = '{"file_format_version":"1.0.1","layers":[';
  const parts: string[] = [];
  let bytes = head.length + 3;
  let i = 0;
  // count null: as many as fit under the manifest cap.
  for (; count === null ? bytes + layer(i).length + 1 < READ_LIMITS.manifest : i < count; i++) {
    const l = layer(i);
    parts.push(l);
    bytes += l.length + 1;
  }
  writeFileSync(path, `${head}${parts.join(',')}]}\n`);
  return { path: dir, layers: i, bytes: statSync(path).size };
}

function peakRss(command: string, args: readonly string[], env: NodeJS.ProcessEnv): { maxRssKb: number; ms: number; status: number | null } {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 600_000 });
  const ms = performance.now() - t0;
  if (r.error) throw new Error(`${command}: ${r.error.message}`);
  const lines = r.stderr.trim().split('\n');
  const maxRssKb = Number(lines[lines.length - 1]);
  if (!Number.isFinite(maxRssKb)) throw new Error(`no peak RSS from /usr/bin/time: ${lines.slice(-3).join(' | ')}`);
  return { maxRssKb, ms, status: r.status };
}

export const hugeManifestRssBench: Bench = {
  name: 'huge-manifest-rss',
  async run() {
    const home = makeTempHome(AS_USERS_RUN);
    try {
      const run = (args: string[], path: string) => {
        const { command, args: argv } = strataCommand(args);
        return peakRss(command, argv, { ...home.env, VK_LAYER_PATH: path });
      };
      const list = (path: string) => run(['layer', 'list', '--json'], path);
      const empty = writeManifest(home, 'empty', 0);
      list(empty.path); // warm-up: page cache, compiled code
      const baseline = list(empty.path);
      const million = writeManifest(home, 'million', 1_000_000);
      const strataMillion = list(million.path);
      const under = writeManifest(home, 'under-cap', null);
      const strataUnder = list(under.path);
      // The other commands that read every manifest: lint checks each layer, explain builds the chain over all of them.
      const lintUnder = run(['lint', '--json'], under.path);
      const explainUnder = run(['explain', '--enable-layers', 'VK_LAYER_STRATA_huge_5', '--json'], under.path);
      const mb = (kb: number) => Math.round(kb / 1024);
      return {
        ratio: strataMillion.maxRssKb / baseline.maxRssKb,
        baseline: { peakRssMB: mb(baseline.maxRssKb), ms: Math.round(baseline.ms) },
        million: {
          layers: million.layers,
          fileMB: +(million.bytes / 1e6).toFixed(1),
          peakRssMB: mb(strataMillion.maxRssKb),
          ms: Math.round(strataMillion.ms),
          note: 'over the manifest cap: refused from fstat, that file gets a diagnostic',
        },
        underCap: {
          layers: under.layers,
          fileMB: +(under.bytes / 1e6).toFixed(1),
          peakRssMB: mb(strataUnder.maxRssKb),
          ms: Math.round(strataUnder.ms),
          rssRatio: +(strataUnder.maxRssKb / baseline.maxRssKb).toFixed(2),
          lint: { peakRssMB: mb(lintUnder.maxRssKb), ms: Math.round(lintUnder.ms) },
          explain: { peakRssMB: mb(explainUnder.maxRssKb), ms: Math.round(explainUnder.ms) },
          /** The bound (≤ 1 GB RSS for the million-layer manifest), met by the largest file Strata reads at all. */
          worstPeakRssMB: mb(Math.max(strataUnder.maxRssKb, lintUnder.maxRssKb, explainUnder.maxRssKb)),
        },
      };
    } finally {
      home.cleanup();
    }
  },
};

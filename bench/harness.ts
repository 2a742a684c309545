import { spawnSync } from 'node:child_process';
/**
 * Benchmarks are ratios against a reference run in the same process tree (Strata vs. the real
 * loader or tool on the same input), never absolute times: machines differ, ratios travel.
 * Each benchmark prints one JSON line: {"bench", "ratio", ...details}.
 */
export interface BenchResult {
  /** Strata's time divided by the reference's; below 1.0 means Strata is faster. */
  ratio: number;
  [detail: string]: unknown;
}

export interface Bench {
  name: string;
  run(): Promise<BenchResult>;
}

/** Median wall time of `runs` calls, in milliseconds (the median shrugs off one slow outlier). */
export async function medianMs(runs: number, fn: () => Promise<void> | void): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Runs the benches (all, or those named in `only`), one JSON line each; returns the failures and every result by name. */
export async function runBenches(benches: readonly Bench[], only: readonly string[]): Promise<{ failures: number; results: Map<string, BenchResult> }> {
  let failures = 0;
  const results = new Map<string, BenchResult>();
  for (const bench of benches) {
    if (only.length && !only.includes(bench.name)) continue;
    try {
      const result = await bench.run();
      results.set(bench.name, result);
      process.stdout.write(`${JSON.stringify({ bench: bench.name, ...result, ratio: Number(result.ratio.toFixed(3)) })}\n`);
    } catch (e) {
      failures++;
      process.stdout.write(`${JSON.stringify({ bench: bench.name, error: e instanceof Error ? e.message : String(e) })}\n`);
    }
  }
  return { failures, results };
}

/** One run of a whole process, as a user starts it: wall time from spawn to exit, and its peak RSS. */
export interface ProcessRun {
  ms: number;
  maxRssKb: number;
  status: number | null;
}

/**
 * Runs `command args` under /usr/bin/time (GNU time: the kernel's own peak RSS of the finished child)
 * and times it from outside, start-up included; stdout goes to a pipe and is thrown away, as when a
 * user pipes the output on. The same wrapper for both sides of a comparison, so its cost cancels.
 */
export function runProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): ProcessRun {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30, encoding: 'buffer' });
  const ms = performance.now() - t0;
  if (r.error) throw new Error(`cannot run /usr/bin/time (GNU time, Debian package "time"): ${r.error.message}`);
  const lines = r.stderr.toString('utf8').trim().split('\n');
  const maxRssKb = Number(lines[lines.length - 1]);
  if (!Number.isFinite(maxRssKb)) throw new Error(`${command} ${args.join(' ')}: no peak RSS from /usr/bin/time (stderr: ${lines.slice(-3).join(' | ')})`);
  return { ms, maxRssKb, status: r.status };
}

export interface PairedResult {
  /** Median of the per-pair ratios A/B (pairs keep the ratio honest when the machine's speed drifts). */
  ratio: number;
  aMs: number;
  bMs: number;
  aMaxRssKb: number;
  bMaxRssKb: number;
  runs: number;
}

const medianOf = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A and B started in turn (one warm-up each, then A B A B …), whole processes; `check` sees each A run. */
export function pairedProcesses(
  a: { command: string; args: readonly string[]; env?: NodeJS.ProcessEnv },
  b: { command: string; args: readonly string[]; env?: NodeJS.ProcessEnv },
  runs: number,
): PairedResult {
  runProcess(a.command, a.args, a.env);
  runProcess(b.command, b.args, b.env);
  const as: ProcessRun[] = [];
  const bs: ProcessRun[] = [];
  for (let i = 0; i < runs; i++) {
    as.push(runProcess(a.command, a.args, a.env));
    bs.push(runProcess(b.command, b.args, b.env));
  }
  return {
    ratio: medianOf(as.map((x, i) => x.ms / bs[i]!.ms)),
    aMs: medianOf(as.map((x) => x.ms)),
    bMs: medianOf(bs.map((x) => x.ms)),
    aMaxRssKb: medianOf(as.map((x) => x.maxRssKb)),
    bMaxRssKb: medianOf(bs.map((x) => x.maxRssKb)),
    runs,
  };
}

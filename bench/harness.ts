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

export async function runBenches(benches: readonly Bench[], only: readonly string[]): Promise<number> {
  let failures = 0;
  for (const bench of benches) {
    if (only.length && !only.includes(bench.name)) continue;
    try {
      const result = await bench.run();
      process.stdout.write(`${JSON.stringify({ bench: bench.name, ...result, ratio: Number(result.ratio.toFixed(3)) })}\n`);
    } catch (e) {
      failures++;
      process.stdout.write(`${JSON.stringify({ bench: bench.name, error: e instanceof Error ? e.message : String(e) })}\n`);
    }
  }
  return failures;
}

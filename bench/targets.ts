/**
 * The regression guard of issue #19: the commands a user runs, as whole processes, each against the
 * tool it replaces, with its target; `npm run bench` prints this table after the JSON lines and
 * marks what misses. Every ratio is measured in the same run (never an absolute time).
 */
export interface TargetRow {
  what: string;
  /** The bench and the path of the ratio in its result ("help.ratio"). */
  bench: string;
  path: string;
  /** Paths of Strata's and the reference's time in ms, when the bench gives them. */
  strataMs?: string;
  referenceMs?: string;
  reference: string;
  /** None: shown for context only, never a miss (e.g. server start-up next to the page's first render). */
  target?: number;
}

export const TARGETS: readonly TargetRow[] = [
  {
    what: 'strata --version',
    bench: 'cli-whole-process',
    path: 'version.ratio',
    strataMs: 'version.strataMs',
    referenceMs: 'version.referenceMs',
    reference: 'node -e 0',
    target: 1.3,
  },
  {
    what: 'strata --help',
    bench: 'cli-whole-process',
    path: 'help.ratio',
    strataMs: 'help.strataMs',
    referenceMs: 'help.referenceMs',
    reference: 'node -e 0',
    target: 1.3,
  },
  {
    what: 'strata layer list --json, 10k manifests',
    bench: 'cli-whole-process',
    path: 'layersList10k.ratio',
    strataMs: 'layersList10k.strataMs',
    referenceMs: 'layersList10k.referenceMs',
    reference: 'loader enumeration, C, whole process',
    target: 1.0,
  },
  {
    what: '  … its peak RSS',
    bench: 'cli-whole-process',
    path: 'layersList10k.rssRatio',
    strataMs: 'layersList10k.strataPeakRssMB',
    referenceMs: 'layersList10k.referencePeakRssMB',
    reference: 'the same (MB, not ms)',
    target: 0.5,
  },
  {
    what: '  … in process (after warm-up)',
    bench: 'cli-whole-process',
    path: 'layersList10k.inProcessRatio',
    strataMs: 'layersList10k.inProcessMs',
    referenceMs: 'layersList10k.referenceMs',
    reference: 'the same whole process',
    target: 1.0,
  },
  {
    what: 'strata shader dis --raw-id, ≥1 MB',
    bench: 'spirv-dis',
    path: 'ratioCli',
    strataMs: 'strataCliMs',
    referenceMs: 'spirvDisCliMs',
    reference: 'spirv-dis --raw-id',
    target: 1.0,
  },
  {
    what: '  … in process (after warm-up)',
    bench: 'spirv-dis',
    path: 'ratio',
    strataMs: 'strataRawMs',
    referenceMs: 'spirvDisRawMs',
    reference: 'spirv-dis --raw-id',
    target: 1.0,
  },
  {
    what: 'strata info --json',
    bench: 'cli-whole-process',
    path: 'info.ratio',
    strataMs: 'info.strataMs',
    referenceMs: 'info.referenceMs',
    reference: 'vulkaninfo --summary',
    target: 2.0,
  },
  {
    what: '  … in process (after warm-up)',
    bench: 'cli-whole-process',
    path: 'info.inProcessRatio',
    strataMs: 'info.inProcessMs',
    referenceMs: 'info.referenceMs',
    reference: 'the same whole process',
    target: 2.0,
  },
  {
    what: 'strata loader show --json',
    bench: 'cli-whole-process',
    path: 'loader.ratio',
    strataMs: 'loader.strataMs',
    referenceMs: 'loader.referenceMs',
    reference: 'vulkaninfo --summary',
    target: 2.0,
  },
  {
    what: '  … in process (after warm-up)',
    bench: 'cli-whole-process',
    path: 'loader.inProcessRatio',
    strataMs: 'loader.inProcessMs',
    referenceMs: 'loader.referenceMs',
    reference: 'the same whole process',
    target: 2.0,
  },
  {
    what: 'strata explain --json',
    bench: 'cli-whole-process',
    path: 'explain.ratio',
    strataMs: 'explain.strataMs',
    referenceMs: 'explain.referenceMs',
    reference: 'vkCreateInstance, C, whole process',
    target: 1.5,
  },
  {
    what: '  … in process (after warm-up)',
    bench: 'cli-whole-process',
    path: 'explain.inProcessRatio',
    strataMs: 'explain.inProcessMs',
    referenceMs: 'explain.referenceMs',
    reference: 'the same whole process',
    target: 1.5,
  },
  {
    what: 'serve page, first render, 1,000 layers',
    bench: 'ui-1k-layers',
    path: 'ratio',
    strataMs: 'firstRenderMs',
    referenceMs: 'referenceFirstRenderMs',
    reference: 'static 1,000-row page, same Chromium',
    target: 1.5,
  },
  // A running server is the case above; from spawning `strata serve` to the list, for context (no target in #19).
  {
    what: '  … from server start-up',
    bench: 'ui-1k-layers',
    path: 'startupRatio',
    strataMs: 'startupToFirstRenderMs',
    referenceMs: 'referenceFirstRenderMs',
    reference: 'the same static page',
  },
  // An absolute bound (the "≤ 100 ms"), not a ratio: the slowest of the panels not yet opened.
  {
    what: '  … switch to a view not yet opened (ms)',
    bench: 'ui-1k-layers',
    path: 'switchToUnopenedViewMs.max',
    strataMs: 'switchToUnopenedViewMs.median',
    reference: 'ms, the slowest of 9 panels (Strata column: median)',
    target: 100,
  },
];

function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

/** The table, one line per row: what, Strata, reference, ratio, target, ok / MISS / not run. */
export function targetTable(results: ReadonlyMap<string, unknown>): { text: string; misses: number } {
  const header = ['what the user runs', 'Strata', 'reference', 'ratio', 'target', ''];
  let misses = 0;
  const rows = TARGETS.map((t) => {
    const result = results.get(t.bench);
    const ratio = at(result, t.path);
    const num = (p?: string) => {
      const v = p ? at(result, p) : undefined;
      return typeof v === 'number' ? String(Math.round(v * 10) / 10) : '–';
    };
    const verdict = typeof ratio !== 'number' ? 'not run' : t.target === undefined ? 'info' : ratio <= t.target ? 'ok' : 'MISS';
    if (verdict === 'MISS') misses++;
    return [
      t.what,
      num(t.strataMs),
      `${num(t.referenceMs)} (${t.reference})`,
      typeof ratio === 'number' ? ratio.toFixed(2) : '–',
      t.target === undefined ? '–' : `≤ ${t.target}`,
      verdict,
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: readonly string[]) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ');
  const ca = at(results.get('cli-whole-process'), 'nodeExtraCaCerts') as { file: string; withMs: number; withoutMs: number } | null | undefined;
  // Node 20 reads the file at start-up; bin/strata sets the variable aside for its Node (a user with
  // it set does not pay it), and the `node -e 0` reference runs without it: said, so a reader knows.
  const note = ca
    ? [
        '',
        `NODE_EXTRA_CA_CERTS is set (${ca.file}): a Node start that reads it takes ${Math.round(ca.withMs)} ms for \`node -e 0\` against ${Math.round(ca.withoutMs)} ms without it; Strata's commands set it aside, and the \`node -e 0\` reference runs without it.`,
      ]
    : [];
  return { text: [line(header), ...rows.map(line), ...note].join('\n'), misses };
}

/**
 * A short unified diff (`diff -u` layout, 3 lines of context) of two small texts, for showing a
 * person what changed in a file before Strata overwrites it. Line-based LCS: fine for manifests
 * (hundreds of lines); past `maxLines` of output the rest is summarized in one line.
 */
export interface UnifiedDiffOptions {
  fromLabel?: string;
  toLabel?: string;
  context?: number;
  maxLines?: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function diffOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: ' ', line: a[i]!, a: i++, b: j++ });
    // Ties go to the deletion, so a changed line reads "-old" then "+new", as in diff -u.
    else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: '-', line: a[i]!, a: i++, b: j });
    else ops.push({ kind: '+', line: b[j]!, a: i, b: j++ });
  }
  return ops;
}

/** '' when the texts are equal. */
export function unifiedDiff(from: string, to: string, options: UnifiedDiffOptions = {}): string {
  if (from === to) return '';
  const context = options.context ?? 3;
  const maxLines = options.maxLines ?? 40;
  const a = splitLines(from);
  const b = splitLines(to);
  const ops = diffOps(a, b);
  const out = [`--- ${options.fromLabel ?? 'a'}`, `+++ ${options.toLabel ?? 'b'}`];
  const changed = ops.map((o, k) => (o.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) {
    // Same lines, different bytes: only the final newline (or its absence) differs.
    out.push(`@@ newline at end of file differs @@`);
    return out.join('\n');
  }
  // Group changes whose context overlaps into hunks.
  const hunks: [number, number][] = [];
  for (const k of changed) {
    const last = hunks[hunks.length - 1];
    if (last && k - last[1] <= 2 * context) last[1] = k;
    else hunks.push([k, k]);
  }
  for (const [first, lastChange] of hunks) {
    const start = Math.max(0, first - context);
    const end = Math.min(ops.length - 1, lastChange + context);
    const slice = ops.slice(start, end + 1);
    const aCount = slice.filter((o) => o.kind !== '+').length;
    const bCount = slice.filter((o) => o.kind !== '-').length;
    const aStart = aCount ? slice.find((o) => o.kind !== '+')!.a + 1 : slice[0]!.a;
    const bStart = bCount ? slice.find((o) => o.kind !== '-')!.b + 1 : slice[0]!.b;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of slice) out.push(`${o.kind}${o.line}`);
  }
  if (out.length > maxLines) {
    const rest = out.length - maxLines;
    return [...out.slice(0, maxLines), `… ${rest} more diff line${rest === 1 ? '' : 's'}`].join('\n');
  }
  return out.join('\n');
}

import { formatStrataError, type StrataError } from '../../shared/errors/strata-error';

/** Exit codes of every strata command (README.md, "The CLI"). */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

/** Errors go to stderr as one line: what, where, how to fix. */
export function printError(error: StrataError): void {
  process.stderr.write(`strata: ${formatStrataError(error)}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Two aligned columns, for the human form of read commands. */
export function formatPairs(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** A table with a header row, columns padded to their widest cell; the last column is not padded. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], indent = ''): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: readonly string[]) => indent + r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

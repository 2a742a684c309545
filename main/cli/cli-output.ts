import { formatStrataError, type StrataError } from '../../shared/errors/strata-error';

/** Exit codes of every strata command (DESIGN.md, "CLI"). */
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

import { InvalidArgumentError } from 'commander';
import { formatStrataError, strataError, type StrataError } from '../../../shared/errors/strata-error';
import { drained, writeErr, writeOut } from './standard-streams';

/** Exit codes of every strata command (README.md, "The CLI"). */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

/** Ends a command with a one-line error and an exit code (printed by main() in cli.ts). */
export class CliFailure extends Error {
  constructor(
    readonly error: StrataError,
    readonly exitCode: number,
  ) {
    super(error.message);
  }
}

/**
 * The options every command spells the same way (docs/cli.md, "Grammar"): `.option(...jsonOption())`,
 * `.option(...outputOption())`. `what` says what the JSON holds when it is not the whole answer.
 */
export const jsonOption = (what?: string) => ['--json', `print machine-readable JSON${what ? `: ${what}` : ''}`] as const;
export const outputOption = () => ['-o, --output <file>', 'write to this file (atomically) instead of printing'] as const;

/**
 * `-o FILE` of every command that writes one: atomically (a reader never sees half a file, a failed
 * write leaves what was there), and one error when it cannot: what, where, the fix.
 */
export async function writeOutputFile(file: string, text: string): Promise<void> {
  const { writeFileAtomic } = await import('../../platform/atomic-file');
  try {
    writeFileAtomic(file, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliFailure(
      strataError('output/write-failed', `Cannot write the file: ${code ?? (e instanceof Error ? e.message : String(e))}`, {
        where: file,
        fix: code === 'ENOENT' ? 'create its folder first, or choose another path for -o' : 'choose a writable path for -o',
      }),
      EXIT.problems,
    );
  }
}

/** `--loader-version X.Y.Z` of every command that models another loader release. */
export function parseLoaderVersion(v: string): string {
  if (!/^\d{1,3}\.\d{1,3}\.\d{1,4}$/.test(v)) throw new InvalidArgumentError('expected a loader version such as 1.4.309');
  return v;
}

/** `--timeout <ms>` of the commands that load each library on its own: per library, 100 ms to 2 minutes. */
export const timeoutMsOption = (each: 'driver' | 'layer') =>
  [
    '--timeout <ms>',
    `per-${each} limit in milliseconds`,
    (v: string) => {
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 100 || n > 120_000) throw new InvalidArgumentError('expected milliseconds from 100 to 120000');
      return n;
    },
  ] as const;

/** A diagnostic's severity (LSP DiagnosticSeverity: 1 error … 4 hint; none given is an error) as every command prints it. */
export function severityName(severity: number | undefined): 'error' | 'warning' | 'info' | 'hint' {
  return (['error', 'warning', 'info', 'hint'] as const)[(severity ?? 1) - 1] ?? 'error';
}

/** Errors go to stderr as one line: what, where, how to fix. */
export function printError(error: StrataError): void {
  writeErr(`strata: ${formatStrataError(error)}\n`);
}

export function printJson(value: unknown): void {
  writeOut(`${JSON.stringify(value, null, 2)}\n`);
}

/** Elements stringified together: one call's fixed cost shared, and the text flat (not a rope of `+=`). */
const JSON_BATCH = 16;

/**
 * printJson of an array, byte for byte, written a batch at a time as it is made and waiting while
 * stdout's pipe is full, so that the whole text (26 MB for `strata layer list --json` on 10,000
 * manifests) and its UTF-8 copy are never in memory at once (issue #19: peak RSS). Each batch is
 * JSON.stringify(batch, null, 2) without its brackets: the same indentation, and `null` for what
 * JSON has no form for, as in the whole array's text. A batch is written as a slice of that text
 * and its separator on its own: joined, every batch was copied once more to be flattened before
 * Node encoded it (~50 MB of the 10,000-manifest listing's allocations, where a "…" in a message
 * makes the text two bytes a character).
 */
export async function printJsonArray(items: readonly unknown[]): Promise<void> {
  if (items.length === 0) return printJson(items);
  writeOut('[\n');
  for (let i = 0; i < items.length; i += JSON_BATCH) {
    const end = Math.min(items.length, i + JSON_BATCH);
    // "[\n  a,\n  b\n]" without "[\n" and "\n]". Written at once (the pipe blocks while it is full), or
    // held by Node's stream until it drains.
    const more = writeOut(JSON.stringify(items.slice(i, end), null, 2).slice(2, -2));
    if (!writeOut(end < items.length ? ',\n' : '\n]\n') || !more) await drained('stdout');
  }
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

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

/**
 * Text gathered before a write: under a pipe's 64 KiB, so that a write returns at once and the reader
 * (a pipe to `jq`, a script) takes it while the next piece is made; with pieces of 512 KiB each
 * write waited for the reader to drain it, and the two processes took turns (issue #19: 26 MB
 * printed ~35% faster on 2 cores).
 */
const JSON_PIECE = 32 << 10;
/** Elements stringified together: one call's fixed cost shared, and the text flat (not a rope of `+=`). */
const JSON_BATCH = 16;

/**
 * printJson of an array, byte for byte, written a piece at a time as it is made and waiting while
 * stdout's pipe is full, so that the whole text (26 MB for `strata layer list --json` on 10,000
 * manifests) and its UTF-8 copy are never in memory at once (issue #19: peak RSS). Each batch is
 * JSON.stringify(batch, null, 2) without its brackets: the same indentation, and `null` for what
 * JSON has no form for, as in the whole array's text.
 */
export async function printJsonArray(items: readonly unknown[]): Promise<void> {
  if (items.length === 0) return printJson(items);
  let piece = '[\n';
  for (let i = 0; i < items.length; i += JSON_BATCH) {
    const end = Math.min(items.length, i + JSON_BATCH);
    // "[\n  a,\n  b\n]" without "[\n" and "\n]".
    piece += `${JSON.stringify(items.slice(i, end), null, 2).slice(2, -2)}${end < items.length ? ',' : ''}\n`;
    if (piece.length >= JSON_PIECE) {
      // Written at once (the pipe blocks while full), or held by Node's stream until it drains.
      if (!writeOut(piece)) await drained('stdout');
      piece = '';
    }
  }
  writeOut(`${piece}]\n`);
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

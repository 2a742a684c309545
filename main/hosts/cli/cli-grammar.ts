/**
 * The CLI's one grammar is `strata <noun> <verb>` (docs/cli.md, "Grammar"). Spellings from before it
 * keep working for one release: the arguments are rewritten to the new spelling before commander
 * parses them, and one line on stderr names the new one. Rewriting (instead of hidden commander
 * aliases) keeps the old words out of `--help`, out of the saved help pages, and gives every old
 * spelling the new command's options and exit codes exactly.
 *
 * Loaded with cli.ts: no import beyond this file (tests/integration/cli-startup.test.ts).
 */

export interface Deprecation {
  /** The old words, as typed after `strata`. */
  readonly old: readonly string[];
  /** What they are now. */
  readonly now: readonly string[];
}

/** Longest `old` first, so that `sessions rm` wins over `sessions`. Remove after the next release. */
export const DEPRECATED_SPELLINGS: readonly Deprecation[] = [
  { old: ['sessions', 'rm'], now: ['session', 'delete'] },
  { old: ['sessions'], now: ['session'] },
  { old: ['layers'], now: ['layer'] },
  { old: ['drivers'], now: ['driver'] },
  { old: ['devices'], now: ['device', 'list'] },
  { old: ['paths'], now: ['path', 'list'] },
  { old: ['loader'], now: ['loader', 'show'] },
  { old: ['env'], now: ['env', 'show'] },
];

const startsWith = (args: readonly string[], words: readonly string[]) => words.every((w, i) => args[i] === w);
const isWord = (arg: string | undefined): arg is string => arg !== undefined && arg !== '--' && !arg.startsWith('-');

/**
 * The arguments in the current grammar, and the deprecation line to print when they were not.
 * `strata help OLD …` (commander's help command) is rewritten the same way.
 */
export function currentSpelling(argv: readonly string[]): { argv: string[]; notice?: string } {
  const offset = argv[0] === 'help' ? 1 : 0;
  const args = argv.slice(offset);
  for (const d of DEPRECATED_SPELLINGS) {
    // `strata loader show` is already the new spelling of `strata loader`.
    if (!startsWith(args, d.old) || startsWith(args, d.now)) continue;
    const rest = args.slice(d.old.length);
    // A bare old noun that became a noun of its own (`sessions` → `session`) names the verb that follows in both spellings.
    const verb = d.old.length === 1 && d.now.length === 1 && isWord(rest[0]) ? [rest[0]] : [];
    const notice = `strata: "${[...d.old, ...verb].join(' ')}" is deprecated; use "${[...d.now, ...verb].join(' ')}" (the old spelling goes away in the next release)\n`;
    return { argv: [...argv.slice(0, offset), ...d.now, ...rest], notice };
  }
  return { argv: [...argv] };
}

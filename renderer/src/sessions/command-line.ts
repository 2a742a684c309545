/**
 * A command line as typed into the Launcher → the program and its arguments, split as a POSIX shell
 * would split words: blanks separate, '…' keeps everything literally, "…" keeps blanks (and \" \\),
 * a backslash outside quotes escapes the next character. Nothing is expanded (no $VAR, no globs):
 * the application is started directly, not through a shell.
 */
export type SplitResult = { ok: true; words: string[] } | { ok: false; error: string };

export function splitCommandLine(text: string): SplitResult {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < text.length) word += text[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return { ok: false, error: `a ${quote === '"' ? 'double' : 'single'} quote is not closed` };
  if (inWord) words.push(word);
  return { ok: true, words };
}

/** "NAME=VALUE" lines (blank lines and # comments skipped) → variables for the launch. */
export function parseEnvironmentLines(text: string): { ok: true; env: Record<string, string> } | { ok: false; error: string } {
  const env: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return { ok: false, error: `line ${i + 1}: expected NAME=VALUE` };
    const name = line.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return { ok: false, error: `line ${i + 1}: "${name}" is not a variable name` };
    env[name] = line.slice(eq + 1);
  }
  return { ok: true, env };
}

/** One word as the Launcher's command line reads it back (splitCommandLine(quoteWord(w)) is [w]). */
export function quoteWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A bound application (applications.json) as the Launcher's fields: its command line, folder and
 * variables. No launch profile: a bound application gets its profile from its own override file,
 * as it does outside Strata, so the launch shows what the binding really gives it (a launch
 * profile would switch every installed override off through DISABLE_STRATA_OVERRIDE and make the
 * loader warn about each override's missing components).
 */
export function launchFieldsFor(app: {
  path: string;
  args?: readonly string[] | undefined;
  cwd?: string | undefined;
  env?: Readonly<Record<string, string | null>> | undefined;
  profile?: string | undefined;
}) {
  return {
    commandLine: [app.path, ...(app.args ?? [])].map(quoteWord).join(' '),
    cwd: app.cwd ?? '',
    // A null (unset) variable has no NAME=VALUE line; the profile's own environment is added by main.
    env: Object.entries(app.env ?? {})
      .filter((e): e is [string, string] => e[1] !== null)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    profile: '',
  };
}

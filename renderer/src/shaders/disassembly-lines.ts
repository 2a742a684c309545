/**
 * The Disassembly tab's text logic, React-free: lines of `spirv-dis --raw-id` text split into
 * tokens (ids become links), where each id is defined, and search over the lines.
 */
export type DisassemblyToken =
  | { kind: 'text' | 'opcode' | 'string' | 'comment'; text: string }
  | { kind: 'id'; text: string; id: number };

/** The text's lines; the final newline does not start an empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * One line as tokens whose texts join back to the line. `%N` outside a string is an id; `OpX` an
 * opcode; a quoted literal (with spirv-dis's `\"` and `\\` escapes) a string; `;` starts a comment.
 */
export function tokenizeLine(line: string): DisassemblyToken[] {
  const tokens: DisassemblyToken[] = [];
  let text = '';
  const flush = () => {
    if (text) tokens.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ';') {
      flush();
      tokens.push({ kind: 'comment', text: line.slice(i) });
      return tokens;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      flush();
      tokens.push({ kind: 'string', text: line.slice(i, Math.min(j + 1, line.length)) });
      i = j + 1;
      continue;
    }
    const before = i === 0 ? ' ' : line[i - 1]!;
    if (c === '%' && /\s/.test(before)) {
      const m = /^%(\d+)(?![\w.])/.exec(line.slice(i));
      if (m) {
        flush();
        tokens.push({ kind: 'id', text: m[0], id: Number(m[1]) });
        i += m[0].length;
        continue;
      }
    }
    if (c === 'O' && /\s/.test(before)) {
      const m = /^Op\w+/.exec(line.slice(i));
      if (m) {
        flush();
        tokens.push({ kind: 'opcode', text: m[0] });
        i += m[0].length;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return tokens;
}

/** Each result id → the index of the line that defines it (`%N = Op…`). */
export function definitionLines(lines: readonly string[]): Map<number, number> {
  const out = new Map<number, number>();
  lines.forEach((line, index) => {
    const m = /^\s*%(\d+) = /.exec(line);
    if (m && !out.has(Number(m[1]))) out.set(Number(m[1]), index);
  });
  return out;
}

/** Indices of the lines that contain `query`, ignoring case; none for a blank query. */
export function searchLines(lines: readonly string[], query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const out: number[] = [];
  lines.forEach((line, index) => {
    if (line.toLowerCase().includes(q)) out.push(index);
  });
  return out;
}

/**
 * Which match to go to from the current one: the next (or previous) in `matches`, wrapping around.
 * `current` is a position in `matches`, or -1 before the first step (next → 0, previous → last).
 */
export function stepMatch(count: number, current: number, direction: 1 | -1): number {
  if (count <= 0) return -1;
  if (current < 0 || current >= count) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}

/** Where a span of a line matches the query, to mark it: [before, match, after] or null. */
export function splitAtMatch(text: string, query: string): [string, string, string] | null {
  const q = query.trim().toLowerCase();
  if (!q) return null;
  const at = text.toLowerCase().indexOf(q);
  return at < 0 ? null : [text.slice(0, at), text.slice(at, at + q.length), text.slice(at + q.length)];
}

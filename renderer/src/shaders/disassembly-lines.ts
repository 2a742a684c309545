/**
 * The Disassembly tab's text logic, React-free: lines of spirv-dis text (friendly names or raw ids)
 * split into tokens (ids become links), where each id is defined, and search over the lines.
 *
 * A `%name` is resolved to its id through `idsByName` (the friendly names main sent, see
 * idsByNameOf); a name not in it is the id's number. The table comes first because a friendly name
 * can be another id's number (OpName %5 "7" makes `%7` mean id 5, and id 7 `%7_0`).
 */
export type IdsByName = ReadonlyMap<string, number>;

const NO_NAMES: IdsByName = new Map();

/** The name → id table for the [id, name] pairs of `shader.inspectBytes`' idNames. */
export function idsByNameOf(idNames: readonly (readonly [number, string])[]): IdsByName {
  return new Map(idNames.map(([id, name]) => [name, id]));
}

/** The id a `%name` token stands for, or undefined. */
export function resolveId(name: string, idsByName: IdsByName = NO_NAMES): number | undefined {
  const named = idsByName.get(name);
  if (named !== undefined) return named;
  return /^\d+$/.test(name) ? Number(name) : undefined;
}
export type DisassemblyToken = { kind: 'text' | 'opcode' | 'string' | 'comment'; text: string } | { kind: 'id'; text: string; id: number };

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
export function tokenizeLine(line: string, idsByName: IdsByName = NO_NAMES): DisassemblyToken[] {
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
      // Friendly names are made of [A-Za-z0-9_] only (SPIRV-Tools sanitizes them), raw ids of digits.
      const m = /^%(\w+)(?![\w.])/.exec(line.slice(i, i + 1024));
      const id = m ? resolveId(m[1]!, idsByName) : undefined;
      if (m && id !== undefined) {
        flush();
        tokens.push({ kind: 'id', text: m[0], id });
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

/** Each result id → the index of the line that defines it (`%N = Op…` or `%name = Op…`). */
export function definitionLines(lines: readonly string[], idsByName: IdsByName = NO_NAMES): Map<number, number> {
  const out = new Map<number, number>();
  lines.forEach((line, index) => {
    const m = /^\s*%(\w+) = /.exec(line);
    const id = m ? resolveId(m[1]!, idsByName) : undefined;
    if (id !== undefined && !out.has(id)) out.set(id, index);
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

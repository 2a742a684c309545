import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Range } from 'vscode-languageserver-types';
import { excessiveNesting, JSON_NESTING_LIMIT } from '../json/json-nesting';

/**
 * A JSON value with the source range of its token (0-based line/character, like LSP), built from
 * jsonc-parser's tree. Plain data (no parent pointers), so it can cross IPC and be kept for a later
 * settings editor.
 */
export type LocatedJson =
  | { kind: 'object'; range: Range; properties: LocatedProperty[] }
  | { kind: 'array'; range: Range; items: LocatedJson[] }
  | { kind: 'string'; range: Range; value: string }
  | { kind: 'number'; range: Range; value: number }
  | { kind: 'boolean'; range: Range; value: boolean }
  | { kind: 'null'; range: Range; value: null };

export type JsonKind = LocatedJson['kind'];

export interface LocatedProperty {
  key: string;
  keyRange: Range;
  value: LocatedJson;
}

export interface JsonSyntaxError {
  /** jsonc-parser's error name, e.g. "CommaExpected". */
  error: string;
  range: Range;
}

/** Where offsets of a text are, as LSP positions. */
export interface TextPositions {
  position(offset: number): { line: number; character: number };
  range(offset: number, length: number): Range;
}

/** The one range a parse without positions gives every node: line 0, column 0 (see parseLocatedJson). */
const NO_RANGE: Range = Object.freeze({ start: Object.freeze({ line: 0, character: 0 }), end: Object.freeze({ line: 0, character: 0 }) });
const NO_POSITIONS: TextPositions = { position: () => NO_RANGE.start, range: () => NO_RANGE };

/** Offsets → LSP positions, by a table of line starts (LF, CRLF and CR all end a line). */
export class LineIndex implements TextPositions {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    if (!text.includes('\r')) {
      // LF alone (nearly every file): found by indexOf, native, where a loop over every character
      // runs uncompiled in a one-shot command (issue #19).
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 && text.charCodeAt(i + 1) === 10) continue;
      if (c === 10 || c === 13) this.starts.push(i + 1);
    }
  }
  /** The line of the last position found: a reader asks in text order, so the next is on it or a few lines on. */
  #lastLine = 0;
  position(offset: number): { line: number; character: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    let line = this.#lastLine;
    if ((starts[line] as number) <= o) {
      // A few steps on from the last answer (issue #19: a binary search for each of two positions of
      // every node, run cold, was ~70% of parsing the 36 KB validation-layer manifest in `strata
      // explain`); further on, the search, from there.
      for (let step = 0; step < 8 && line < hi && (starts[line + 1] as number) <= o; step++) line++;
      if (line === hi || (starts[line + 1] as number) > o) {
        this.#lastLine = line;
        return { line, character: o - (starts[line] as number) };
      }
      lo = line;
    }
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= o) lo = mid;
      else hi = mid - 1;
    }
    this.#lastLine = lo;
    return { line: lo, character: o - (starts[lo] as number) };
  }
  range(offset: number, length: number): Range {
    return { start: this.position(offset), end: this.position(offset + length) };
  }
}

function convert(node: Node, lines: LineIndex): LocatedJson | undefined {
  const range = lines.range(node.offset, node.length);
  switch (node.type) {
    case 'object': {
      const properties: LocatedProperty[] = [];
      for (const p of node.children ?? []) {
        const [k, v] = p.children ?? [];
        // An incomplete property (`"a": }`) has no value node; the syntax error already says so.
        if (!k || !v || typeof k.value !== 'string') continue;
        const value = convert(v, lines);
        if (value) properties.push({ key: k.value, keyRange: lines.range(k.offset, k.length), value });
      }
      return { kind: 'object', range, properties };
    }
    case 'array': {
      const items: LocatedJson[] = [];
      for (const c of node.children ?? []) {
        const item = convert(c, lines);
        if (item) items.push(item);
      }
      return { kind: 'array', range, items };
    }
    case 'string':
      return { kind: 'string', range, value: String(node.value) };
    case 'number':
      return { kind: 'number', range, value: Number(node.value) };
    case 'boolean':
      return { kind: 'boolean', range, value: Boolean(node.value) };
    case 'null':
      return { kind: 'null', range, value: null };
    default:
      return undefined;
  }
}

export interface LocatedParse {
  root: LocatedJson | undefined;
  errors: JsonSyntaxError[];
  lines: TextPositions;
}

/** JSON's whitespace (RFC 8259: space, tab, LF, CR), and a string's characters up to a quote, backslash or control character. */
const WHITESPACE = /[ \t\n\r]*/y;
const STRING_RUN = /[^"\\\x00-\x1f]*/y;

/** Thrown by StrictJsonReader at the first character outside strict JSON; never escapes parseLocatedJson. */
const NOT_STRICT = Symbol('not strict JSON');
/** Thrown by StrictJsonReader at the container that nests past JSON_NESTING_LIMIT; never escapes parseLocatedJson. */
const TOO_DEEP = Symbol('nested too deep');

/**
 * The fast path for the common case, a valid file: strict RFC 8259 JSON (whitespace: space, tab,
 * LF, CR; the same set jsonc-parser skips) read straight into LocatedJson in one pass, with no second
 * tree. It gives up (NOT_STRICT) at the first thing outside that grammar; parseLocatedJson then lets
 * jsonc-parser read the file for its errors and its recovered tree. On the input this accepts,
 * jsonc-parser reports no error and builds the same tree (tests/unit/located-json.test.ts holds the
 * two to that), so only the speed differs (bench/discovery-10k.bench.ts).
 */
class StrictJsonReader {
  private pos = 0;
  /** Containers open on the current path. */
  private depth = 0;
  /**
   * Where container number JSON_NESTING_LIMIT + 1 opened, when read() stopped there: the offset
   * excessiveNesting finds, since every character before it was read as strict JSON.
   */
  tooDeepAt: number | null = null;
  constructor(
    private readonly text: string,
    private readonly lines: TextPositions,
  ) {}

  read(): LocatedJson | null {
    try {
      this.skipWhitespace();
      const root = this.value();
      this.skipWhitespace();
      return this.pos === this.text.length ? root : null;
    } catch (e) {
      if (e === NOT_STRICT || e instanceof SyntaxError) return null;
      if (e === TOO_DEEP) {
        this.tooDeepAt = this.pos;
        return null;
      }
      throw e;
    }
  }

  /** A container opens at this.pos; past the limit, reading stops there. */
  private open() {
    if (++this.depth > JSON_NESTING_LIMIT) throw TOO_DEEP;
    this.pos++;
  }

  private skipWhitespace() {
    const c = this.text.charCodeAt(this.pos);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return;
    // A run of indentation through the regular-expression engine: compiled to machine code on first
    // use, where a loop of charCodeAt runs in the interpreter for a one-shot command's one manifest
    // (issue #19: a 36 KB validation-layer manifest took ~6 ms here in `strata explain`).
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.test(this.text);
    this.pos = WHITESPACE.lastIndex;
  }

  private digits() {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    for (let c = text.charCodeAt(pos); c >= 48 && c <= 57; c = text.charCodeAt(++pos));
    if (pos === start) throw NOT_STRICT;
    this.pos = pos;
  }

  private string(): string {
    const text = this.text;
    const start = this.pos;
    let pos = start + 1;
    let escaped = false;
    for (;;) {
      // The plain characters in one step, as for whitespace above.
      STRING_RUN.lastIndex = pos;
      // Past the end (a backslash was the last character) a sticky expression fails and rewinds to 0.
      if (!STRING_RUN.test(text)) throw NOT_STRICT;
      pos = STRING_RUN.lastIndex;
      const c = text.charCodeAt(pos);
      if (c === 34) break;
      // NaN (past the end) and control characters (a line break included) end the fast path.
      if (!(c >= 0x20)) throw NOT_STRICT;
      // A backslash: it and the character it escapes.
      escaped = true;
      pos += 2;
    }
    this.pos = ++pos;
    // Escapes are rare in manifests: JSON.parse decodes them as jsonc-parser does, and throws on a bad one.
    return escaped ? (JSON.parse(text.slice(start, pos)) as string) : text.slice(start + 1, pos - 1);
  }

  private value(): LocatedJson {
    const text = this.text;
    const start = this.pos;
    const c = text.charCodeAt(start);
    if (c === 123) {
      // Its start now, as the reader passes it: every position is then asked in text order (LineIndex.position).
      const from = this.lines.position(start);
      this.open();
      this.skipWhitespace();
      const properties: LocatedProperty[] = [];
      if (text.charCodeAt(this.pos) === 125) this.pos++;
      else
        for (;;) {
          if (text.charCodeAt(this.pos) !== 34) throw NOT_STRICT;
          const keyStart = this.pos;
          const key = this.string();
          const keyRange = this.lines.range(keyStart, this.pos - keyStart);
          this.skipWhitespace();
          if (text.charCodeAt(this.pos++) !== 58) throw NOT_STRICT;
          this.skipWhitespace();
          properties.push({ key, keyRange, value: this.value() });
          this.skipWhitespace();
          const d = text.charCodeAt(this.pos++);
          if (d === 125) break;
          if (d !== 44) throw NOT_STRICT;
          this.skipWhitespace();
        }
      this.depth--;
      return { kind: 'object', range: { start: from, end: this.lines.position(this.pos) }, properties };
    }
    if (c === 91) {
      const from = this.lines.position(start);
      this.open();
      this.skipWhitespace();
      const items: LocatedJson[] = [];
      if (text.charCodeAt(this.pos) === 93) this.pos++;
      else
        for (;;) {
          items.push(this.value());
          this.skipWhitespace();
          const d = text.charCodeAt(this.pos++);
          if (d === 93) break;
          if (d !== 44) throw NOT_STRICT;
          this.skipWhitespace();
        }
      this.depth--;
      return { kind: 'array', range: { start: from, end: this.lines.position(this.pos) }, items };
    }
    if (c === 34) {
      const value = this.string();
      return { kind: 'string', range: this.lines.range(start, this.pos - start), value };
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      if (c === 45) this.pos++;
      if (text.charCodeAt(this.pos) === 48) this.pos++;
      else this.digits();
      if (text.charCodeAt(this.pos) === 46) {
        this.pos++;
        this.digits();
      }
      const e = text.charCodeAt(this.pos);
      if (e === 101 || e === 69) {
        const sign = text.charCodeAt(++this.pos);
        if (sign === 43 || sign === 45) this.pos++;
        this.digits();
      }
      return { kind: 'number', range: this.lines.range(start, this.pos - start), value: Number(text.slice(start, this.pos)) };
    }
    // A keyword glued to more letters ("truex") fails in the caller, which finds no separator after it.
    if (text.startsWith('true', start)) {
      this.pos += 4;
      return { kind: 'boolean', range: this.lines.range(start, 4), value: true };
    }
    if (text.startsWith('false', start)) {
      this.pos += 5;
      return { kind: 'boolean', range: this.lines.range(start, 5), value: false };
    }
    if (text.startsWith('null', start)) {
      this.pos += 4;
      return { kind: 'null', range: this.lines.range(start, 4), value: null };
    }
    throw NOT_STRICT;
  }
}

/** A string token of valid JSON (every quote outside a string opens one). */
const STRING_TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"/g;

/**
 * A valid file's tree without positions, from the host's JSON.parse (native) instead of the strict
 * reader's pass over every character, which a one-shot command runs uncompiled (issue #19: the 36 KB
 * validation-layer manifest in `strata explain`, 2.7 → 1.6 ms). JSON.parse takes exactly strict
 * JSON (RFC 8259, the strict reader's grammar), and decodes strings and numbers as the strict reader
 * does (through JSON.parse and Number). Null, for the strict reader to read the file, where the
 * value JSON.parse makes is not the tree: a name given twice in an object (JSON.parse keeps the last
 * value; the tree keeps both, and the loader's cJSON reads the first), counted as the colons outside
 * strings against the names copied; a name that starts with a digit (an object lists array indices
 * first); nesting past JSON_NESTING_LIMIT; and anything JSON.parse refuses. Exported for
 * tests/unit/located-json.test.ts.
 */
export function plainTree(text: string): LocatedJson | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const counted = { names: 0 };
  const root = plainNode(value, 0, counted);
  if (!root) return null;
  const outside = text.replace(STRING_TOKENS, '');
  let colons = 0;
  for (let i = outside.indexOf(':'); i >= 0; i = outside.indexOf(':', i + 1)) colons++;
  return colons === counted.names ? root : null;
}

function plainNode(value: unknown, depth: number, counted: { names: number }): LocatedJson | null {
  switch (typeof value) {
    case 'string':
      return { kind: 'string', range: NO_RANGE, value };
    case 'number':
      return { kind: 'number', range: NO_RANGE, value };
    case 'boolean':
      return { kind: 'boolean', range: NO_RANGE, value };
  }
  if (value === null) return { kind: 'null', range: NO_RANGE, value: null };
  if (depth === JSON_NESTING_LIMIT) return null;
  if (Array.isArray(value)) {
    const items: LocatedJson[] = [];
    for (const item of value as unknown[]) {
      const node = plainNode(item, depth + 1, counted);
      if (!node) return null;
      items.push(node);
    }
    return { kind: 'array', range: NO_RANGE, items };
  }
  const properties: LocatedProperty[] = [];
  for (const key of Object.keys(value as object)) {
    const first = key.charCodeAt(0);
    if (first >= 48 && first <= 57) return null;
    const node = plainNode((value as Record<string, unknown>)[key], depth + 1, counted);
    if (!node) return null;
    properties.push({ key, keyRange: NO_RANGE, value: node });
  }
  counted.names += properties.length;
  return { kind: 'object', range: NO_RANGE, properties };
}

/**
 * Both readers below recurse per nesting level: past JSON_NESTING_LIMIT (the loader's own cJSON
 * limit, shared/json/json-nesting.ts) the file is one syntax error, `NestingTooDeep`, and no tree.
 */
function nestingError(text: string, lines: LineIndex): LocatedParse | null {
  const at = excessiveNesting(text);
  return at === null ? null : tooDeepAt(at, lines);
}

const tooDeepAt = (offset: number, lines: TextPositions): LocatedParse => ({
  root: undefined,
  errors: [{ error: NESTING_TOO_DEEP, range: lines.range(offset, 1) }],
  lines,
});

/** The syntax error name for a file nested past JSON_NESTING_LIMIT. */
export const NESTING_TOO_DEEP = 'NestingTooDeep';

/**
 * Strict JSON, as the loader's cJSON reads it: comments and trailing commas are errors (loader
 * 1.3.239 fails the whole enumeration on such a file, see docs/diagnostics.md).
 *
 * `positions: false`, for a reader of values alone (the chain model's layer readings): a valid file's
 * nodes all get one shared zero range instead of their own (issue #19: positions were half of
 * `strata explain`'s cold parse of the 36 KB validation-layer manifest), and it is read by JSON.parse
 * where that gives the same tree (plainTree). A file with errors is read with positions all the
 * same: its errors say where.
 */
export function parseLocatedJson(text: string, { positions = true }: { positions?: boolean } = {}): LocatedParse {
  if (!positions) {
    const root = plainTree(text);
    if (root) return { root, errors: [], lines: NO_POSITIONS };
  }
  const lines = positions ? new LineIndex(text) : NO_POSITIONS;
  // The strict reader counts its own depth, so a valid file is read in one pass, not scanned for
  // nesting first (issue #19: ~3 % of `layer list` on 10,000 manifests); jsonc-parser's reading
  // scans first, as before.
  const reader = new StrictJsonReader(text, lines);
  const root = reader.read();
  if (root) return { root, errors: [], lines };
  if (!positions) return parseLocatedJson(text);
  return reader.tooDeepAt === null ? parseLocatedJsonc(text, lines as LineIndex) : tooDeepAt(reader.tooDeepAt, lines);
}

/** jsonc-parser's reading: its errors, and the tree it recovers around them. Exported for tests/unit/located-json.test.ts. */
export function parseLocatedJsonc(text: string, lines = new LineIndex(text)): LocatedParse {
  const tooDeep = nestingError(text, lines);
  if (tooDeep) return tooDeep;
  const raw: ParseError[] = [];
  const tree = parseTree(text, raw, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const errors = raw.map((e) => ({ error: printParseErrorCode(e.error), range: lines.range(e.offset, e.length) }));
  return { root: tree ? convert(tree, lines) : undefined, errors, lines };
}

/** The first property of that name (cJSON_GetObjectItem returns the first, so the loader reads that one). */
export function property(obj: LocatedJson | undefined, key: string): LocatedProperty | undefined {
  if (!obj || obj.kind !== 'object') return undefined;
  return obj.properties.find((p) => p.key === key);
}

/** Plain JS value of a located node (drops ranges). */
export function toPlain(node: LocatedJson): unknown {
  switch (node.kind) {
    case 'object':
      return Object.fromEntries(node.properties.map((p) => [p.key, toPlain(p.value)]));
    case 'array':
      return node.items.map(toPlain);
    default:
      return node.value;
  }
}

import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Range } from 'vscode-languageserver-types';

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

/** Offsets → LSP positions, by a table of line starts (LF, CRLF and CR all end a line). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 && text.charCodeAt(i + 1) === 10) continue;
      if (c === 10 || c === 13) this.starts.push(i + 1);
    }
  }
  position(offset: number): { line: number; character: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - (this.starts[lo] as number) };
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
  lines: LineIndex;
}

/**
 * Strict JSON, as the loader's cJSON reads it: comments and trailing commas are errors (loader
 * 1.3.239 fails the whole enumeration on such a file, see docs/diagnostics.md).
 */
export function parseLocatedJson(text: string): LocatedParse {
  const lines = new LineIndex(text);
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

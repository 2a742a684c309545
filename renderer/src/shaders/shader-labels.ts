import type { BlockMember } from '../../../shared/shader/spirv-reflect';

/**
 * Words for the Shaders panel's tables, shared with the CLI's habits (`strata shader inspect`):
 * `_N` for a nameless id, `[4][]` for array sizes (0 = runtime-sized), `-` for nothing.
 */
export const dash = (v: unknown): string => (v === undefined || v === null || v === '' ? '—' : String(v));

export function arrayDims(sizes: readonly number[]): string {
  return sizes.map((n) => (n ? `[${n}]` : '[]')).join('');
}

/** What to call a variable: its name, else its block's, else its id. */
export function variableName(v: { id: number; name: string; blockName?: string | undefined }): string {
  return v.name || v.blockName || `_${v.id}`;
}

export interface MemberRow {
  /** `lights[].color`: the path from the block's top. */
  name: string;
  depth: number;
  offset: number | undefined;
  size: number | undefined;
  type: string;
  /** Stride and majority, where the layout has them. */
  layout: string;
}

/** A block's members flattened (a member's type already shows its array sizes) depth-first, nested structs after their parent, like the CLI's table. */
export function memberRows(members: readonly BlockMember[], prefix = '', depth = 0): MemberRow[] {
  return members.flatMap((m) => {
    const name = `${prefix}${m.name}`;
    const layout =
      m.matrixStride !== undefined
        ? `${m.rowMajor ? 'row' : 'column'}-major, stride ${m.matrixStride}`
        : m.arrayStride !== undefined
          ? `stride ${m.arrayStride}`
          : '';
    const row: MemberRow = { name, depth, offset: m.offset, size: m.size, type: m.type, layout };
    return [row, ...(m.members ? memberRows(m.members, `${name}${m.arraySize ? '[]' : ''}.`, depth + 1) : [])];
  });
}

/** A diagnostic's place in a binary: its word range (ranges count 32-bit words on line 0). */
export function wordRange(range: { start: { character: number }; end: { character: number } }): string {
  const { start, end } = { start: range.start.character, end: range.end.character };
  return end > start + 1 ? `words ${start}–${end - 1}` : `word ${start}`;
}

/** A VBC diagnostic's place: its byte range in the file (ranges count bytes on line 0). */
export function byteRange(range: { start: { character: number }; end: { character: number } }): string {
  const { start, end } = { start: range.start.character, end: range.end.character };
  return end > start + 1 ? `bytes ${start}–${end - 1}` : `byte ${start}`;
}

/** The contract types a severity as a number 1–4 (validated by its schema); the UI's helpers want the LSP enum. */
export function lspSeverities<T extends { severity?: number | undefined }>(diagnostics: readonly T[]): { severity?: 1 | 2 | 3 | 4 }[] {
  return diagnostics.map((d) => (d.severity === undefined ? {} : { severity: d.severity as 1 | 2 | 3 | 4 }));
}

/**
 * Interface variables in the order a reader looks them up: by location, then component; built-ins
 * (no location) after, by name; the module's order breaks ties (a stable sort).
 */
export function byLocation<T extends { location?: number | undefined; component?: number | undefined; builtIns: readonly string[]; name: string }>(
  variables: readonly T[],
): T[] {
  return [...variables].sort((a, b) => {
    const la = a.location ?? Number.POSITIVE_INFINITY;
    const lb = b.location ?? Number.POSITIVE_INFINITY;
    if (la !== lb) return la - lb;
    const ca = a.component ?? 0;
    const cb = b.component ?? 0;
    if (ca !== cb) return ca - cb;
    if (la === Number.POSITIVE_INFINITY) return (a.builtIns[0] ?? a.name).localeCompare(b.builtIns[0] ?? b.name);
    return 0;
  });
}

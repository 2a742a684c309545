/**
 * A manifest's text as numbered lines, with an LSP range marked on them: what the read-only source
 * view draws. Positions are LSP's: 0-based lines, UTF-16 code units, which is what a JS string
 * indexes, so no conversion is needed.
 */
export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}

export interface Segment {
  text: string;
  highlight: boolean;
}

export interface SourceLine {
  /** 1-based, as shown in the gutter. */
  number: number;
  segments: Segment[];
  /** The range touches this line (the gutter marks it, and the view scrolls to the first one). */
  marked: boolean;
  /**
   * The range sits where there is no character to colour (an empty line, or past the last
   * character): the view draws a marker at the end of the line instead.
   */
  endMarker: boolean;
}

/** Splits as LSP counts lines: at \n, \r\n and a lone \r. An empty text is one empty line. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

function clampPosition(lines: readonly string[], p: Position): Position {
  const line = Math.min(Math.max(p.line, 0), lines.length - 1);
  // A line past the end means "end of document" (LSP clients clamp the same way).
  if (p.line > lines.length - 1) return { line, character: lines[line]!.length };
  return { line, character: Math.min(Math.max(p.character, 0), lines[line]!.length) };
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);

/**
 * The lines of `text` with `range` highlighted. A multi-line range colours the end of its first
 * line, the whole of the middle ones and the start of its last; a range that ends at character 0
 * of a line does not reach that line (as in editors). An empty range colours the one character
 * after it, or, at the end of a line, puts an end-of-line marker there, so the place is never
 * invisible. A range that is backwards is read with its ends swapped; one out of the text is
 * clamped to it.
 */
export function highlightLines(text: string, range: Range | null): SourceLine[] {
  const lines = splitLines(text);
  if (!range) return lines.map((t, i) => ({ number: i + 1, segments: t ? [{ text: t, highlight: false }] : [], marked: false, endMarker: false }));

  let start = clampPosition(lines, range.start);
  let end = clampPosition(lines, range.end);
  if (before(end, start)) [start, end] = [end, start];
  const empty = start.line === end.line && start.character === end.character;
  if (empty && start.character < lines[start.line]!.length) end = { line: start.line, character: start.character + 1 };
  // Ending at column 0 of a later line: that line is not part of the range.
  if (end.line > start.line && end.character === 0) end = { line: end.line - 1, character: lines[end.line - 1]!.length };

  return lines.map((t, i) => {
    const number = i + 1;
    if (i < start.line || i > end.line) return { number, segments: t ? [{ text: t, highlight: false }] : [], marked: false, endMarker: false };
    const from = i === start.line ? start.character : 0;
    const to = i === end.line ? end.character : t.length;
    const segments: Segment[] = [];
    if (from > 0) segments.push({ text: t.slice(0, from), highlight: false });
    if (to > from) segments.push({ text: t.slice(from, to), highlight: true });
    if (to < t.length) segments.push({ text: t.slice(to), highlight: false });
    // Nothing to colour on the range's only (or first) line: mark the end of that line.
    const endMarker = to <= from && i === start.line;
    return { number, segments, marked: true, endMarker };
  });
}

/** The 0-based index of the first line the range touches, for scrolling it into view. */
export function firstMarkedLine(lines: readonly SourceLine[]): number {
  return lines.findIndex((l) => l.marked);
}

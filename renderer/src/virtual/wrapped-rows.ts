/**
 * A virtualized list whose rows wrap (the session log: every line whole, no sideways scrolling):
 * each row's height is estimated from its text in a monospace column (CSS white-space: pre-wrap,
 * word-break: break-all, so a visual line holds exactly `columns` characters), replaced by the
 * measured height once the row has been on screen. Pure arithmetic; the view measures.
 */

/** Visual lines `text` takes in a column `columns` characters wide (tabs at 8, as CSS tab-size); at least one per hard line. */
export function wrappedLineCount(text: string, columns: number): number {
  const width = Math.max(1, Math.floor(columns));
  let lines = 0;
  for (const hard of text.split('\n')) {
    let length = 0;
    for (const ch of hard) length = ch === '\t' ? (Math.floor(length / 8) + 1) * 8 : length + 1;
    lines += Math.max(1, Math.ceil(length / width));
  }
  return lines;
}

/** offsets[i] is the top of row i; offsets[n] the whole height. */
export function rowOffsets(heights: readonly number[]): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i]! + Math.max(0, heights[i]!);
  return offsets;
}

/** The first row whose bottom is below `y` (binary search over offsets). */
export function rowAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1]! <= y) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, Math.max(0, n - 1));
}

export interface WrappedWindow {
  start: number;
  end: number;
  /** Pixels from the top of the list to row `start`. */
  offset: number;
  totalHeight: number;
}

/** The rows to render for a scroll position, with `overscan` rows above and below. */
export function wrappedWindow(offsets: Float64Array, scrollTop: number, viewportHeight: number, overscan = 8): WrappedWindow {
  const n = offsets.length - 1;
  const totalHeight = offsets[n] ?? 0;
  if (n <= 0) return { start: 0, end: 0, offset: 0, totalHeight };
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, totalHeight - viewportHeight));
  const first = rowAt(offsets, top);
  const last = rowAt(offsets, top + Math.max(0, viewportHeight));
  const start = Math.max(0, first - overscan);
  const end = Math.min(n, last + 1 + overscan);
  return { start, end, offset: offsets[start]!, totalHeight };
}

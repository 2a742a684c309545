/**
 * Which rows of a long fixed-height list to render for a scroll position, so a module of 100k lines
 * costs as much DOM as one screen. Pure arithmetic; the view supplies its measured sizes.
 */
export interface VirtualWindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  rowCount: number;
  /** Rows rendered above and below the visible ones, so a fast scroll shows no blank band. */
  overscan?: number;
}

export interface VirtualWindow {
  /** First row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
  /** Pixels from the top of the list to row `start`. */
  offset: number;
  /** The whole list's height in pixels. */
  totalHeight: number;
}

export function virtualWindow({ scrollTop, viewportHeight, rowHeight, rowCount, overscan = 8 }: VirtualWindowInput): VirtualWindow {
  const totalHeight = Math.max(0, rowCount) * rowHeight;
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0, offset: 0, totalHeight };
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, totalHeight - viewportHeight));
  const first = Math.floor(top / rowHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(rowCount, first + visible + overscan);
  return { start, end, offset: start * rowHeight, totalHeight };
}

/**
 * The scrollTop that shows `row`: unchanged when it is already fully visible, otherwise the row a
 * third of the way down (context above, more below, as an editor's "go to definition" does).
 */
export function scrollTopFor(row: number, { scrollTop, viewportHeight, rowHeight, rowCount }: Omit<VirtualWindowInput, 'overscan'>): number {
  const top = row * rowHeight;
  if (top >= scrollTop && top + rowHeight <= scrollTop + viewportHeight) return scrollTop;
  const max = Math.max(0, rowCount * rowHeight - viewportHeight);
  return Math.min(max, Math.max(0, Math.round(top - viewportHeight / 3)));
}

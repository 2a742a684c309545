/**
 * Follow-tail after a scroll event of a log's scroller: whether Follow is on now. Scrolling back to
 * the bottom turns it on (unless the view is paused); only a move up that leaves the bottom turns it
 * off. Rows that arrive between the follow's own scroll and its event leave the view above the
 * bottom without anyone scrolling, and a filter that shortens the list pulls scrollTop up to the
 * new bottom: neither is the user leaving the tail (a fast live run turned Follow off by itself).
 */
export function followAfterScroll(s: { follow: boolean; paused: boolean; atBottom: boolean; movedUp: boolean }): boolean {
  if (s.atBottom) return s.follow || !s.paused;
  return s.follow && !s.movedUp;
}

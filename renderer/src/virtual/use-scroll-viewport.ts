import { useCallback, useLayoutEffect, useRef, useState } from 'react';

export interface ScrollViewport {
  scrollTop: number;
  height: number;
}

/**
 * The scroll position and height of a virtualized list's scroller, kept in React state so the
 * rendered window follows it: measured on mount, on resize, and whenever `sync` is called (from
 * onScroll, or after the code moved scrollTop itself). A sync that changes nothing does not re-render.
 */
export function useScrollViewport<T extends HTMLElement = HTMLDivElement>(initialHeight: number) {
  const scroller = useRef<T>(null);
  const [view, setView] = useState<ScrollViewport>({ scrollTop: 0, height: initialHeight });
  const sync = useCallback(() => {
    const box = scroller.current;
    if (!box) return;
    // A hidden scroller measures 0 high: keep the last height rather than render no rows.
    setView((v) => (v.scrollTop === box.scrollTop && v.height === box.clientHeight ? v : { scrollTop: box.scrollTop, height: box.clientHeight || v.height }));
  }, []);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    sync();
    const observer = new ResizeObserver(sync);
    observer.observe(box);
    return () => observer.disconnect();
  }, [sync]);
  return { scroller, view, sync };
}

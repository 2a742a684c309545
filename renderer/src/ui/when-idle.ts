/**
 * Runs `work` when the page has nothing else to do, at the latest after `timeoutMs` (where the
 * browser has no requestIdleCallback: on the next task). Returns the function that cancels it.
 */
export function whenIdle(work: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(work, 0);
  return () => clearTimeout(timer);
}

/**
 * Files Strata itself just wrote, so that the watcher's `discovery.changed` for them refreshes the
 * view quietly instead of saying "Manifests changed on disk" after every Apply. Only a change made
 * entirely of such files, seen within `windowMs` of the write, is Strata's own; anything else (or
 * anything more) is announced as before. Pure: the clock is passed in.
 */
export interface OwnWrites {
  /** path → time it was written (ms). */
  readonly at: ReadonlyMap<string, number>;
}

export const OWN_WRITE_WINDOW_MS = 10_000;

export function noteOwnWrites(state: OwnWrites, paths: readonly string[], now: number, windowMs = OWN_WRITE_WINDOW_MS): OwnWrites {
  const at = new Map([...state.at].filter(([, t]) => now - t <= windowMs));
  for (const p of paths) if (p) at.set(p, now);
  return { at };
}

export function isOwnChange(state: OwnWrites, change: { paths: readonly string[]; more: number }, now: number, windowMs = OWN_WRITE_WINDOW_MS): boolean {
  if (change.more > 0 || change.paths.length === 0) return false;
  return change.paths.every((p) => {
    const t = state.at.get(p);
    return t !== undefined && now - t <= windowMs;
  });
}

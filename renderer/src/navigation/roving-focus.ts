/**
 * Key handling for a list with a roving tabindex (WAI-ARIA APG, "Keyboard Navigation Inside
 * Components"): one item is tabbable, arrows move focus, Enter/Space activate. Pure index math.
 */
export type RovingAction = { kind: 'move'; index: number } | { kind: 'activate' };

export function rovingAction(key: string, index: number, count: number): RovingAction | null {
  if (count <= 0) return null;
  const current = Math.min(Math.max(index, 0), count - 1);
  switch (key) {
    case 'ArrowDown':
      // Wraps, like a menu: the list is short and End/Home cover the jump to an edge.
      return { kind: 'move', index: (current + 1) % count };
    case 'ArrowUp':
      return { kind: 'move', index: (current - 1 + count) % count };
    case 'Home':
      return { kind: 'move', index: 0 };
    case 'End':
      return { kind: 'move', index: count - 1 };
    case 'Enter':
    case ' ':
    case 'Spacebar':
      return { kind: 'activate' };
    default:
      return null;
  }
}

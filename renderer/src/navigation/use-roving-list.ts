import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { rovingAction } from './roving-focus';

/**
 * A listbox with one Tab stop (roving tabindex): arrow keys, Home and End move focus without
 * selecting, Enter and Space select. The Tab stop is the focused row, else the selected one, else the
 * first; a selection made elsewhere (a refresh, "show in Layers") becomes the Tab stop.
 *
 * In a virtualised list the row focus moves to may not be rendered: `reveal(key)` is then asked to
 * bring it on screen (scroll its list), and the row takes focus on the render that shows it.
 */
export function useRovingList(keys: readonly string[], selected: string | null, select: (key: string) => void, reveal?: (key: string) => void) {
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLDivElement>());
  const pendingFocus = useRef<string | null>(null);
  const tabStop = focusKey && keys.includes(focusKey) ? focusKey : selected && keys.includes(selected) ? selected : (keys[0] ?? null);

  useEffect(() => {
    if (selected) setFocusKey(selected);
  }, [selected]);

  // A row focus moved to while it was not rendered: focused once a render shows it.
  useLayoutEffect(() => {
    const key = pendingFocus.current;
    if (key === null) return;
    if (!keys.includes(key)) {
      pendingFocus.current = null;
      return;
    }
    const el = items.current.get(key);
    if (!el) return;
    pendingFocus.current = null;
    el.focus();
    el.scrollIntoView({ block: 'nearest' });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, index: number) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = rovingAction(event.key, index, keys.length);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'move') {
      const key = keys[action.index]!;
      setFocusKey(key);
      const el = items.current.get(key);
      if (el) {
        el.focus();
        el.scrollIntoView({ block: 'nearest' });
      } else {
        pendingFocus.current = key;
        reveal?.(key);
      }
    } else {
      select(keys[index]!);
    }
  };

  return {
    tabStop,
    onKeyDown,
    /** For a row's click: it becomes focused and selected. */
    choose: (key: string) => {
      setFocusKey(key);
      select(key);
    },
    onFocus: (key: string) => setFocusKey(key),
    ref: (key: string) => (el: HTMLDivElement | null) => {
      if (el) items.current.set(key, el);
      else items.current.delete(key);
    },
  };
}

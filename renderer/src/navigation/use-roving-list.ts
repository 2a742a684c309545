import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { rovingAction } from './roving-focus';

/**
 * A listbox with one Tab stop (roving tabindex): arrow keys, Home and End move focus without
 * selecting, Enter and Space select. The Tab stop is the focused row, else the selected one, else the
 * first; a selection made elsewhere (a refresh, "show in Layers") becomes the Tab stop.
 */
export function useRovingList(keys: readonly string[], selected: string | null, select: (key: string) => void) {
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLDivElement>());
  const tabStop = focusKey && keys.includes(focusKey) ? focusKey : selected && keys.includes(selected) ? selected : (keys[0] ?? null);

  useEffect(() => {
    if (selected) setFocusKey(selected);
  }, [selected]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, index: number) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = rovingAction(event.key, index, keys.length);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'move') {
      const key = keys[action.index]!;
      setFocusKey(key);
      items.current.get(key)?.focus();
      items.current.get(key)?.scrollIntoView({ block: 'nearest' });
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

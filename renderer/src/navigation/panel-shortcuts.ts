import { panelForDigit, type PanelId } from '../panels/panel-list';

/** The parts of a KeyboardEvent a shortcut depends on (so this stays free of DOM types). */
export interface ShortcutKey {
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/**
 * Alt+1 … Alt+9 and Alt+0 open the panels in sidebar order. Matched on `code`, not `key`: on macOS and
 * some layouts Alt+digit types another character ("¡"), but the physical key is the same.
 */
export function panelForShortcut(event: ShortcutKey): PanelId | null {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const m = /^(?:Digit|Numpad)([0-9])$/.exec(event.code);
  return m ? panelForDigit(Number(m[1])) : null;
}

import { useEffect } from 'react';
import { panelForShortcut } from '../navigation/panel-shortcuts';
import { useNavigation } from '../navigation/navigation-store';

/** Alt+1 … Alt+9 from anywhere in the window. */
export function usePanelShortcuts() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat) return;
      const panel = panelForShortcut(event);
      if (!panel) return;
      // Also keeps Chromium on Linux from treating Alt+digit as "switch to tab n" in the browser host.
      event.preventDefault();
      useNavigation.getState().open(panel);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

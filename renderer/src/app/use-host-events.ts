import { useEffect } from 'react';
import { panelFromName } from '../panels/panel-list';
import { useNavigation } from '../stores/navigation-store';
import { useNotices } from '../stores/notice-store';
import { hasStrataApi, strataApi } from '../strata-bridge';

/** The host's events: `ui.navigate` opens a panel, `host.notice` goes to the banner. */
export function useHostEvents() {
  useEffect(() => {
    // Without a bridge there is nothing to listen to; the About view already says why.
    if (!hasStrataApi()) return;
    const api = strataApi();
    const stops = [
      api.on('ui.navigate', ({ panel }) => {
        const id = panelFromName(panel);
        // An unknown name (a newer host, a typo) is ignored rather than sending the user somewhere else.
        if (id) useNavigation.getState().open(id);
      }),
      api.on('host.notice', ({ level, message }) => useNotices.getState().show(level, message)),
    ];
    return () => stops.forEach((stop) => stop());
  }, []);
}

import { useEffect } from 'react';
import { panelFromName } from '../panels/panel-list';
import type { DiscoveryChanged } from '../../../shared/discovery/discovery-changes';
import { useActivity } from '../activity/activity-store';
import { useDiscovery } from '../discovery/discovery-store';
import { useNavigation } from '../navigation/navigation-store';
import { useNotices } from '../notices/notice-store';
import { hasStrataApi, strataApi } from '../strata-bridge';

export const MANIFESTS_CHANGED_NOTICE = 'Manifests changed on disk — updated';

/**
 * `discovery.changed`: re-fetch discovery in the background (what is on screen stays, with the
 * user's selection and scroll, until the new answer replaces it), then say so once. A burst of
 * changes gives one notice: the notice list moves a repeated message to the top instead of stacking it.
 */
export async function onDiscoveryChanged(change: DiscoveryChanged = { kinds: ['implicit_layer'], paths: [], more: 0 }): Promise<void> {
  // Files Strata just wrote itself (Apply, bind, Disable, Save) are refreshed quietly: the user did that.
  await useActivity.getState().settled();
  const own = useActivity.getState().isOwnChange(change);
  void useActivity.getState().load();
  const result = await useDiscovery.getState().refreshLoaded();
  if (result.outcome === 'updated' && !own) useNotices.getState().show('info', MANIFESTS_CHANGED_NOTICE);
  else if (result.outcome === 'failed') useNotices.getState().show('warning', `Manifests changed on disk, but reading them again failed: ${result.message}`);
}

/** The host's events: `ui.navigate` opens a panel, `host.notice` goes to the banner, `discovery.changed` re-fetches discovery. */
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
      api.on('discovery.changed', (change) => void onDiscoveryChanged(change)),
    ];
    return () => stops.forEach((stop) => stop());
  }, []);
}

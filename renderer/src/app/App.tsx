import { ActivityStrip } from '../activity/ActivityStrip';
import { NoticeBanner } from '../notices/NoticeBanner';
import { PanelView } from '../panels/PanelView';
import { ProfileSwitcher } from '../profiles/ProfileSwitcher';
import { Sidebar } from '../navigation/Sidebar';
import { SkipLink } from '../ui/SkipLink';
import { useDraftTitle } from '../configurator/DraftNavBadge';
import { useHostEvents } from './use-host-events';
import { usePanelShortcuts } from './use-panel-shortcuts';

export function App() {
  useHostEvents();
  usePanelShortcuts();
  useDraftTitle();
  return (
    <>
      <SkipLink />
      <div className="app-frame">
        <div className="app">
          <Sidebar />
          <main className="main" id="main" tabIndex={-1}>
            <header className="app-header">
              <ProfileSwitcher />
            </header>
            <NoticeBanner />
            <PanelView />
          </main>
        </div>
        <ActivityStrip />
      </div>
    </>
  );
}

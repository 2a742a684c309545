import { ActivityStrip } from '../components/ActivityStrip';
import { NoticeBanner } from '../components/NoticeBanner';
import { PanelView } from '../components/PanelView';
import { ProfileSwitcher } from '../components/ProfileSwitcher';
import { Sidebar } from '../components/Sidebar';
import { SkipLink } from '../components/SkipLink';
import { useDraftTitle } from '../components/DraftNavBadge';
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

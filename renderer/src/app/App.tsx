import { NoticeBanner } from '../components/NoticeBanner';
import { PanelView } from '../components/PanelView';
import { Sidebar } from '../components/Sidebar';
import { SkipLink } from '../components/SkipLink';
import { useHostEvents } from './use-host-events';
import { usePanelShortcuts } from './use-panel-shortcuts';

export function App() {
  useHostEvents();
  usePanelShortcuts();
  return (
    <>
      <SkipLink />
      <div className="app">
        <Sidebar />
        <main className="main" id="main" tabIndex={-1}>
          <NoticeBanner />
          <PanelView />
        </main>
      </div>
    </>
  );
}

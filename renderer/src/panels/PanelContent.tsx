import { Component, Suspense, useEffect, type ReactNode } from 'react';
import type { PanelDescription } from './panel-list';
import { panelView, prefetchPanelsAfterFirstView } from './panel-views';

interface LoadFailureState {
  error: Error | null;
}

/**
 * A panel whose code did not load (the server was restarted with a new build, the connection
 * dropped) says so in its place; the rest of the window keeps working.
 */
class PanelLoadBoundary extends Component<{ panel: PanelDescription; children: ReactNode }, LoadFailureState> {
  override state: LoadFailureState = { error: null };

  static getDerivedStateFromError(error: unknown): LoadFailureState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="panel-load-error" role="alert">
        <p>
          The {this.props.panel.label} panel did not load: {this.state.error.message}. Fix: reload the page (Strata may have been restarted with a new build).
        </p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}

/** The open panel's view: its code loaded on first opening (panel-views.ts), with a placeholder meanwhile. */
export function PanelContent({ panel }: { panel: PanelDescription }) {
  useEffect(() => prefetchPanelsAfterFirstView(), []);
  const View = panelView(panel.id);
  return (
    <PanelLoadBoundary key={panel.id} panel={panel}>
      <Suspense
        fallback={
          <p className="muted" role="status">
            Loading {panel.label}…
          </p>
        }
      >
        <View />
      </Suspense>
    </PanelLoadBoundary>
  );
}

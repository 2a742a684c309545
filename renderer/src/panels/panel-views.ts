import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { LayersView } from '../layers/LayersView';
// In the first bundle anyway: the Layers view shows the live chain (LayersView imports from ChainView).
import { ChainView } from '../chain/ChainView';
import { PANELS, type PanelId } from './panel-list';
import { useDiscovery } from '../discovery/discovery-store';
import { readDescriptionsAhead } from '../settings/settings-descriptions';
import { whenIdle } from '../ui/when-idle';

/**
 * Each panel's view, by panel (issue #19: the renderer split per panel). The main view (Layers, with
 * Chain, whose diagram it shows) is in the first bundle, so its first paint waits for no second request; every other panel is a chunk
 * of its own (Vite splits at each dynamic import), loaded when the panel is first opened, or before
 * that by prefetchPanels once the first view is on screen, so that opening one costs no request.
 *
 * To add a panel: its entry in panel-list.ts, and here the import of its view.
 */
const loaders: Record<Exclude<PanelId, 'layers' | 'chain'>, () => Promise<ComponentType>> = {
  drivers: () => import('../devices/DriversDevicesView').then((m) => m.DriversDevicesView),
  profiles: () => import('../profiles/ProfilesView').then((m) => m.ProfilesView),
  applications: () => import('../applications/ApplicationsView').then((m) => m.ApplicationsView),
  settings: () => import('../settings/SettingsView').then((m) => m.SettingsView),
  sessions: () => import('../sessions/SessionsView').then((m) => m.SessionsView),
  shaders: () => import('../shaders/ShadersView').then((m) => m.ShadersView),
  problems: () => import('../problems/ProblemsView').then((m) => m.ProblemsView),
  diagnostics: () => import('../diagnostics/DiagnosticsView').then((m) => m.DiagnosticsView),
  about: () => import('../about/AboutView').then((m) => m.AboutView),
};

type LazyPanel = keyof typeof loaders;
type PanelComponent = ComponentType | LazyExoticComponent<ComponentType>;

/** Views whose chunk has loaded (by prefetchPanels or a first opening). */
const loaded = new Map<PanelId, ComponentType>();

function load(id: LazyPanel): Promise<ComponentType> {
  return loaders[id]().then((component) => {
    loaded.set(id, component);
    return component;
  });
}

/** What panelView handed out for each panel: kept, so a panel's component never changes under it. */
const views = new Map<PanelId, PanelComponent>([
  ['layers', LayersView],
  ['chain', ChainView],
]);

/**
 * The component that renders a panel, the same one every time. Once its chunk is loaded (prefetched)
 * the view itself, which renders at once; before that a lazy one (render it inside <Suspense>):
 * React.lazy suspends on its first render even when the module is already there, and React then
 * holds the fallback for its reveal throttle (~300 ms), which is what opening a panel cost before
 * this check.
 */
export function panelView(id: PanelId): PanelComponent {
  let view = views.get(id) ?? loaded.get(id);
  if (!view) view = lazy(() => load(id as LazyPanel).then((component) => ({ default: component })));
  views.set(id, view);
  return view;
}

let prefetched = false;

/**
 * Fetch every other panel's chunk in the background; the browser keeps the modules, and a panel's
 * lazy view then finds its module loaded. A failure here is left to the panel's own load, which
 * shows it when the panel is opened. Then, while the page is idle, what the Settings view reads
 * when it opens: the settings descriptions of the discovered layers (a real layer's takes tens of
 * milliseconds to read; issue #19, switching to a view not yet opened ≤ 100 ms).
 */
export function prefetchPanels(): void {
  if (prefetched) return;
  prefetched = true;
  for (const { id } of PANELS) {
    if (id !== 'layers' && id !== 'chain') load(id).catch(() => undefined);
  }
  whenIdle(() => {
    const manifests = useDiscovery.getState().manifests;
    if (manifests.status === 'ready') readDescriptionsAhead(manifests.value);
  }, 2000);
}

/** What LayersView marks once its list is on screen (bench/ui-1k-layers reads it too). */
const FIRST_VIEW_MARK = 'strata:layers-rendered';

/**
 * prefetchPanels once the first view is on screen (the Layers list's mark), or after 2 s when it
 * never comes (another panel opened first, no layers): the chunks never compete with the first
 * paint for the connection or the main thread. Returns the function that cancels it.
 */
export function prefetchPanelsAfterFirstView(): () => void {
  let observer: PerformanceObserver | null = null;
  const go = () => {
    cancel();
    setTimeout(prefetchPanels, 0);
  };
  const timer = setTimeout(go, 2000);
  const cancel = () => {
    clearTimeout(timer);
    observer?.disconnect();
  };
  if (typeof PerformanceObserver === 'function') {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(FIRST_VIEW_MARK).length > 0) go();
    });
    observer.observe({ type: 'mark', buffered: true });
  }
  return cancel;
}

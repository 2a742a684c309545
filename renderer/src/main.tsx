import '../../shared/validation/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectTheme } from './theme/theme-sync';
import { useDiscovery } from './discovery/discovery-store';
import { hasStrataApi } from './strata-bridge';
import './styles/theme.css';
import './styles/app.css';

// Before the first render, so the first paint already has the right theme.
connectTheme();

// The first view (Layers, panel-list.ts's DEFAULT_PANEL) shows discovery's answer and nothing much
// before it: ask for it now rather than from its effect after React's first render (issue #19).
if (hasStrataApi()) void useDiscovery.getState().loadManifests();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

import '../../shared/validation/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectTheme } from './theme/theme-sync';
import './styles/theme.css';
import './styles/app.css';

// Before the first render, so the first paint already has the right theme.
connectTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

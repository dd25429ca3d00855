import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { readScale } from './session/scale';
import { applyPreferences, readCachedPreferences } from './features/settings/sync/prefs';
import { registerServiceWorker } from './features/pwa/serviceWorker';
import { startEarly } from './api/early';
import { getToken } from './api/session';
import { firstReads } from './app/firstReads';
import { preloadPage } from './app/PageOutlet';
import './styles/fonts.css';
// Order matters: layout rules refine the generic components (e.g. hide the menu button on wide screens).
import './styles/base.css';
import './styles/components.css';
import './styles/boxes.css';
import './styles/cards.css';
import './styles/layout.css';
import './styles/mail-account.css';
import './styles/mail.css';
import './styles/mail-pane.css';
import './styles/inbox-zero.css';
import './styles/outgoing.css';
import './styles/compose.css';
import './styles/compose-panels.css';
import './styles/ai.css';
import './styles/ai-settings.css';
import './styles/smart.css';
import './styles/search.css';
import './styles/folders.css';

// Apply this browser's copy of the preferences (theme, density, scale) before the first paint,
// so the app does not flash light or resize; the server's copy follows once signed in.
{
  const scale = readScale();
  applyPreferences({ ...readCachedPreferences(), appScale: scale.app, fontScale: scale.font, iconScale: scale.icon });
}

// A returning user's page: its chunk and its first reads start now, beside the shell's first render
// (issue 42: each waited for the render before it, a phone's round trip and more each).
if (getToken()) {
  const { page, paths } = firstReads(location.hash);
  preloadPage(page);
  startEarly(paths);
}

// The installable app's service worker (production builds only): the shell loads without the server.
registerServiceWorker();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { readScale } from './session/scale';
import { applyPreferences, readCachedPreferences } from './features/settings/sync/prefs';
import { registerServiceWorker } from './features/pwa/serviceWorker';
import { earlyReadsSettled, startEarly } from './api/early';
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

/**
 * How long the first render waits for the page's chunk and its first reads (ms): on a LAN they
 * arrive within it and the first render is the page with its rows, not the shell, then the page
 * loading, then the rows (a render and a layout each on a phone); a slow link renders without them.
 */
const FIRST_RENDER_WAIT_MS = 400;

// A returning user's page: its chunk and its first reads start now, before the first render
// (issue 42: each waited for the render before it, a phone's round trip and more each).
let ready: Promise<unknown> = Promise.resolve();
if (getToken()) {
  const { page, paths } = firstReads(location.hash);
  startEarly(paths);
  ready = Promise.race([
    Promise.all([preloadPage(page), earlyReadsSettled()]),
    new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS)),
  ]);
}

// The installable app's service worker (production builds only): the shell loads without the server.
registerServiceWorker();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
void ready.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

// "A new version is ready" (issue 39): shown on every page, signed in or not, once a newly
// deployed version's service worker has installed; the page keeps running the old one until the
// user clicks, so nothing reloads under a half-written mail.

import type { JSX } from 'react';
import { he } from '../../i18n/he';
import { useServiceWorkerUpdate } from './useServiceWorkerUpdate';
import './pwa.css';

const t = he.pwa;

export function UpdatePrompt({ container, reload }: { container?: ServiceWorkerContainer; reload?: () => void }): JSX.Element | null {
  const { ready, apply, applying } = useServiceWorkerUpdate(
    container ?? (typeof navigator === 'undefined' ? undefined : navigator.serviceWorker),
    reload,
  );
  if (!ready) return null;
  return (
    <div className="pwa-update" role="status" data-testid="pwa-update">
      <span>{t.updateReady}</span>
      <button type="button" className="button button--primary" disabled={applying} onClick={apply} data-testid="pwa-update-reload">
        {applying ? t.updating : t.updateReload}
      </button>
    </div>
  );
}

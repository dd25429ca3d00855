// "No connection to the server" (issue 39): when the shell came from the service worker's cache
// (or the server went away while the page was open) the pages' requests fail; rather than a page
// of broken cards, one clear line says why, with a retry that re-reads everything. With offline
// reading the user goes on working under it, so the app's height gives way to it (nothing, e.g.
// the reply panel's buttons, stays hidden behind the strip).

import { useEffect, useRef, useState, type JSX } from 'react';
import { useSWRConfig } from 'swr';
import { he } from '../../i18n/he';
import { heOffline } from '../../i18n/offline';
import { isServerReachable, onServerReachable } from '../../lib/serverConnection';
import { useOfflineState } from '../offline/useOfflineState';
import './pwa.css';

const t = he.pwa;

export function ServerConnectionBanner(): JSX.Element | null {
  const [reachable, setReachable] = useState(isServerReachable);
  const { mutate } = useSWRConfig();
  // With offline reading running, the mail kept in the browser is what the page shows.
  const offline = useOfflineState();
  useEffect(() => {
    const stop = onServerReachable(setReachable);
    // A failure between the first render and this subscription is not missed.
    setReachable(isServerReachable());
    return stop;
  }, []);
  const strip = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = strip.current;
    const root = document.documentElement;
    if (reachable || !el) return;
    const measure = () => root.style.setProperty('--pwa-offline-height', `${el.getBoundingClientRect().height}px`);
    measure();
    root.dataset.serverOffline = '';
    const watcher = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    watcher?.observe(el);
    return () => {
      watcher?.disconnect();
      delete root.dataset.serverOffline;
      root.style.removeProperty('--pwa-offline-height');
    };
  }, [reachable]);
  if (reachable) return null;
  return (
    <div ref={strip} className="pwa-offline" role="alert" data-testid="server-offline">
      <strong>{t.offlineTitle}</strong>
      <span className="pwa-offline__text">
        {offline.active ? heOffline.bannerText : t.offlineText}
        {offline.pending > 0 && <span data-testid="offline-pending"> {heOffline.pending(offline.pending)}</span>}
      </span>
      <button type="button" className="button" onClick={() => void mutate(() => true)} data-testid="server-offline-retry">
        {t.offlineRetry}
      </button>
    </div>
  );
}

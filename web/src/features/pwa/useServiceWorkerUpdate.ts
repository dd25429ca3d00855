// Watches the service worker registration for a new version (issue 39): a worker that finished
// installing while an older one controls the page is "waiting", and the update prompt offers it.
// Checks for a new version when the tab comes back into view and every UPDATE_CHECK_MS.

import { useCallback, useEffect, useState } from 'react';
import { UPDATE_CHECK_MS, activateWaiting } from './serviceWorker';

export interface ServiceWorkerUpdate {
  /** A new version is installed and waiting for the user's click. */
  ready: boolean;
  /** Hands over to the new version and reloads. */
  apply: () => void;
  applying: boolean;
}

export function useServiceWorkerUpdate(
  container: ServiceWorkerContainer | undefined = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker,
  reload?: () => void,
): ServiceWorkerUpdate {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  const [applying, setApplying] = useState(false);

  useEffect(() => {
    if (!container) return;
    let registration: ServiceWorkerRegistration | undefined;
    let stopped = false;
    // Only an update: the first install (no controller yet) has nothing to replace.
    const offer = (worker: ServiceWorker | null) => {
      if (!stopped && worker && container.controller) setWaiting(worker);
    };
    const watchInstalling = () => {
      const installing = registration?.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed') offer(installing);
      });
    };
    const check = () => {
      if (document.visibilityState === 'visible') registration?.update().catch(() => {});
    };
    // `ready`, not getRegistration(): on a first visit the page mounts before the worker is
    // registered (at the window's load), and `ready` waits for it.
    void container.ready.then((r) => {
      if (stopped) return;
      registration = r;
      offer(r.waiting);
      if (r.installing) watchInstalling();
      r.addEventListener('updatefound', watchInstalling);
    });
    const timer = window.setInterval(check, UPDATE_CHECK_MS);
    document.addEventListener('visibilitychange', check);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
      registration?.removeEventListener('updatefound', watchInstalling);
    };
  }, [container]);

  const apply = useCallback(() => {
    if (!waiting || !container) return;
    setApplying(true);
    activateWaiting(waiting, container, reload);
  }, [waiting, container, reload]);

  return { ready: waiting !== null, apply, applying };
}

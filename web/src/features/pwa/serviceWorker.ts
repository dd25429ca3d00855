// The page's side of the service worker (issue 39; the worker is web/sw/worker.js, written to
// dist/sw.js by the build): registering it, finding a new version waiting, and handing over.
// A new version never takes over by itself: useServiceWorkerUpdate shows the prompt, and the
// user's click sends SKIP_WAITING and reloads once the new worker controls the page.

/** Served at the root by the binary (src/http/assets.rs), so its scope is the whole app. */
export const SERVICE_WORKER_URL = '/sw.js';
/** How often an open tab asks the server whether a new version was deployed. */
export const UPDATE_CHECK_MS = 30 * 60_000;

/**
 * Registers the worker in a production build (the dev server has no dist/sw.js), where the
 * browser has service workers (a secure context: HTTPS or localhost).
 */
export function registerServiceWorker(container: ServiceWorkerContainer | undefined = navigator.serviceWorker): void {
  if (!container || !import.meta.env.PROD) return;
  const register = () => {
    container.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {
      /* no worker (private mode, a blocked origin): the app works as a plain page */
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
  container.addEventListener('message', (event: MessageEvent) => followOpen(event.data));
}

/**
 * A notification was clicked (the worker's `OPEN`): the app goes to its page, a path of this app
 * such as `/#/Inbox?mail=12`, without reloading (a hash route). Anything else is ignored.
 */
export function followOpen(data: unknown, location: Pick<Location, 'hash' | 'assign'> = window.location): void {
  if (!data || typeof data !== 'object') return;
  const { type, path } = data as { type?: unknown; path?: unknown };
  // A path of this origin only: '//host' or '/\host' would leave it.
  if (type !== 'OPEN' || typeof path !== 'string' || !/^\/(?![/\\])/.test(path)) return;
  const hash = path.indexOf('#');
  if (hash >= 0) location.hash = path.slice(hash);
  else location.assign(path);
}

/** Asks a waiting worker to take over, then reloads the page once it controls it. */
export function activateWaiting(
  waiting: ServiceWorker,
  container: ServiceWorkerContainer,
  reload: () => void = () => window.location.reload(),
): void {
  container.addEventListener('controllerchange', () => reload(), { once: true });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

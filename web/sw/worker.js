// The service worker's body (issue 39). The build (sw/serviceWorkerPlugin.ts) writes it to
// dist/sw.js after two lines it generates: `VERSION`, a hash of every file of the bundle, and
// `PRECACHE`, the paths of the app shell (index.html, the bundle, fonts, icons, the manifest).
// - install: the shell goes into a cache named by VERSION (a new build is a new cache); the new
//   worker then waits: the page shows the update prompt and the user's click activates it;
// - activate: caches of other versions are deleted;
// - fetch: /api/ and /ws never touch the cache (the user's mail and settings are not kept
//   here; offline reading is later work); a page load goes to the network first and falls back to
//   the cached index.html when the server cannot be reached; the shell's own files (names hashed
//   by content) come from the cache.
/* global VERSION, PRECACHE */
const PREFIX = 'mailclient-shell-';
const CACHE = PREFIX + VERSION;
const SHELL = new Set(PRECACHE);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.map((path) => new Request(path, { cache: 'reload' })))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
});

/** Whether a path is the server's API or live channel: never answered from the cache. */
function isApi(pathname) {
  return pathname === '/api' || pathname.startsWith('/api/') || pathname === '/ws' || pathname.startsWith('/ws/');
}

async function fromShell(path) {
  const cache = await caches.open(CACHE);
  return cache.match(path);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApi(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request).catch(async (err) => {
        const shell = await fromShell('/index.html');
        if (shell) return shell;
        throw err;
      }),
    );
    return;
  }
  if (SHELL.has(url.pathname)) {
    event.respondWith(fromShell(url.pathname).then((hit) => hit || fetch(request)));
  }
});

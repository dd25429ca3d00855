// The service worker's body (issue 39). The build (sw/serviceWorkerPlugin.ts) writes it to
// dist/sw.js after two lines it generates: `VERSION`, a hash of every file of the bundle, and
// `PRECACHE`, the paths of the app shell (index.html, the bundle, fonts, icons, the manifest).
// - install: the shell goes into a cache named by VERSION (a new build is a new cache); the new
//   worker then waits: the page shows the update prompt and the user's click activates it;
// - activate: caches of other versions are deleted;
// - fetch: /api/ and /ws never touch the cache (the user's mail and settings are not kept
//   here; offline reading is later work); a page load goes to the network first and falls back to
//   the cached index.html when the server cannot be reached; the shell's own files (names hashed
//   by content) come from the cache;
// - push (Web Push, src/push/ on the server): the decrypted note ({title, body, url, tag}) shown
//   as a Hebrew right-to-left notification; a note of the same tag replaces the last one (many
//   new mails are one notification);
// - notificationclick: opens the note's page of this app (a path on this origin only) in an open
//   window of the app (asked by a message, so the page routes without a reload) or a new one.
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

/** The fallback title when a note has none (never an empty notification). */
const DEFAULT_TITLE = 'דואר';

/** A path of this app from a note's url (anything else opens the inbox). */
function appPath(url) {
  try {
    const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.pathname + target.search + target.hash : '/';
  } catch {
    return '/';
  }
}

/** The notification a push's note makes: title, body, tag and the page to open. */
function notificationOf(note) {
  const n = note && typeof note === 'object' ? note : {};
  const title = typeof n.title === 'string' && n.title.trim() ? n.title : DEFAULT_TITLE;
  const tag = typeof n.tag === 'string' && n.tag ? n.tag : 'mail';
  return {
    title,
    options: {
      body: typeof n.body === 'string' ? n.body : '',
      dir: 'rtl',
      lang: 'he',
      tag,
      renotify: true,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url: appPath(n.url) },
    },
  };
}

self.addEventListener('push', (event) => {
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch {
    note = { body: event.data ? event.data.text() : '' };
  }
  const { title, options } = notificationOf(note);
  event.waitUntil(self.registration.showNotification(title, options));
});

/** Focuses a window of the app and sends it to `path`, or opens one there. */
async function openApp(path) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((c) => new URL(c.url).origin === self.location.origin);
  if (open) {
    open.postMessage({ type: 'OPEN', path });
    return open.focus();
  }
  return self.clients.openWindow(path);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = appPath(event.notification.data && event.notification.data.url);
  event.waitUntil(openApp(path));
});

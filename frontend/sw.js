// The service worker: the client shell from a cache when the network is slow or gone,
// an offline page instead of the browser's error, and the game's Web Push messages.
//
// Only the shell is cached (HTML, CSS, the modules, icons, the manifest). The socket
// (/ws), the HTTP API (/api) and config.json are never touched here: the puzzle and
// the game always come from the server. Shell files are fetched network-first, so a
// new deploy takes effect on the next load; the cache answers only when the network
// fails or is slower than NETWORK_WAIT_MS. Bump VERSION when the list changes.
const VERSION = 'v8';
const CACHE = `crossing-shell-${VERSION}`;
const NETWORK_WAIT_MS = 3000;
const SHELL = [
  'index.html',
  'duel.html',
  'offline.html',
  'manifest.webmanifest',
  'css/base.css',
  'css/screens.css',
  'css/grid.css',
  'css/tiles.css',
  'css/board.css',
  'css/duel.css',
  'js/app.js',
  'js/clock.js',
  'js/cursor.js',
  'js/dealt.js',
  'js/heartbeat.js',
  'js/keys.js',
  'js/model.js',
  'js/notify.js',
  'js/patch.js',
  'js/progress.js',
  'js/resend.js',
  'js/socket.js',
  'js/store.js',
  'js/unsent.js',
  'js/versions.js',
  'js/duel/app.js',
  'js/duel/board.js',
  'js/duel/clock.js',
  'js/duel/describe.js',
  'js/duel/lobby.js',
  'js/duel/model.js',
  'js/duel/replay.js',
  'js/duel/table.js',
  'js/duel/view.js',
  'js/tiles/board.js',
  'js/views/dom.js',
  'js/views/game.js',
  'js/views/grid.js',
  'js/views/home.js',
  'js/views/host_news.js',
  'js/views/lobby.js',
  'js/views/results.js',
  'js/views/table.js',
  // The Solver, so its screenshot reader works offline (the search itself needs the network).
  'solver.html',
  'css/solver.css',
  'js/solver/api.js',
  'js/solver/board.js',
  'js/solver/hint.js',
  'js/solver/look.js',
  'js/solver/main.js',
  'js/solver/rack.js',
  'js/solver/reader.js',
  'js/solver/reader/classify.js',
  'js/solver/reader/lattice.js',
  'js/solver/reader/marks.js',
  'js/solver/reader/model.js',
  'js/solver/reader/panel.js',
  'js/solver/reader/pixels.js',
  'js/solver/reader/rack.js',
  'js/solver/reader/review.js',
  'js/solver/results.js',
  'js/solver/state.js',
  'js/solver/storage.js',
  'js/solver/view.js',
  'icons/icon-192.png',
  'icons/icon-512.png',
  'icons/maskable-512.png',
  'icons/apple-touch-icon.png',
];
const NEVER = [/\/ws$/, /\/api\//, /\/@connections\//, /config\.json$/];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('crossing-shell-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const scopePath = () => new URL(self.registration.scope).pathname;

// The cache key a request is filed under: the game page is index.html whatever its query.
function shellKey(url) {
  const path = url.pathname.slice(scopePath().length);
  if (path === '' || path === 'index.html') return new URL('index.html', self.registration.scope).href;
  return SHELL.includes(path) ? url.href.split('?')[0] : null;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.some((re) => re.test(url.pathname))) return;
  const key = shellKey(url);
  if (key) {
    event.respondWith(networkFirst(request, key));
  } else if (request.mode === 'navigate') {
    // Another page (the watch page): the network, or the offline page.
    event.respondWith(fetch(request).catch(() => offlinePage()));
  }
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  const network = fetch(request).then((response) => {
    if (response.ok) cache.put(key, response.clone());
    return response;
  });
  const cached = await cache.match(key);
  if (!cached) {
    return network.catch(() => (request.mode === 'navigate' ? offlinePage() : Response.error()));
  }
  // A weak connection: show the cached shell after a moment, let the network refresh the cache.
  const slow = new Promise((resolve) => setTimeout(() => resolve(cached), NETWORK_WAIT_MS));
  return Promise.race([network.catch(() => cached), slow]);
}

async function offlinePage() {
  const cache = await caches.open(CACHE);
  return (await cache.match(new URL('offline.html', self.registration.scope).href)) ||
    new Response("You're offline.", { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

// --- notifications ------------------------------------------------------------------

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data?.text() };
  }
  const title = data.title || 'Crossing Words';
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || 'A game is waiting for you.',
    icon: 'icons/icon-192.png',
    tag: data.room ? `crossing-${data.room}` : 'crossing',
    data: { room: data.room || null },
  }));
});

// Tapping it opens the game: the page says hello and is put back in its seat.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL('./', self.registration.scope).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const game = windows.find((w) => {
      const path = new URL(w.url).pathname;
      return path === scopePath() || path === `${scopePath()}index.html`;
    });
    if (game) return game.focus();
    return self.clients.openWindow(target);
  })());
});

// The dashboard's service worker (build.mjs writes it as dist/apps/dashboard/sw.js, with the release's file list in
// place of SHELL): it keeps the app shell so the dashboard opens at the roadside without a signal.
// - index.html is asked of the network first (a new release is seen at once when online), the kept copy when offline;
// - the hashed files (main-<hash>.js, styles-<hash>.css, chunks/) never change: kept ones are served as they are;
// - a new release has a new file list, so a new worker, a new cache, and the old cache is deleted when it takes over;
// - the API's answers are never kept here (personal data, and the inspector must see what is current): requests
//   outside the dashboard's folder go to the network untouched.
const SHELL = /* SHELL */ [];
const RELEASE = 'RELEASE';
const CACHE = `dashboard-shell-${RELEASE}`;
const scope = new URL(self.registration.scope);
const index = new URL('./', scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['./', ...SHELL]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith('dashboard-shell-') && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (request.mode === 'navigate' || url.href === index || url.pathname.endsWith('/index.html')) {
    event.respondWith(
      fetch(request).catch(() =>
        caches.open(CACHE).then((cache) => cache.match(index).then((kept) => kept ?? Response.error())),
      ),
    );
    return;
  }
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((kept) => kept ?? fetch(request)),
  );
});

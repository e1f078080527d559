// The dashboard's service worker (build.mjs writes it as dist/apps/dashboard/sw.js, with the release's file list in
// place of SHELL): it keeps the app shell so the dashboard opens at the roadside without a signal.
// - the shell comes from the cache first, always: on a signal that answers slowly ("lie-fi") the dashboard opens as
//   fast as offline. index.html is served from the cache and asked of the network in the background; the answer
//   replaces the kept copy for the next load. A new release is a new sw.js (the browser checks it on every load), whose
//   own cache holds the new index.html and files: the load after it installed opens the new release;
// - the hashed files (chunks/; index.html carries the entry script and the stylesheet) never change: kept ones are served as they are;
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

/** Whether a page names only files of this release (its script, stylesheet and preloaded chunks). */
const ownRelease = (html) =>
  [...html.matchAll(/(?:src|href)="([^":]+\.(?:js|css))"/g)].every((match) => SHELL.includes(match[1]));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (request.mode === 'navigate' || url.href === index || url.pathname.endsWith('/index.html')) {
    const fresh = fetch(index, { cache: 'no-cache' }).then(async (answer) => {
      // Kept only when it names this release's files: another release's page waits for its own worker and cache
      // (kept here, it would name files this cache does not hold, and open blank offline).
      if (answer.ok && ownRelease(await answer.clone().text()))
        await (await caches.open(CACHE)).put(index, answer.clone());
      return answer;
    });
    // The refresh goes on after the page is answered (a failed one leaves the kept copy as it was).
    event.waitUntil(fresh.catch(() => undefined));
    event.respondWith(
      caches
        .open(CACHE)
        .then((cache) => cache.match(index))
        .then((kept) => kept ?? fresh.catch(() => Response.error())),
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

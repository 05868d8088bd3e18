// The demo's service worker: caches the app (every file of the build, listed at
// build time in PRECACHE) so the page loads with no network; saved data sets
// live in IndexedDB. Data under /data/ and other origins are never intercepted.
const PRECACHE = self.__PRECACHE__;
const CACHE = `zarrkit-demo-${self.__BUILD__}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(["./", ...PRECACHE]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith("zarrkit-demo-") && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/data/")) return;
  if (request.mode === "navigate") {
    // The page: from the network when there is one (a new build), else the cached one, whatever its query.
    event.respondWith(fetch(request).catch(() => caches.match("./", { cacheName: CACHE })));
    return;
  }
  // Build files have hashed names: the cached copy is the right one.
  event.respondWith(caches.match(request, { cacheName: CACHE }).then((hit) => hit ?? fetch(request)));
});

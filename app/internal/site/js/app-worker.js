// backoffcalc's service worker, in place of go-app's (app/scripts.go; a text/template with
// go-app's {{.Version}} and {{.ResourcesToCache}}). It keeps every file of one version in a
// cache of its own, so the page works offline and a visit runs one version whole:
// - It fills its cache from the network, never from the browser's HTTP cache: with a host's
//   Cache-Control max-age, or day-old files and none, go-app's worker cached the previous
//   version's files, or a mix of both.
// - A new version takes over as soon as it is installed, as go-app's does. Chromium checks for
//   one seconds after a page has loaded, when that page has its files (app.wasm included) from
//   the old version's cache; the page then offers to reload (app.js), and the next visit runs
//   the new version.
// - A page load with a query is answered by the cached page: the wasm reads the query itself.
// - Its caches are named by the site's scope, and it deletes only its own older ones: an origin
//   shared with other sites (all of a GitHub Pages user's projects are on one) keeps theirs,
//   and a second copy of backoffcalc at another path keeps working offline. go-app's worker
//   named its cache "app-" + version and deleted every other cache of the origin.
const cachePrefix = "backoffcalc " + self.registration.scope + " ";
const cacheName = cachePrefix + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(cacheName)
      .then((cache) => cache.addAll(resourcesToCache.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) =>
      Promise.all(keys.filter((key) => key !== cacheName && key.startsWith(cachePrefix)).map((key) => caches.delete(key)))
    )
  );
});

self.addEventListener("fetch", (event) => {
  event.respondWith(
    caches
      .open(cacheName)
      .then((cache) => cache.match(event.request, { ignoreSearch: event.request.mode === "navigate" }))
      .then((response) => response || fetch(event.request))
  );
});

// The service worker (served at /sw.js, so that it sees every page of the server): it keeps
// the page's files, so a phone starts the game from its own storage, and shows the offline
// page when the server cannot be reached. The server fills in the release's VERSION and
// FILES (versioned URLs: a file kept here is never stale; a new release is a new cache).
const VERSION = "__VERSION__";
const FILES = __FILES__;
const OFFLINE = "__OFFLINE__";
const CACHE = `uno-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("uno-") && name !== CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The page always from the server (it names the current release); without a server,
    // the offline page says so.
    event.respondWith(fetch(request).catch(() =>
      caches.match(OFFLINE).then((page) => page || Response.error())));
    return;
  }
  if (url.pathname.startsWith(`/v/${VERSION}/`)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
});

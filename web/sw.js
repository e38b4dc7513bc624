// Offline support: after the first visit the page, the wasm (tokenizer included) and the
// styles are served from the cache. Network first, so a new build is picked up when online.
const CACHE = 'skill-playground-__BUILD_ID__';
// The routing model's files are large and change only with the model: kept across builds (the
// page stores them, crates/skillpg-app's routing_run::MODEL_CACHE), and served cache-first; the
// name changes with the file's format (v2: the 6-bit word-embedding table), so a new build
// drops the old copy.
const MODEL_CACHE = 'skill-playground-model-minilm-i8-v2';
// Decoder models the person brought (the page's Cache API store, written by the page): theirs to
// keep or forget, never deleted by a new build.
const KEPT = (k) => k === CACHE || k === MODEL_CACHE || k.startsWith('skillpg-decoder-');
// Relative to this script, so under any path the page is served from (its scope is its folder).
const ASSETS = ['./', './index.html', './style.css', './boot.js', './editor.js', './skillpg_app.js', './skillpg_app_bg.wasm', './manifest.webmanifest', './icon-192.png', './icon-512.png'];

self.addEventListener('install', (event) => {
  // One by one, a missing asset skipped: Trunk names the app's module skillpg-app.js, and what
  // the page fetches later is cached as it is fetched anyway.
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.all([...ASSETS, './skillpg-app.js', './skillpg-app_bg.wasm'].map((a) => cache.add(a).catch(() => {}))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => !KEPT(k)).map((k) => caches.delete(k)))).then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.includes('/model/')) {
    // The page puts the model in MODEL_CACHE itself (it can say when the browser refuses);
    // here it is only served from there first, offline included.
    event.respondWith(caches.open(MODEL_CACHE).then((cache) => cache.match(event.request)).then((hit) => hit || fetch(event.request)));
    return;
  }
  event.respondWith(
    fetch(event.request)
      .then((resp) => {
        const copy = resp.clone();
        caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        return resp;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true }).then((hit) => hit || caches.match('./index.html'))),
  );
});

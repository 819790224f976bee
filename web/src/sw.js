// HeapLab's service worker: offline use and cross-origin isolation on any static host.
//
// 1. Offline: on install it caches every asset of the build (the page, the bundles, the wasm
//    engine, Z3's z3-built.js/.wasm, the examples); afterwards same-origin GETs are answered from
//    that cache first, so the page loads with the network off. A new build has a new VERSION,
//    which makes the browser install the new worker and drop the old cache.
// 2. Isolation: Z3 needs SharedArrayBuffer, so the page must be cross-origin isolated. Hosts that
//    cannot send COOP/COEP (GitHub Pages and the like) get them added here: every response this
//    worker hands out is re-wrapped with the headers. The page reloads once after the first
//    install when it was not isolated (see registerServiceWorker in main.js).

/* global __ASSETS__, __VERSION__ */
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
const ASSETS = typeof __ASSETS__ !== 'undefined' ? __ASSETS__ : [];
const CACHE = `heaplab-${VERSION}`;

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  // cross-origin, as `heaplab serve` sends: an isolated course page may frame the embed.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `no-cache` revalidates with the server: unchanged files come from the HTTP cache (a 304),
    // so installing right after a first visit downloads almost nothing again.
    await cache.addAll(ASSETS.map((url) => new Request(url, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('heaplab-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

function withIsolation(response) {
  // Opaque and error responses cannot be re-wrapped (and need not be).
  if (!response || response.status === 0 || response.type === 'opaque') return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function answer(request) {
  const cache = await caches.open(CACHE);
  const isPage = request.mode === 'navigate';
  // The page itself is one file whatever its query (?embed=1) or fragment (#p=...).
  const cached = isPage
    ? (await cache.match(request, { ignoreSearch: true })) ?? (await cache.match('./index.html')) ?? (await cache.match('./'))
    : await cache.match(request);
  if (cached) return withIsolation(cached);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') cache.put(request, response.clone()).catch(() => {});
    return withIsolation(response);
  } catch (err) {
    if (isPage) {
      const fallback = await cache.match('./index.html');
      if (fallback) return withIsolation(fallback);
    }
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // `only-if-cached` requests from devtools must not be re-fetched across modes.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(answer(request));
});

// HeapLab's service worker: offline use and cross-origin isolation on any static host.
//
// 1. Offline: on install it caches every asset of the build but Z3 (the page, the bundles, the
//    wasm engine, the examples); afterwards same-origin GETs are answered from that cache first,
//    so the page loads with the network off. Z3 (z3-worker.js, z3-built.js/.wasm, 35 MB) is
//    fetched only when a question needs it; the first time it is, it goes into a cache of its own
//    (Z3_CACHE), so it too works offline from then on (if it was fetched before this worker took
//    over, the page asks for it to be kept once Z3 is ready: `keepZ3`). A new build has a new VERSION, which
//    makes the browser install the new worker and drop the old cache; Z3's cache is kept as long
//    as Z3 itself did not change (its own Z3_VERSION).
// 2. Isolation: Z3 needs SharedArrayBuffer, so the page must be cross-origin isolated. Hosts that
//    cannot send COOP/COEP (GitHub Pages and the like) get them added here: every response this
//    worker hands out is re-wrapped with the headers. The page reloads once after the first
//    install when it was not isolated (see registerServiceWorker in main.js).

/* global __ASSETS__, __VERSION__, __Z3_ASSETS__, __Z3_VERSION__ */
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
const ASSETS = typeof __ASSETS__ !== 'undefined' ? __ASSETS__ : [];
const CACHE = `heaplab-${VERSION}`;
const Z3_VERSION = typeof __Z3_VERSION__ === 'string' ? __Z3_VERSION__ : 'dev';
const Z3_ASSETS = typeof __Z3_ASSETS__ !== 'undefined' ? __Z3_ASSETS__ : [];
const Z3_CACHE = `heaplab-z3-${Z3_VERSION}`;

/** Z3's files, by path relative to the worker's scope. */
function isZ3(url) {
  const scope = new URL('./', self.location.href).href;
  return Z3_ASSETS.some((asset) => url === new URL(asset, scope).href);
}

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  // cross-origin, as `heaplab serve` sends: an isolated course page may frame the embed.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/**
 * Puts `response` into `cache` under `request` with its body read into memory first. Chromium
 * keeps a streamed body in its blob store, whose room shrinks with the free disk: with a few GB
 * free, putting the streamed 35 MB Z3 wasm failed ("Cache.put() encountered a network error")
 * while the same bytes as one buffer were kept, so offline Z3 was lost on a nearly full disk.
 */
async function keep(cache, request, response) {
  const body = await response.arrayBuffer();
  const { status, statusText, headers } = response;
  await cache.put(request, new Response(body, { status, statusText, headers }));
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `no-cache` revalidates with the server: unchanged files come from the HTTP cache (a 304),
    // so installing right after a first visit downloads almost nothing again. A failed file
    // fails the install, which the browser tries again at the next visit.
    await Promise.all(ASSETS.map(async (url) => {
      const response = await fetch(new Request(url, { cache: 'no-cache' }));
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      await keep(cache, url, response);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('heaplab-') && key !== CACHE && key !== Z3_CACHE) await caches.delete(key);
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

async function answer(event) {
  const { request } = event;
  const cache = await caches.open(isZ3(request.url.split(/[?#]/)[0]) ? Z3_CACHE : CACHE);
  const isPage = request.mode === 'navigate';
  // The page itself is one file whatever its query (?embed=1) or fragment (#p=...).
  const cached = isPage
    ? (await cache.match(request, { ignoreSearch: true })) ?? (await cache.match('./index.html')) ?? (await cache.match('./'))
    : await cache.match(request);
  if (cached) return withIsolation(cached);
  try {
    const response = await fetch(request);
    // The answer is still pending, so the worker may still extend its life for the put.
    if (response.ok && response.type === 'basic') event.waitUntil(keep(cache, request, response.clone()).catch(() => {}));
    return withIsolation(response);
  } catch (err) {
    if (isPage) {
      const fallback = await cache.match('./index.html');
      if (fallback) return withIsolation(fallback);
    }
    throw err;
  }
}

/**
 * Puts Z3's files into Z3_CACHE if they are not there yet. Z3 fetched before this worker
 * controlled the page (a question in the visit's first seconds, before install finished) did not
 * pass through `answer`; the page asks for this once Z3 is ready (`keepZ3`), and `force-cache`
 * takes the files from the browser's HTTP cache, which just received them, not the network.
 */
async function keepZ3() {
  const cache = await caches.open(Z3_CACHE);
  const scope = new URL('./', self.location.href);
  for (const asset of Z3_ASSETS) {
    const url = new URL(asset, scope).href;
    if (await cache.match(url)) continue;
    const response = await fetch(url, { cache: 'force-cache' });
    if (response.ok && response.type === 'basic') await keep(cache, url, response);
  }
}

// The keepZ3 in progress: a second request (another tab, a second Z3 start) joins it, since a
// second put of the same file would drop the first one's entry until it is written again.
let keeping = null;

self.addEventListener('message', (event) => {
  if (event.data?.type !== 'keepZ3') return;
  // Offline use of Z3 is a convenience: a failure here (quota, network) costs nothing else.
  keeping ??= keepZ3().catch(() => {}).finally(() => { keeping = null; });
  event.waitUntil(keeping);
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // `only-if-cached` requests from devtools must not be re-fetched across modes.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(answer(event));
});

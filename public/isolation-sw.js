// The site's service worker, two jobs:
// 1. Isolation: on static hosts that cannot send headers (e.g. GitHub Pages) it re-serves every same-origin
//    response with the site's headers (isolation and CSP), so the playgrounds get SharedArrayBuffer anyway.
// 2. Offline: it keeps what a reader has opened (pages, figures, fonts, the search index, Monaco, tfjs and its
//    wasm, the rank workers) in a cache named after the build, so the book reads, searches and runs offline.
// HTML and other unhashed files are network-first (updates arrive on the next online visit); files under
// /_astro/ carry a content hash in their name and are cache-first. A new build renames the cache and drops the old.

// Replaced at build time by src/lib/offline/stamp-service-worker.mjs (id: hash of dist/; searchFiles: Pagefind's index;
// digests: every built file's SHA-256, base64, by URL path).
const BUILD = { id: 'dev', searchFiles: [] };

const CACHE = `ranks-${BUILD.id}`;
const HASHED = /^\/_astro\//;
// A slow network ("lie-fi") should not hold a page hostage when a saved copy exists.
const NETWORK_PATIENCE_MS = 4000;
const SHELL = ['/', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

// The host's headers. Replaced at build time (stamp-service-worker.mjs) by all of src/lib/site/host-headers.mjs, so a
// host that sends none still gets the Content-Security-Policy with the isolation; unstamped, isolation only.
const HOST_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function withIsolation(response) {
  if (response.status === 0) return response; // opaque redirects pass through untouched
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(HOST_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The server ignores the query (share links, Pagefind's ?ts=), so the cache does too. */
function cacheKey(url) {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** Stores a copy of a good response; `extend` (the fetch event's waitUntil) lets the page have it before the copy is written. */
async function save(cache, url, response, extend) {
  if (response.ok && response.status === 200 && response.type === 'basic') {
    const stored = cache.put(cacheKey(url), response.clone());
    if (extend) extend(stored.catch(() => {})); else await stored;
  }
  return response;
}

/** The built file a cache key names: the path itself, or the page a directory path serves. */
function expectedDigest(url) {
  const path = new URL(url).pathname;
  const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`, `${path}.html`];
  for (const p of candidates) if (Object.hasOwn(BUILD.digests, p)) return BUILD.digests[p];
  return undefined;
}

/**
 * A cached copy only if it is byte for byte what this build wrote (anything else, e.g. an entry another script
 * of this origin overwrote, is deleted and refused, and the network answers instead). Unstamped (dev): as is.
 */
async function verified(cache, url, cached) {
  if (!cached || !BUILD.digests) return cached;
  const expected = expectedDigest(url);
  if (expected !== undefined) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await cached.clone().arrayBuffer()));
    if (btoa(String.fromCharCode(...digest)) === expected) return cached;
  }
  await cache.delete(cacheKey(url));
  return undefined;
}

async function fetchAndSave(url) {
  const cache = await caches.open(CACHE);
  return save(cache, url, await fetch(url));
}

async function cacheFirst(request, extend) {
  const cache = await caches.open(CACHE);
  const cached = await verified(cache, request.url, await cache.match(cacheKey(request.url)));
  if (cached) return cached;
  return save(cache, request.url, await fetch(request), extend);
}

/** Returns the response to serve and the network fetch, which keeps the cache fresh even when it loses the race. */
function networkFirst(request, extend) {
  const network = caches.open(CACHE).then(async (cache) => save(cache, request.url, await fetch(request), extend));
  const response = (async () => {
    const cache = await caches.open(CACHE);
    const cached = await verified(cache, request.url, await cache.match(cacheKey(request.url)));
    if (!cached) return network.catch((error) => (request.mode === 'navigate' ? offlinePage(request) : Promise.reject(error)));
    const patience = new Promise((resolve) => setTimeout(() => resolve(cached), NETWORK_PATIENCE_MS));
    return Promise.race([network.catch(() => cached), patience]);
  })();
  return { response, network };
}

/** A page the reader has not opened yet, offline: say so and list what can be read. */
async function offlinePage(request) {
  const cache = await caches.open(CACHE);
  const pages = [];
  for (const key of await cache.keys()) {
    const path = new URL(key.url).pathname;
    if (path === '/' || path.endsWith('/')) pages.push(path);
  }
  const escape = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const items = pages.sort().map((p) => `<li><a href="${escape(p)}">${escape(p === '/' ? 'Home' : p)}</a></li>`).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Offline · Ranks</title>
<style>body{font:1.05rem/1.6 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><main><h1>You are offline</h1><p>This page (<code>${escape(new URL(request.url).pathname)}</code>) has not been opened on this device yet, so there is no saved copy. It will load when the network is back.</p>
${items ? `<p>Saved for offline reading:</p><ul>${items}</ul>` : '<p>Nothing is saved yet: pages are kept once you have opened them online.</p>'}</main></body></html>`;
  return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

/** At install: the start page with its assets, the app's icons and the whole search index (about 0.5 MB), so an
 * installed app opens offline and any word can be searched offline, whichever pages the reader has opened. */
async function cacheShell() {
  const home = await fetchAndSave(new URL('/', self.location.origin).href);
  const assets = [...(await home.clone().text()).matchAll(/"(\/_astro\/[^"]+)"/g)].map((m) => m[1]);
  const paths = [...new Set([...SHELL.slice(1), ...assets, ...BUILD.searchFiles])];
  await Promise.all(paths.map((path) => fetchAndSave(new URL(path, self.location.origin).href).catch(() => {})));
}

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(cacheShell().catch(() => {}));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith('ranks-') && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// The page that registered the worker loaded before it was controlled: it sends its URLs to keep.
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'keep' || !Array.isArray(event.data.urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const url of event.data.urls) {
      if (typeof url !== 'string' || new URL(url).origin !== self.location.origin) continue;
      if (!(await verified(cache, url, await cache.match(cacheKey(url))))) await fetchAndSave(url).catch(() => {});
    }
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== 'GET' || request.headers.has('range')) {
    event.respondWith(fetch(request).then(withIsolation));
    return;
  }
  const extend = (promise) => event.waitUntil(promise);
  if (HASHED.test(url.pathname)) {
    event.respondWith(cacheFirst(request, extend).then(withIsolation));
    return;
  }
  const { response, network } = networkFirst(request, extend);
  event.waitUntil(network.catch(() => {}));
  event.respondWith(response.then(withIsolation));
});

// The service worker: keeps the page's shell so that it opens with no network (the lobby, from
// the games kept by app.js, says it is offline and reconnects by itself when the network is back).
// It is served under the version prefix (/v/<version>/sw.js, docs/web.md, "Serving") with the
// whole site as its scope, and keeps one cache per version:
// - the page (`/`): from the network whenever it answers (a new version is seen at once), else
//   the copy kept from the last visit;
// - the files under its own prefix: they never change under one name, so the kept copy is used,
//   and whatever the page fetches there is kept as it passes (the modules of another view, another
//   language's catalogue);
// - nothing else: /ws, /api/ and the rest go to the network as if there were no worker.
// On install it keeps the page and what the page preloads (its start-up modules, its stylesheets,
// its catalogue), which the browser has just fetched: they come from its HTTP cache, not the
// network. On activation it drops the caches of other versions.
// The worker's own scope, typed as what it is (the type check's libraries name it only so).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const PREFIX = new URL('./', worker.location.href).pathname;  // "/v/<version>/", or "/"
const CACHE = `tanbo-shell-${PREFIX.match(/^\/v\/([0-9a-f]+)\/$/)?.[1] ?? 'unversioned'}`;
const PAGE = '/';
// A navigation waits this long for the network before the kept page is shown: on a network
// that answers nothing (a captive portal, a dead access point) the page still opens.
const NAVIGATION_TIMEOUT_MS = 5000;

worker.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const page = await fetch(PAGE, {cache: 'no-cache'});
    if (!page.ok) throw new Error(`the page answered ${page.status}`);
    const html = await page.clone().text();
    // The page's links under this version: <script src>, <link href> (stylesheets, preloads,
    // the SVG icon, the manifest); not the PNG icons, which only installing the page needs: on a
    // slow network they would cost a first visit a sixth more bytes.
    const urls = new Set();
    for (const m of html.matchAll(/\s(?:src|href)="([^"]+)"/g))
      if (m[1].startsWith(PREFIX) && PREFIX !== '/' && !m[1].endsWith('.png')) urls.add(m[1]);
    await cache.addAll([...urls]);
    await cache.put(PAGE, page);
    await worker.skipWaiting();  // the page's names are versioned: an older page is not disturbed
  })());
});

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys())
      if (name.startsWith('tanbo-shell-') && name !== CACHE) await caches.delete(name);
    await worker.clients.claim();
  })());
});

worker.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== worker.location.origin) return;
  if (req.mode === 'navigate' && (url.pathname === '/' || url.pathname === '/index.html')) {
    event.respondWith(page(req));
  } else if (PREFIX !== '/' && url.pathname.startsWith(PREFIX)) {
    event.respondWith(versioned(req));
  }
});

async function page(req) {
  const cache = await caches.open(CACHE);
  try {
    const res = await withTimeout(fetch(req), NAVIGATION_TIMEOUT_MS);
    if (res.ok) await cache.put(PAGE, res.clone());
    return res;
  } catch (err) {
    const kept = await cache.match(PAGE);
    if (kept) return kept;
    throw err;
  }
}

async function versioned(req) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(req);
  if (kept) return kept;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the network did not answer')), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

#!/usr/bin/env node
// The page's first visit on a slow network: Debian's chromium (driven by playwright-core, the
// browser tests' copy in tests/web/node_modules) opens the lobby under the DevTools protocol's
// network throttling, and this prints, cold (an empty cache) and warm (the same browser coming
// back: its HTTP cache and the service worker), the first contentful paint, the lobby on screen
// (the page's `tanbo-first-render` mark), the cards' pictures drawn (`tanbo-pictures`), the
// requests sent before the lobby was on screen that reached the network, and their bytes.
// docs/performance.md, "The page's first visit", says what the figures mean.
//
//   node bench/first-visit.mjs --server build/release/server/tanbo-server [--web-dir web]
//        [--runs 5] [--profile slow3g|fast3g|none] [--out bench/results/DATE-first-visit.json]
//   node bench/first-visit.mjs --url http://host:port/   (a server already running)
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {execFileSync} from 'node:child_process';
import {startServer, launchBrowser} from '../tests/web/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};

// Round-trip time (added to every request by Chromium's throttling) and throughput each way.
const PROFILES = {
  slow3g: {latency: 150, down: 1.6e6, up: 750e3},
  fast3g: {latency: 40, down: 10e6, up: 5e6},
  none: null,
};
const profileName = opt('profile', 'slow3g');
if (!(profileName in PROFILES)) {
  console.error(`bench/first-visit: no profile ${profileName}; the profiles: ${Object.keys(PROFILES).join(', ')}`);
  process.exit(2);
}
const profile = PROFILES[profileName];
const runs = Number(opt('runs', '5'));
const chromiumPath = opt('chromium', '/usr/bin/chromium');

let server = null;
let base = opt('url');
if (!base) {
  const binary = opt('server');
  if (!binary) {
    console.error('usage: first-visit.mjs (--server PATH [--web-dir DIR] | --url URL) [--runs N] [--profile P] [--out FILE]');
    process.exit(2);
  }
  const webDir = path.resolve(opt('web-dir', path.join(here, '..', 'web')));
  server = await startServer({binary: path.resolve(binary), webDir});
  base = server.base;
}
base = base.replace(/\/$/, '');

// The service worker fetches on its own (its install's copies, the page it serves): a session
// of the browser's own attaches to each one as it appears, throttles it like the page and counts
// its requests with the page's.
async function watchServiceWorkers(browserSession, conditions, onEvent) {
  const attached = new Set();
  let id = 1;
  const send = (sessionId, method, params = {}) => browserSession.send('Target.sendMessageToTarget',
    {sessionId, message: JSON.stringify({id: id++, method, params})}).catch(() => {});
  browserSession.on('Target.receivedMessageFromTarget', (e) => {
    const msg = JSON.parse(e.message);
    if (msg.method) onEvent(msg.method, msg.params);
  });
  const attach = async (info) => {
    if (info.type !== 'service_worker' || attached.has(info.targetId)) return;
    attached.add(info.targetId);
    // A worker may be gone before it is attached to (replaced by a newer one): nothing to watch.
    const attachedTo = await browserSession.send('Target.attachToTarget', {targetId: info.targetId, flatten: false}).catch(() => null);
    if (!attachedTo) return;
    const {sessionId} = attachedTo;
    await send(sessionId, 'Network.enable');
    if (conditions) await send(sessionId, 'Network.emulateNetworkConditions', conditions);
  };
  browserSession.on('Target.targetCreated', (e) => attach(e.targetInfo));
  await browserSession.send('Target.setDiscoverTargets', {discover: true});
}

// What one visit moved over the network, from the page's own CDP session: requests that left
// the browser (not served by its memory or disk cache or by the service worker) and the bytes
// they took on the wire (headers included), up to the lobby on screen and until quiet.
function watchNetwork() {
  const reqs = new Map();
  const handlers = {};
  const cdp = {on: (name, f) => { handlers[name] = f; }};
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.request.url.startsWith('data:')) return;
    reqs.set(e.requestId, {url: e.request.url, at: e.timestamp, wall: e.wallTime * 1000, bytes: 0, cached: false, sw: false, done: false});
  });
  cdp.on('Network.requestServedFromCache', (e) => { const r = reqs.get(e.requestId); if (r) r.cached = true; });
  cdp.on('Network.responseReceived', (e) => {
    const r = reqs.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) r.cached = true;
    if (e.response.fromServiceWorker) r.sw = true;
    r.encoding = e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || '';
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = reqs.get(e.requestId);
    if (!r) return;
    r.bytes = e.encodedDataLength;
    r.done = true;
    r.end = e.timestamp;
  });
  return {
    event(method, params) { handlers[method]?.(params); },
    waterfall() {
      const list = [...reqs.values()].sort((a, b) => a.at - b.at);
      const t0 = list[0]?.at ?? 0;
      return list.map((r) => `${((r.at - t0) * 1000).toFixed(0).padStart(6)} ${(((r.end ?? r.at) - t0) * 1000).toFixed(0).padStart(6)} ms ` +
        `${String(r.bytes).padStart(7)} B ${r.sw ? 'sw ' : r.cached ? 'hc ' : '   '}${r.url.replace(base, '')}`).join('\n');
    },
    // The requests sent up to `untilWall` (ms since the epoch, the page's clock), as they ended.
    summary(untilWall) {
      const all = [...reqs.values()].filter((r) => untilWall === undefined || r.wall <= untilWall);
      const net = all.filter((r) => !r.cached && !r.sw && !r.url.startsWith('ws'));
      return {
        requests: all.length,
        network: net.length,
        bytes: net.reduce((s, r) => s + r.bytes, 0),
        fromCache: all.filter((r) => r.cached).length,
        fromServiceWorker: all.filter((r) => r.sw).length,
        notModified: net.filter((r) => r.status === 304).length,
        compressed: net.filter((r) => r.encoding).length,
      };
    },
  };
}

// The page's and its service worker's network events go to `sink.net` while a visit lasts.
const sink = {net: null};

async function visit(page, cdp) {
  const net = watchNetwork();
  sink.net = net;
  for (const name of ['Network.requestWillBeSent', 'Network.requestServedFromCache', 'Network.responseReceived', 'Network.loadingFinished'])
    cdp.on(name, (e) => net.event(name, e));
  await cdp.send('Network.enable');
  if (profile) {
    await cdp.send('Network.emulateNetworkConditions', {offline: false, latency: profile.latency,
      downloadThroughput: profile.down / 8, uploadThroughput: profile.up / 8});
  }
  await page.goto(`${base}/`, {waitUntil: 'load', timeout: 60000});
  await page.waitForSelector('.game-card', {timeout: 60000});
  const marks = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    lobby: performance.getEntriesByName('tanbo-first-render')[0]?.startTime ?? null,
    load: performance.getEntriesByType('navigation')[0]?.loadEventEnd ?? null,
    origin: performance.timeOrigin,
  }));
  // Requests sent after the lobby is on screen (the pictures, the views fetched in the
  // background, the service worker's copies) are counted apart; each is counted once it has
  // ended (whether the network, the cache or the service worker answered it).
  await page.waitForTimeout(profile ? 4000 : 1000);  // what follows the first render: until quiet
  const firstRender = net.summary(marks.origin + marks.lobby);
  // The cards' pictures come after the cards (docs/web.md, "Start-up").
  marks.pictures = await page.evaluate(() => performance.getEntriesByName('tanbo-pictures')[0]?.startTime ?? null);
  const total = net.summary();
  if (args.includes('--waterfall')) console.log(net.waterfall());
  return {...marks, atFirstRender: firstRender, total};
}

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

const browser = await launchBrowser(chromiumPath);
const results = {cold: [], warm: []};
try {
  for (let i = 0; i < runs; ++i) {
    const ctx = await browser.newContext({viewport: {width: 390, height: 844}, locale: 'en-GB'});
    const browserSession = await browser.newBrowserCDPSession();
    const conditions = profile ? {offline: false, latency: profile.latency, downloadThroughput: profile.down / 8, uploadThroughput: profile.up / 8} : null;
    await watchServiceWorkers(browserSession, conditions, (method, params) => sink.net?.event(method, params));
    // The cold visit: a fresh context, nothing cached, no service worker.
    let page = await ctx.newPage();
    let cdp = await ctx.newCDPSession(page);
    const cold = await visit(page, cdp);
    results.cold.push(cold);
    // Once the service worker (if the page has one) is in charge, the same browser comes back
    // in a new tab; the service worker is throttled like the page.
    await page.evaluate(async () => {
      if (!('serviceWorker' in navigator)) return;
      const reg = await navigator.serviceWorker.getRegistration();
      if (reg) await navigator.serviceWorker.ready;
    });
    await page.close();
    page = await ctx.newPage();
    cdp = await ctx.newCDPSession(page);
    const warm = await visit(page, cdp);
    results.warm.push(warm);
    await ctx.close();
    await browserSession.detach().catch(() => {});
    const line = (name, r) => `${name}: first paint ${r.fcp?.toFixed(0)} ms, lobby ${r.lobby?.toFixed(0)} ms, ` +
      `pictures ${r.pictures?.toFixed(0) ?? '-'} ms, ` +
      `${r.atFirstRender.network} requests / ${(r.atFirstRender.bytes / 1024).toFixed(1)} KiB to the lobby, ` +
      `${r.total.network} / ${(r.total.bytes / 1024).toFixed(1)} KiB until quiet ` +
      `(${r.total.fromCache} from the cache, ${r.total.fromServiceWorker} from the service worker, ${r.total.notModified} 304)`;
    console.log(`run ${i + 1}: ${line('cold', cold)}`);
    console.log(`       ${line('warm', warm)}`);
  }
} finally {
  await browser.close().catch(() => {});
  if (server) await server.stop();
}

const pick = (list, f) => median(list.map(f));
const summary = {};
for (const kind of ['cold', 'warm']) {
  const list = results[kind];
  summary[kind] = {
    fcp_ms: pick(list, (r) => r.fcp),
    lobby_ms: pick(list, (r) => r.lobby),
    pictures_ms: pick(list, (r) => r.pictures),
    requests_to_lobby: pick(list, (r) => r.atFirstRender.network),
    kib_to_lobby: pick(list, (r) => r.atFirstRender.bytes / 1024),
    requests_total: pick(list, (r) => r.total.network),
    kib_total: pick(list, (r) => r.total.bytes / 1024),
  };
}
console.log(`median of ${runs} (${profileName}): ` + JSON.stringify(summary));

const out = opt('out');
if (out) {
  let commit = '';
  try { commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {cwd: here}).toString().trim(); } catch { /* not a checkout */ }
  await mkdir(path.dirname(path.resolve(out)), {recursive: true});
  await writeFile(out, JSON.stringify({date: new Date().toISOString(), commit, profile: profileName, conditions: profile,
    runs, chromium: (await import('node:child_process')).execFileSync(chromiumPath, ['--version']).toString().trim(),
    summary, results}, null, 2) + '\n');
  console.log(`written to ${out}`);
}

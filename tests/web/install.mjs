// The page as an installed app: its manifest and icons as Chromium reads them, the service
// worker it registers, and the lobby with no network (kept by the service worker), saying so and
// coming back online by itself.
import assert from 'node:assert/strict';
import {axeCheck} from './checks.mjs';
import {newPlayer, closeAll, docShot} from './support.mjs';

// The width and height a PNG's header gives.
function pngSize(bytes) {
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

// Resolves once the service worker controls the page (the first visit's worker claims it).
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
}

export function tests(env) {
  return [
    {name: 'install: the manifest is installable, its icons served at their sizes, under the CSP', fn: async () => {
      const p = await newPlayer(env, 'Ina');
      const cdp = await p.ctx.newCDPSession(p.page);
      const manifest = await cdp.send('Page.getAppManifest');
      assert.deepEqual(manifest.errors, [], 'the manifest as Chromium parsed it');
      assert.match(manifest.url, /^http:\/\/127\.0\.0\.1:\d+\/v\/[0-9a-f]{12}\/manifest\.webmanifest$/);
      const data = JSON.parse(manifest.data);
      assert.equal(data.name, 'Tanbo Server');
      assert.equal(data.display, 'standalone');
      assert.equal(new URL(data.start_url, manifest.url).href, `${env.base}/`);
      // What would stop Chromium offering to install, but that the test's browser contexts are
      // off the record (as a private window is), which is no property of the page.
      const {installabilityErrors} = await cdp.send('Page.getInstallabilityErrors');
      assert.deepEqual(installabilityErrors.filter((e) => e.errorId !== 'in-incognito'), [],
        'what would stop Chromium offering to install');
      // Each icon: served, of the type and size the manifest says; a maskable one among them.
      for (const icon of data.icons) {
        const res = await p.page.request.get(new URL(icon.src, manifest.url).href);
        assert.equal(res.status(), 200, icon.src);
        assert.equal(res.headers()['content-type'], icon.type, icon.src);
        if (icon.type === 'image/png') {
          const [w, h] = pngSize(await res.body());
          assert.equal(`${w}x${h}`, icon.sizes, icon.src);
        }
      }
      assert.ok(data.icons.some((i) => i.purpose === 'maskable' && i.sizes === '512x512'), 'a maskable icon');
      assert.ok(data.icons.some((i) => i.type === 'image/png' && i.sizes === '192x192'), 'a 192 px icon');
      // The service worker, served under the version, has the whole site as its scope.
      await controlled(p.page);
      const sw = await p.page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        return {scope: reg.scope, script: reg.active.scriptURL};
      });
      assert.equal(sw.scope, `${env.base}/`);
      assert.match(sw.script, /\/v\/[0-9a-f]{12}\/sw\.js$/);
      assert.deepEqual(p.errors, [], 'no page error, no Content-Security-Policy refusal');
      await closeAll([p]);
    }},
    {name: 'install: the lobby opens with no network, says it is offline, and reconnects by itself', fn: async () => {
      const p = await newPlayer(env, 'Oto');
      await controlled(p.page);
      // The lobby's pictures and the other views load after the start-up, some of them before the
      // worker is in charge: the page hands them to it.
      await p.page.waitForFunction(() => window.tanbo.warmed);
      await p.page.evaluate(() => window.tanbo.warmed);
      const kept = await p.page.evaluate(() => caches.keys());
      assert.ok(kept.some((k) => /^tanbo-shell-[0-9a-f]{12}$/.test(k)), `the shell's cache: ${kept}`);
      // The worker keeps them itself (the HTTP cache may let them go): the pictures' modules,
      // fetched before it was in charge, and the views warmed after.
      const files = await p.page.evaluate(async () => {
        const cache = await caches.open((await caches.keys()).find((k) => k.startsWith('tanbo-shell-')));
        return (await cache.keys()).map((r) => new URL(r.url).pathname.replace(/^\/v\/[0-9a-f]+\//, ''));
      });
      for (const f of ['card-pictures.js', 'boards/tsoro.js', 'rules.js', 'room.js', 'replay.js', 'ratings.js'])
        assert.ok(files.includes(f), `${f} kept by the worker: ${files.join(' ')}`);
      await p.ctx.setOffline(true);
      const res = await p.page.reload();
      assert.ok(res.fromServiceWorker(), 'the page comes from the service worker');
      await p.page.waitForSelector('.game-card');
      // The network is really gone, for the service worker too: a file it did not keep fails.
      const probe = await p.page.evaluate(async () => {
        const prefix = document.querySelector('script[type=module]').src.match(/\/v\/[0-9a-f]+\//)[0];
        try {
          return (await fetch(`${prefix}app.js?not-kept`)).status;
        } catch {
          return 'failed';
        }
      });
      assert.equal(probe, 'failed', 'a request that is not kept reaches no network');
      // Every game is offered, from the registry the page itself holds.
      assert.equal(await p.page.locator('.game-card').count(), 4);
      // With their pictures, which load after the cards.
      await p.page.waitForFunction(() => document.querySelectorAll('.card-picture svg[role=img]').length === 4);
      await p.page.waitForSelector('#conn[data-state="offline"]');
      assert.equal(await p.page.locator('#conn').textContent(), 'Offline');
      assert.match(await p.page.locator('#offline-note').textContent(), /You are offline\. The page reconnects by itself/);
      assert.ok(await p.page.locator('#offline-note').isVisible());
      await axeCheck(p.page, 'lobby offline');
      await docShot(env, p.page, 'lobby-offline');
      // A view loaded when first opened opens without network too: the worker kept it.
      await p.page.evaluate(() => { location.hash = '#/rules/tsoro'; });
      await p.page.waitForSelector('#rules-title');
      assert.equal(await p.page.locator('.rules-figure svg[role=img]').count(), 1, 'the rules\' board drawn');
      await p.page.evaluate(() => { location.hash = '#/'; });
      await p.page.waitForSelector('.game-card');
      // The network comes back: no click, no reload.
      await p.ctx.setOffline(false);
      await p.page.waitForFunction(() => window.tanbo.conn.state === 'open', null, {timeout: 15000});
      await p.page.waitForSelector('#conn[data-state="open"]');
      assert.ok(await p.page.locator('#offline-note').isHidden(), 'the offline note goes away');
      assert.equal(await p.page.evaluate(() => window.tanbo.conn.player?.name), 'Oto', 'the same player as before');
      assert.deepEqual(p.errors, []);
      await closeAll([p]);
    }},
  ];
}

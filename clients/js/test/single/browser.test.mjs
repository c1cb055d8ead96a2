// The client in a browser: headless Chromium (Debian's, driven by tests/web's playwright-core)
// loads its modules as they are, over the server's origin, plays a game against the computer
// with the browser's WebSocket, and is the same player after a reload (localStorage).
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {CLIENT_DIR} from '../support.mjs';

const CHROMIUM = '/usr/bin/chromium';
const HARNESS = fileURLToPath(new URL('../../../../tests/web/harness.mjs', import.meta.url));
const PLAYWRIGHT = fileURLToPath(new URL('../../../../tests/web/node_modules/playwright-core', import.meta.url));

test('in Chromium, the client plays a game and keeps its identity in localStorage', async () => {
  // tools/install-deps.sh --test installs both, so a missing one fails the test, as the
  // browser tests do.
  assert.ok(existsSync(CHROMIUM), `no browser at ${CHROMIUM}: run tools/install-deps.sh --test`);
  assert.ok(existsSync(PLAYWRIGHT), `no ${PLAYWRIGHT}: run tools/install-deps.sh --test`);
  const http = process.env.TANBO_HTTP;
  assert.ok(http, 'TANBO_HTTP is set by tests/clients/with-server.py');
  const {launchBrowser} = await import(HARNESS);
  const browser = await launchBrowser(CHROMIUM);
  try {
    const page = await browser.newPage();
    // The client's modules, served as if the server had them, to a page of the server's own
    // (loaded from it: a page the test made up would count as a public site, which Chromium
    // forbids to open a socket to this machine).
    await page.route(`${http}/client-test/**`, async (route) => {
      const file = new URL(route.request().url()).pathname.replace('/client-test/', '');
      await route.fulfill({contentType: 'text/javascript', body: await readFile(join(CLIENT_DIR, 'src', file), 'utf8')});
    });
    const url = `${http.replace(/^http/, 'ws')}/ws`;
    const playOne = () => page.evaluate(async (wsUrl) => {
      const modules = '/client-test/index.js';  // the page's, not this file's
      /** @type {typeof import('../../src/index.js')} */
      const {TanboClient} = await import(modules);
      const client = await TanboClient.connect(wsUrl, {name: 'Browser'});
      const finished = new Promise((resolve) => {
        client.on('state', (state) => {
          if (state.status === 'finished') resolve(state);
          else if (state.legal) client.act(state.room, state.legal[0], state.version).catch(() => {});
        });
      });
      await client.create('tsoro', {cpu: [{seat: 1, level: 'random'}]});
      const end = await finished;
      client.close();
      return {id: client.player.id, status: end.status, places: end.result.places,
              native: typeof WebSocket === 'function', kept: Object.keys(localStorage)};
    }, url);
    await page.goto(`${http}/healthz`);
    const first = await playOne();
    assert.equal(first.native, true, "the browser's own WebSocket");
    assert.equal(first.status, 'finished');
    assert.equal(first.places.length, 2);
    assert.deepEqual(first.kept, ['tanbo-client.token:default']);
    await page.reload();
    const second = await playOne();
    assert.equal(second.id, first.id, 'the same player after a reload');
  } finally {
    await browser.close();
  }
});

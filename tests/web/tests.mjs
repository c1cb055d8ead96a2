// The browser tests: everything is done by clicking in the page, as a person would; the page's
// own state (window.tanbo) is only read, to know when the server's answer has arrived and an
// animation has finished.
import assert from 'node:assert/strict';
import {copyFile} from 'node:fs/promises';
import path from 'node:path';
import {axeCheck, smallTargets, someInView, clientSize} from './checks.mjs';
import {catalogueProblems} from './catalogue.mjs';

const PHONE = {width: 390, height: 844};
const DESKTOP = {width: 1280, height: 800};
const LOCALES = {en: 'en-GB', fr: 'fr-FR', ja: 'ja-JP'};
const GAMES = ['mancala-simple', 'steere-tanbo', 'tsoro', 'tanbo'];

// A new browser context: its language is the browser's (navigator.languages), the name and the
// animation speed are set through the header's settings.
async function newPlayer(env, name, {viewport = PHONE, lang = 'en', speed = 'fast', reducedMotion} = {}) {
  const ctx = await env.browser.newContext({viewport, locale: LOCALES[lang], reducedMotion});
  const page = await ctx.newPage();
  page.setDefaultTimeout(10000);
  const errors = [];
  page.on('pageerror', (e) => { errors.push(e.message); console.log(`     [${name}] page error: ${e.stack || e.message}`); });
  page.on('console', (m) => { if (m.type() === 'warning' && m.text().startsWith('i18n')) errors.push(m.text()); });
  await page.goto(`${env.base}/`);
  await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
  await rename({page}, name);
  await page.waitForFunction((n) => window.tanbo.conn.player?.name === n && window.tanbo.conn.state === 'open', name);
  await setSpeed({page}, speed);
  await page.waitForSelector('.game-card');
  return {ctx, page, errors, name};
}

async function openPrefs(page) {
  if (!(await page.locator('#prefs').evaluate((d) => d.open))) await page.click('#prefs summary');
}
async function closePrefs(page) {
  if (await page.locator('#prefs').evaluate((d) => d.open)) await page.click('#prefs summary');
}
async function rename(p, name) {
  await openPrefs(p.page);
  await p.page.fill('#name-input', name);
  await p.page.click('.name-form button');
  await p.page.waitForFunction(() => window.tanbo.conn.state === 'open');
  await closePrefs(p.page);
}
async function setSpeed(p, speed) {
  await openPrefs(p.page);
  await p.page.selectOption('#speed', speed);
  await closePrefs(p.page);
}

async function closeAll(players) {
  for (const p of players) {
    assert.deepEqual(p.errors, [], `${p.name}: errors in the page`);
    await p.ctx.close();
  }
}

async function toLobby(p) {
  if (!(await p.page.locator('.game-card').count())) {
    await p.page.goto(`${new URL(p.page.url()).origin}/#/`);
    await p.page.waitForSelector('.game-card');
  }
}

// Fills the "Custom game" form (game, players, options, CPU seats) and submits it; returns the
// room id.
async function createRoom(p, game, {seats, options = {}, cpu = {}, timer, setup, ranked} = {}) {
  const page = p.page;
  await toLobby(p);
  await page.click(`[data-custom="${game}"]`);
  await page.waitForSelector('#create-form');
  if (seats) await page.selectOption('#create-seats', String(seats));
  for (const [name, value] of Object.entries(options)) {
    const sel = `#opt-${name}`;
    const tag = await page.locator(sel).evaluate((el) => el.tagName + ':' + el.type);
    if (tag === 'INPUT:checkbox') await page.setChecked(sel, value);
    else if (tag.startsWith('SELECT')) await page.selectOption(sel, JSON.stringify(value));
    else await page.fill(sel, String(value));
  }
  for (const [seat, level] of Object.entries(cpu)) await page.selectOption(`#cpu-${seat}`, level);
  if (timer) await page.selectOption('#create-timer', String(timer));
  if (ranked) await page.setChecked('#create-ranked', true);
  if (setup) {
    await page.click('details.setup summary');
    await page.fill('#create-setup', JSON.stringify(setup));
  }
  await page.click('#create-form button[type=submit]');
  await page.waitForFunction(() => window.tanbo.view?.msg?.room);
  return page.evaluate(() => window.tanbo.view.msg.room);
}

// "Play the computer" on a game's card: the first time, the level is chosen in a dialog.
async function playComputer(p, game, level = 'random') {
  await toLobby(p);
  await p.page.click(`[data-play-cpu="${game}"]`);
  if (await p.page.locator('#level-ok').count()) {
    await p.page.check(`.level-dialog input[value="${level}"]`);
    await p.page.click('#level-ok');
  }
  await p.page.waitForFunction(() => window.tanbo.view?.msg?.status === 'playing');
  return p.page.evaluate(() => window.tanbo.view.msg.room);
}

async function joinFromLobby(p, room) {
  const page = p.page;
  await toLobby(p);
  await page.waitForSelector(`[data-join="${room}"]`);
  await page.click(`[data-join="${room}"]`);
  await page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat !== null, room);
}

function viewInfo(page) {
  return page.evaluate(() => {
    const v = window.tanbo.view;
    const m = v?.msg;
    if (!m) return null;
    return {version: m.version, status: m.status, decision: m.pending?.decision ?? null,
            mine: !!(m.pending && v.seat === m.pending.seat && m.legal && v.sent !== m.version && !v.animating)};
  });
}

const waitMine = (page, timeout = 15000) => page.waitForFunction(() => {
  const v = window.tanbo.view, m = v?.msg;
  return m && (m.status === 'finished' || (m.pending && m.pending.seat === v.seat && m.legal && v.sent !== m.version && !v.animating));
}, null, {timeout});

// Clicks one of the offered choices at random: a highlighted board element or a control button
// (a swap takes two clicks).
async function clickDecision(page) {
  const choices = page.locator('#board .pick, #controls [data-action], #controls [data-swap-first]');
  const n = await choices.count();
  if (n === 0) {
    const why = await page.evaluate(() => JSON.stringify({pending: window.tanbo.view.msg.pending, legal: window.tanbo.view.msg.legal}));
    assert.fail(`no control for the pending decision: ${why}`);
  }
  const pick = choices.nth(Math.floor(Math.random() * n));
  const swapFirst = await pick.getAttribute('data-swap-first');
  await pick.click();
  if (swapFirst !== null) {
    const second = page.locator('#controls [data-swap-second]');
    await second.first().waitFor();
    await second.nth(Math.floor(Math.random() * (await second.count()))).click();
  }
}

// One decision by whichever page must decide; returns its kind, or null when nobody was to
// decide yet (a state still on its way).
async function playStep(players) {
  for (const p of players) {
    const info = await viewInfo(p.page);
    if (!info?.mine) continue;
    await clickDecision(p.page);
    await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version, {timeout: 10000});
    return info.decision;
  }
  await players[0].page.waitForTimeout(30);
  return null;
}

async function clickWhenMine(p, selector, timeout = 10000) {
  await waitMine(p.page, timeout);
  const info = await viewInfo(p.page);
  await p.page.locator(selector).first().click();
  await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version, {timeout});
  return info.decision;
}

async function status(p) { return (await viewInfo(p.page))?.status; }

async function rematchAll(players) {
  for (const p of players) if (await p.page.locator('#rematch:not([disabled])').count()) await p.page.click('#rematch');
  await players[0].page.waitForFunction(() => window.tanbo.view.msg.status === 'playing', null, {timeout: 10000});
}

// Plays by clicking until every kind in `kinds` was decided by a click (rematching when a game
// ends first) or `maxSteps` decisions were made; returns the kinds seen.
async function playForKinds(players, kinds, maxSteps) {
  const seen = new Set();
  for (let steps = 0; steps < maxSteps && !kinds.every((k) => seen.has(k));) {
    if ((await status(players[0])) === 'finished') { await rematchAll(players); continue; }
    const kind = await playStep(players);
    if (kind) { seen.add(kind); steps++; }
  }
  return seen;
}

async function shot(env, p, name) {
  await p.page.locator('#board').screenshot({path: path.join(env.outDir, `${name}.png`)});
  await p.page.screenshot({path: path.join(env.outDir, `${name}-page.png`), fullPage: true});
}

// A picture for docs/web (when the run was given --docs): the viewport as a player sees it.
async function docShot(env, page, name) {
  const file = path.join(env.outDir, `doc-${name}.png`);
  await page.screenshot({path: file});
  if (env.docsDir) await copyFile(file, path.join(env.docsDir, `${name}.png`));
}

export function tests(env) {
  const finished = {};

  // A game against a second context, or the computer, through the custom form.
  async function decisionsTest(game, {options = {}, kinds, maxSteps, file, timer, resign}) {
    const a = await newPlayer(env, 'Ana');
    const players = [a];
    const room = await createRoom(a, game, {options, timer, cpu: {1: 'random'}});
    await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
    await a.page.waitForSelector('#board svg');
    let spectator = null;
    if (timer) {
      // The clock counts down for everyone: the deciding seat, the other seat, a spectator.
      await a.page.waitForSelector('#seats [data-clock], .seats [data-clock]');
      const left = Number((await a.page.locator('.seats [data-clock]').first().textContent()).match(/(\d+)/)[1]);
      assert.ok(left > 0 && left <= timer, `clock shows ${left}`);
      spectator = await newPlayer(env, 'Cid');
      await spectator.page.goto(`${env.base}/#/room/${room}`);
      await spectator.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
      await spectator.page.waitForSelector('.seats [data-clock] .clock-text:not(:empty)');
      assert.match(await spectator.page.locator('#banner').textContent(), /\d+ s left/);
      assert.doesNotMatch(await spectator.page.locator('#banner').textContent(), /Your turn|one of your/);
    }
    const seen = await playForKinds(players, kinds, maxSteps);
    for (let i = 0; i < 50; ++i) {
      const info = await viewInfo(a.page);
      if (info.mine || info.status === 'finished') break;
      await a.page.waitForTimeout(50);
    }
    await shot(env, a, file);
    assert.deepEqual([...kinds].filter((k) => !seen.has(k)), [], `decision kinds never clicked in ${game} (seen: ${[...seen]})`);
    if (resign && (await status(a)) === 'playing') {
      // Resign asks first: "Keep playing" changes nothing, "Resign" ends the game; then rematch.
      await a.page.click('#resign');
      await a.page.click('#resign-cancel');
      assert.equal(await status(a), 'playing');
      await a.page.click('#resign');
      await a.page.click('#resign-confirm');
      await a.page.waitForSelector('#result .reason');
      assert.match(await a.page.locator('#result .reason').textContent(), /Reason: resignation/);
      assert.equal(await a.page.locator('#result .reason').getAttribute('data-reason'), 'resigned');
      assert.match(await a.page.locator('#result h3').textContent(), /You finished 2nd/);
      await a.page.click('#rematch');
      await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
      // A rematch: the log separates the two games and numbers the new one from its start.
      await a.page.waitForSelector('#log .game-sep');
    }
    if (spectator) await closeAll([spectator]);
    await closeAll(players);
  }

  // One game of `game` against the computer, in `lang` at `viewport`: a few decisions by
  // clicking (one by the keyboard), each with its controls in view and its targets finger-sized
  // on a phone; axe on the room; a screenshot for docs/web in English.
  async function playEverywhere(game, lang, viewport, label) {
    const p = await newPlayer(env, lang === 'ja' ? '花子' : lang === 'fr' ? 'Élodie' : 'Ana', {viewport, lang});
    assert.equal(await p.page.evaluate(() => document.documentElement.lang), lang);
    await playComputer(p, game);
    await p.page.waitForSelector('#board svg');
    const phone = viewport.width < 500;
    let keyboard = false, decisions = 0;
    for (let i = 0; i < 40 && decisions < 6; ++i) {
      await waitMine(p.page);
      if ((await status(p)) === 'finished') { await rematchAll([p]); continue; }
      await p.page.evaluate(() => window.scrollTo(0, 0));
      const info = await viewInfo(p.page);
      if (phone) {
        assert.deepEqual(await smallTargets(p.page), [], `${game} ${lang}: board targets under 44 px`);
        assert.ok(await someInView(p.page, '#board .pick, #controls button'), `${game} ${lang} ${info.decision}: no control in view without scrolling`);
      }
      if (!keyboard && (await p.page.locator('#board .pick, #controls button').count())) {
        // The keyboard: focus is on the first control when a decision arrives; Enter plays it.
        const focused = await p.page.evaluate(() => document.activeElement?.matches?.('.pick [role=button], #controls button'));
        if (focused) {
          await p.page.keyboard.press('Enter');
          await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
          keyboard = true;
          decisions++;
          continue;
        }
      }
      await clickDecision(p.page);
      await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      decisions++;
    }
    assert.ok(decisions >= 3, `${game} ${lang}: only ${decisions} decisions made`);
    assert.ok(keyboard, `${game} ${lang}: no decision made by the keyboard`);
    await waitMine(p.page);
    await p.page.waitForTimeout(100);  // the page scrolls the board into view on a phone
    if (lang === 'en') await docShot(env, p.page, `${game}-${label}`);
    await p.page.evaluate(() => window.scrollTo(0, 0));
    // The log names the computer's seat as the seats do: one name per computer seat.
    const cpuName = await p.page.locator('.seat[data-seat="1"] .seat-name').textContent();
    assert.ok((await p.page.locator('#log').textContent()).includes(cpuName), `${game} ${lang}: log without "${cpuName}"`);
    // The last move is marked whenever the last step moved something (not after a bare start).
    const moved = await p.page.evaluate(() => window.tanbo.view.msg.events.some((e) => ['sow', 'place', 'pick_up', 'capture', 'bonus'].includes(e.type)));
    if (moved) assert.ok((await p.page.locator('#board .mark, #board .last-dot').count()) > 0, `${game}: no last move marked`);
    await axeCheck(p.page, `${game} room (${lang}, ${viewport.width} px)`);
    await closeAll([p]);
  }

  const everywhere = [];
  for (const game of GAMES)
    for (const lang of ['en', 'fr', 'ja'])
      for (const [label, vp] of [['desktop', DESKTOP], ['phone', PHONE]])
        everywhere.push({name: `play: ${game} against the computer in ${lang} at ${vp.width}x${vp.height}`, fn: () => playEverywhere(game, lang, vp, label)});

  return [
    {name: 'catalogues: every key in every language, no extra key, plural forms and placeholders agree', fn: async () => {
      const problems = await catalogueProblems(env.webDir);
      assert.deepEqual(problems, []);
    }},
    {name: 'size: the whole client compressed', fn: async () => {
      const size = await clientSize(env.webDir);
      console.log(`     client: ${size.files} files, ${(size.raw / 1024).toFixed(1)} KiB, gzip -9 ${(size.gz / 1024).toFixed(1)} KiB`);
      assert.ok(size.gz < 200 * 1024, `${size.gz} bytes compressed`);
    }},
    {name: 'lobby: first render, each language, rooms in view at both sizes, language and sound remembered', fn: async () => {
      // The first render: from navigation to the first view on screen (performance mark).
      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      await p.page.reload();
      await p.page.waitForSelector('.game-card');
      const ms = await p.page.evaluate(() => performance.getEntriesByName('tanbo-first-render')[0]?.startTime);
      const paint = await p.page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
      console.log(`     first render: lobby on screen ${ms.toFixed(0)} ms after navigation (first contentful paint ${paint?.toFixed(0)} ms)`);
      assert.ok(ms < 5000, `first render took ${ms} ms`);
      // A waiting room and a live match, so both lists have something to show.
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP});
      const open = await createRoom(b, 'mancala-simple', {});
      const c = await newPlayer(env, 'Cid', {viewport: DESKTOP});
      const live = await playComputer(c, 'tsoro');
      for (const [vp, label] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
        await p.page.setViewportSize(vp);
        await p.page.goto(`${env.base}/#/`);
        await p.page.waitForSelector(`#open-rooms [data-room="${open}"]`);
        await p.page.waitForSelector(`#live-rooms [data-room="${live}"]`);
        assert.ok(await someInView(p.page, '#open-h'), `open rooms heading in view at ${label}`);
        assert.ok(await someInView(p.page, `#open-rooms [data-room="${open}"] .room-main`), `open room in view at ${label}`);
        assert.ok(await someInView(p.page, `#live-rooms [data-room="${live}"] .room-main`), `live match in view at ${label}`);
        assert.match(await p.page.locator(`#open-rooms [data-room="${open}"]`).textContent(), /Ben, Seat 2 \(free\)/);
        if (label === 'phone') await docShot(env, p.page, 'lobby-phone');
      }
      await p.page.setViewportSize(DESKTOP);
      for (const lang of ['en', 'fr', 'ja']) {
        await p.page.selectOption('#lang', lang);
        await p.page.waitForFunction((l) => document.documentElement.lang === l, lang);
        await p.page.waitForSelector(`#open-rooms [data-room="${open}"]`);
        await axeCheck(p.page, `lobby (${lang})`);
        await docShot(env, p.page, `lobby-${lang}`);
      }
      assert.match(await p.page.locator('#open-h').textContent(), /参加できるルーム/);
      // Remembered: the language, and the sound switch.
      await p.page.click('#sound');
      const pressed = await p.page.locator('#sound').getAttribute('aria-pressed');
      await p.page.reload();
      await p.page.waitForSelector('.game-card');
      assert.equal(await p.page.evaluate(() => document.documentElement.lang), 'ja');
      assert.equal(await p.page.locator('#sound').getAttribute('aria-pressed'), pressed);
      assert.match(await p.page.locator('[data-play-cpu="tsoro"]').textContent(), /コンピューターと対局/);
      // The custom set-up is offered only where the game accepts one.
      await p.page.selectOption('#lang', 'en');
      for (const [game, offered] of [['tanbo', 1], ['steere-tanbo', 1], ['mancala-simple', 0], ['tsoro', 0]]) {
        await p.page.click(`[data-custom="${game}"]`);
        assert.equal(await p.page.locator('#create-setup').count(), offered, `set-up field for ${game}`);
      }
      // Option labels in players' words: no ruling ids such as "(M1)".
      assert.doesNotMatch(await p.page.locator('#custom').textContent(), /\([A-Z]\d\)/);
      await closeAll([p, b, c]);
    }},
    {name: 'names: an apostrophe is a name; a refused one is shown with the reason (in each language) and the old name stays', fn: async () => {
      const a = await newPlayer(env, "D'Artagnan");
      await openPrefs(a.page);
      assert.equal(await a.page.locator('#name-input').getAttribute('maxlength'), '24');
      await closePrefs(a.page);
      await rename(a, 'Ana <3');
      await a.page.waitForSelector('#toast:not([hidden])');
      assert.match(await a.page.locator('#toast').textContent(), /"Ana <3" was refused: a name is 1 to 24 letters/);
      await a.page.waitForFunction(() => window.tanbo.conn.state === 'open');
      assert.equal(await a.page.evaluate(() => window.tanbo.conn.player.name), "D'Artagnan");
      await a.page.selectOption('#lang', 'fr');
      await rename(a, 'Ana <3');
      await a.page.waitForFunction(() => /« Ana <3 » a été refusé : un nom compte de 1 à 24/.test(document.getElementById('toast').textContent));
      assert.equal(await a.page.evaluate(() => window.tanbo.conn.player.name), "D'Artagnan");
      await closeAll([a]);
    }},
    {name: 'mancala-simple: two players play a full game by clicking, a spectator sees the same result, a reload and a dropped connection keep the seat', fn: async () => {
      const a = await newPlayer(env, 'Ana', {speed: 'off'});
      const b = await newPlayer(env, 'Ben', {speed: 'off'});
      const room = await createRoom(a, 'mancala-simple', {seats: 2, options: {stones: 3}});
      await b.page.waitForSelector(`#open-rooms [data-room="${room}"]`);
      assert.match(await b.page.locator(`#open-rooms [data-room="${room}"]`).textContent(), /Ana, Seat 2 \(free\)/);
      await b.page.screenshot({path: path.join(env.outDir, 'lobby.png'), fullPage: true});
      await joinFromLobby(b, room);
      const c = await newPlayer(env, 'Cid', {speed: 'off'});
      await c.page.goto(`${env.base}/#/room/${room}`);
      await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
      assert.equal(await c.page.evaluate(() => window.tanbo.view.seat), null);
      await c.page.waitForFunction(() => window.tanbo.view.msg.spectators === 1);
      assert.match(await c.page.locator('#spectators').textContent(), /1 spectator/);
      // A spectator is told who is choosing, never to choose.
      assert.match(await c.page.locator('#banner').textContent(), /is choosing a hole to sow/);
      const e = await newPlayer(env, 'Eve');
      const live = e.page.locator(`#live-rooms [data-room="${room}"]`);
      await live.waitFor();
      assert.match(await live.textContent(), /1 spectator/);
      assert.equal(await live.locator(`[data-watch="${room}"]`).count(), 1);
      await closeAll([e]);

      let steps = 0, reloaded = false, dropped = false;
      while ((await status(a)) !== 'finished') {
        if (await playStep([a, b])) steps++;
        if (steps === 1) {
          await a.page.waitForFunction(() => window.tanbo.view.msg.spectators === 1);
          assert.match(await a.page.locator('#spectators').textContent(), /1 spectator/);
        }
        if (steps === 5 && !reloaded) {
          reloaded = true;
          await a.page.reload();
          await a.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat === 0, room);
          assert.match(await a.page.locator('.seat.mine').textContent(), /you/);
          assert.match(await a.page.locator('#conn').textContent(), /Connected/);
          // The history comes back with the reload: the log starts at the game's start.
          await a.page.waitForSelector('#log li.start');
        }
        if (steps === 10 && !dropped) {
          dropped = true;
          await b.page.evaluate(() => new Promise((resolve) => {
            const conn = window.tanbo.conn;
            conn.addEventListener('connstate', (ev) => { if (ev.detail === 'closed') resolve(); });
            conn.ws.close();
          }));
          assert.match(await b.page.locator('#conn').textContent(), /Disconnected/);
          await b.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.view.seat === 1);
          assert.match(await b.page.locator('#conn').textContent(), /Connected/);
        }
        assert.ok(steps < 400, 'the game did not end');
      }
      for (const p of [a, b, c]) await p.page.waitForSelector('#result .places');
      const places = await Promise.all([a, b, c].map((p) => p.page.locator('#result .places').textContent()));
      assert.equal(places[1], places[0]);
      assert.equal(places[2], places[0]);
      assert.match(await c.page.locator('#result .reason').textContent(), /Reason: a player emptied their side/);
      await c.page.waitForSelector('#result .ok');
      assert.match(await c.page.locator('#result .ok').textContent(), /Fair draw checked/);
      await shot(env, c, 'mancala-2-finished');
      const lastDecision = await c.page.evaluate(() => Math.max(...[...document.querySelectorAll('#log [data-decision]')].map((li) => Number(li.dataset.decision))));
      finished.mancala = {room, places: places[0], lastDecision};
      await closeAll([a, b, c]);
    }},
    {name: 'replay: a finished game steps through its boards to the end, with its result and seed check; the count is the log\'s', fn: async () => {
      assert.ok(finished.mancala, 'needs the finished game of the full-game test');
      const p = await newPlayer(env, 'Dee', {speed: 'off'});
      const page = p.page;
      const step = () => page.locator('#replay-step').textContent();
      const board = () => page.locator('#replay-board svg.board-svg').evaluate((svg) => svg.outerHTML);
      await page.goto(`${env.base}/#/replays`);
      await page.click(`#replay-list a[href*="${finished.mancala.room}"]`);
      await page.waitForSelector('#replay-step');
      const total = Number((await step()).match(/of (\d+)/)[1]);
      assert.ok(total > 5);
      // The room's log numbered its last decision as the replay counts them.
      assert.equal(finished.mancala.lastDecision, total, 'the log\'s last number is the replay\'s count');
      await page.waitForSelector('#replay-board svg.mancala');
      const start = await board();
      assert.match(await page.locator('#replay-events').textContent(), /The game starts/);
      assert.match(await page.locator('#replay-turn').textContent(), /^Next: .*choosing a hole to sow/);
      await page.click('#replay-forward');
      assert.equal(await step(), `Move 1 of ${total}`);
      const first = await board();
      assert.notEqual(first, start, 'one decision changes the board');
      assert.match(await page.locator('#replay-events').textContent(), /sow hole \d+/);
      await page.click('#replay-end');
      assert.equal(await step(), `Move ${total} of ${total}`);
      const end = await board();
      assert.notEqual(end, start, 'the end differs from the start');
      assert.match(await page.locator('#replay-result').textContent(), /Reason: a player emptied their side/);
      assert.match(await page.locator('#replay-events').textContent(), /Game over: a player emptied their side/);
      assert.equal(await page.locator('#replay-turn').textContent(), 'Game over.');
      await page.click('#replay-back');
      assert.equal(await step(), `Move ${total - 1} of ${total}`);
      assert.equal(await page.locator('#replay-result').textContent(), '');
      await page.keyboard.press('Home');
      assert.equal(await step(), `Move 0 of ${total}`);
      assert.equal(await board(), start);
      await page.keyboard.press('ArrowRight');
      assert.equal(await step(), `Move 1 of ${total}`);
      assert.equal(await board(), first);
      await page.keyboard.press('ArrowLeft');
      assert.equal(await step(), `Move 0 of ${total}`);
      await page.keyboard.press('End');
      assert.equal(await step(), `Move ${total} of ${total}`);
      assert.equal(await board(), end);
      await page.waitForSelector('#replay-verify[data-ok=true]');
      assert.match(await page.locator('#replay-verify').textContent(), /SHA-256/);
      // The stepper's symbols are drawn as SVG, not as characters a font may lack.
      assert.equal(await page.locator('#replay-start svg.icon, #replay-end svg.icon').count(), 2);
      assert.doesNotMatch(await page.locator('.stepper').textContent(), /[⏮⏭⏱]/u);
      await axeCheck(page, 'replay');
      await page.setViewportSize(DESKTOP);
      await page.evaluate(() => window.scrollTo(0, 0));
      await docShot(env, page, 'replay');
      await page.locator('#replay-board').screenshot({path: path.join(env.outDir, 'replay-board.png')});
      await closeAll([p]);
    }},
    {name: 'animation: a sowing plays stone by stone from the previous position, then the server\'s state; none under reduced motion', fn: async () => {
      const p = await newPlayer(env, 'Ana', {speed: 'slow'});
      await playComputer(p, 'mancala-simple');
      await waitMine(p.page);
      // Record what the board shows while the next states arrive: frames with a pit being sown.
      await p.page.evaluate(() => {
        window.__frames = 0;
        new MutationObserver(() => { if (document.querySelector('#board .mark.active')) window.__frames++; })
          .observe(document.getElementById('board'), {childList: true, subtree: true});
      });
      await clickDecision(p.page);
      await p.page.waitForFunction(() => window.__frames >= 2, null, {timeout: 10000});
      await waitMine(p.page, 20000);
      // Once played, the board is the server's: every hole shows the state's count.
      const same = await p.page.evaluate(() => {
        const st = window.tanbo.view.msg.state;
        return [...document.querySelectorAll('#board .pit')].every((g) =>
          Number(g.querySelector('.count').textContent) === st.seats[g.dataset.seat].holes[g.dataset.hole]);
      });
      assert.ok(same, 'the board after the animation is the server state');
      assert.equal(await p.page.locator('#board .mark.active').count(), 0);
      await closeAll([p]);
      const r = await newPlayer(env, 'Ben', {speed: 'slow', reducedMotion: 'reduce'});
      await playComputer(r, 'mancala-simple');
      await r.page.evaluate(() => {
        window.__animated = false;
        setInterval(() => { if (window.tanbo.view.animating) window.__animated = true; }, 5);
      });
      for (let i = 0; i < 3; ++i) {
        await waitMine(r.page);
        if ((await status(r)) === 'finished') break;
        const info = await viewInfo(r.page);
        await clickDecision(r.page);
        await r.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      }
      assert.equal(await r.page.evaluate(() => window.__animated), false, 'animated under prefers-reduced-motion');
      await closeAll([r]);
    }},
    {name: 'absences: a decision the computer makes for an away player, and one for a player whose time ran out, are shown as the computer\'s', fn: async () => {
      // Away: Ana leaves her game against the computer; past the grace (5 s in this run) the
      // computer plays for her, and a spectator sees it in the log and on her seat.
      const a = await newPlayer(env, 'Ana');
      const room = await playComputer(a, 'tsoro');
      const c = await newPlayer(env, 'Cid');
      await c.page.goto(`${env.base}/#/room/${room}`);
      await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
      await a.ctx.close();
      await c.page.waitForSelector('#log li:has-text("The computer for Ana (away)")', {timeout: 30000});
      await c.page.waitForSelector('.seat[data-seat="0"] [data-by="takeover"], .seat[data-seat="0"] .tag.cpu');
      // Timer: Ben lets his 30 s run out in a timed room; the computer's move is named so.
      const b = await newPlayer(env, 'Ben');
      await createRoom(b, 'mancala-simple', {timer: 30, cpu: {1: 'random'}, options: {first: 0}});
      await b.page.waitForSelector('.seats [data-clock]');
      await b.page.waitForSelector('#log li:has-text("The computer for Ben (time ran out)")', {timeout: 45000});
      await b.page.waitForSelector('.seat[data-seat="0"] [data-by="timer"]');
      await closeAll([b, c]);
    }},
    {name: 'ratings: a ranked game moves both players on the leaderboard; a player page with its chart and replays', fn: async () => {
      const a = await newPlayer(env, 'Rina', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Rolf', {viewport: DESKTOP});
      const ids = [];
      for (let game = 0; game < 2; ++game) {
        const room = await createRoom(a, 'mancala-simple', {ranked: true, options: {first: 0}});
        await joinFromLobby(b, room);
        await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
        await a.page.click('#resign');
        await a.page.click('#resign-confirm');
        await a.page.waitForSelector('#result .reason');
        ids.push(room);
        await a.page.goto(`${env.base}/#/`);
        await b.page.goto(`${env.base}/#/`);
      }
      const rolf = await b.page.evaluate(() => window.tanbo.conn.player.id);
      await a.page.goto(`${env.base}/#/leaderboard/mancala-simple`);
      await a.page.waitForFunction(() => document.querySelectorAll('#leaderboard tbody tr').length >= 2, null, {timeout: 15000});
      assert.match(await a.page.locator('#leaderboard tbody tr').first().textContent(), /Rolf/);
      await axeCheck(a.page, 'leaderboard');
      await a.page.click(`#leaderboard a[href="#/player/${rolf}"]`);
      await a.page.waitForSelector('#player-name');
      assert.match(await a.page.locator('#player-name').textContent(), /Rolf/);
      await a.page.waitForSelector('.rating-card[data-game="mancala-simple"] svg.rating-chart');
      assert.match(await a.page.locator('.rating-card .rating').textContent(), /after 2 ranked games/);
      assert.equal(await a.page.locator('.rating-chart .chart-dot').count(), 3);
      assert.ok(await a.page.locator('#player-recent a[href^="#/replay/"]').count() >= 2);
      await axeCheck(a.page, 'player page');
      await docShot(env, a.page, 'player');
      await closeAll([a, b]);
    }},
    {name: 'rules: a page per game in each language, with its board, linked from the lobby and the room', fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      for (const lang of ['en', 'fr', 'ja']) {
        await p.page.selectOption('#lang', lang);
        for (const game of GAMES) {
          await p.page.goto(`${env.base}/#/`);
          await p.page.click(`.game-card[data-game="${game}"] a[href="#/rules/${game}"]`);
          await p.page.waitForSelector('#rules-title');
          assert.equal(await p.page.locator('.rules-figure svg.board-svg').count(), 1);
          assert.ok((await p.page.locator('.rules-section').count()) >= 5);
          await axeCheck(p.page, `rules of ${game} (${lang})`);
          if (lang === 'en' && game === 'tsoro') await docShot(env, p.page, 'rules-tsoro');
        }
      }
      await p.page.selectOption('#lang', 'en');
      await playComputer(p, 'steere-tanbo');
      await p.page.click('.room-info a.rules-link');
      await p.page.waitForSelector('#rules-title');
      assert.match(await p.page.locator('#rules-title').textContent(), /Tanbo \(Mark Steere\)/);
      await closeAll([p]);
    }},
    {name: 'mancala-simple: the sow decision by clicking a hole', fn: () =>
      decisionsTest('mancala-simple', {kinds: ['sow'], maxSteps: 3, file: 'mancala-2'})},
    {name: 'mancala-simple: three and four players reach their boards, every store named', fn: async () => {
      for (const n of [3, 4]) {
        const players = [await newPlayer(env, 'Ana')];
        const room = await createRoom(players[0], 'mancala-simple', {seats: n});
        for (let i = 1; i < n; ++i) {
          const p = await newPlayer(env, ['Ben', 'Cid', 'Dee'][i - 1]);
          await joinFromLobby(p, room);
          players.push(p);
        }
        await players[0].page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
        const seen = await playForKinds(players, ['sow'], n);
        assert.ok(seen.has('sow'));
        await players[0].page.waitForSelector('#board svg');
        assert.equal(await players[0].page.locator('#board svg.mancala [data-store]').count(), n);
        assert.equal(await players[0].page.locator('#board svg.mancala [data-store] .store-owner').count(), n);
        // The seat to move has finger-sized holes on a phone.
        for (let i = 0; i < 100 && !(await Promise.all(players.map((p) => viewInfo(p.page)))).some((x) => x.mine || x.status === 'finished'); ++i)
          await players[0].page.waitForTimeout(30);
        for (const p of players)
          if ((await viewInfo(p.page)).mine) assert.deepEqual(await smallTargets(p.page), [], `${n} players: board targets under 44 px`);
        await shot(env, players[0], `mancala-${n}`);
        await closeAll(players);
      }
    }},
    {name: 'steere-tanbo: the place decision in a timed room (the clock for everyone); resign with confirmation; rematch with a separator', fn: () =>
      decisionsTest('steere-tanbo', {options: {size: '7x7'}, timer: 30, kinds: ['place'], maxSteps: 4, file: 'steere-tanbo', resign: true})},
    {name: 'tsoro: sow, head and bonus decisions by clicking', fn: () =>
      decisionsTest('tsoro', {options: {columns: 6}, kinds: ['sow', 'head', 'bonus'], maxSteps: 300, file: 'tsoro'})},
    {name: 'tanbo: farmer, sow, harvest, swap, rest and trim decisions by clicking', fn: async () => {
      // A set-up (T1) that reaches every kind of decision in three turns, seat 1 first (R6):
      // turn 1, Ana sows a snake then her Farmer into paddy 3 (1 snake, 3 rice): A, a harvest of 2;
      // paddy 5 holds 11: a trim. Turn 2, Ben's Farmer lands on 1 snake + 1 rice: E, Ana swaps
      // two tokens of her own ring.
      // Turn 3, Ana sows the snake and the rice, the Farmer last into the emptied paddy 1: D, she
      // gives back 1 of the 2 rice harvested (rest); paddy 5 is overfull again: a trim.
      const setup = {rings: [
        [{snakes: 1}, {}, {snakes: 1, yellow: 1, black: 1, red: 1}, {}, {snakes: 6, yellow: 5}],
        [{}, {snakes: 1, yellow: 1}, {snakes: 1}, {}, {}]]};
      const a = await newPlayer(env, 'Ana');
      const b = await newPlayer(env, 'Ben');
      const room = await createRoom(a, 'tanbo', {options: {first: 0}, setup});
      await joinFromLobby(b, room);
      await a.page.waitForSelector('#board svg');
      const kinds = [];
      kinds.push(await clickWhenMine(a, '#board .pick[data-paddy="0"]'));
      kinds.push(await clickWhenMine(b, '#board .pick[data-paddy="0"]'));
      kinds.push(await clickWhenMine(a, '[data-action="sow-snake"]'));
      kinds.push(await clickWhenMine(a, '[data-action="harvest"]'));
      await shot(env, a, 'tanbo-trim');
      kinds.push(await clickWhenMine(a, '[data-action="trim"]'));
      for (let i = 0; i < 60; ++i) {
        const info = await viewInfo(a.page);
        if (info.mine && info.decision === 'sow') break;
        if (info.mine && info.decision === 'swap') {
          await a.page.click('[data-swap-first="1:snake"]');
          await shot(env, a, 'tanbo-swap');
          await a.page.click('[data-swap-second="2:snake"]');
          await a.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
          kinds.push('swap');
          continue;
        }
        await playStep([b]);
      }
      kinds.push(await clickWhenMine(a, '[data-action="sow-snake"]'));
      kinds.push(await clickWhenMine(a, '[data-action^="sow-"]:not([data-action="sow-farmer"])'));
      await shot(env, a, 'tanbo');
      kinds.push(await clickWhenMine(a, '[data-action="return"]'));
      kinds.push(await clickWhenMine(a, '[data-action="trim"]'));
      for (const k of ['place_farmer', 'sow', 'harvest', 'swap', 'rest', 'trim'])
        assert.ok(kinds.includes(k), `${k} never clicked (clicked: ${kinds})`);
      // The ring names stand clear of the paddies: no label box overlaps a paddy's.
      const overlap = await a.page.evaluate(() => {
        const boxes = [...document.querySelectorAll('#board .ring-label')].map((el) => el.getBoundingClientRect());
        const paddies = [...document.querySelectorAll('#board .paddy-bg')].map((el) => el.getBoundingClientRect());
        return boxes.some((l) => paddies.some((p) => l.left < p.right && l.right > p.left && l.top < p.bottom && l.bottom > p.top));
      });
      assert.equal(overlap, false, 'a ring name under a paddy');
      await closeAll([a, b]);
    }},
    ...everywhere,
  ];
}

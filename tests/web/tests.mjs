// The browser tests: everything is done by clicking in the page, as a person would; the page's
// own state (window.tanbo) is only read, to know when the server's answer has arrived.
import assert from 'node:assert/strict';
import path from 'node:path';

const PHONE = {width: 390, height: 844};

async function newPlayer(env, name, viewport = PHONE) {
  const ctx = await env.browser.newContext({viewport});
  const page = await ctx.newPage();
  page.setDefaultTimeout(10000);
  const errors = [];
  page.on('pageerror', (e) => { errors.push(e.message); console.log(`     [${name}] page error: ${e.stack || e.message}`); });
  await page.goto(`${env.base}/`);
  await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
  await page.fill('#name-input', name);
  await page.click('.name-form button');
  await page.waitForFunction((n) => window.tanbo.conn.player?.name === n && window.tanbo.conn.state === 'open', name);
  await page.waitForSelector('#create-form');
  return {ctx, page, errors, name};
}

async function closeAll(players) {
  for (const p of players) {
    assert.deepEqual(p.errors, [], `${p.name}: errors in the page`);
    await p.ctx.close();
  }
}

// Fills the create form (game, players, options, CPU seats) and submits it; returns the room id.
async function createRoom(p, game, {seats, options = {}, cpu = {}, timer, setup} = {}) {
  const page = p.page;
  if (!(await page.locator('#create-form').count())) {
    await page.goto(`${new URL(page.url()).origin}/#/`);
    await page.waitForSelector('#create-form');
  }
  await page.selectOption('#create-game', game);
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
  if (setup) {
    await page.click('details.setup summary');
    await page.fill('#create-setup', JSON.stringify(setup));
  }
  await page.click('#create-form button[type=submit]');
  await page.waitForFunction(() => window.tanbo.view?.msg?.room);
  return page.evaluate(() => window.tanbo.view.msg.room);
}

async function joinFromLobby(p, room) {
  const page = p.page;
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
            mine: !!(m.pending && v.seat === m.pending.seat && m.legal && v.sent !== m.version)};
  });
}

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

// Waits until `p` must decide, clicks `selector` (the first match) and waits for the next
// version; returns the decision kind.
async function clickWhenMine(p, selector, timeout = 10000) {
  await p.page.waitForFunction(() => {
    const v = window.tanbo.view, m = v?.msg;
    return m && m.pending && m.pending.seat === v.seat && m.legal && v.sent !== m.version;
  }, null, {timeout});
  const info = await viewInfo(p.page);
  await p.page.locator(selector).first().click();
  await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version, {timeout});
  return info.decision;
}

async function status(p) { return (await viewInfo(p.page))?.status; }

// Plays by clicking until every kind in `kinds` was decided by a click (rematching when a game
// ends first) or `maxSteps` decisions were made; returns the kinds seen.
async function playForKinds(players, kinds, maxSteps) {
  const seen = new Set();
  for (let steps = 0; steps < maxSteps && !kinds.every((k) => seen.has(k));) {
    if ((await status(players[0])) === 'finished') {
      for (const p of players) if (await p.page.locator('#rematch:not([disabled])').count()) await p.page.click('#rematch');
      await players[0].page.waitForFunction(() => window.tanbo.view.msg.status === 'playing', null, {timeout: 10000});
      continue;
    }
    const kind = await playStep(players);
    if (kind) { seen.add(kind); steps++; }
  }
  return seen;
}

async function shot(env, p, name) {
  await p.page.locator('#board').screenshot({path: path.join(env.outDir, `${name}.png`)});
  await p.page.screenshot({path: path.join(env.outDir, `${name}-page.png`), fullPage: true});
}

async function cpuSupported(p) {
  return p.page.evaluate(async () => {
    try {
      const r = await window.tanbo.conn.request({type: 'create', game: 'steere-tanbo', options: {size: '7x7'},
                                                 cpu: [{seat: 1, level: 'random'}]});
      window.tanbo.conn.fire({type: 'resign', room: r.room}).catch(() => {});
      return true;
    } catch { return false; }
  });
}

export function tests(env) {
  const finished = {};
  // A game against a second context, or the computer when the server plays CPU seats.
  async function decisionsTest(game, {options = {}, kinds, maxSteps, file, timer, resign}) {
    const a = await newPlayer(env, 'Ana');
    const useCpu = await cpuSupported(a);
    const players = [a];
    const room = await createRoom(a, game, {options, timer, cpu: useCpu ? {1: 'random'} : {}});
    if (!useCpu) {
      const b = await newPlayer(env, 'Ben');
      await joinFromLobby(b, room);
      players.push(b);
    }
    await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
    await a.page.waitForSelector('#board svg');
    if (timer) {
      // The deciding seat shows the seconds it has left, counting down.
      await a.page.waitForSelector('[data-clock]');
      const left = Number((await a.page.locator('[data-clock]').textContent()).match(/(\d+) s left/)[1]);
      assert.ok(left > 0 && left <= timer, `clock shows ${left}`);
    }
    const seen = await playForKinds(useCpu ? [a] : players, kinds, maxSteps);
    // The screenshot shows a position with a choice on offer, where one exists.
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
      assert.match(await a.page.locator('#result .reason').textContent(), /Reason: resigned/);
      assert.match(await a.page.locator('#result h3').textContent(), /You finished 2nd/);
      await a.page.click('#rematch');
      if (useCpu) await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
      else await a.page.waitForSelector('#rematch[disabled]');
    }
    await closeAll(players.slice(1));
    await closeAll([a]);
  }

  return [
    {name: 'names: an apostrophe is a name; a refused one is shown with the reason and the old name stays', fn: async () => {
      const a = await newPlayer(env, "D'Artagnan");
      assert.equal(await a.page.locator('#name-input').getAttribute('maxlength'), '24');
      await a.page.fill('#name-input', 'Ana <3');
      await a.page.click('.name-form button');
      await a.page.waitForSelector('#toast:not([hidden])');
      assert.match(await a.page.locator('#toast').textContent(), /"Ana <3" was refused: a name is 1 to 24 letters/);
      await a.page.waitForFunction(() => window.tanbo.conn.state === 'open');
      assert.equal(await a.page.evaluate(() => window.tanbo.conn.player.name), "D'Artagnan");
      await closeAll([a]);
    }},
    {name: 'mancala-simple: two players play a full game by clicking, a spectator sees the same result, a reload and a dropped connection keep the seat', fn: async () => {
      const a = await newPlayer(env, 'Ana');
      const b = await newPlayer(env, 'Ben');
      const room = await createRoom(a, 'mancala-simple', {seats: 2, options: {stones: 3}});
      await b.page.waitForSelector(`#open-rooms [data-room="${room}"]`);
      assert.match(await b.page.locator(`#open-rooms [data-room="${room}"]`).textContent(), /Ana, free/);
      await b.page.screenshot({path: path.join(env.outDir, 'lobby.png'), fullPage: true});
      await joinFromLobby(b, room);
      const c = await newPlayer(env, 'Cid');
      await c.page.goto(`${env.base}/#/room/${room}`);
      await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
      assert.equal(await c.page.evaluate(() => window.tanbo.view.seat), null);
      // The spectator's own state counts it; the players see the count with the next move.
      await c.page.waitForFunction(() => window.tanbo.view.msg.spectators === 1);
      assert.match(await c.page.locator('#spectators').textContent(), /1 spectator watching/);
      // The lobby lists the match as live, with its spectator count, and offers to watch it.
      const e = await newPlayer(env, 'Eve');
      const live = e.page.locator(`#live-rooms [data-room="${room}"]`);
      await live.waitFor();
      assert.match(await live.textContent(), /1 spectator watching/);
      assert.equal(await live.locator(`[data-watch="${room}"]`).count(), 1);
      await closeAll([e]);

      let steps = 0, reloaded = false, dropped = false;
      while ((await status(a)) !== 'finished') {
        if (await playStep([a, b])) steps++;
        if (steps === 1) {
          await a.page.waitForFunction(() => window.tanbo.view.msg.spectators === 1);
          assert.match(await a.page.locator('#spectators').textContent(), /1 spectator watching/);
        }
        if (steps === 5 && !reloaded) {
          reloaded = true;
          await a.page.reload();
          await a.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat === 0, room);
          assert.match(await a.page.locator('.seat.mine').textContent(), /you/);
          assert.match(await a.page.locator('#conn').textContent(), /Connected/);
        }
        if (steps === 10 && !dropped) {
          // A dropped connection: the page says so, reconnects by itself and keeps the seat.
          dropped = true;
          await b.page.evaluate(() => new Promise((resolve) => {
            const conn = window.tanbo.conn;
            conn.addEventListener('connstate', (e) => { if (e.detail === 'closed') resolve(); });
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
      assert.match(await c.page.locator('#result .reason').textContent(), /Reason: (finished|resigned)/);
      await c.page.waitForSelector('#result .ok');
      assert.match(await c.page.locator('#result .ok').textContent(), /Seed checked/);
      await shot(env, c, 'mancala-2-finished');
      finished.mancala = {room, places: places[0]};
      await closeAll([a, b, c]);
    }},
    {name: 'replay: a finished game steps through its boards to the end, with its result and seed check', fn: async () => {
      assert.ok(finished.mancala, 'needs the finished game of the first test');
      const p = await newPlayer(env, 'Dee');
      const page = p.page;
      const step = () => page.locator('#replay-step').textContent();
      const board = () => page.locator('#replay-board svg').evaluate((svg) => svg.outerHTML);
      await page.goto(`${env.base}/#/replays`);
      await page.click(`#replay-list a[href*="${finished.mancala.room}"]`);
      await page.waitForSelector('#replay-step');
      const total = Number((await step()).match(/of (\d+)/)[1]);
      assert.ok(total > 5);
      // The start position, drawn by the room's board code from the server's steps.
      await page.waitForSelector('#replay-board svg.mancala');
      const start = await board();
      assert.match(await page.locator('#replay-events').textContent(), /Game starts/);
      assert.match(await page.locator('#replay-turn').textContent(), /^Next: .*sow/);
      await page.click('#replay-forward');
      assert.equal(await step(), `Decision 1 of ${total}`);
      const first = await board();
      assert.notEqual(first, start, 'one decision changes the board');
      assert.match(await page.locator('#replay-events').textContent(), /sow hole \d+/);
      await page.click('#replay-end');
      assert.equal(await step(), `Decision ${total} of ${total}`);
      const end = await board();
      assert.notEqual(end, start, 'the end differs from the start');
      assert.match(await page.locator('#replay-result').textContent(), /Reason: finished/);
      assert.match(await page.locator('#replay-events').textContent(), /Game over \(finished\)/);
      assert.equal(await page.locator('#replay-turn').textContent(), 'Game over.');
      await page.screenshot({path: path.join(env.outDir, 'replay-end.png'), fullPage: true});
      await page.click('#replay-back');
      assert.equal(await step(), `Decision ${total - 1} of ${total}`);
      assert.equal(await page.locator('#replay-result').textContent(), '');
      // The keyboard: Home, the arrows and End step as the buttons do.
      await page.keyboard.press('Home');
      assert.equal(await step(), `Decision 0 of ${total}`);
      assert.equal(await board(), start);
      await page.keyboard.press('ArrowRight');
      assert.equal(await step(), `Decision 1 of ${total}`);
      assert.equal(await board(), first);
      await page.keyboard.press('ArrowLeft');
      assert.equal(await step(), `Decision 0 of ${total}`);
      await page.keyboard.press('End');
      assert.equal(await step(), `Decision ${total} of ${total}`);
      assert.equal(await board(), end);
      await page.waitForSelector('#replay-verify[data-ok=true]');
      assert.match(await page.locator('#replay-verify').textContent(), /SHA-256/);
      await page.locator('#replay-board').screenshot({path: path.join(env.outDir, 'replay-board.png')});
      await page.screenshot({path: path.join(env.outDir, 'replay.png'), fullPage: true});
      await closeAll([p]);
    }},
    {name: 'mancala-simple: the sow decision by clicking a hole', fn: () =>
      decisionsTest('mancala-simple', {kinds: ['sow'], maxSteps: 3, file: 'mancala-2'})},
    {name: 'mancala-simple: three and four players reach their boards', fn: async () => {
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
        const stores = await players[0].page.locator('#board [data-store]').count();
        assert.equal(stores, n);
        await shot(env, players[0], `mancala-${n}`);
        await closeAll(players);
      }
    }},
    {name: 'steere-tanbo: the place decision by clicking a point in a timed room; resign with confirmation; rematch', fn: () =>
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
      // Ben's turn: when he reaches E, Ana swaps the snakes of her paddies 2 and 3 (a no-op swap,
      // so her plan stands); Ben clicks whatever he is offered.
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
      await closeAll([a, b]);
    }},
  ];
}

// Each game's decisions by clicking, a full game, the replay, the animation, and an absent
// player's seat played by the computer.
import assert from 'node:assert/strict';
import path from 'node:path';
import {axeCheck, smallTargets} from './checks.mjs';
import {DESKTOP, newPlayer, closeAll, createRoom, playComputer, joinFromLobby, viewInfo,
  waitMine, clickDecision, playStep, clickWhenMine, status, playForKinds, shot, docShot} from './support.mjs';

export function tests(env) {
  // A game against a second context, or the computer, through the custom form.
  const finished = {};  // what one test leaves for a later one of its group

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

  return [
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
      // Record what the board shows while the next states arrive: frames with a pit being sown,
      // a stone flying into it, the stones left in the sower's hand.
      await p.page.evaluate(() => {
        window.__frames = 0;
        window.__flying = 0;
        window.__hand = 0;
        new MutationObserver(() => {
          if (document.querySelector('#board .mark.active')) window.__frames++;
          if (document.querySelector('#board .flying .stone')) window.__flying++;
          if (document.querySelector('#board .hand .stone')) window.__hand++;
        }).observe(document.getElementById('board'), {childList: true, subtree: true});
      });
      await clickDecision(p.page);
      await p.page.waitForFunction(() => window.__frames >= 2 && window.__flying >= 1 && window.__hand >= 1, null, {timeout: 10000});
      await waitMine(p.page, 20000);
      // Once played, the board is the server's: every hole holds the state's count, as many
      // pebbles (a dozen at most, then a heap with its figure).
      const same = await p.page.evaluate(() => {
        const st = window.tanbo.view.msg.state;
        return [...document.querySelectorAll('#board .pit')].every((g) => {
          const n = st.seats[g.dataset.seat].holes[g.dataset.hole];
          const stones = g.querySelectorAll('.stone').length;
          return Number(g.dataset.count) === n && (n <= 12 ? stones === n : g.querySelector('.heap-figure')?.textContent === String(n));
        });
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
  ];
}

// Each game's decisions by clicking, a full game, the replay, the animation, and an absent
// player's seat played by the computer.
import assert from 'node:assert/strict';
import path from 'node:path';
import {axeCheck, smallTargets, horizontalOverflow} from './checks.mjs';
import {DESKTOP, PHONE, newPlayer, closeAll, createRoom, playComputer, joinFromLobby, viewInfo,
  waitMine, clickDecision, playStep, clickWhenMine, status, playForKinds, shot, docShot} from './support.mjs';

// A Tanbo set-up (T1) that brings every kind of decision in three turns (see the decisions test).
const TANBO_SETUP = {rings: [
  [{snakes: 1}, {}, {snakes: 1, yellow: 1, black: 1, red: 1}, {}, {snakes: 6, yellow: 5}],
  [{}, {snakes: 1, yellow: 1}, {snakes: 1}, {}, {}]]};

// Records what the board shows each time it changes: the version it shows, whether it is an
// animation frame, the newest version the page holds, the banner, whether my seat is marked to
// play, whether the header says "Your turn", how many picks the board offers and the newest step
// the log tells (window.__seen).
async function recordBoard(page) {
  await page.evaluate(() => {
    window.__seen = [];
    const note = () => {
      const v = window.tanbo.view;
      if (!v.drawn) return;
      const banner = document.getElementById('banner');
      window.__seen.push({version: v.drawn.version, frame: v.drawn.frame, newest: v.msg.version,
        banner: banner.hidden ? '' : banner.textContent, marked: !!document.querySelector('.seat.mine.turn'),
        header: !document.getElementById('turns').hidden, mover: !!document.querySelector('#board .mover'),
        picks: document.querySelectorAll('#board .pick').length,
        log: Math.max(0, ...[...document.querySelectorAll('#log li[data-version]')].map((li) => Number(li.dataset.version)))});
    };
    new MutationObserver(note).observe(document.getElementById('board'), {childList: true, subtree: true});
  });
}

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
      assert.match(await spectator.page.locator('#banner').textContent(), /\d+\ss left/);
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
      assert.equal(await a.page.locator('#result .reason').textContent(), 'You resigned.');
      assert.equal(await a.page.locator('#result .reason').getAttribute('data-reason'), 'resigned');
      assert.match(await a.page.locator('#result h3').textContent(), /^You lost$/);
      await a.page.click('#rematch');
      await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
      // A rematch: the log separates the two games and numbers the new one from its start.
      await a.page.waitForSelector('#log .game-sep');
    }
    if (spectator) await closeAll([spectator]);
    await closeAll(players);
  }

  // The keys of the board's targets (tanbo.js names each by what it is), sorted.
  const pickKeys = (p) => p.page.$$eval('#board .pick', (els) => els.map((el) => el.dataset.key).sort());

  // What every decision must show: the board alone offers it, nothing sticks out sideways, every
  // target is at least `min` px.
  async function boardChecks(p, min) {
    assert.equal(await p.page.locator('#controls button').count(), 0, 'a decision as a text button');
    const over = await horizontalOverflow(p.page);
    assert.equal(over.over, 0, `the page is ${over.over} px wider than the screen (${over.culprits})`);
    assert.deepEqual(await smallTargets(p.page, '#board .pick', min), []);
  }

  // What of a Tanbo field lies where it should not: a snake's body across a dike or over a
  // paddy's number (points along each body's centre line, in the board's own units).
  function tanboOverlaps(page) {
    return page.evaluate(() => {
      const svg = document.querySelector('#board svg.tanbo');
      const dikes = [...svg.querySelectorAll('.tb-dike path:first-child')];
      const numbers = [...svg.querySelectorAll('.tb-no')].map((el) => el.getBBox());
      const bad = [];
      for (const body of svg.querySelectorAll('.tb-ring .tb-pile .tb-snake-body')) {
        const m = dikes[0].getCTM().inverse().multiply(body.getCTM());
        const len = body.getTotalLength();
        for (let i = 0; i <= 24; ++i) {
          const q = body.getPointAtLength(len * i / 24).matrixTransform(m);
          const where = body.closest('[data-paddy]')?.getAttribute('data-paddy');
          if (dikes.some((d) => d.isPointInFill(q))) { bad.push(`a snake of paddy ${where} across a dike`); break; }
          if (numbers.some((b) => q.x >= b.x && q.x <= b.x + b.width && q.y >= b.y && q.y <= b.y + b.height)) {
            bad.push(`a snake of paddy ${where} over a number`);
            break;
          }
        }
      }
      return bad;
    });
  }

  // A whole game against the computer (Easy), by tapping the board alone: the set-up's first
  // turns bring every kind of decision (as in the decisions test; the computer's Farmer is
  // placed by the set-up, so its turn lands on 1 snake and 1 rice: E, a swap), then random taps
  // to the end.
  async function tanboWholeGame(viewport) {
    const setup = structuredClone(TANBO_SETUP);
    setup.rings[1][0] = {farmer: true};
    const p = await newPlayer(env, 'Ana', {viewport, speed: 'off'});
    await createRoom(p, 'tanbo', {options: {first: 0}, setup, cpu: {1: 'random'}});
    await p.page.waitForSelector('#board svg.tanbo');
    const script = [['place_farmer', '.pick[data-paddy="0"]'], ['sow', '[data-key="sow:snake"]'], ['swap', '[data-key="slot:0:1:snake"]', '[data-key="slot:0:2:snake"]', '[data-key="confirm"]'],
                    ['sow', '[data-key="sow:snake"]'], ['sow', '[data-key^="sow:"]:not([data-key="sow:farmer"])']];
    const seen = new Set();
    for (let decisions = 0; ; ++decisions) {
      assert.ok(decisions < 500, 'the game did not end');
      await waitMine(p.page, 20000);
      const info = await viewInfo(p.page);
      if (info.status === 'finished') break;
      await boardChecks(p, viewport === PHONE ? 40 : 32);
      const svg = await p.page.locator('#board svg').boundingBox();
      assert.ok(svg.width <= viewport.width && svg.height <= viewport.height, `the board is ${svg.width}x${svg.height}`);
      seen.add(info.decision);
      assert.deepEqual(await tanboOverlaps(p.page), []);
      // The snakes set aside are drawn when there are some, and only then.
      const pool = await p.page.evaluate(() => window.tanbo.view.msg.state.pool);
      assert.equal(await p.page.locator('#board .tb-pool').count(), pool > 0 ? 1 : 0, `${pool} snakes set aside`);
      if (viewport === PHONE) {
        // On a phone the viewer's own ring comes first.
        const [mine, theirs] = await p.page.evaluate(() => [0, 1].map((s) => document.querySelector(`#board [data-ring="${s}"]`).getBoundingClientRect().top));
        assert.ok(mine < theirs, 'the opponent\'s ring above the viewer\'s');
      }
      if (script[0]?.[0] === info.decision) {
        for (const sel of script.shift().slice(1)) await p.page.click(`#board ${sel}`);
      } else {
        await clickDecision(p.page);
      }
      await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
    }
    assert.deepEqual(['place_farmer', 'sow', 'harvest', 'swap', 'rest', 'trim'].filter((k) => !seen.has(k)), [], `decision kinds never tapped (seen: ${[...seen]})`);
    await p.page.waitForSelector('#result .reason');
    // Nothing marks a player to decide once the game is over.
    assert.equal(await p.page.locator('#board .tb-turn-mark, #board .tb-label.turn').count(), 0);
    await closeAll([p]);
  }

  return [
    {name: 'mancala-simple: two players play a full game by clicking, a spectator sees the same result, a reload and a dropped connection keep the seat', fn: async () => {
      const a = await newPlayer(env, 'Ana', {speed: 'off'});
      const b = await newPlayer(env, 'Ben', {speed: 'off'});
      const room = await createRoom(a, 'mancala-simple', {seats: 2, options: {stones: 3}});
      await b.page.waitForSelector(`#open-rooms [data-room="${room}"]`);
      assert.match(await b.page.locator(`#open-rooms [data-room="${room}"]`).textContent(), /Ana, free seat/);
      await b.page.screenshot({path: path.join(env.outDir, 'lobby.png'), fullPage: true});
      await joinFromLobby(b, room);
      const c = await newPlayer(env, 'Cid', {speed: 'off'});
      await c.page.goto(`${env.base}/#/room/${room}`);
      await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
      assert.equal(await c.page.evaluate(() => window.tanbo.view.seat), null);
      await c.page.waitForFunction(() => window.tanbo.view.msg.spectators === 1);
      assert.match(await c.page.locator('#spectators').textContent(), /1\sspectator/);
      // A spectator is told who is choosing, never to choose.
      assert.match(await c.page.locator('#banner').textContent(), /is choosing a hole to sow/);
      const e = await newPlayer(env, 'Eve');
      const live = e.page.locator(`#live-rooms [data-room="${room}"]`);
      await live.waitFor();
      assert.match(await live.textContent(), /1\sspectator/);
      assert.equal(await live.locator(`[data-watch="${room}"]`).count(), 1);
      await closeAll([e]);

      let steps = 0, reloaded = false, dropped = false;
      while ((await status(a)) !== 'finished') {
        if (await playStep([a, b])) steps++;
        if (steps === 1) {
          await a.page.waitForFunction(() => window.tanbo.view.msg.spectators === 1);
          assert.match(await a.page.locator('#spectators').textContent(), /1\sspectator/);
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
      assert.match(await c.page.locator('#result .ok').textContent(), /Who started was drawn at random \(checked\)/);
      await shot(env, c, 'mancala-2-finished');
      const lastDecision = await c.page.evaluate(() => Math.max(...[...document.querySelectorAll('#log [data-decision]')].map((li) => Number(li.dataset.decision))));
      finished.mancala = {room, places: places[0], lastDecision};
      // Its replay as each saw the game: Ben (seat 2) at the bottom, as the spectator saw seat 1.
      for (const [p, mine] of [[b, 1], [c, 0]]) {
        await p.page.goto(`${env.base}/#/replays`);
        await p.page.click(`#replay-list a[href*="${room}"]`);
        await p.page.waitForSelector('#replay-board svg.mancala .pit');
        const y = await p.page.evaluate(() => [0, 1].map((seat) => {
          const pits = [...document.querySelectorAll(`#replay-board .pit[data-seat="${seat}"]`)].map((el) => el.getBoundingClientRect().top);
          return pits.reduce((sum, top) => sum + top, 0) / pits.length;
        }));
        assert.ok(y[mine] > y[1 - mine], `seat ${mine + 1}'s replay shows the other side at the bottom: ${y}`);
      }
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
      // Who moves next, as a record says it (not a live game's "is choosing").
      assert.match(await page.locator('#replay-turn').textContent(), /^Next to move: \S/);
      assert.doesNotMatch(await page.locator('#replay-turn').textContent(), /choosing/);
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
      // The seed check is folded below the moves: one click shows it.
      await page.click('#replay-fair summary');
      await page.waitForSelector('#replay-verify[data-ok=true]');
      assert.match(await page.locator('#replay-verify').textContent(), /SHA-256/);
      // On a phone the stepper is one row, Back and Forward either side of the counter.
      const row = await page.evaluate(() => ['#replay-start', '#replay-back', '#replay-step', '#replay-forward', '#replay-end']
        .map((q) => { const b = document.querySelector(q).getBoundingClientRect(); return {q, top: b.top, bottom: b.bottom, left: b.left, right: b.right}; }));
      const mid = (b) => (b.top + b.bottom) / 2;
      assert.ok(row.every((b) => Math.abs(mid(b) - mid(row[0])) <= 2), `the stepper on more than one row: ${JSON.stringify(row)}`);
      assert.ok(row.every((b, i) => !i || b.left >= row[i - 1].right - 0.5), 'the stepper out of order');
      assert.ok(row[4].right <= 390, 'the stepper wider than the phone');
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
    {name: 'replay: a step forward tells its own move at once while its board animates; the fairness check is folded below the moves', fn: async () => {
      assert.ok(finished.mancala, 'needs the finished game of the full-game test');
      const p = await newPlayer(env, 'Eli', {speed: 'slow', viewport: DESKTOP});
      const page = p.page;
      await page.goto(`${env.base}/#/replays`);
      await page.click(`#replay-list a[href*="${finished.mancala.room}"]`);
      await page.waitForSelector('#replay-board svg');
      for (let i = 0; i < 4; ++i) await page.keyboard.press('ArrowRight');
      await page.click('#replay-forward');
      assert.equal(await page.locator('#replay-step').textContent(), `Move 5 of ${(await page.locator('#replay-step').textContent()).match(/of (\d+)/)[1]}`);
      assert.ok(await page.evaluate(() => window.tanbo.view.animating), 'step 5 did not animate');
      const what = (await page.locator('#replay-current').textContent()).replace(/^5\. /, '');
      assert.ok((await page.locator('#replay-events').textContent()).includes(what), 'the events shown are not step 5\'s');
      // No seed or commitment above the board; the check is one click away, below the moves.
      const above = await page.evaluate(() => {
        const main = document.getElementById('main');
        const kids = [...main.children];
        return kids.slice(0, kids.findIndex((k) => k.classList.contains('play'))).map((k) => k.textContent).join(' ');
      });
      assert.doesNotMatch(above, /seed|SHA-256|commitment/i);
      assert.equal(await page.locator('#replay-fair').evaluate((d) => d.open), false);
      await page.click('#replay-fair summary');
      await page.waitForSelector('#replay-verify[data-ok=true]');
      assert.match(await page.locator('#replay-verify').textContent(), /SHA-256/);
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
          // The pit being sown and the hand are warm marks: blue (--focus) is the keyboard's alone.
          for (const el of document.querySelectorAll('#board .mark.active, #board .hand-figure rect, #board .hand .stone ellipse')) {
            const st = getComputedStyle(el);
            if (st.stroke === 'rgb(26, 95, 208)' || st.fill === 'rgb(26, 95, 208)') window.__blue = true;
          }
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
          const heap = document.querySelector(`#board .heap-figure[data-of="${g.dataset.seat}:${g.dataset.hole}"]`);
          return Number(g.dataset.count) === n && (n <= 12 ? stones === n : heap?.textContent === String(n));
        });
      });
      assert.ok(same, 'the board after the animation is the server state');
      assert.ok(!await p.page.evaluate(() => window.__blue), 'a mark of the sowing drawn in the focus colour');
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
    {name: 'animation: while the computer\'s opening move plays out, the room already says the player\'s seat and offers Resign', fn: async () => {
      const p = await newPlayer(env, 'Ana', {speed: 'slow', viewport: DESKTOP});
      // Tsoro's opening move is a relay of many steps: slow, it plays for seconds after the first
      // state, which comes before the answer to the room's join.
      await createRoom(p, 'tsoro', {cpu: {1: 'random'}, options: {first: 1}});
      await p.page.waitForFunction(() => window.tanbo.view.drawn?.frame, null, {timeout: 10000});
      await p.page.waitForFunction(() => window.tanbo.view.seat === 0, null, {timeout: 5000});
      assert.ok(await p.page.evaluate(() => !!window.tanbo.view.drawn?.frame), 'the opening move ended before the join answered');
      // In player words: Ana's seat moves second (first: 1), never "seat 1".
      assert.match(await p.page.locator('.room-info').textContent(), /You play second/);
      assert.equal(await p.page.locator('.seat.mine .tag').first().textContent(), 'you');
      assert.ok(await p.page.locator('#resign').isVisible(), 'no Resign while the computer\'s move plays');
      await closeAll([p]);
    }},
    {name: 'animation: your own move plays out before the computer\'s reply, which waits; the banner ("You: …" for my own move), the marks and the log follow the board', fn: async () => {
      const p = await newPlayer(env, 'Ana', {speed: 'slow', viewport: DESKTOP});
      await createRoom(p, 'mancala-simple', {cpu: {1: 'random'}, options: {first: 0}});
      await waitMine(p.page);
      const v0 = (await viewInfo(p.page)).version;
      await recordBoard(p.page);
      // Hole 1 of 4 stones ends in hole 5: no extra move, the computer replies at once.
      await p.page.click('#board .pick[data-seat="0"][data-hole="0"]');
      // While the reply's step plays, Escape skips it to its position.
      await p.page.waitForFunction((v) => window.tanbo.view.drawn?.version === v && window.tanbo.view.drawn.frame, v0 + 2, {timeout: 10000});
      assert.ok(await p.page.locator('#skip-motion').isVisible(), 'no Skip button while a step plays');
      await p.page.keyboard.press('Escape');
      await p.page.waitForFunction((v) => window.tanbo.view.drawn?.version >= v && !window.tanbo.view.drawn.frame, v0 + 2, {timeout: 400});
      await waitMine(p.page, 20000);
      const seen = await p.page.evaluate(() => window.__seen);
      const at = (pred) => seen.findIndex(pred);
      const mine = seen.filter((r) => r.version === v0 + 1 && r.frame);
      const reply = seen.filter((r) => r.version === v0 + 2 && r.frame);
      assert.ok(mine.length >= 4, `my sowing drew ${mine.length} intermediate positions`);
      assert.ok(reply.length >= 1, 'the reply was not animated');
      // The reply had arrived while my sowing was still being drawn, and waited for it.
      assert.ok(mine.some((r) => r.newest >= v0 + 2), 'the reply came after my animation: the queue was not tested');
      const lastMine = seen.findLastIndex((r) => r.version === v0 + 1);
      assert.ok(lastMine < at((r) => r.version === v0 + 2), 'a position of the reply was drawn before my move had played out');
      assert.ok(seen.some((r) => r.version === v0 + 1 && !r.frame), 'my move\'s position was never shown whole');
      // While a step plays, the banner says it, mine as mine; the log tells it once it has played.
      for (const r of mine) assert.match(r.banner, /^You: sow hole 1(?!\d)/, `my move's banner "${r.banner}"`);
      for (const r of reply) assert.match(r.banner, /^Computer: sow hole \d/, `the reply's banner "${r.banner}"`);
      for (const r of seen.filter((x) => x.frame)) assert.ok(r.log < r.version, `the log told step ${r.log} while step ${r.version} played`);
      for (const r of seen.filter((x) => !x.frame && x.version > v0)) assert.ok(r.log >= r.version, `the log at ${r.log} once step ${r.version} was shown`);
      // Until the reply has played out, nothing says it is my turn, nothing marks me to move,
      // and the board offers nothing to pick.
      const settled = at((r) => r.version === v0 + 2 && !r.frame);
      for (const r of seen.slice(0, settled).filter((x) => x.version > v0)) {
        assert.doesNotMatch(r.banner, /Your turn/, `the banner said "${r.banner}" at version ${r.version}${r.frame ? ' (animating)' : ''}`);
        assert.equal(r.marked, false, `my seat was marked to play at version ${r.version}`);
        assert.equal(r.header, false, `the header said "Your turn" at version ${r.version}`);
        if (r.frame) assert.equal(r.mover, false, `a frame of version ${r.version} marked a player to move`);
        assert.equal(r.picks, 0, `the board offered picks at version ${r.version}`);
      }
      assert.match(await p.page.locator('#banner').textContent(), /Your turn/);
      assert.ok(await p.page.locator('.seat.mine.turn').count());
      await p.page.waitForSelector('#turns:not([hidden])');
      await closeAll([p]);
    }},
    {name: 'animation: with animations off every state is drawn at once, never a step between', fn: async () => {
      const p = await newPlayer(env, 'Ben', {speed: 'off'});
      await playComputer(p, 'mancala-simple');
      await recordBoard(p.page);
      await p.page.evaluate(() => {
        window.__animated = false;
        setInterval(() => { if (window.tanbo.view.motion.playing) window.__animated = true; }, 5);
      });
      for (let i = 0; i < 3; ++i) {
        await waitMine(p.page);
        if ((await status(p)) === 'finished') break;
        const info = await viewInfo(p.page);
        await clickDecision(p.page);
        await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      }
      await waitMine(p.page);
      const seen = await p.page.evaluate(() => window.__seen);
      assert.ok(seen.length >= 3, `only ${seen.length} positions drawn`);
      assert.deepEqual(seen.filter((r) => r.frame), [], 'an animation frame was drawn');
      assert.equal(await p.page.evaluate(() => window.__animated), false, 'an animation played');
      await closeAll([p]);
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
        // The seat to move has finger-sized holes on a phone: a few sows leave a game of three
        // or four far from its end, so some seat is to move, and its page says so.
        let mover = null;
        for (const until = Date.now() + 15000; !mover && Date.now() < until;) {
          const infos = await Promise.all(players.map((p) => viewInfo(p.page)));
          assert.ok(infos.every((x) => x?.status !== 'finished'), `${n} players: the game ended in a few sows`);
          mover = players.find((p, i) => infos[i]?.mine) ?? null;
          if (!mover) await players[0].page.waitForTimeout(30);
        }
        assert.ok(mover, `${n} players: no page shows its seat to move`);
        assert.deepEqual(await smallTargets(mover.page), [], `${n} players: board targets under 44 px`);
        await shot(env, players[0], `mancala-${n}`);
        await closeAll(players);
      }
    }},
    {name: 'steere-tanbo: the place decision in a timed room (the clock for everyone); resign with confirmation; rematch with a separator', fn: () =>
      decisionsTest('steere-tanbo', {options: {size: '7x7'}, timer: 30, kinds: ['place'], maxSteps: 4, file: 'steere-tanbo', resign: true})},
    {name: 'tsoro: with mancala-simple, the Japanese log tells a sowing in one clause (「2番の穴をまく（4個）」) and a tsoro relay as 連続まき, a sowing of one lap once, never 種まき', fn: async () => {
      for (const [game, line] of [['mancala-simple', /^#1 コンピューター：\d番の穴をまく（\d+個）(。|$)/], ['tsoro', /^#1 コンピューター：[^。]+をまく(。コンピューターの連続まき（\d+回）)?(。|$)/]]) {
        const p = await newPlayer(env, 'Lou', {viewport: DESKTOP, lang: 'ja'});
        try {
          await createRoom(p, game, {cpu: {1: 'random'}, options: {first: 1}});
          await p.page.waitForSelector('#log li[data-decision="1"]');
          const text = await p.page.locator('#log li[data-decision="1"]').textContent();
          assert.match(text, line, `${game}: ${text}`);
          assert.doesNotMatch(text, /種まき|1つずつ|がまく/, `${game}: ${text}`);
          assert.deepEqual(p.errors, []);
        } finally {
          await closeAll([p]);
        }
      }
    }},
    {name: 'tanbo: the set-up says, as two steps, who places a Farmer first and who then moves first, in the three languages; each placement is one line of the log', fn: async () => {
      const cases = [
        ['en', /^Set-up: place your Farmer now; the computer places the other Farmer next\. Then play starts, and the computer moves first\.$/,
          /^#1 Set-up: Lou places their Farmer in paddy \d$/],
        ['fr', /^Mise en place\u00a0: placez d’abord votre fermier\u202f; l’ordinateur placera ensuite le sien\. Puis l’ordinateur jouera le premier coup\.$/,
          /^n° 1 Mise en place\u00a0: Lou place son fermier dans la rizière \d$/],
        ['ja', /^対局前の準備：まずあなたが農夫を置き、次にコンピューターが置きます。そのあと対局が始まり、コンピューターが先手です。$/,
          /^#1 準備：Louが農夫を\d番の田んぼに置く$/]];
      for (const [lang, prompt, line] of cases) {
        const p = await newPlayer(env, 'Lou', {viewport: DESKTOP, lang});
        try {
          // The computer moves first; seat 0 places its Farmer first all the same (T1).
          await createRoom(p, 'tanbo', {cpu: {1: 'random'}, options: {first: 1}});
          await waitMine(p.page);
          assert.match(await p.page.locator('#banner').textContent(), prompt, `${lang}: ${await p.page.locator('#banner').textContent()}`);
          await p.page.locator('#board .pick').first().click();
          await p.page.waitForFunction(() => document.querySelectorAll('#log li[data-decision="2"]').length === 1);
          const lines = await p.page.locator('#log li').allTextContents();
          assert.match(lines.at(-2), line, `${lang}: ${lines.join(' | ')}`);
          assert.equal(lines.join(' ').match(/Lou\S* ?(places their|place son|が農夫)/g).length, 1, `${lang}: the placement said more than once: ${lines.join(' | ')}`);
          assert.deepEqual(p.errors, []);
        } finally {
          await closeAll([p]);
        }
      }
    }},
    {name: 'tanbo: each paddy where the Farmer may go is drawn as a target of its own, as many as the list holds; the legend\'s swatch drawn as they are, then as the tokens', fn: async () => {
      for (const viewport of [DESKTOP, PHONE]) {
        const p = await newPlayer(env, 'Lou', {viewport});
        try {
          await createRoom(p, 'tanbo', {cpu: {1: 'random'}, options: {first: 1}});
          await waitMine(p.page);
          // A paddy's look: its tappable outline where it has one, else its water.
          const looks = await p.page.evaluate(() => [...document.querySelectorAll('#board .tb-paddy')].map((g) => {
            const ring = g.closest('[data-ring]');
            const el = g.querySelector('.tb-legal') || g.querySelector(':scope > .hit') ||
              ring.querySelectorAll('.tb-water')[Number(g.dataset.paddy)];
            const cs = getComputedStyle(el);
            return {legal: g.classList.contains('pick'), fill: cs.fill, stroke: cs.stroke, width: parseFloat(cs.strokeWidth), dash: cs.strokeDasharray};
          }));
          const legal = looks.filter((x) => x.legal), other = looks.filter((x) => !x.legal);
          const listed = await p.page.evaluate(() => document.querySelectorAll('.all-actions .choice-list button').length);
          assert.equal(legal.length, listed, `${legal.length} paddies to tap, ${listed} in the list`);
          assert.ok(other.length > 0, 'no paddy that may not be tapped');
          const key = (x) => `${x.fill} ${x.stroke} ${x.width} ${x.dash}`;
          assert.equal(new Set(legal.map(key)).size, 1, `paddies to tap drawn differently: ${[...new Set(legal.map(key))]}`);
          for (const x of legal) {
            // A light, opaque green (not the water darkened) and a solid outline a thumb can see.
            const [r, g, b, a = 1] = x.fill.match(/[\d.]+/g).map(Number);
            assert.ok(a === 1 && g > r && g > b && 0.2126 * r + 0.7152 * g + 0.0722 * b > 200, `a paddy to tap filled ${x.fill}`);
            assert.ok(x.width >= 8 && x.dash === 'none', `a paddy to tap outlined ${x.width} wide, dashes ${x.dash}`);
            for (const y of other) assert.notEqual(key(x), key(y), 'a paddy to tap drawn as one that is not');
          }
          // The legend's "you can play" looks like these paddies: their fill, a solid line of
          // their green; at a decision on tokens, like the tokens' dashed boxes.
          const swatch = () => p.page.evaluate(() => {
            const cs = getComputedStyle(document.querySelector('#board .board-legend [data-mark="play"] .legend-swatch'));
            return {fill: cs.backgroundColor, line: cs.borderTopStyle, colour: cs.borderTopColor, radius: cs.borderTopLeftRadius};
          });
          // Before any move the legend says nothing of a last move; once one is marked, it does.
          const marks = () => p.page.evaluate(() => [...document.querySelectorAll('#board .board-legend .legend-item')].map((el) => el.dataset.mark));
          assert.deepEqual(await marks(), ['play'], 'the legend tells of a last move before any');
          const sw = await swatch();
          assert.equal(sw.fill, legal[0].fill, 'the legend\'s swatch not filled as the paddies');
          assert.equal(sw.colour, legal[0].stroke, 'the legend\'s swatch not outlined as the paddies');
          assert.equal(sw.line, 'solid', 'the legend\'s swatch dashed, the paddies\' line solid');
          if (viewport === DESKTOP) {
            const v = (await viewInfo(p.page)).version;
            await p.page.locator('#board .pick').first().click();
            await p.page.waitForFunction((x) => window.tanbo.view.msg.version > x, v);
            await waitMine(p.page, 20000);
            const tok = await p.page.evaluate(() => getComputedStyle(document.querySelector('#board .pick > .hit')).strokeDasharray);
            const sw2 = await swatch();
            assert.notEqual(tok, 'none', 'a token to tap drawn without dashes');
            assert.equal(sw2.line, 'dashed', `the legend's swatch at ${(await viewInfo(p.page)).decision} not dashed as the tokens`);
            assert.deepEqual(await marks(), ['play', 'last-from', 'last-to'], 'the legend without the last move once one is marked');
          }
          assert.deepEqual(p.errors, []);
        } finally {
          await closeAll([p]);
        }
      }
    }},
    {name: 'tanbo: every pile of two or more says its count on a badge, and the snakes of a paddy lie clear of each other', fn: async () => {
      for (const viewport of [DESKTOP, PHONE]) {
        const p = await newPlayer(env, 'Kit', {viewport});
        try {
          await createRoom(p, 'tanbo', {cpu: {1: 'random'}, options: {first: 1}});
          await waitMine(p.page);
          // At the set-up each paddy holds two snakes (rules T1): ten piles, each saying "2".
          const piles = await p.page.evaluate(() => [...document.querySelectorAll('#board .tb-ring .tb-pile.snake')].map((pile) => {
            const snakes = [...pile.querySelectorAll('.tb-snake')];
            // The share of points along each snake's body where that snake is what shows.
            const seen = snakes.map((sn) => {
              const body = sn.querySelector('.tb-snake-body'), m = body.getScreenCTM();
              let own = 0;
              for (let k = 0; k <= 10; ++k) {
                const pt = body.getPointAtLength(body.getTotalLength() * k / 10).matrixTransform(m);
                if (document.elementFromPoint(pt.x, pt.y)?.closest('.tb-snake') === sn) ++own;
              }
              return own / 11;
            });
            return {snakes: snakes.length, badge: pile.querySelector('.tb-badge text')?.textContent, seen};
          }));
          assert.equal(piles.length, 10, `${piles.length} piles of snakes`);
          for (const x of piles) {
            assert.equal(x.snakes, 2, `${x.snakes} snakes drawn in a paddy`);
            assert.equal(x.badge, '2', `a paddy of 2 snakes says ${x.badge}`);
            for (const v of x.seen) assert.ok(v >= 0.8, `a snake shows ${Math.round(v * 100)}% of its body`);
          }
          assert.deepEqual(p.errors, []);
        } finally {
          await closeAll([p]);
        }
      }
    }},
    {name: 'tanbo: on a phone a room opens at a decision with its whole board above the bar, which says what to do, in Tanbo and in Tsoro; a prompt that does not fit with it wholly above, never cut', fn: async () => {
      for (const lang of ['en', 'fr']) {
        const p = await newPlayer(env, 'Léa', {viewport: PHONE, lang});
        try {
          for (const game of ['tanbo', 'tsoro']) {
            await playComputer(p, game);
            await waitMine(p.page);
            await p.page.waitForSelector('#controls.active');
            await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            const at = await p.page.evaluate(() => ({
              banner: document.getElementById('banner').getBoundingClientRect().top,
              bannerBottom: document.getElementById('banner').getBoundingClientRect().bottom,
              header: document.querySelector('header.top').getBoundingClientRect().bottom,
              board: document.querySelector('#board svg').getBoundingClientRect().toJSON(),
              bar: document.getElementById('controls').getBoundingClientRect().top,
              hint: document.getElementById('controls').textContent.trim(),
              picks: [...document.querySelectorAll('#board .pick [role=button]')].map((el) => el.getBoundingClientRect().toJSON()),
            }));
            assert.ok(at.board.top >= -0.5 && at.board.bottom <= at.bar + 0.5, `${lang} ${game}: the board at ${Math.round(at.board.top)}..${Math.round(at.board.bottom)}, the bar at ${Math.round(at.bar)}`);
            assert.ok(at.hint.length > 10, `${lang} ${game}: the bar says nothing (${at.hint})`);
            const seen = at.banner >= Math.max(0, at.header) - 0.5 && at.bannerBottom <= at.board.top + 0.5;
            assert.ok(seen || at.bannerBottom <= 0.5, `${lang} ${game}: the prompt cut, at ${Math.round(at.banner)}..${Math.round(at.bannerBottom)}`);
            assert.ok(at.picks.length > 0 && at.picks.every((r) => r.top >= -0.5 && r.bottom <= at.bar + 0.5), `${lang} ${game}: a target out of view`);
            if (game === 'tsoro') assert.deepEqual(at.picks.filter((r) => r.height < 32 || r.width < 32), [], `${lang}: Tsoro's targets under 32 px`);
          }
          assert.deepEqual(p.errors, []);
        } finally {
          await closeAll([p]);
        }
      }
    }},
    {name: 'tanbo: on a phone (in French, whose legend takes two lines) the board\'s legend stands clear of the pinned bar at a decision, in Tanbo and Tsoro, where the room scrolls the board and at the page\'s end', fn: async () => {
      const p = await newPlayer(env, 'Léa', {viewport: PHONE, lang: 'fr'});
      try {
        for (const game of ['tanbo', 'tsoro']) {
          await playComputer(p, game);
          await waitMine(p.page);
          await p.page.waitForSelector('#controls.active');
          await p.page.waitForSelector('#board .board-legend');
          // Where the room puts the board at a decision, then at the page's end.
          for (const where of ['decision', 'end']) {
            if (where === 'decision') await p.page.evaluate(() => { window.scrollTo(0, 0); window.tanbo.view.boardIntoView(); });
            else await p.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
            await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            const {legend, bar} = await p.page.evaluate(() => {
              const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
              return {legend: box(document.querySelector('#board .board-legend')), bar: box(document.getElementById('controls'))};
            });
            const over = legend.top < bar.bottom && legend.bottom > bar.top && legend.left < bar.right && legend.right > bar.left;
            assert.ok(!over, `${game}, ${where}: the legend (${legend.top}-${legend.bottom}) under the bar (${bar.top}-${bar.bottom})`);
            if (where === 'decision') assert.ok(legend.top >= 0 && legend.bottom <= bar.top, `${game}: the legend out of view at a decision (${legend.top})`);
          }
          // The board's targets stay above the bar too.
          const under = await p.page.evaluate(() => {
            const bar = document.getElementById('controls').getBoundingClientRect().top;
            return [...document.querySelectorAll('#board .pick')].filter((el) => el.getBoundingClientRect().top >= bar).length;
          });
          if (game === 'tsoro') assert.equal(under, 0, 'a Tsoro target wholly under the bar');
        }
        assert.deepEqual(p.errors, []);
      } finally {
        await closeAll([p]);
      }
    }},
    {name: 'tsoro: sow, head and bonus decisions by clicking', fn: () =>
      decisionsTest('tsoro', {options: {columns: 6}, kinds: ['sow', 'head', 'bonus'], maxSteps: 300, file: 'tsoro'})},
    {name: 'tanbo: farmer, sow, harvest, swap, rest and trim decisions by tapping the board', fn: async () => {
      // A set-up (T1) that reaches every kind of decision in three turns, seat 1 first (R6):
      // turn 1, Ana sows a snake then her Farmer into paddy 3 (1 snake, 3 rice): A, a harvest of 2;
      // paddy 5 holds 11: a trim. Turn 2, Ben's Farmer lands on 1 snake + 1 rice: E, Ana swaps
      // two tokens of her own ring.
      // Turn 3, Ana sows the snake and the rice, the Farmer last into the emptied paddy 1: D, she
      // gives back 1 of the 2 rice harvested (rest); paddy 5 is overfull again: a trim.
      const a = await newPlayer(env, 'Ana');
      const b = await newPlayer(env, 'Ben');
      const room = await createRoom(a, 'tanbo', {options: {first: 0}, setup: TANBO_SETUP});
      await joinFromLobby(b, room);
      await a.page.waitForSelector('#board svg');
      const kinds = [];
      kinds.push(await clickWhenMine(a, '#board .pick[data-paddy="0"]'));
      kinds.push(await clickWhenMine(b, '#board .pick[data-paddy="0"]'));
      await waitMine(a.page);
      // Every decision is on the board: no text button offers one.
      assert.equal(await a.page.locator('#controls button').count(), 0);
      // Sowing: the hand's two kinds are the targets, nothing else.
      assert.deepEqual(await pickKeys(a), ['sow:farmer', 'sow:snake']);
      kinds.push(await clickWhenMine(a, '#board [data-key="sow:snake"]'));
      // The harvest of 2 from paddy 3 (yellow, black, red): the most valuable two come chosen,
      // nothing more can be taken; a black put back, the yellow and the black are offered.
      await waitMine(a.page);
      assert.deepEqual(await pickKeys(a), ['chosen:black', 'chosen:red', 'confirm']);
      await a.page.click('#board [data-key="chosen:black"]');
      assert.deepEqual(await pickKeys(a), ['chosen:red', 'slot:0:2:black', 'slot:0:2:yellow']);
      await a.page.click('#board [data-key="slot:0:2:yellow"]');
      assert.deepEqual(await pickKeys(a), ['chosen:red', 'chosen:yellow', 'confirm']);
      kinds.push(await clickWhenMine(a, '#board [data-key="confirm"]'));
      assert.deepEqual(await a.page.evaluate(() => window.tanbo.view.msg.state.harvest[0]), {yellow: 1, black: 0, red: 1});
      // The trim: one of paddy 5's snakes or yellow rice, then the confirm beside it.
      await waitMine(a.page);
      assert.deepEqual(await pickKeys(a), ['slot:0:4:snake', 'slot:0:4:yellow']);
      await shot(env, a, 'tanbo-trim');
      await a.page.click('#board [data-key="slot:0:4:snake"]');
      kinds.push(await clickWhenMine(a, '#board [data-key="confirm"]'));
      assert.equal(await a.page.evaluate(() => window.tanbo.view.msg.state.rings[0][4].snakes), 5);
      for (let i = 0; i < 60; ++i) {
        const info = await viewInfo(a.page);
        if (info.mine && info.decision === 'sow') break;
        if (info.mine && info.decision === 'swap') {
          // The swap: a first token, and the partners the legal list gives it are the only
          // other targets; tapped again it is let go; then a partner, and the confirm.
          const all = await pickKeys(a);
          await a.page.click('#board [data-key="slot:0:1:snake"]');
          const partners = await a.page.evaluate(() => window.tanbo.view.msg.legal.filter((x) => x.swap.some((e) => e.paddy === 1 && e.token === 'snake')).length);
          assert.equal((await pickKeys(a)).length, 1 + partners);
          assert.equal(await a.page.getAttribute('#board [data-key="slot:0:1:snake"] [role=button]', 'aria-pressed'), 'true');
          await a.page.click('#board [data-key="slot:0:1:snake"]');
          assert.deepEqual(await pickKeys(a), all);
          await a.page.click('#board [data-key="slot:0:1:snake"]');
          await a.page.click('#board [data-key="slot:0:2:snake"]');
          assert.deepEqual(await pickKeys(a), ['confirm', 'slot:0:1:snake', 'slot:0:2:snake']);
          await a.page.waitForSelector('#board .tb-swap-arrow');
          await shot(env, a, 'tanbo-swap');
          await a.page.click('#board [data-key="confirm"]');
          await a.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
          kinds.push('swap');
          continue;
        }
        await playStep([b]);
      }
      kinds.push(await clickWhenMine(a, '#board [data-key="sow:snake"]'));
      kinds.push(await clickWhenMine(a, '#board [data-key^="sow:"]:not([data-key="sow:farmer"])'));
      await shot(env, a, 'tanbo');
      // The rest: 1 rice back, the least valuable (the yellow) chosen; the red left is not a
      // target while the choice is full.
      await waitMine(a.page);
      assert.deepEqual(await pickKeys(a), ['chosen:yellow', 'confirm']);
      kinds.push(await clickWhenMine(a, '#board [data-key="confirm"]'));
      assert.deepEqual(await a.page.evaluate(() => window.tanbo.view.msg.state.harvest[0]), {yellow: 0, black: 0, red: 1});
      await waitMine(a.page);
      await a.page.locator('#board .pick[data-key^="slot:"]').first().click();
      kinds.push(await clickWhenMine(a, '#board [data-key="confirm"]'));
      for (const k of ['place_farmer', 'sow', 'harvest', 'swap', 'rest', 'trim'])
        assert.ok(kinds.includes(k), `${k} never tapped (tapped: ${kinds})`);
      // The players' rows stand clear of the fields: no row overlaps a paddy.
      const overlap = await a.page.evaluate(() => {
        const rows = [...document.querySelectorAll('#board .tb-label')].map((el) => el.getBoundingClientRect());
        const paddies = [...document.querySelectorAll('#board .tb-water')].map((el) => el.getBoundingClientRect());
        return rows.some((l) => paddies.some((p) => l.left < p.right && l.right > p.left && l.top < p.bottom && l.bottom > p.top));
      });
      assert.equal(overlap, false, 'a player\'s row over a paddy');
      // The board follows the screen's shape: the rings one above the other on a phone, side
      // by side again on a wide screen, with no new state between.
      await a.page.setViewportSize(PHONE);
      await a.page.waitForSelector('#board svg.tanbo.tall');
      // There each player's own ring comes first (the one the page opens on), the opponent's
      // after the bag and the tray; a spectator's are in seat order.
      const c = await newPlayer(env, 'Cid', {viewport: PHONE});
      await c.page.goto(`${env.base}/#/room/${room}`);
      await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
      await b.page.setViewportSize(PHONE);
      for (const [p, first] of [[a, 0], [b, 1], [c, 0]]) {
        await p.page.waitForSelector('#board svg.tanbo.tall');
        const tops = await p.page.evaluate(() => [0, 1].map((s) => document.querySelector(`#board [data-ring="${s}"]`).getBoundingClientRect().top));
        assert.ok(tops[first] < tops[1 - first], `${p.name}: ring ${first} is not the first (${tops})`);
      }
      await a.page.setViewportSize(DESKTOP);
      await a.page.waitForSelector('#board svg.tanbo.wide');
      await closeAll([a, b, c]);
    }},
    ...[['390x844', PHONE], ['1280x800', DESKTOP]].map(([size, viewport]) => ({
      name: `tanbo: a whole game against the computer at ${size} by tapping the board alone, every kind of decision`,
      fn: () => tanboWholeGame(viewport),
    })),
    {name: 'steere-tanbo: a 7x7 game to its end by tapping points, at 390x844 and 1280x800', fn: async () => {
      for (const viewport of [PHONE, DESKTOP]) {
        const p = await newPlayer(env, 'Ana', {viewport, speed: 'off'});
        await createRoom(p, 'steere-tanbo', {options: {size: '7x7'}, cpu: {1: 'random'}});
        let decisions = 0;
        for (;;) {
          await waitMine(p.page, 20000);
          const info = await viewInfo(p.page);
          if (info.status === 'finished') break;
          await boardChecks(p, viewport === PHONE ? 44 : 32);
          assert.equal(await p.page.locator('#board .to-play').count(), 1, 'the colour to play is marked');
          // What a stone says: nothing written on it (its colour is itself); each root's free
          // points on a badge, one per root; a point to play on a dot well inside its target (but
          // under the pointer or the keyboard's focus, where it grows).
          const marks = await p.page.evaluate(() => ({
            written: document.querySelectorAll('#board .stone > text').length,
            badges: [...document.querySelectorAll('#board .libs')].map((el) => Number(el.textContent)),
            roots: window.tanbo.view.msg.state.roots.map((r) => r.liberties),
            dots: [...document.querySelectorAll('#board .pick')].filter((g) => !g.matches(':hover, :focus-within')).map((g) => g.querySelector('.target').getBoundingClientRect().width / g.querySelector('.hit').getBoundingClientRect().width),
          }));
          // The last move's ring and dot are drawn before every root's count: none covers one.
          const covered = await p.page.evaluate(() => {
            const marks = [...document.querySelectorAll('#board .mark, #board .last-dot')];
            return [...document.querySelectorAll('#board .libs')].filter((b) =>
              marks.some((m) => b.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING)).length;
          });
          assert.equal(covered, 0, 'a root\'s count drawn under the last move\'s ring');
          assert.equal(marks.written, 0, 'a stone with words on it');
          assert.deepEqual(marks.badges.sort(), marks.roots.sort(), 'one badge per root, with its free points');
          assert.ok(marks.dots.every((d) => d < 0.4), `a legal point drawn as a disc (${Math.max(...marks.dots)} of its target)`);
          await clickDecision(p.page);
          await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
          assert.ok(++decisions < 100, 'the game did not end');
        }
        await p.page.waitForSelector('#result .reason');
        // Nothing marks a colour to play once the game is over.
        assert.equal(await p.page.locator('#board .to-play').count(), 0);
        assert.equal(await p.page.locator('#facts .mover').count(), 0);
        await closeAll([p]);
      }
    }},
    {name: 'steere-tanbo: 11x11 on a phone keeps its row numbers whole and clear of the wood, its points a finger apart', fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport: PHONE});
      try {
        await createRoom(p, 'steere-tanbo', {options: {size: '11x11'}, cpu: {1: 'random'}});
        await waitMine(p.page);
        const rows = await p.page.evaluate(() => {
          const svg = document.querySelector('#board svg.steere');
          const left = svg.getBoundingClientRect().left, wood = svg.querySelector('.wood').getBoundingClientRect().left;
          return [...svg.querySelectorAll('.coord')].filter((el) => /^\d+$/.test(el.textContent)).map((el) => {
            const b = el.getBoundingClientRect();
            return {n: el.textContent, gap: wood - b.right, cut: left - b.left, h: b.height};
          });
        });
        assert.equal(rows.length, 11);
        for (const r of rows) {
          assert.ok(r.gap >= 3, `row ${r.n}: ${r.gap.toFixed(1)} px from the wood`);
          assert.ok(r.cut <= 0.5, `row ${r.n}: cut by ${r.cut.toFixed(1)} px at the board's edge`);
          assert.ok(r.h >= 9, `row ${r.n}: ${r.h} px high`);
        }
        assert.deepEqual(await smallTargets(p.page, '#board .pick', 32), []);
        assert.doesNotMatch(await p.page.getAttribute('#board svg.steere', 'class'), /needs-zoom/);
        // One count of the moves, the log's: the facts number no turn.
        assert.doesNotMatch(await p.page.locator('#facts').textContent(), /Turn \d/);
        assert.deepEqual(p.errors, []);
      } finally {
        await closeAll([p]);
      }
    }},
    {name: 'steere-tanbo: 19x19 fits a phone whole with its coordinates; a tap zooms in, a second places the stone', fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport: PHONE});
      await createRoom(p, 'steere-tanbo', {options: {size: '19x19'}, cpu: {1: 'random'}});
      await waitMine(p.page);
      const page = p.page;
      const fit = await page.evaluate(() => {
        const svg = document.querySelector('#board svg.steere');
        const r = svg.getBoundingClientRect();
        const coords = [...svg.querySelectorAll('.coord')].map((el) => ({text: el.textContent, box: el.getBoundingClientRect()}));
        return {left: r.left, right: r.right, height: r.height, cls: svg.getAttribute('class'), view: svg.dataset.view,
                coords: coords.map((c) => c.text).sort().join(','),
                outside: coords.filter((c) => c.box.left < 0 || c.box.right > innerWidth).length,
                smallest: Math.min(...coords.map((c) => c.box.height)),
                // The row numbers' gap to the wood, in pixels (the narrowest).
                gap: Math.min(...coords.filter((c) => /^\d+$/.test(c.text)).map((c) => svg.querySelector('.wood').getBoundingClientRect().left - c.box.right))};
      });
      assert.ok(fit.left >= 0 && fit.right <= 390 && fit.height <= 844, `19x19 not whole: ${JSON.stringify(fit)}`);
      const expected = [...'abcdefghijklmnopqrs', ...Array.from({length: 19}, (_, i) => String(i + 1))].sort().join(',');
      assert.equal(fit.coords, expected, 'every coordinate the log uses is drawn');
      assert.equal(fit.outside, 0);
      assert.ok(fit.smallest >= 9, `coordinates ${fit.smallest} px high`);
      assert.ok(fit.gap >= 2, `a row number ${fit.gap.toFixed(1)} px from the wood`);
      assert.equal(fit.view, 'whole');
      assert.match(fit.cls, /needs-zoom/, 'points under 32 px are zoomed into first');
      assert.equal((await horizontalOverflow(page)).over, 0);
      // The points are the keyboard's in the whole board, not a finger's.
      assert.deepEqual(await smallTargets(page, '#board .pick', 32), []);
      const box = await page.locator('#board svg').boundingBox();
      await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
      await page.waitForSelector('#board svg[data-view="zoomed"]');
      assert.ok((await page.locator('#board .pick').count()) > 0);
      assert.deepEqual(await smallTargets(page, '#board .pick', 44), []);
      // "Whole board" comes back; a second zoom, then a point places the stone.
      await page.click('#board .zoom-out');
      await page.waitForSelector('#board svg[data-view="whole"].needs-zoom');
      // The zoom scrolled the page to the part it shows: where the whole board is now.
      const again = await page.locator('#board svg').boundingBox();
      await page.mouse.click(again.x + again.width * 0.3, again.y + again.height * 0.7);
      await page.waitForSelector('#board svg[data-view="zoomed"]');
      const info = await viewInfo(page);
      await page.locator('#board .pick').first().click();
      await page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      await waitMine(page);
      assert.equal(await page.locator('#board svg').getAttribute('data-view'), 'whole');
      await page.setViewportSize(DESKTOP);
      await page.waitForFunction(() => !document.querySelector('#board svg.needs-zoom'));
      assert.deepEqual(await smallTargets(page, '#board .pick', 32), [], 'at 1280x800 the points are 32 px apart');
      // And the whole board, its coordinates and its players' row, fits the window's height.
      const tall = await page.evaluate(() => document.querySelector('#board svg.steere').getBoundingClientRect().height);
      assert.ok(tall <= 800, `19x19 is ${tall} px tall at 1280x800`);
      await closeAll([p]);
    }},
  ];
}

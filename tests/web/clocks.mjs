// Time controls in the browser: game clocks, running out, correspondence, and clocks in Play now
// and challenges.
import assert from 'node:assert/strict';
import {axeCheck} from './checks.mjs';
import {DESKTOP, newPlayer, closeAll, toLobby, createRoom, joinFromLobby, playNow, waitSeeking,
  waitSeated, playerId, listed, seatClock, readClocks, clocksTick, sendChallenge, viewInfo,
  waitMine, clickDecision, playStep, shot, docShot, openMore} from './support.mjs';

export function tests(env) {
  return [
    {name: 'time controls: a 3+2 game clock from the form shows both clocks to a player and a spectator, the running one ticking down; the form sends each kind of timer', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const c = await newPlayer(env, 'Cid', {viewport: DESKTOP, lang: 'fr'});
      const players = [a, c];
      try {
        // The clock's fields show only for a game clock; a standard one is one click.
        await openMore(a.page, 'mancala-simple');
        await a.page.click('[data-custom="mancala-simple"]');
        assert.equal(await a.page.locator('#create-clock').isHidden(), true);
        assert.equal(await a.page.locator('#create-correspondence').isHidden(), true);
        await a.page.selectOption('#create-timer', 'clock');
        await a.page.click('[data-clock-preset="3+2"]');
        assert.equal(await a.page.getAttribute('[data-clock-preset="3+2"]', 'aria-pressed'), 'true');
        assert.equal(await a.page.getAttribute('[data-clock-preset="5+3"]', 'aria-pressed'), 'false');
        assert.equal(await a.page.inputValue('#create-clock-base'), '3');
        assert.equal(await a.page.inputValue('#create-clock-increment'), '2');
        await axeCheck(a.page, 'the custom game form with a game clock');
        await a.page.locator('#create-clock').scrollIntoViewIfNeeded();
        await docShot(env, a.page, 'create-clock');
        const room = await createRoom(a, 'mancala-simple', {clock: '3+2', cpu: {1: 'random'}, options: {first: 0}});
        assert.deepEqual((await listed(env, room)).timer, {type: 'clock', base_s: 180, increment_s: 2});
        await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing' && window.tanbo.view.msg.clock?.control === 'clock');
        // Ana moves first: her clock runs from 3:00, the computer's stays at 3:00.
        const mine = await clocksTick(a, 0, 'the player');
        assert.ok(mine[0].ms <= 180000 && mine[0].ms > 170000, `Ana's clock at ${mine[0].ms}`);
        assert.equal(mine[1].ms, 180000);
        assert.equal(await seatClock(a, 1).locator('.clock-text').textContent(), '3:00');
        // A spectator (in French) sees both clocks tick the same way, and the card in the lobby.
        await c.page.waitForSelector(`#live-rooms [data-room="${room}"]`);
        assert.match(await c.page.locator(`#live-rooms [data-room="${room}"] .room-options`).textContent(), /pendule 3\+2/);
        await c.page.goto(`${env.base}/#/room/${room}`);
        await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.role === 'spectator', room);
        const seen = await clocksTick(c, 0, 'the spectator');
        assert.equal(seen[1].ms, 180000);
        assert.ok(Math.abs(seen[0].ms - (await readClocks(a, 2))[0].ms) < 1500, 'the player and the spectator read the same time');
        await shot(env, c, 'clock-spectator');
        // Ana moves; the computer answers. Each decision adds 2 s to its seat's time: checked on
        // the server's figures of every step the page received (a reading of the clocks on the
        // page would depend on how fast a loaded machine answers), then the page's clocks
        // against the last of them.
        await waitMine(a.page);
        await a.page.evaluate(() => {
          window.statesSeen = [window.tanbo.view.msg];
          window.tanbo.conn.addEventListener('state', (e) => window.statesSeen.push(e.detail));
        });
        const info = await viewInfo(a.page);
        await clickDecision(a.page);
        await a.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
        await waitMine(a.page);
        const steps = await a.page.evaluate(() => window.statesSeen.map((m) => ({version: m.version, clock: m.clock})));
        const credited = new Set();
        for (let i = 1; i < steps.length; ++i) {
          const [prev, next] = [steps[i - 1], steps[i]];
          if (next.version !== prev.version + 1) continue;
          // A state shows each time at its `at`, a moment after the step it shows. The mover's
          // time ran from the earlier state's `at` until its decision, at the latest the later
          // state's `at`, and the decision earned 2 s; the other seat's stood still until that
          // decision, and runs from it when it is the one to decide next.
          const mover = prev.clock.seat, other = 1 - mover, spent = next.clock.at - prev.clock.at;
          const was = prev.clock.remaining, now = next.clock.remaining;
          const what = `after version ${next.version}: ${JSON.stringify(was)} -> ${JSON.stringify(now)} in ${spent} ms`;
          assert.ok(now[mover] >= was[mover] + 2000 - spent && now[mover] <= was[mover] + 2000, `the mover's time ${what}`);
          if (next.clock.seat === other) assert.ok(now[other] >= was[other] - spent && now[other] <= was[other], `the other seat's time ${what}`);
          else assert.equal(now[other], was[other], `the other seat's time ${what}`);
          credited.add(mover);
        }
        assert.ok(credited.has(0), `Ana's move was not among the steps: ${JSON.stringify(steps)}`);
        const last = steps.at(-1).clock;
        const after = await readClocks(a, 2);
        assert.equal(after[1].ms, Math.floor(last.remaining[1] / 1000) * 1000, 'the computer\'s clock as the server said');
        assert.ok(after[0].ms <= last.remaining[0] && after[0].ms > last.remaining[0] - 5000, `Ana's clock ${after[0].ms} against the server's ${last.remaining[0]}`);
        assert.equal(after[0].running, true);
        // The form sends the other kinds: 30 s per move, a custom clock in seconds, by
        // correspondence; a base over 60 minutes is not sent.
        const r30 = await createRoom(a, 'tsoro', {timer: 30});
        assert.equal((await listed(env, r30)).timer, 30);
        const r45 = await createRoom(a, 'tsoro', {clock: {base: 45, unit: 's', increment: 0}});
        assert.deepEqual((await listed(env, r45)).timer, {type: 'clock', base_s: 45, increment_s: 0});
        const r14 = await createRoom(a, 'tsoro', {days: 14});
        assert.deepEqual((await listed(env, r14)).timer, {type: 'correspondence', days: 14});
        await toLobby(a);
        for (const [r, words] of [[r30, /30\ss per move/], [r45, /¾\+0 clock/], [r14, /14\sdays per move/]]) {
          await a.page.waitForSelector(`#open-rooms [data-room="${r}"]`);
          assert.match(await a.page.locator(`#open-rooms [data-room="${r}"] .room-options`).textContent(), words);
        }
        await openMore(a.page, 'tsoro');
        await a.page.click('[data-custom="tsoro"]');
        await a.page.selectOption('#create-timer', 'clock');
        await a.page.fill('#create-clock-base', '90');
        await a.page.click('#create-form button[type=submit]');
        assert.equal(await a.page.locator('#create-clock-base:invalid').count(), 1);
        await a.page.waitForTimeout(300);
        assert.equal(await a.page.locator('#create-form').count(), 1, 'a base of 90 minutes was sent');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'time controls: a player whose game clock runs out loses on time, said in the result and the log', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      try {
        await createRoom(a, 'mancala-simple', {clock: {base: 30, unit: 's', increment: 0}, cpu: {1: 'random'}, options: {first: 0}});
        await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
        await clocksTick(a, 0, 'a 30 s clock');
        await a.page.waitForSelector('#result .reason', {timeout: 45000});
        assert.equal(await a.page.locator('#result .reason').getAttribute('data-reason'), 'time');
        assert.match(await a.page.locator('#result h3').textContent(), /You ran out of time/);
        assert.match(await a.page.locator('#result .reason').textContent(), /Reason: time ran out/);
        assert.match(await a.page.locator('#result .time-out').textContent(), /Ana ran out of time/);
        await a.page.waitForSelector('#log li:has-text("Ana ran out of time")');
        // The final times stay on the seats, none running.
        const last = await readClocks(a, 2);
        assert.equal(last[0].ms, 0);
        assert.ok(!last[0].running && !last[1].running, 'a clock still running after the end');
        await closeAll([a]);
      } finally {
        await a.ctx.close().catch(() => {});
      }
    }},
    {name: 'time controls: a correspondence game is in the your-turn list of the player to move, in the header and the lobby, and moves to the other player\'s after a move', fn: async () => {
      const a = await newPlayer(env, '花子', {viewport: DESKTOP, lang: 'ja'});
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP});
      const players = [a, b];
      try {
        // Ben (seat 2) moves first in 花子's 3-day game.
        const room = await createRoom(a, 'mancala-simple', {days: 3, options: {first: 1}});
        await joinFromLobby(b, room);
        await b.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
        await b.page.waitForSelector('#turns:not([hidden])');
        // "Your turn" and the count; its tooltip says what the count counts.
        assert.equal(await b.page.locator('#turns-summary').textContent(), 'Your turn 1\u00a0game');
        assert.equal(await b.page.getAttribute('#turns-summary', 'title'), 'Your turn: 1\u00a0game waits for your move');
        // The room: the days left to the deciding seat, and the date they end.
        const seat = b.page.locator('.seat[data-seat="1"] [data-clock-seat="1"] .clock-text');
        await seat.filter({hasText: /left/}).waitFor();
        assert.match(await seat.textContent(), /^(2\sd 23\sh|3\sd 0\sh) left$/);
        assert.match(await b.page.locator('#banner').textContent(), /(2\sd 23\sh|3\sd 0\sh) left \(due .+\)/);
        assert.equal(await b.page.locator('.seat[data-seat="0"] [data-clock-seat]').count(), 0);
        assert.equal(await a.page.locator('#turns').isHidden(), true);
        // 花子's lobby lists her game, not her turn; she reads the rules meanwhile.
        await a.page.goto(`${env.base}/#/`);
        await a.page.waitForSelector(`#my-games-list [data-room="${room}"][data-your-turn="false"]`);
        assert.match(await a.page.locator('#my-games-h').textContent(), /あなたの対局/);
        assert.match(await a.page.locator(`#my-games-list [data-room="${room}"]`).textContent(), /相手：Ben.*相手の手番/);
        await a.page.goto(`${env.base}/#/rules/tsoro`);
        await a.page.waitForSelector('#rules-title');
        // Ben's lobby: his turn, with the time left; so says the HTTP API.
        await b.page.goto(`${env.base}/#/`);
        const item = b.page.locator(`#my-games-list [data-room="${room}"][data-your-turn="true"]`);
        await item.waitFor();
        assert.match(await b.page.locator('#my-games-h').textContent(), /Your turn \(1\)/);
        assert.match(await item.textContent(), /against 花子/);
        assert.match(await item.textContent(), /your turn/);
        assert.match(await item.textContent(), /(2\sd 23\sh|3\sd 0\sh) left \(due .+\)/);
        await axeCheck(b.page, 'the lobby with the player\'s games');
        await docShot(env, b.page, 'your-turn');
        const waitingFor = async (p) => (await (await fetch(`${env.base}/api/players/${await playerId(p)}/games?waiting=1`)).json()).games;
        assert.ok((await waitingFor(b)).some((g) => g.room === room && g.your_turn), 'Ben\'s waiting games');
        assert.ok(!(await waitingFor(a)).some((g) => g.room === room), '花子\'s waiting games');
        // The link takes Ben back to his seat; he plays until it is 花子's turn.
        await item.locator('a').click();
        await b.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat === 1, room);
        for (let i = 0; i < 100; ++i) {
          const m = await b.page.evaluate(() => ({seat: window.tanbo.view.msg.pending?.seat, status: window.tanbo.view.msg.status}));
          if (m.seat === 0 || m.status !== 'playing') break;
          await playStep([b]);
        }
        assert.equal(await b.page.evaluate(() => window.tanbo.view.msg.pending?.seat), 0, 'the game did not come to 花子');
        // 花子, on the rules page, is told by the lobby's pushes: her turn, in the header.
        await a.page.waitForSelector('#turns:not([hidden])');
        assert.equal(await a.page.locator('#turns-summary').textContent(), 'あなたの手番 1局');
        assert.equal(await a.page.getAttribute('#turns-summary', 'title'), 'あなたの手番：1局があなたの手を待っています');
        await b.page.waitForSelector('#turns', {state: 'hidden'});
        await a.page.click('#turns-summary');
        const link = a.page.locator(`#turns-list [data-room="${room}"][data-your-turn="true"] a`);
        await link.waitFor();
        await axeCheck(a.page, 'the header\'s list of the games waiting (ja)');
        await docShot(env, a.page, 'your-turn-header-ja');
        await link.click();
        await a.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat === 0, room);
        await a.page.waitForSelector('.seat[data-seat="0"] [data-clock-seat="0"] .clock-text:has-text("残り")');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'time controls: Play now and a challenge with a game clock or correspondence, described in words and remembered', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP});
      const players = [a, b];
      try {
        await playNow(a, 'tsoro', {timer: 'clock:300+3'});
        await waitSeeking(a, 'tsoro');
        assert.match(await a.page.locator('#seek-panel .seek-terms').textContent(), /Tsoro · 2\splayers · game clock: 5\smin \+ 3\ss per move · unranked/);
        await openMore(b.page, 'tsoro');
        const join = b.page.locator('[data-pools="tsoro"] li[data-waiting="1"]');
        await join.waitFor();
        assert.match(await join.textContent(), /game clock: 5\smin \+ 3\ss per move/);
        await join.locator('button').click();
        const [ra, rb] = [await waitSeated(a), await waitSeated(b)];
        assert.equal(ra.room, rb.room);
        assert.deepEqual((await listed(env, ra.room)).timer, {type: 'clock', base_s: 300, increment_s: 3});
        for (const p of players) {
          await p.page.waitForFunction(() => document.querySelectorAll('.seats [data-clock-seat]').length === 2);
          const running = await p.page.evaluate(() => window.tanbo.view.msg.clock.seat);
          await clocksTick(p, running, `${p.name} in the paired room`);
        }
        // A challenge by correspondence, from the seat: its terms in words on both sides.
        await sendChallenge(b, `.seat[data-seat="${ra.seat}"] [data-challenge-seat]`, {timer: 'days:5'});
        const card = a.page.locator('.challenge-card.in');
        await card.waitFor();
        assert.match(await card.locator('.challenge-terms').textContent(), /Tsoro · 2\splayers · 5\sdays per move · unranked/);
        await card.locator('button.decline').click();
        await b.page.waitForSelector('.challenge-card.out.ended [data-reason="declined"]');
        // The choice is remembered on the card, across a reload.
        await a.page.goto(`${env.base}/#/`);
        await a.page.reload();
        await a.page.waitForSelector('.game-card');
        assert.equal(await a.page.locator('[data-seek-timer="tsoro"]').inputValue(), 'clock:300+3');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
  ];
}

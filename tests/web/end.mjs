// The end of a game as its players read it: "You won" / "You lost" / a place of 3, the reason,
// the rating change of a ranked game, a game the computer finished for an absent player, and
// the two ways on: Rematch and New opponent (Play now on the same terms).
import assert from 'node:assert/strict';
import {axeCheck} from './checks.mjs';
import {DESKTOP, PHONE, newPlayer, closeAll, createRoom, joinFromLobby, waitMine, clickDecision, viewInfo,
  status, waitSeated, docShot} from './support.mjs';

// Resigns the game from the room, through its confirmation.
async function resign(p) {
  await p.page.click('#resign');
  await p.page.click('#resign-confirm');
}

const headline = (p) => p.page.locator('#result h3').textContent();
const ratingChange = (p) => p.page.locator('#result .rating-change').textContent();

// Two players in a ranked room of `game`, Ana first; returns them and the room.
async function rankedPair(env, {viewport} = {}) {
  const a = await newPlayer(env, 'Ana', {viewport});
  const b = await newPlayer(env, 'Ben', {viewport});
  const room = await createRoom(a, 'mancala-simple', {ranked: true, options: {first: 0}});
  await joinFromLobby(b, room);
  await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
  return {a, b, room};
}

export function tests(env) {
  return [
    {name: 'end: a lost ranked game says "You lost" with its rating change, the winner "You won!", a spectator who won', fn: async () => {
      const {a, b, room} = await rankedPair(env, {viewport: DESKTOP});
      const c = await newPlayer(env, 'Cid');
      await c.page.goto(`${env.base}/#/room/${room}`);
      await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
      await resign(b);
      for (const p of [a, b, c]) await p.page.waitForSelector('#result .places');
      assert.equal(await headline(b), 'You lost');
      assert.equal(await ratingChange(b), 'Rating: \u221216 (1500\u00a0\u2192\u00a01484)');
      assert.equal(await b.page.locator('#result .rating-change').getAttribute('data-delta'), '-16');
      assert.equal(await headline(a), 'You won!');
      assert.equal(await ratingChange(a), 'Rating: +16 (1500\u00a0\u2192\u00a01516)');
      // Who resigned: "You" to the one who did, by name to the others; the log says it once,
      // with the winner; the places numbered by their ranks alone; the chat published now.
      assert.equal(await b.page.locator('#result .reason').textContent(), 'You resigned.');
      for (const p of [a, c]) assert.equal(await p.page.locator('#result .reason').textContent(), 'Game over: Ben resigned.');
      assert.match(await a.page.locator('#log').textContent(), /Ben resigns; Ana wins/);
      assert.doesNotMatch(await a.page.locator('#log').textContent(), /resigned|Game over/);
      assert.equal(await a.page.locator('#result .places').evaluate((el) => getComputedStyle(el).listStyleType), 'none');
      assert.equal(await a.page.locator('#chat-public').textContent(), 'This chat is published with the game.');
      assert.equal(await a.page.locator('#chat-switch').isVisible(), false, 'the spectators\' switch after the end');
      // Everyone reads the same places, each with its new rating.
      const places = await c.page.locator('#result .places').textContent();
      // A rating kept on one line with its change (a no-break space between them).
      assert.match(places, /1st: Ana · 1516\u00a0\(\+16\)/);
      assert.match(places, /2nd: Ben · 1484\u00a0\(\u221216\)/);
      assert.equal(await b.page.locator('#result .places').textContent(), places);
      assert.equal(await headline(c), 'Ana won');
      assert.equal(await c.page.locator('#result .rating-change').count(), 0);
      // The players' chips: each name at the same height, whatever else a chip holds (the
      // winner reads a Challenge button in the loser's).
      for (const p of [a, b]) {
        const names = await p.page.evaluate(() => [...document.querySelectorAll('.seat .seat-name')].map((el) => {
          const r = el.getBoundingClientRect();
          return (r.top + r.bottom) / 2;
        }));
        assert.ok(Math.max(...names) - Math.min(...names) <= 2, `${p.name}: the chips' names at ${names.join(', ')}`);
        // Each place on its name's line, never alone on a line of the chip, on a phone too.
        for (const viewport of [PHONE, DESKTOP]) {
          await p.page.setViewportSize(viewport);
          const apart = await p.page.evaluate(() => [...document.querySelectorAll('.seat')].filter((chip) => {
            const [n, t] = [chip.querySelector('.seat-name'), chip.querySelector('.tag.place')].map((el) => el.getBoundingClientRect());
            return Math.abs((n.top + n.bottom) / 2 - (t.top + t.bottom) / 2) > 4;
          }).length);
          assert.equal(apart, 0, `${p.name} at ${viewport.width}: a place apart from its name`);
        }
      }
      // Nothing marks a player to move once it is over; the banner gives way to the end card.
      for (const p of [a, b, c]) {
        assert.equal(await p.page.locator('.seat.turn, .tag.turn').count(), 0);
        assert.equal(await p.page.locator('#banner').isVisible(), false);
      }
      // The two ways on, for the players only; the fairness check folded.
      assert.equal(await b.page.locator('#result .end-actions button').count(), 2);
      assert.equal(await c.page.locator('#rematch, #new-opponent').count(), 0);
      await b.page.waitForSelector('#result details.fair summary.ok');
      assert.equal(await b.page.locator('#result details.fair').evaluate((d) => d.open), false);
      await axeCheck(b.page, 'the end of a game');
      await docShot(env, b.page, 'end-lost');
      await closeAll([a, b, c]);
    }},
    {name: 'end: Rematch starts the next game in the room; New opponent pairs both players again on the same terms', fn: async () => {
      const {a, b, room} = await rankedPair(env);
      await resign(a);
      await b.page.waitForSelector('#rematch');
      await a.page.click('#rematch');
      await a.page.waitForSelector('#rematch[disabled]');
      assert.match(await b.page.locator('#result .rematch-asked').textContent(), /Ana/);
      await b.page.click('#rematch');
      for (const p of [a, b]) await p.page.waitForFunction((r) => window.tanbo.view.room === r && window.tanbo.view.msg.status === 'playing', room);
      assert.equal(await a.page.locator('#result').isVisible(), false);
      // The second game ends too: both ask for a new opponent, and the pool pairs them.
      await resign(b);
      for (const p of [a, b]) await p.page.waitForSelector('#new-opponent');
      await a.page.click('#new-opponent');
      await a.page.waitForSelector('#seek-panel[data-game="mancala-simple"]');
      await b.page.click('#new-opponent');
      const seats = await Promise.all([a, b].map((p) => waitSeated(p, 15000)));
      assert.equal(seats[0].room, seats[1].room);
      assert.notEqual(seats[0].room, room);
      // On the same terms: ranked, as the first room was.
      const listed = await a.page.evaluate(async (r) => (await (await fetch('/api/rooms')).json()).rooms.find((x) => x.room === r), seats[0].room);
      assert.equal(listed.ranked, true);
      assert.equal(listed.game, 'mancala-simple');
      await closeAll([a, b]);
    }},
    {name: 'end: three players: the second to resign reads "You finished 2nd of 3"', fn: async () => {
      const a = await newPlayer(env, 'Ana');
      const room = await createRoom(a, 'mancala-simple', {seats: 3});
      const b = await newPlayer(env, 'Ben');
      const c = await newPlayer(env, 'Cid');
      await joinFromLobby(b, room);
      await joinFromLobby(c, room);
      await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
      await resign(c);
      await b.page.waitForFunction(() => window.tanbo.view.msg.version >= 2 && !window.tanbo.view.animating);
      await resign(b);
      for (const p of [a, b, c]) await p.page.waitForSelector('#result .places');
      assert.equal(await headline(b), 'You finished 2nd of 3');
      assert.equal(await headline(c), 'You finished 3rd of 3');
      assert.equal(await headline(a), 'You won!');
      await closeAll([a, b, c]);
    }},
    {name: 'end: in Japanese on a phone, each game\'s board names its players whole at the end, names as long as the longest guest\'s, 2 to 4 players', fn: async () => {
      const names = ['ゲスト・しんぼう強いコウノトリ', 'ゲスト・しんぼう強いハリネズミ', 'ゲスト・しんぼう強いハチドリ', 'ゲスト・しんぼう強いカワセミ'];
      for (const [game, n] of [['mancala-simple', 2], ['mancala-simple', 3], ['mancala-simple', 4], ['steere-tanbo', 2], ['tsoro', 2], ['tanbo', 2]]) {
        const ps = [];
        try {
          for (const name of names.slice(0, n)) ps.push(await newPlayer(env, name, {lang: 'ja'}));
          const room = await createRoom(ps[0], game, {ranked: true, ...(n > 2 ? {seats: n} : {})});
          for (const p of ps.slice(1)) await joinFromLobby(p, room);
          await ps[0].page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
          for (const p of ps.slice(1).reverse()) {
            const v = await p.page.evaluate(() => window.tanbo.view.msg.version);
            await resign(p);
            for (const q of ps) await q.page.waitForFunction((x) => window.tanbo.view.msg.version > x && !window.tanbo.view.animating, v);
          }
          for (const p of ps) await p.page.waitForSelector('#result .places');
          // Each view: no word of the board shortened or cut at its edges, every other player
          // named whole.
          for (const [i, p] of ps.slice(0, 2).entries()) {
            await p.page.waitForFunction(() => !window.tanbo.view.animating);
            const {cut, words} = await p.page.evaluate(() => {
              const svg = document.querySelector('#board svg').getBoundingClientRect();
              const texts = [...document.querySelectorAll('#board svg text')];
              return {words: texts.map((el) => el.textContent).join('|'), cut: texts.filter((el) => {
                const b = el.getBoundingClientRect();
                return b.width && (el.textContent.includes('…') || b.left < svg.left - 1 || b.right > svg.right + 1 || b.top < svg.top - 1 || b.bottom > svg.bottom + 1);
              }).map((el) => el.textContent)};
            });
            const what = `${game}, ${n} players, ${names[i]}'s view`;
            assert.deepEqual(cut, [], `${what}: words cut`);
            for (const name of names.slice(0, n)) if (name !== names[i]) assert.ok(words.includes(name), `${what}: ${name} not named whole (${words})`);
          }
          await closeAll(ps);
        } finally {
          for (const p of ps) await p.ctx.close().catch(() => {});
        }
      }
    }},
    {name: 'end: a game the computer finished for an absent player is not counted as theirs', fn: async () => {
      // Ben leaves; past the grace (5 s in this run) the computer plays his seat; Ana resigns,
      // so on the board the computer wins for Ben; the game counts as his loss.
      const {a, b} = await rankedPair(env);
      await b.ctx.close();
      // Ana moves until it is Ben's turn; the computer then decides for him.
      for (let i = 0; i < 20; ++i) {
        await waitMine(a.page);
        const info = await viewInfo(a.page);
        if (!info.mine) break;
        await clickDecision(a.page);
        await a.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
        await a.page.waitForTimeout(50);
        if ((await a.page.evaluate(() => window.tanbo.view.msg.pending?.seat)) === 1) break;
      }
      await a.page.waitForSelector('#log li:has-text("The computer for Ben (away)")', {timeout: 30000});
      assert.equal(await status(a), 'playing');
      await resign(a);
      await a.page.waitForSelector('#result .takeover-note');
      assert.match(await a.page.locator('#result .takeover-note').textContent(),
        /Ben was away: the computer finished the game for them, so it counts as their loss/);
      assert.equal(await headline(a), 'You won!');
      assert.equal(await ratingChange(a), 'Rating: +16 (1500\u00a0\u2192\u00a01516)');
      assert.match(await a.page.locator('#result .places').textContent(), /Ben \(finished by the computer\) · 1484/);
      assert.deepEqual(await a.page.evaluate(() => window.tanbo.view.msg.result.takeover), [1]);
      await closeAll([a]);
    }},
  ];
}

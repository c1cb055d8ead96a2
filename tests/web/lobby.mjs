// The lobby that leads with the games, on a server of its own (the group's tests run in order):
// a first visit on a phone shows each game's picture and Play above the fold, all four at
// 1280 x 800, with no empty part, axe clean and nothing wider than the screen in English,
// French and Japanese; recent finished games to replay while nothing is live; Play against the
// computer at once, and Play joining a person waiting in an open room or in a pool (never a game
// by correspondence).
import assert from 'node:assert/strict';
import {axeCheck, horizontalOverflow} from './checks.mjs';
import {PHONE, DESKTOP, GAMES, newPlayer, closeAll, createRoom, playComputer, playNow, waitSeeking, waitSeated,
  toLobby, smallControls, docShot} from './support.mjs';

export function tests(env) {
  // Where each card's picture and Play button are, the page unscrolled; whether any part of
  // what is on now shows, and what it says.
  function readLobby(page) {
    return page.evaluate(() => {
      window.scrollTo(0, 0);
      const box = (el) => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: r.width, h: r.height};
      };
      const cards = [...document.querySelectorAll('.game-card')].map((card) => ({
        game: card.dataset.game,
        card: box(card),
        picture: box(card.querySelector('.card-picture svg[role=img]')),
        pictureLabel: card.querySelector('.card-picture svg')?.getAttribute('aria-label'),
        pictureShapes: card.querySelectorAll('.card-picture svg :is(circle, rect, path, ellipse, polygon)').length,
        // A board's frame, whole inside its picture (no part of it cut off or faded out).
        frame: (() => {
          const svg = card.querySelector('.card-picture svg'), wood = svg?.querySelector('.wood');
          if (!wood) return null;
          const [a, b] = [svg.getBoundingClientRect(), wood.getBoundingClientRect()];
          return {inside: b.left >= a.left - 0.5 && b.right <= a.right + 0.5 && b.top >= a.top - 0.5 && b.bottom <= a.bottom + 0.5,
                  mask: getComputedStyle(svg).maskImage};
        })(),
        play: box(card.querySelector('[data-play]')),
        kind: card.querySelector('[data-play]')?.dataset.playKind,
      }));
      const shown = (id) => { const el = document.getElementById(id); return !!el && !el.hidden && el.getClientRects().length > 0; };
      return {cards, height: innerHeight, width: innerWidth,
              parts: {open: shown('open-part'), live: shown('live-part'), recent: shown('recent-part')},
              text: document.querySelector('.lobby').innerText};
    });
  }

  const inView = (b, lobby) => b && b.top >= 0 && b.left >= 0 && b.bottom <= lobby.height && b.right <= lobby.width;

  // The first visit's checks at one size in one language: each picture drawn and named, each
  // Play in view (on a phone the first two cards whole, the rest within a short scroll).
  async function firstVisit(p, lang, size) {
    // The pictures come after the cards (their module loads once the cards are drawn).
    await p.page.waitForFunction(() => document.querySelectorAll('.game-card').length > 0 &&
      document.querySelectorAll('.card-picture svg').length === document.querySelectorAll('.game-card').length);
    const lobby = await readLobby(p.page);
    const what = `${lang} ${size}`;
    assert.deepEqual(lobby.cards.map((c) => c.game).sort(), [...GAMES].sort(), `a card per game (${what})`);
    for (const c of lobby.cards) {
      assert.ok(c.picture && c.picture.w >= 80 && c.picture.h >= 50, `${c.game}: a picture (${what}): ${JSON.stringify(c.picture)}`);
      assert.ok(c.pictureShapes >= 10, `${c.game}: the picture draws the board (${c.pictureShapes} shapes)`);
      assert.ok(c.pictureLabel, `${c.game}: the picture is named`);
      if (c.frame) assert.ok(c.frame.inside && c.frame.mask === 'none', `${c.game}: the board not whole in its picture (${what}): ${JSON.stringify(c.frame)}`);
      assert.equal(c.kind, 'cpu', `${c.game}: nobody waits, so Play is against the computer (${what})`);
    }
    if (size === 'phone') {
      for (const c of lobby.cards.slice(0, 2)) assert.ok(inView(c.card, lobby), `${c.game}: the whole card above the fold (${what}): ${JSON.stringify(c.card)}`);
      for (const c of lobby.cards) {
        assert.ok(c.play.bottom <= lobby.height * 1.5, `${c.game}: Play within a short scroll (${what}): ${c.play.bottom}`);
      }
      const [first, second] = lobby.cards;
      assert.ok(inView(first.picture, lobby) && inView(first.play, lobby) && inView(second.picture, lobby) && inView(second.play, lobby),
        `the first two pictures and Play buttons above the fold (${what})`);
    } else {
      for (const c of lobby.cards) {
        assert.ok(inView(c.picture, lobby) && inView(c.play, lobby), `${c.game}: picture and Play in view (${what})`);
      }
    }
    // Nothing on now, nothing finished yet: no part says "none".
    assert.deepEqual(lobby.parts, {open: false, live: false, recent: false}, `no empty part (${what})`);
    const over = await horizontalOverflow(p.page);
    assert.equal(over.over, 0, `nothing wider than the screen (${what}): ${over.culprits.join(', ')}`);
    await axeCheck(p.page, `the lobby (${what})`);
    if (size === 'phone') assert.deepEqual(await smallControls(p.page, '.game-card'), [], `card controls under 44 px (${what})`);
  }

  return [
    {name: 'lobby games: a first visit shows every game\'s picture and Play above the fold, no empty part, axe, no overflow, in en, fr and ja', fn: async () => {
      const players = [];
      try {
        for (const lang of ['en', 'fr', 'ja']) {
          for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]]) {
            const p = await newPlayer(env, lang === 'ja' ? '花子' : 'Ana', {lang, viewport});
            players.push(p);
            await firstVisit(p, lang, size);
            if (lang === 'en' || size === 'phone') await docShot(env, p.page, `lobby-first-${lang}-${size}`);
            // The folded choices open in place and stay inside the screen.
            await p.page.click('[data-more="tsoro"]');
            await p.page.waitForSelector('#more-tsoro [data-play-now="tsoro"]', {state: 'visible'});
            assert.equal(await p.page.getAttribute('[data-more="tsoro"]', 'aria-expanded'), 'true');
            assert.equal((await horizontalOverflow(p.page)).over, 0, `the open options fit (${lang} ${size})`);
            await axeCheck(p.page, `the lobby with More options open (${lang} ${size})`);
            await closeAll([p]);
          }
        }
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'lobby games: while nothing is live, recent finished games are offered to replay', fn: async () => {
      const a = await newPlayer(env, 'Ana');
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP});
      const players = [a, b];
      try {
        // A game against the computer, resigned at once: a finished game, and nothing live.
        await a.page.click('[data-play="steere-tanbo"]');
        const {room} = await waitSeated(a);
        await a.page.click('#resign');
        await a.page.click('#resign-confirm');
        await a.page.waitForFunction(() => window.tanbo.view?.msg?.status === 'finished');
        // Ben's lobby offers it, by the lobby's own push; Ana's on her next visit.
        const item = b.page.locator(`#recent-games [data-game-record^="${room}-"]`);
        await item.waitFor();
        assert.match(await item.textContent(), /Tanbo \(Mark Steere\)/);
        assert.match(await item.textContent(), /1st: .*, 2nd: Ana/);
        await toLobby(a);
        await a.page.waitForSelector(`#recent-games [data-game-record^="${room}-"]`);
        const lobby = await readLobby(a.page);
        assert.deepEqual(lobby.parts, {open: false, live: false, recent: true});
        await axeCheck(a.page, 'the lobby with recent games (phone)');
        assert.equal((await horizontalOverflow(a.page)).over, 0);
        // Its replay opens from there.
        await a.page.click(`#recent-games [data-game-record^="${room}-"] [data-replay]`);
        await a.page.waitForFunction((r) => location.hash.startsWith(`#/replay/${r}-`), room);
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'lobby games: Play starts a game against the computer at once; the others see it live', fn: async () => {
      const a = await newPlayer(env, 'Ana');
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP, lang: 'fr'});
      const players = [a, b];
      try {
        assert.match(await a.page.locator('[data-play="mancala-simple"]').textContent(), /Play.*against the computer \(Medium\)/);
        await a.page.click('[data-play="mancala-simple"]');
        await waitSeated(a);
        assert.equal(await a.page.locator('.level-dialog').count(), 0, 'no dialog before the game');
        const seats = await a.page.evaluate(() => window.tanbo.view.msg.seats.map((s) => ({cpu: s.cpu, level: s.level ?? null})));
        assert.equal(seats.length, 2);
        assert.deepEqual(seats.filter((s) => s.cpu).map((s) => s.level), ['greedy']);
        // Ben sees one person playing Mancala, the match live, and no recent games beside it.
        await b.page.waitForFunction(() => /1\sjoueur\sen\spartie/.test(document.querySelector('[data-live="mancala-simple"]').textContent));
        await b.page.waitForSelector('#live-part:not([hidden])');
        assert.equal(await b.page.locator('#recent-part').isHidden(), true, 'recent games give way to a live match');
        assert.match(await b.page.locator('[data-play="mancala-simple"]').textContent(), /contre l’ordinateur \(Moyen\)/);
        await axeCheck(b.page, 'the lobby with a live match (fr)');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'lobby games: the live matches with a person at the board come first, one whose only person has gone after them; a card\'s facts each whole on a line; the two Tanbo cards told apart', fn: async () => {
      const c = await newPlayer(env, 'Cid', {viewport: PHONE, lang: 'ja'});
      const a = await newPlayer(env, 'Ana');
      const b = await newPlayer(env, 'Ben');
      const players = [c, b];
      try {
        // Cid's lobby lists Ana's match first (it came first), then Ben's; Ana goes.
        const gone = await playComputer(a, 'tsoro');
        await c.page.waitForSelector(`#live-rooms [data-room="${gone}"]`);
        const here = await playComputer(b, 'steere-tanbo');
        await c.page.waitForSelector(`#live-rooms [data-room="${here}"]`);
        await a.ctx.close();
        await c.page.waitForSelector(`#live-rooms [data-room="${gone}"] .room-players:has-text("不在")`);
        const order = await c.page.evaluate(() => [...document.querySelectorAll('#live-rooms > li')].map((li) => li.dataset.room));
        assert.ok(order.indexOf(here) < order.indexOf(gone), `the match nobody is at listed first: ${order}`);
        // 「いま1人が対局中」 whole on its line, as every fact of a card.
        const split = await c.page.evaluate(() => [...document.querySelectorAll('.card-live > span')]
          .filter((el) => el.getClientRects().length > 1).map((el) => el.textContent));
        assert.deepEqual(split, [], 'a card\'s fact split across lines');
        assert.ok(await c.page.locator('[data-live] > span', {hasText: 'いま1人が対局中'}).count() >= 1);
        // The two games named Tanbo: a word on what one does in each, under the name.
        const kinds = await c.page.locator('.game-card .card-kind').allTextContents();
        assert.equal(kinds.length, 2, `${kinds}`);
        assert.notEqual(kinds[0], kinds[1]);
        await closeAll(players);
      } finally {
        for (const p of [...players, a]) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'lobby games: Play joins a person waiting, in an open room or in a pool', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben');
      const c = await newPlayer(env, 'Cid', {lang: 'ja'});
      const players = [a, b, c];
      try {
        // A room by correspondence (days per move) is no game for Play: it stays the computer.
        const slow = await createRoom(a, 'tanbo', {days: 3});
        await b.page.waitForSelector(`#open-rooms [data-room="${slow}"]`);
        assert.equal(await b.page.getAttribute('[data-play="tanbo"]', 'data-play-kind'), 'cpu');
        // An open room: Ana waits in a Tanbo room for a second player.
        const room = await createRoom(a, 'tanbo', {});
        const play = b.page.locator('[data-play="tanbo"]');
        await b.page.waitForSelector('[data-play="tanbo"][data-play-kind="room"]');
        assert.match(await play.textContent(), /against Ana, who is waiting/);
        await play.click();
        const seated = await waitSeated(b);
        assert.equal(seated.room, room, 'Ben is in Ana\'s room');
        await a.page.waitForFunction(() => window.tanbo.view?.msg?.status === 'playing');
        // A pool: Ana (her room left playing) waits in Tsoro's; Cid's Play pairs them.
        await playNow(a, 'tsoro');
        await waitSeeking(a, 'tsoro');
        await c.page.waitForSelector('[data-play="tsoro"][data-play-kind="pool"]');
        assert.match(await c.page.locator('[data-play="tsoro"]').textContent(), /相手：待機中の1人から1人/);
        await c.page.click('[data-play="tsoro"]');
        const [ra, rc] = [await waitSeated(a), await waitSeated(c)];
        assert.equal(ra.room, rc.room, 'Ana and Cid in one room');
        assert.deepEqual((await c.page.evaluate(() => window.tanbo.view.msg.seats.map((s) => s.cpu))), [false, false], 'two people, no computer');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'lobby games: a long list of rooms is shown whole, never cut at a fixed height (French, at 1280 x 800, where a card\'s button was sliced)', fn: async () => {
      const d = await newPlayer(env, 'Dora');
      const b = await newPlayer(env, 'Bérénice', {lang: 'fr', viewport: DESKTOP});
      const players = [d, b];
      try {
        // Eight rooms waiting for a second player, Dora's (the most one identity may keep).
        const made = await d.page.evaluate(async () => {
          const rooms = [];
          for (let i = 0; i < 8; ++i) rooms.push((await window.tanbo.conn.request({type: 'create', game: 'mancala-simple'})).room);
          return rooms;
        });
        await b.page.waitForFunction((rooms) => rooms.every((r) => document.querySelector(`#open-rooms [data-room="${r}"]`)), made);
        // The list is as tall as what it holds: nothing in it scrolls, the last room's buttons whole.
        assert.ok(await b.page.locator('#open-rooms').evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && getComputedStyle(el).overflowY === 'visible'));
        const last = b.page.locator('#open-rooms > li').last();
        const [item, watch] = [await last.boundingBox(), await last.locator('[data-watch]').boundingBox()];
        assert.ok(watch.y + watch.height <= item.y + item.height, 'the last room\'s Watch inside its card');
        // The two columns' headings on one line; the cards of a row end their Play at one height,
        // Rules on the line of the card's facts.
        const lay = await b.page.evaluate(() => {
          const heads = [...document.querySelectorAll('.lobby h2')].filter((el) => el.getClientRects().length).map((el) => el.getBoundingClientRect().top);
          const cards = [...document.querySelectorAll('.game-card')].map((c) => ({top: c.getBoundingClientRect().top,
            play: c.querySelector('[data-play]').getBoundingClientRect().bottom,
            facts: c.querySelector('.card-live').getBoundingClientRect(), rules: c.querySelector('.rules-link').getBoundingClientRect()}));
          return {heads, cards};
        });
        assert.ok(Math.abs(lay.heads[0] - lay.heads[1]) <= 1, `the columns' headings at ${lay.heads.slice(0, 2).join(' and ')}`);
        for (const c of lay.cards) {
          const mate = lay.cards.find((o) => o !== c && Math.abs(o.top - c.top) < 1);
          if (mate) assert.ok(Math.abs(mate.play - c.play) <= 1, `Play at ${c.play} and ${mate.play} in one row`);
          assert.ok(c.rules.top < c.facts.bottom && c.rules.bottom > c.facts.top, 'Rules off the facts\' line');
        }
        await axeCheck(b.page, 'the lobby with a long list (fr)');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
  ];
}

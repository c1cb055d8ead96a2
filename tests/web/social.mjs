// Playing with people in the browser: Play now, challenges, and the chat.
import assert from 'node:assert/strict';
import {axeCheck, someInView} from './checks.mjs';
import {PHONE, DESKTOP, GAMES, newPlayer, openPrefs, closePrefs, closeAll, createRoom,
  joinFromLobby, playNow, waitSeeking, waitSeated, poolCount, playerId, sendChallenge, openChat,
  shows, say, chatLine, chatLines, heldLines, admin, smallControls, waitMine, playStep, docShot, openMore, chooseLanguage} from './support.mjs';

export function tests(env) {
  return [
    {name: 'play now: the waiting panel with the pool\'s size, cancel empties the pool, the terms remembered; two players pair into one room and play', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben');
      const players = [a, b];
      try {
        // Every card has Play now and its terms; nobody waits yet.
        assert.equal(await a.page.locator('[data-play-now]').count(), GAMES.length);
        assert.equal(await a.page.locator('[data-seek-players]').count(), 1, 'a player count only where the game has a choice');
        assert.match(await a.page.locator('[data-pools="tsoro"]').textContent(), /Nobody is waiting/);
        // Ana waits for Tsoro at 60 s per move: the panel says what, for how long, how many.
        await playNow(a, 'tsoro', {timer: 60});
        await waitSeeking(a, 'tsoro');
        const panel = a.page.locator('#seek-panel');
        assert.match(await panel.locator('h2').textContent(), /Looking for an opponent/);
        assert.match(await panel.locator('.seek-terms').textContent(), /Tsoro · 2\splayers · 60\ss per move · unranked · standard rules/);
        await a.page.waitForFunction(() => /Waiting for 0:0[1-9]/.test(document.getElementById('seek-time').textContent));
        await a.page.waitForSelector('#seek-pool[data-waiting="1"]');
        assert.match(await panel.locator('#seek-pool').textContent(), /only one waiting/);
        assert.equal(await a.page.locator('#seek-offer').isHidden(), true, 'the computer is offered only after a while');
        // Ben's lobby shows her in Tsoro's pool, live.
        await b.page.waitForFunction(() => document.querySelector('[data-pools="tsoro"] li[data-waiting="1"]'));
        assert.match(await b.page.locator('[data-pools="tsoro"]').textContent(), /2\splayers · 60\ss per move · unranked · standard rules: 1\swaiting/);
        assert.match(await a.page.locator('[data-pools="tsoro"]').textContent(), /1\swaiting \(you\)/);
        // A dropped connection loses the seek on the server: the page seeks again on its own.
        const before = await a.page.locator('#seek-panel').getAttribute('data-seek');
        await a.page.evaluate(() => window.tanbo.conn.ws.close());
        await a.page.waitForFunction((s) => window.tanbo.conn.state === 'open' && document.querySelector('#seek-panel')?.dataset.seek !== s, before);
        await a.page.waitForSelector('#seek-pool[data-waiting="1"]');
        await b.page.waitForFunction(() => document.querySelector('[data-pools="tsoro"] li[data-waiting="1"]'));
        await axeCheck(a.page, 'lobby with the waiting panel');
        await a.page.evaluate(() => window.scrollTo(0, 0));
        // Tsoro's open options leave the card beside it as it was, its Play button in view.
        const [beside, tsoro] = await a.page.evaluate(() => ['mancala-simple', 'tsoro'].map((g) =>
          document.querySelector(`[data-play="${g}"]`).closest('.game-card').getBoundingClientRect().height));
        assert.ok(beside < tsoro - 100, `the card beside Tsoro's options stretched to ${beside} px (Tsoro's ${tsoro})`);
        await docShot(env, a.page, 'seek-desktop');
        // Cancel: the panel goes, the pool empties for everyone, focus back on Play now.
        await a.page.click('#seek-cancel');
        await a.page.waitForSelector('#seek-panel', {state: 'detached'});
        assert.equal(await a.page.evaluate(() => document.activeElement?.dataset.playNow), 'tsoro');
        await b.page.waitForFunction(() => !document.querySelector('[data-pools="tsoro"] li[data-waiting]'));
        assert.equal(await poolCount(b, 'tsoro'), 0);
        assert.equal(await a.page.locator('#dock').isHidden(), true);
        // The terms are remembered across a reload.
        await a.page.reload();
        await a.page.waitForSelector('.game-card');
        assert.equal(await a.page.locator('[data-seek-timer="tsoro"]').inputValue(), '60');
        assert.equal(await a.page.locator('[data-seek-timer="mancala-simple"]').inputValue(), 'none');
        // Ben (on a phone) waits for Mancala; Ana presses Play now by the keyboard: one room.
        await playNow(b, 'mancala-simple');
        await waitSeeking(b, 'mancala-simple');
        await b.page.waitForSelector('#seek-pool[data-waiting="1"]');
        await axeCheck(b.page, 'lobby with the waiting panel (phone)');
        assert.ok(await someInView(b.page, '#seek-cancel'), 'cancel in view on a phone');
        assert.deepEqual(await smallControls(b.page, '.game-card'), [], 'Play now controls under 44 px on a phone');
        assert.deepEqual(await smallControls(b.page, '#dock'), [], 'waiting panel controls under 44 px on a phone');
        await docShot(env, b.page, 'seek-phone');
        await a.page.waitForFunction(() => document.querySelector('[data-pools="mancala-simple"] li[data-waiting="1"]'));
        await playNow(a, 'mancala-simple', {keyboard: true});
        const [ra, rb] = [await waitSeated(a), await waitSeated(b)];
        assert.equal(ra.room, rb.room, 'both in the same room');
        assert.notEqual(ra.seat, rb.seat);
        for (const p of players) {
          await p.page.waitForSelector('#seek-panel', {state: 'detached'});
          assert.match(await p.page.locator('.seats').textContent(), /Ana[\s\S]*Ben|Ben[\s\S]*Ana/);
          assert.match(await p.page.locator('.seat.mine').textContent(), new RegExp(p.name));
        }
        // The room took the server's join as its own: a move by clicking, seen by both.
        let moved = null;
        for (let i = 0; i < 200 && !moved; ++i) moved = await playStep(players);
        assert.equal(moved, 'sow');
        const versions = await Promise.all(players.map((p) => p.page.evaluate(() => window.tanbo.view.msg.version)));
        await b.page.waitForFunction((v) => window.tanbo.view.msg.version >= v, Math.max(...versions));
        await a.page.waitForFunction((v) => window.tanbo.view.msg.version >= v, Math.max(...versions));
        await a.page.waitForSelector('#log [data-decision="1"]');
        await b.page.waitForSelector('#log [data-decision="1"]');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'play now: the computer instead, offered after 20 s, and the computer after 30 s when ticked', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben');
      const players = [a, b];
      try {
        await playNow(a, 'tsoro', {cpu: true});
        await waitSeeking(a, 'tsoro');
        assert.match(await a.page.locator('#seek-cpu-at').textContent(), /the computer plays you at 0:30/);
        await playNow(b, 'steere-tanbo');
        await waitSeeking(b, 'steere-tanbo');
        // After 20 s the panel offers the computer; Ben takes it (choosing its level first).
        await b.page.waitForSelector('#seek-offer:not([hidden])', {timeout: 25000});
        await b.page.click('#seek-cpu');
        await b.page.check('.level-dialog input[value="random"]');
        await b.page.click('#level-ok');
        const rb = await waitSeated(b);
        assert.equal(rb.seat, 0);
        assert.equal(await b.page.evaluate(() => window.tanbo.view.msg.game), 'steere-tanbo');
        assert.equal(await b.page.evaluate(() => window.tanbo.view.msg.seats[1].cpu), true);
        assert.equal(await b.page.locator('#seek-panel').count(), 0);
        // Ana ticked "the computer if nobody comes within 30 s": the server seats her with it.
        const ra = await waitSeated(a, 20000);
        assert.equal(ra.seat, 0);
        assert.equal(await a.page.evaluate(() => window.tanbo.view.msg.game), 'tsoro');
        assert.equal(await a.page.evaluate(() => window.tanbo.view.msg.seats[1].cpu), true);
        await a.page.waitForSelector('#seek-panel', {state: 'detached'});
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'challenges: declined (the challenger is told), accepted (both in one room), cancelled, refused in words; shown wherever the player is', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP});
      const players = [a, b];
      try {
        const ben = await playerId(b);
        // Ben reads a rules page; Ana challenges him from his player page to Tsoro on 6 columns.
        await b.page.goto(`${env.base}/#/rules/tsoro`);
        await b.page.waitForSelector('#rules-title');
        await a.page.goto(`${env.base}/#/player/${ben}`);
        await a.page.waitForSelector('#player-name');
        assert.equal(await a.page.locator('#challenge-player').getAttribute('aria-label'), 'Challenge Ben');
        await sendChallenge(a, '#challenge-player', {game: 'tsoro', options: {columns: 6}});
        await a.page.waitForSelector('.challenge-card.out:not(.ended)');
        assert.match(await a.page.locator('.challenge-card.out h2').textContent(), /Waiting for Ben/);
        const card = b.page.locator('.challenge-card.in');
        await card.waitFor();
        assert.match(await card.locator('h2').textContent(), /Ana challenges you/);
        assert.match(await card.locator('.challenge-terms').textContent(), /Tsoro · 2\splayers · no time limit · unranked · Holes per row: 6/);
        assert.equal(await b.page.locator('#rules-title').count(), 1, 'the rules page stays under the challenge');
        await axeCheck(b.page, 'an incoming challenge on a rules page');
        await docShot(env, b.page, 'challenge-desktop');
        // Declined: Ana is told.
        await card.locator('button.decline').click();
        await b.page.waitForSelector('.challenge-card', {state: 'detached'});
        await a.page.waitForSelector('.challenge-card.out.ended [data-reason="declined"]');
        assert.match(await a.page.locator('.challenge-card.out').textContent(), /Ben declined your challenge/);
        await a.page.click('.challenge-card button.dismiss');
        await a.page.waitForSelector('.challenge-card', {state: 'detached'});
        // Again, Mancala by default; Ben, on a phone in the lobby, accepts: one room for both.
        await b.page.setViewportSize(PHONE);
        await b.page.goto(`${env.base}/#/`);
        await b.page.waitForSelector('.game-card');
        await sendChallenge(a, '#challenge-player', {game: 'mancala-simple'});
        await card.waitFor();
        assert.ok(await someInView(b.page, '.challenge-card.in button.accept'), 'accept in view on a phone');
        assert.deepEqual(await smallControls(b.page, '#dock'), [], 'challenge card controls under 44 px on a phone');
        await axeCheck(b.page, 'an incoming challenge in the lobby (phone)');
        await docShot(env, b.page, 'challenge-phone');
        // Ben was also waiting in a pool: the game found ends that wait.
        await playNow(b, 'tsoro');
        await waitSeeking(b, 'tsoro');
        await card.locator('button.accept').click();
        const [ra, rb] = [await waitSeated(a), await waitSeated(b)];
        assert.equal(ra.room, rb.room, 'both in the same room');
        assert.equal(await a.page.evaluate(() => window.tanbo.view.msg.game), 'mancala-simple');
        // Ben's seat on Ana's screen: his shape is the card's one mark, his presence a word.
        const benSeat = a.page.locator(`.seat[data-seat="${rb.seat}"]`);
        assert.equal(await benSeat.locator('.presence').textContent(), 'online');
        const marks = await benSeat.evaluate((li) => [li, ...li.querySelectorAll('*')]
          .map((el) => ['::before', '::after'].map((ps) => getComputedStyle(el, ps).content).join(''))
          .join('').concat(li.textContent).match(/[●○■◆★]/g));
        assert.equal(marks.length, 1, `Ben's seat shows ${marks.join(' ')}`);
        for (const p of players) await p.page.waitForSelector('.challenge-card', {state: 'detached'});
        await b.page.waitForSelector('#seek-panel', {state: 'detached'});
        for (let i = 0; i < 50 && (await (await fetch(`${env.base}/api/pools?game=tsoro`)).json()).pools.length; ++i)
          await b.page.waitForTimeout(100);
        assert.deepEqual((await (await fetch(`${env.base}/api/pools?game=tsoro`)).json()).pools, [], 'the seek left its pool');
        await b.page.setViewportSize(DESKTOP);
        // From a seat in the room: Ben challenges Ana, then cancels; she is told. No button on
        // one's own seat.
        assert.equal(await b.page.locator(`.seat[data-seat="${rb.seat}"] [data-challenge-seat]`).count(), 0);
        await sendChallenge(b, `.seat[data-seat="${ra.seat}"] [data-challenge-seat]`);
        await b.page.waitForSelector('.challenge-card.out:not(.ended)');
        await a.page.waitForSelector('.challenge-card.in');
        await b.page.click('.challenge-card.out button.cancel');
        await b.page.waitForSelector('.challenge-card', {state: 'detached'});
        await a.page.waitForSelector('.challenge-card.in.ended [data-reason="cancelled"]');
        assert.match(await a.page.locator('.challenge-card.in').textContent(), /Ben withdrew the challenge/);
        // Ana stops taking challenges (remembered, sent after each hello): Ben is told why, in words.
        await openPrefs(a.page);
        await a.page.uncheck('#challenges-open');
        await closePrefs(a.page);
        await sendChallenge(b, `.seat[data-seat="${ra.seat}"] [data-challenge-seat]`);
        await b.page.waitForSelector('#challenge-form .problems p');
        assert.match(await b.page.locator('#challenge-form .problems').textContent(), /could not be sent: that player is not taking challenges/);
        await b.page.click('#challenge-close');
        await a.page.reload();
        await a.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.view?.msg);
        await openPrefs(a.page);
        assert.equal(await a.page.isChecked('#challenges-open'), false);
        await closePrefs(a.page);
        await sendChallenge(b, `.seat[data-seat="${ra.seat}"] [data-challenge-seat]`);
        await b.page.waitForSelector('#challenge-form .problems p');
        assert.match(await b.page.locator('#challenge-form .problems').textContent(), /not taking challenges/);
        await b.page.click('#challenge-close');
        // A player who left: "not connected right now", in French too.
        const c = await newPlayer(env, 'Cid');
        const cid = await playerId(c);
        await c.ctx.close();
        await chooseLanguage(b.page, 'fr');
        await b.page.goto(`${env.base}/#/player/${cid}`);
        await sendChallenge(b, '#challenge-player');
        await b.page.waitForSelector('#challenge-form .problems p');
        assert.match(await b.page.locator('#challenge-form .problems').textContent(), /Le défi n’a pas pu être envoyé\u00a0: ce joueur n’est pas connecté en ce moment/);
        await b.page.click('#challenge-close');
        await chooseLanguage(b.page, 'en');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'challenges: on a phone the form\'s game menu shows each game\'s whole name, in English, French and Japanese', fn: async () => {
      const b = await newPlayer(env, 'Ben');
      const players = [b];
      try {
        const ben = await playerId(b);
        for (const lang of ['en', 'fr', 'ja']) {
          const a = await newPlayer(env, 'Ana', {lang});
          players.push(a);
          await a.page.goto(`${env.base}/#/player/${ben}`);
          await a.page.click('#challenge-player');
          await a.page.waitForSelector('#challenge-form');
          // Each name as the menu shows it once chosen: within the select, its arrow apart.
          const cut = await a.page.evaluate(() => {
            const sel = document.getElementById('challenge-game');
            const cs = getComputedStyle(sel);
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
            const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
            return [...sel.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => `${o.text} (${room} px)`);
          });
          assert.deepEqual(cut, [], `${lang}: game names cut in the challenge form`);
          const box = await a.page.locator('#challenge-game').boundingBox();
          assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${lang}: the game menu runs off the screen`);
          await a.page.click('#challenge-close');
        }
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'play now in French and in Japanese: the card, the waiting panel, the pairing', fn: async () => {
      for (const [lang, names, button, title] of [['fr', ['Élodie', 'Gaspard'], /Jouer maintenant/, /Recherche d’un adversaire/],
                                                  ['ja', ['花子', '太郎'], /今すぐ対局/, /対局相手を探しています/]]) {
        const a = await newPlayer(env, names[0], {lang, viewport: DESKTOP});
        const b = await newPlayer(env, names[1], {lang});
        const players = [a, b];
        try {
          assert.match(await a.page.locator('[data-play-now="steere-tanbo"]').textContent(), button);
          await playNow(a, 'steere-tanbo');
          await waitSeeking(a, 'steere-tanbo');
          assert.match(await a.page.locator('#seek-panel h2').textContent(), title);
          await a.page.waitForSelector('#seek-pool[data-waiting="1"]');
          await axeCheck(a.page, `the waiting panel (${lang})`);
          if (lang === 'fr') {
            // "Rejoindre" on the card's pool: the same terms as the one waiting.
            await openMore(b.page, 'steere-tanbo');
            const join = b.page.locator('[data-pools="steere-tanbo"] li[data-waiting="1"] button');
            await join.waitFor();
            assert.match(await join.getAttribute('aria-label'), /Rejoindre les joueurs en attente\u00a0: 2\sjoueurs · sans limite de temps · amicale · règles standard/);
            await join.click();
          } else {
            await playNow(b, 'steere-tanbo');
          }
          const [ra, rb] = [await waitSeated(a), await waitSeated(b)];
          assert.equal(ra.room, rb.room);
          assert.equal(await a.page.evaluate(() => document.documentElement.lang), lang);
          await closeAll(players);
        } finally {
          for (const p of players) await p.ctx.close().catch(() => {});
        }
      }
    }},
    {name: 'chat: two players exchange lines and a phrase, each in their own language; markup stays text; errors in words; a reload keeps the history; the phone layout', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben', {lang: 'fr'});
      const players = [a, b];
      const dialogs = [];
      for (const p of players) p.page.on('dialog', (d) => { dialogs.push(`${p.name}: ${d.message()}`); d.dismiss().catch(() => {}); });
      try {
        // Ben (seat 2) moves first, so his phone has a decision to make while the chat is open.
        const room = await createRoom(a, 'mancala-simple', {options: {first: 1}});
        await joinFromLobby(b, room);
        await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
        // Ana, at 1280 x 800, has the panel open: the players' channel, nothing said yet.
        assert.equal(await a.page.getAttribute('#chat-toggle', 'aria-expanded'), 'true');
        assert.match(await a.page.locator('#chat-reads').textContent(), /Only the players read this chat during the game/);
        assert.match(await a.page.locator('#chat-lines').textContent(), /No messages yet/);
        assert.equal(await a.page.locator('#chat-switch').isVisible(), true, 'the creator has the spectators’ switch');
        assert.equal(await b.page.locator('#chat-switch').isHidden(), true, 'only the creator has the switch');
        // By the box, one quiet line: the players' chat goes public with the game's record.
        assert.equal(await a.page.locator('#chat-public').isVisible(), true, 'a player is told the chat is published');
        assert.match(await a.page.locator('#chat-public').textContent(), /^This chat is published with the game when it ends\.$/);
        assert.ok((await a.page.getAttribute('#chat-input', 'aria-describedby')).split(' ').includes('chat-public'));
        // Ben's phone starts with the panel folded; a line arrives as "1 nouveau".
        assert.equal(await b.page.getAttribute('#chat-toggle', 'aria-expanded'), 'false');
        await say(a, 'Hello Ben, have a good game');
        await chatLine(a, 'Hello Ben, have a good game').waitFor();
        await shows(a.page.waitForFunction(() => document.querySelector('#chat-input').value === '', null, {timeout: 5000}),
          'the box is emptied once the line is said');
        await b.page.waitForSelector('#chat-unread');
        assert.match(await b.page.locator('#chat-unread').textContent(), /1\snouveau/);
        await openChat(b);
        await chatLine(b, 'Hello Ben, have a good game').waitFor();
        assert.deepEqual((await chatLines(b)).map((l) => [l.from, l.text]), [['Ana', 'Hello Ben, have a good game']]);
        assert.match(await b.page.locator('#chat-public').textContent(), /^Discussion publiée en fin de partie\.$/);
        // A phrase is the reader's: Ben sends "Bonne chance !", Ana reads "Good luck!".
        assert.match(await b.page.locator('#chat-phrases [data-phrase="good_luck"]').textContent(), /Bonne chance\u202f!/);
        await b.page.click('#chat-phrases [data-phrase="good_luck"]');
        await a.page.waitForSelector('#chat-lines .chat-text[data-phrase="good_luck"]');
        assert.equal(await a.page.locator('#chat-lines .chat-text[data-phrase="good_luck"]').textContent(), 'Good luck!');
        await b.page.waitForSelector('#chat-lines .chat-text[data-phrase="good_luck"]');
        assert.equal(await b.page.locator('#chat-lines .chat-text[data-phrase="good_luck"]').textContent(), 'Bonne chance\u202f!');
        await say(b, 'Merci, à toi aussi');
        await chatLine(a, 'Merci, à toi aussi').waitFor();
        await chatLine(b, 'Merci, à toi aussi').waitFor();
        for (const p of players) await p.page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
        await docShot(env, a.page, 'chat-desktop');
        await b.page.locator('#chat').scrollIntoViewIfNeeded();
        await docShot(env, b.page, 'chat-phone');
        // Markup is text: shown as typed, nothing made of it, no alert.
        const markup = '<img src=x onerror=alert(1)>';
        await say(a, markup);
        for (const p of players) {
          await chatLine(p, markup).waitFor();
          assert.equal(await chatLine(p, markup).locator('.chat-text').textContent(), markup);
          assert.equal(await p.page.locator('img').count(), 0, `${p.name}: an img element was made`);
          assert.equal(await p.page.locator('#chat-lines .chat-text *').count(), 0);
        }
        await a.page.waitForTimeout(300);
        assert.deepEqual(dialogs, [], 'a dialog opened');
        // The box holds 280 characters and counts them.
        await a.page.fill('#chat-input', 'x'.repeat(300));
        await a.page.dispatchEvent('#chat-input', 'input');
        assert.equal((await a.page.inputValue('#chat-input')).length, 280);
        assert.equal(await a.page.locator('#chat-count').textContent(), '280/280');
        await a.page.fill('#chat-input', '');
        // Refusals in the reader's words: the same line again, a control character, too fast.
        await say(a, 'Hello Ben, have a good game');
        await a.page.waitForSelector('#chat-error:not([hidden])');
        assert.match(await a.page.locator('#chat-error').textContent(), /Not sent: you said that a moment ago/);
        assert.equal(await a.page.inputValue('#chat-input'), 'Hello Ben, have a good game', 'a refused line stays in the box');
        await say(b, 'salut\u0007');
        await b.page.waitForFunction(() => /sans caractère de contrôle/.test(document.getElementById('chat-error').textContent));
        await say(b, 'Bien reçu');
        await chatLine(a, 'Bien reçu').waitFor();
        await shows(b.page.waitForSelector('#chat-error', {state: 'hidden', timeout: 5000}), 'a line said clears the refusal');
        // Twelve lines sent by the form at once, as fast as a hand could not: past the burst of
        // five even when a loaded machine takes seconds to read them (a line a second refills it).
        await b.page.evaluate(() => {
          const input = document.getElementById('chat-input');
          for (let i = 1; i <= 12; ++i) {
            input.value = `ligne ${i}`;
            input.dispatchEvent(new Event('input'));
            document.getElementById('chat-form').requestSubmit();
          }
        });
        await b.page.waitForFunction(() => /trop de messages à la fois/.test(document.getElementById('chat-error').textContent));
        // On the phone: every chat control finger-sized, and the decision still in view.
        await waitMine(b.page);
        await b.page.evaluate(() => window.scrollTo(0, 0));
        assert.deepEqual(await smallControls(b.page, '#chat'), [], 'chat controls under 44 px on a phone');
        await chatLine(b, 'Hello Ben').locator('button.chat-name').click();
        await b.page.waitForSelector('#chat-menu[open]');
        assert.deepEqual(await smallControls(b.page, '#chat-menu'), [], 'the name\'s menu under 44 px on a phone');
        await b.page.click('#chat-menu-close');
        await b.page.waitForSelector('#chat-menu', {state: 'detached'});
        assert.ok(await someInView(b.page, '#board .pick, #controls button'), 'a decision control in view with the chat open');
        const covered = await b.page.$$eval('#board .pick [role=button]', (els) => els.some((el) => {
          const r = el.getBoundingClientRect();
          if (r.bottom > innerHeight || r.top < 0) return false;
          return document.getElementById('chat').contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
        }));
        assert.equal(covered, false, 'the chat covers the board');
        await axeCheck(b.page, 'the room with the chat (fr, phone)');
        await axeCheck(a.page, 'the room with the chat (en, desktop)');
        // Ben's language changes: the phrase is now in English, the lines stay.
        await chooseLanguage(b.page, 'en');
        await b.page.waitForFunction(() => document.querySelector('#chat-lines .chat-text[data-phrase="good_luck"]')?.textContent === 'Good luck!');
        // A reload keeps the history: the same lines, once each, the panel as it was left.
        const before = await chatLines(b);
        await b.page.reload();
        await b.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat === 1, room);
        await b.page.waitForFunction((n) => document.querySelectorAll('#chat-lines .chat-line').length >= n, before.length);
        await b.page.waitForTimeout(500);  // the room's own resume comes back too
        assert.equal(await b.page.getAttribute('#chat-toggle', 'aria-expanded'), 'true');
        assert.deepEqual(await chatLines(b), before);
        assert.equal(new Set(before.map((l) => `${l.channel}:${l.n}`)).size, before.length, 'a line shown twice');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'chat: a spectator writes in the spectators\' channel, unseen by the players during the game and read by them after it; the creator closes it and the spectator is told', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP});
      const c = await newPlayer(env, '花子', {viewport: DESKTOP, lang: 'ja'});
      const players = [a, b, c];
      try {
        const room = await createRoom(a, 'mancala-simple', {options: {first: 0}});
        await joinFromLobby(b, room);
        await c.page.goto(`${env.base}/#/room/${room}`);
        await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.role === 'spectator', room);
        await openChat(c);
        assert.match(await c.page.locator('#chat-reads').textContent(), /観戦者のチャット/);
        assert.match(await c.page.getAttribute('#chat-input', 'placeholder'), /観戦者に書く/);
        assert.equal(await c.page.locator('#chat-public').isHidden(), true, 'the spectators\' chat is not published');
        // The spectator's line reaches the spectators only; the players' lines stay theirs.
        await say(c, 'いい序盤ですね');
        await chatLine(c, 'いい序盤ですね').waitFor();
        assert.equal(await chatLine(c, 'いい序盤ですね').getAttribute('data-channel'), 'spectators');
        await say(a, 'Good luck');
        for (const p of [a, b]) await chatLine(p, 'Good luck').waitFor();
        for (const p of [a, b]) {
          assert.equal(await p.page.locator('#chat-lines [data-channel="spectators"]').count(), 0, `${p.name} reads the spectators during the game`);
          assert.ok(!(await heldLines(p)).some((l) => l.from === '花子'), `${p.name} was sent the spectator's line`);
        }
        await say(c, '次の手が楽しみ');
        await chatLine(c, '次の手が楽しみ').waitFor();
        assert.ok(!(await heldLines(c)).some((l) => l.text === 'Good luck'), 'the spectator was sent the players\' line');
        // The creator closes the spectators' channel: the spectator is told, in Japanese.
        assert.equal(await a.page.isChecked('#chat-spectators-open'), true);
        await a.page.uncheck('#chat-spectators-open');
        await a.page.waitForSelector('#chat-notice:has-text("spectators’ chat is closed")');
        await say(c, 'もしもし');
        await c.page.waitForSelector('#chat-error:not([hidden])');
        assert.match(await c.page.locator('#chat-error').textContent(), /送信できません：ルームの作成者が観戦者のチャットを閉じています/);
        assert.equal(await c.page.locator('#chat-closed').isVisible(), true);
        assert.equal(await chatLine(c, 'もしもし').count(), 0);
        // Opened again, the same line goes through.
        await a.page.check('#chat-spectators-open');
        await a.page.waitForSelector('#chat-notice:has-text("spectators’ chat is open")');
        await say(c, 'もしもし');
        await chatLine(c, 'もしもし').waitFor();
        await shows(c.page.waitForSelector('#chat-error', {state: 'hidden', timeout: 5000}), 'the line said clears the refusal');
        // The game over, the players read the spectators too, their history included.
        await a.page.click('#resign');
        await a.page.click('#resign-confirm');
        for (const p of [a, b]) {
          await p.page.waitForSelector('#result .reason');
          await chatLine(p, 'いい序盤ですね').waitFor();
          await chatLine(p, 'もしもし').waitFor();
          assert.match(await p.page.locator('#chat-reads').textContent(), /Between games, players and spectators share one chat/);
          assert.match(await chatLine(p, 'いい序盤ですね').locator('.chat-tag').textContent(), /spectator/);
          await chatLine(p, 'Good luck').waitFor();
        }
        assert.equal(await c.page.locator('#chat-lines [data-channel="players"]').count(), 0, 'the spectator reads only the spectators');
        await axeCheck(c.page, 'the room with the spectators\' chat (ja)');
        // A room created with the spectators' chat closed: the spectator is told at once.
        await a.page.goto(`${env.base}/#/`);
        await a.page.waitForSelector('.game-card');
        await openMore(a.page, 'tsoro');
        await a.page.click('[data-custom="tsoro"]');
        await a.page.uncheck('#create-spectator-chat');
        await a.page.click('#create-form button[type=submit]');
        await a.page.waitForFunction((r) => window.tanbo.view?.msg?.room && window.tanbo.view.msg.room !== r, room);
        const closed = await a.page.evaluate(() => window.tanbo.view.msg.room);
        // The switch learns the setting from the room's lobby entry, asked for on entering.
        await shows(a.page.waitForSelector('#chat-spectators-open:not(:checked)', {state: 'attached', timeout: 5000}),
          'the switch shows the channel closed');
        // The lobby shows the setting with the room.
        await c.page.goto(`${env.base}/#/`);
        await c.page.waitForSelector(`li.room[data-room="${closed}"] .room-options:has-text("観戦者チャットは閉鎖中")`);
        await c.page.goto(`${env.base}/#/room/${closed}`);
        await c.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, closed);
        await openChat(c);
        await c.page.waitForSelector('#chat-closed:not([hidden])');
        await say(c, 'こんにちは');
        await c.page.waitForFunction(() => /閉じています/.test(document.getElementById('chat-error').textContent));
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'chat: mute hides a player\'s lines (kept by the server across a reload) and is listed to unmute; a report with its reason; an operator\'s removal and ban', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ben', {viewport: DESKTOP});
      const players = [a, b];
      try {
        const ana = await playerId(a);
        const room = await createRoom(a, 'mancala-simple', {options: {first: 0}});
        await joinFromLobby(b, room);
        await say(a, 'first line');
        await chatLine(b, 'first line').waitFor();
        // From Ana's name: mute. Her lines go from Ben's screen; she is listed, to unmute.
        await chatLine(b, 'first line').locator('button.chat-name').click();
        await b.page.waitForSelector('#chat-menu[open]');
        assert.equal(await b.page.locator('#chat-menu h3').textContent(), 'Ana');
        await axeCheck(b.page, 'the menu of a sender\'s name');
        await b.page.click('#chat-mute');
        await b.page.waitForSelector('#chat-notice:has-text("You muted Ana")');
        assert.equal(await chatLine(b, 'first line').count(), 0, 'a muted player\'s line still shown');
        await b.page.waitForSelector(`#chat-muted li[data-muted="${ana}"]`);
        await openPrefs(b.page);
        assert.match(await b.page.locator('#prefs-muted').textContent(), /Ana/);
        await closePrefs(b.page);
        // The server sends Ben none of her lines from now on, nor after a reload.
        await say(a, 'second line');
        await chatLine(a, 'second line').waitFor();
        await say(b, 'anyone?');
        await chatLine(b, 'anyone?').waitFor();
        assert.ok(!(await heldLines(b)).some((l) => l.text === 'second line'), 'the server sent a muted player\'s line');
        await b.page.reload();
        await b.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat === 1, room);
        await chatLine(b, 'anyone?').waitFor();
        assert.equal(await b.page.locator(`#chat-lines [data-from="${ana}"]`).count(), 0, 'a muted player\'s line shown after a reload');
        await b.page.waitForSelector(`#chat-muted li[data-muted="${ana}"]`);
        // A device that never muted her (its list cleared) learns the mute from the server's
        // welcome, and her name from /api/players.
        await b.page.evaluate(() => localStorage.removeItem('tanbo.chatMutes'));
        await b.page.reload();
        await b.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat === 1, room);
        await b.page.waitForSelector(`#chat-muted li[data-muted="${ana}"]`);
        await b.page.waitForFunction(() => /Ana/.test(document.querySelector('#prefs-muted')?.textContent || ''));
        await say(a, 'after the reload');
        await chatLine(a, 'after the reload').waitFor();
        await say(b, 'still there?');
        await chatLine(b, 'still there?').waitFor();
        assert.ok(!(await heldLines(b)).some((l) => l.text === 'after the reload'), 'the mute did not outlive the connection');
        // Unmuted from the list: her new lines come again.
        await b.page.click(`#chat-muted [data-unmute="${ana}"]`);
        await b.page.waitForSelector('#chat-muted', {state: 'detached'});
        await say(a, 'third line');
        await chatLine(b, 'third line').waitFor();
        // Report, with a reason; the operators get it with the room.
        await chatLine(b, 'third line').locator('button.chat-name').click();
        await b.page.click('#chat-report');
        await b.page.waitForSelector('#report-dialog[open]');
        assert.match(await b.page.locator('#report-h').textContent(), /Report Ana/);
        await axeCheck(b.page, 'the report form');
        await b.page.fill('#report-reason', 'spoils the game');
        await b.page.click('#report-send');
        await b.page.waitForSelector('#chat-notice:has-text("Your report on Ana was sent")');
        const {reports} = await admin(env, 'GET', 'reports?limit=10');
        assert.ok(reports.some((r) => r.player === ana && r.room === room && r.reason === 'spoils the game'), JSON.stringify(reports));
        // An operator removes a line: it leaves every screen.
        const n = Number(await chatLine(a, 'third line').getAttribute('data-n'));
        await admin(env, 'DELETE', `rooms/${room}/chat/players/${n}`);
        for (const p of players) await chatLine(p, 'third line').waitFor({state: 'detached'});
        await chatLine(a, 'second line').waitFor();
        // A banned identity is told in the panel, in its words.
        const d = await newPlayer(env, 'Dee', {viewport: DESKTOP});
        players.push(d);
        await d.page.goto(`${env.base}/#/room/${room}`);
        await d.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.role === 'spectator', room);
        const dee = await playerId(d);
        await admin(env, 'PUT', `identities/${dee}/ban`);
        await d.page.waitForFunction(() => /banned you from this server/.test(document.getElementById('chat-error').textContent));
        await d.page.waitForFunction(() => window.tanbo.conn.state !== 'open');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
  ];
}

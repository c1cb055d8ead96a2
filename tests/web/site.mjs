// The site's own pages in the browser: the catalogues, the size of the client, the lobby in each
// language and under its Content-Security-Policy, names, the rules and the ratings pages.
import assert from 'node:assert/strict';
import {axeCheck, someInView, clientSize} from './checks.mjs';
import {catalogueProblems, frenchTypographyProblems, engineWordProblems, errorCodeProblems, wordingProblems} from './catalogue.mjs';
import {PHONE, DESKTOP, GAMES, newPlayer, toLobby, openPrefs, closePrefs, rename, closeAll, createRoom,
  playComputer, joinFromLobby, openChat, viewInfo, waitMine, clickDecision, docShot, openMore, chooseLanguage, shownName} from './support.mjs';

export function tests(env) {
  return [
    {name: 'catalogues: every key in every language, no extra key, plural forms and placeholders agree', fn: async () => {
      const problems = await catalogueProblems(env.webDir);
      assert.deepEqual(problems, []);
    }},
    {name: 'catalogues: French spaces before : ; ! ? and inside « »', fn: async () => {
      assert.deepEqual(await frenchTypographyProblems(env.webDir), []);
    }},
    {name: 'catalogues: no engine identifier in any sentence', fn: async () => {
      assert.deepEqual(await engineWordProblems(env.webDir), []);
    }},
    {name: 'catalogues: no numbered seat, no touch-only gesture, no 黄米', fn: async () => {
      assert.deepEqual(await wordingProblems(env.webDir), []);
    }},
    {name: 'catalogues: every protocol error code has its words in every language', fn: async () => {
      assert.deepEqual(await errorCodeProblems(env.webDir), []);
    }},
    {name: 'size: the whole client in one language, compressed', fn: async () => {
      const size = await clientSize(env.webDir);
      console.log(`     client: ${size.files} files, ${(size.raw / 1024).toFixed(1)} KiB, gzip -9 ${(size.gz / 1024).toFixed(1)} KiB` +
                  ` with its largest catalogue (${(size.catalogue / 1024).toFixed(1)} KiB; and ${(size.icons / 1024).toFixed(1)} KiB of PNG icons)`);
      assert.ok(size.gz < 180 * 1024, `${size.gz} bytes compressed`);
    }},
    {name: 'lobby: first render, each language, rooms in view at 1280 x 800 and after the games on a phone, language and sound remembered', fn: async () => {
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
        if (label === 'desktop') {
          assert.ok(await someInView(p.page, '#open-h'), `open rooms heading in view at ${label}`);
          assert.ok(await someInView(p.page, `#open-rooms [data-room="${open}"] .room-main`), `open room in view at ${label}`);
          assert.ok(await someInView(p.page, `#live-rooms [data-room="${live}"] .room-main`), `live match in view at ${label}`);
        } else {
          // On a phone the games lead (lobby.mjs); their cards say who plays and waits, and
          // Play takes the seat Ben keeps free.
          assert.ok(await someInView(p.page, '.game-card[data-game="mancala-simple"] [data-play]'), 'Play in view on a phone');
          assert.match(await p.page.locator('[data-play="mancala-simple"]').textContent(), /against Ben, who is waiting/);
          assert.match(await p.page.locator('[data-live="tsoro"]').textContent(), /1\splaying\snow/);
        }
        assert.match(await p.page.locator(`#open-rooms [data-room="${open}"]`).textContent(), /Ben, free seat/);
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
        await openMore(p.page, game);
        await p.page.click(`[data-custom="${game}"]`);
        assert.equal(await p.page.locator('#create-setup').count(), offered, `set-up field for ${game}`);
      }
      // Option labels in players' words: no ruling ids such as "(M1)".
      assert.doesNotMatch(await p.page.locator('#custom').textContent(), /\([A-Z]\d\)/);
      await closeAll([p, b, c]);
    }},
    {name: 'names: a long name keeps the desktop header one row high (in French), on one line cut short, whole in its tooltip, the language and the sound beside it', fn: async () => {
      const long = 'Bartholomew Featherstone';
      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP, lang: 'fr'});
      try {
        await rename(p, long);
        await p.page.waitForFunction((n) => window.tanbo.conn.player?.name === n, long);
        // "Your turn" in the header too: a game waits for the player while they are elsewhere.
        await playComputer(p, 'tanbo');
        await waitMine(p.page);
        for (const where of ['lobby', 'room']) {
          if (where === 'lobby') await toLobby(p);
          else { await playComputer(p, 'mancala-simple'); await waitMine(p.page); }
          await p.page.waitForSelector('#turns:not([hidden])');
          const g = await p.page.evaluate(() => {
            const box = (el) => el.getBoundingClientRect();
            const name = document.querySelector('#me .me-name');
            return {header: box(document.querySelector('header.top')).height, lines: Math.round(box(name).height / parseFloat(getComputedStyle(name).lineHeight)),
              title: document.getElementById('me').title,
              row: ['#lang', '#sound', '#me'].map((s) => document.querySelector(s)).filter(Boolean).map((el) => [box(el).left, box(el).right])};
          });
          assert.ok(g.header < 64, `${where}: the header ${g.header} px high`);
          assert.equal(g.lines, 1, `${where}: the name on ${g.lines} lines`);
          assert.equal(g.title, long);
          // The language, the sound and the name side by side, each right after the one before
          // it (0.4rem apart), whatever "Your turn" does.
          for (let i = 1; i < g.row.length; ++i)
            assert.ok(g.row[i][0] - g.row[i - 1][1] < 12, `${where}: the header's controls apart: ${JSON.stringify(g.row)}`);
        }
        assert.deepEqual(p.errors, []);
      } finally {
        await closeAll([p]);
      }
    }},
    {name: 'names: an apostrophe is a name; a refused one is shown with the reason (in each language) and the old name stays', fn: async () => {
      const a = await newPlayer(env, "D'Artagnan");
      await openPrefs(a.page);
      assert.equal(await a.page.locator('#name-input').getAttribute('maxlength'), '24');
      await closePrefs(a.page);
      await rename(a, 'Ana <3');
      await a.page.waitForSelector('#toast:not([hidden])');
      assert.match(await a.page.locator('#toast').textContent(), /"Ana <3" was refused: a name is 1 to 24\sletters/);
      await a.page.waitForFunction(() => window.tanbo.conn.state === 'open');
      assert.equal(await a.page.evaluate(() => window.tanbo.conn.player.name), "D'Artagnan");
      await chooseLanguage(a.page, 'fr');
      await rename(a, 'Ana <3');
      await a.page.waitForFunction(() => /«\u00a0Ana <3\u00a0» a été refusé\u00a0: un nom compte de 1 à 24/.test(document.getElementById('toast').textContent));
      assert.equal(await a.page.evaluate(() => window.tanbo.conn.player.name), "D'Artagnan");
      await closeAll([a]);
    }},
    {name: 'names: a guest\'s friendly name comes from its four hex digits alone, the same digits the same name; several hundred names in each language, each its own, with no digit in any', fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const names = () => p.page.evaluate(() => import('./player-mark.js').then((g) => {
        const count = g.guestNameCount();
        const all = Array.from({length: count}, (_, i) => g.guestWords(i.toString(16).padStart(4, '0')));
        return {count, distinct: new Set(all).size, digits: all.filter((n) => /\d/.test(n)).length,
          fixed: [g.guestName('0000'), g.guestName('0019'), g.guestName('ffff')], again: g.guestName('0019'), other: g.guestName('zz12')};
      }));
      const expected = {en: ['Guest Blue Heron', 'Guest Green Crane'], fr: ['Invité Héron bleu', 'Invité Grue verte'],
        ja: ['ゲスト・青いサギ', 'ゲスト・緑のツル']};
      for (const lang of ['en', 'fr', 'ja']) {
        if (lang !== 'en') {
          // Loaded again, so that the modules imported here are the page's in that language.
          await chooseLanguage(p.page, lang);
          await p.page.reload();
          await p.page.waitForFunction(() => window.tanbo?.conn?.state === 'open');
        }
        const n = await names();
        assert.ok(n.count >= 500, `${lang}: only ${n.count} names`);
        assert.equal(n.distinct, n.count, `${lang}: two digit groups share a name`);
        assert.equal(n.digits, 0, `${lang}: a name with a digit`);
        assert.deepEqual(n.fixed.slice(0, 2), expected[lang]);
        assert.equal(n.again, n.fixed[1]);
        assert.equal(n.other, null, 'only four hex digits make a name');
        // The name the server gives, wherever the page shows one.
        assert.equal(await shownName(p.page, 'Guest 0019'), expected[lang][1]);
        assert.equal(await shownName(p.page, 'Guest 0019 x'), 'Guest 0019 x', 'a chosen name is shown as chosen');
      }
      await closeAll([p]);
    }},
    {name: 'names: the computer is "Computer", with no seat number, and Tanbo\'s scores keep each name apart from its number', fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      await playComputer(p, 'tanbo');
      await p.page.waitForSelector('#facts li');
      const seats = await p.page.locator('.seat .seat-name').allTextContents();
      assert.ok(seats.some((n) => n.trim() === 'Computer'), `the seats: ${seats}`);
      // The seats, the banner and the log name it with no number after it.
      await p.page.waitForSelector('#log li');
      const text = await p.page.evaluate(() => ['.seats', '#banner', '#log'].map((q) => document.querySelector(q)?.innerText ?? '').join('\n'));
      assert.match(text, /Computer/);
      assert.doesNotMatch(text, /Computer\s*\d/, 'a number after the computer\'s name');
      const scores = await p.page.locator('#facts li', {hasText: 'Scores'}).textContent();
      assert.match(scores, /^Scores: (Ana\u00a00 · Computer\u00a00|Computer\u00a00 · Ana\u00a00) \(/);
      await closeAll([p]);
    }},
    {name: 'names: a new guest\'s name reads as a friendly name in the reader\'s language, the same in the header, the seats, the chat, the log, the end and the replay, its hex digits nowhere', fn: async () => {
      // A guest who never chose a name: the server calls it "Guest 1a2b".
      const ctx = await env.browser.newContext({viewport: DESKTOP, locale: 'ja-JP'});
      const page = await ctx.newPage();
      page.setDefaultTimeout(10000);
      await page.goto(`${env.base}/`);
      await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
      const p = {ctx, page, errors: [], name: 'guest'};
      const name = await page.evaluate(() => window.tanbo.conn.player.name);
      assert.match(name, /^Guest [0-9a-f]{4}$/);
      const hex = name.slice(6);
      const reads = await shownName(page, name);
      assert.match(reads, /^ゲスト・\S+$/);
      assert.ok(!reads.includes(hex), reads);
      const noEnglishGuest = async (where) => {
        const text = await page.evaluate(() => document.body.innerText);
        assert.ok(!/Guest [0-9a-f]{4}/.test(text), `${where} shows the English guest name`);
        if (/[a-f]/.test(hex)) assert.ok(!new RegExp(`\\b${hex}\\b`).test(text), `${where} shows the id's hex digits ${hex}`);
        assert.ok(text.includes(reads), `${where} does not show ${reads}`);
      };
      await playComputer(p, 'mancala-simple');
      await page.waitForSelector('#log li');
      await openChat(p);
      await page.fill('#chat-input', 'よろしく');
      await page.press('#chat-input', 'Enter');
      await page.waitForSelector('#chat-lines .chat-line');
      assert.equal(await page.locator('#chat-lines .chat-name').first().textContent(), reads);
      // The seat is said in player words, never as a number.
      assert.doesNotMatch(await page.locator('.room-info').textContent(), /番席/);
      await noEnglishGuest('the room');
      await page.click('#resign');
      await page.click('#resign-confirm');
      await page.waitForSelector('#result .places');
      await noEnglishGuest('the end of the game');
      await page.click('#open-replay');
      await page.waitForSelector('#replay-actions li');
      assert.doesNotMatch(await page.locator('h2').first().textContent(), /r-[0-9a-f]/);
      await noEnglishGuest('the replay');
      await ctx.close();
    }},
    {name: 'lobby: the header\'s connection dot says what it is: its words for screen readers, its tooltip for the eye, in each language', fn: async () => {
      for (const [lang, title] of [['en', 'Connection to the server: Connected'], ['fr', 'Connexion au serveur\u00a0: Connecté'], ['ja', 'サーバーとの接続：接続済み']]) {
        const p = await newPlayer(env, 'Dot', {viewport: DESKTOP, lang});
        try {
          await p.page.waitForSelector('#conn[data-state="open"]');
          const conn = p.page.locator('#conn');
          assert.equal(await conn.getAttribute('title'), title, lang);
          assert.equal(await conn.textContent(), title.split(/\s?[:：]\s?/).pop(), `${lang}: its words`);
          assert.deepEqual(p.errors, []);
        } finally {
          await closeAll([p]);
        }
      }
    }},
    {name: 'lobby: a toast goes after its time on a touch screen, where hover is only the last tap', fn: async () => {
      const p = await newPlayer(env, 'Ana', {touch: true});
      await p.page.evaluate(() => window.scrollTo(0, 0));
      await p.page.evaluate(() => import('./util.js').then((u) => u.toast('A word for a moment')));
      const box = await p.page.locator('#toast').boundingBox();
      // The pointer rests on it, as a tap there leaves it: a mouse's hover would keep it.
      await p.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      assert.ok(await p.page.locator('#toast').evaluate((el) => el.matches(':hover')));
      await p.page.waitForSelector('#toast[hidden]', {state: 'attached', timeout: 9000});
      await closeAll([p]);
    }},
    {name: 'lobby: a refusal in the reader\'s words, French spaces, the server\'s English folded away', fn: async () => {
      const p = await newPlayer(env, 'Élodie', {lang: 'fr', viewport: DESKTOP});
      await toLobby(p);
      await openMore(p.page, 'steere-tanbo');
      await p.page.click('[data-custom="steere-tanbo"]');
      await p.page.waitForSelector('#create-form');
      await p.page.click('details.setup summary');
      await p.page.fill('#create-setup', JSON.stringify({board: ['b'], colour_to_move: 'black'}));
      await p.page.click('#create-form button[type=submit]');
      const problems = p.page.locator('#create-form div.problems');
      const fold = problems.locator('details.error-details').first();
      await fold.waitFor();
      // Outside the fold: the reader's sentences only, the field by its label, never its name.
      const outside = await problems.evaluate((el) => {
        const c = el.cloneNode(true);
        for (const d of c.querySelectorAll('details')) d.remove();
        return c.textContent;
      });
      assert.match(outside, /Partie non créée\u00a0: le serveur a refusé ces conditions/);
      assert.match(outside, /Position de départ personnalisée \(facultatif\)\u00a0: valeur refusée/);
      assert.doesNotMatch(outside, /setup|board|expected|refused/i);
      // The fold: closed, named in French, the server's text marked as English.
      assert.equal(await fold.getAttribute('open'), null);
      assert.equal(await fold.locator('summary').textContent(), 'Message du serveur (en anglais)');
      assert.ok((await fold.locator('[lang="en"]').textContent()).trim().length > 0);
      await fold.locator('summary').click();
      assert.ok(await fold.locator('[lang="en"]').isVisible());
      await axeCheck(p.page, 'refusal (fr)');
      await closeAll([p]);
    }},
    {name: 'lobby: the page under its Content-Security-Policy: a game against the computer, a move, the menus, replays and rules with no violation; an inline script is refused; no other site can frame it', fn: async () => {
      const res = await fetch(`${env.base}/`);
      assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self';.*frame-ancestors 'none'/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      // The watch works: a script the page did not load from the server is refused, and seen.
      const probe = await newPlayer(env, 'Probe');
      await probe.page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.tanboInline = true';
        document.head.append(script);
      });
      await probe.page.waitForFunction(() => window.tanboCsp.length > 0);
      assert.equal(await probe.page.evaluate(() => window.tanboInline), undefined);
      assert.match(await probe.page.evaluate(() => window.tanboCsp[0]), /^script-src/);
      probe.errors.length = 0;  // the probe's own violation, on purpose
      await closeAll([probe]);

      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      await playComputer(p, 'mancala-simple');
      await waitMine(p.page);
      const info = await viewInfo(p.page);
      await clickDecision(p.page);
      await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      await openPrefs(p.page);
      await closePrefs(p.page);
      await p.page.goto(`${env.base}/#/replays`);
      await p.page.waitForFunction(() => location.hash === '#/replays');
      await p.page.goto(`${env.base}/#/rules`);
      await p.page.waitForSelector('#main a[href^="#/rules/"]');
      await p.page.click('#main a[href^="#/rules/"]');
      await p.page.waitForSelector('#main svg');
      assert.deepEqual(await p.page.evaluate(() => window.tanboCsp), []);
      await closeAll([p]);

      // Another site's page that frames this one gets nothing of it.
      const ctx = await env.browser.newContext();
      const framing = await ctx.newPage();
      await framing.setContent(`<iframe src="${env.base}/"></iframe>`);  // waits for the frame's load too
      const frame = framing.frames().find((f) => f !== framing.mainFrame());
      const framed = frame ? await frame.evaluate(() => !!document.querySelector('.brand')).catch(() => false) : false;
      assert.equal(framed, false, 'the page loaded inside another site\'s frame');
      await ctx.close();
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
      assert.match(await a.page.locator('.rating-card .rating').textContent(), /after 2\sranked games/);
      assert.equal(await a.page.locator('.rating-chart .chart-dot').count(), 3);
      assert.ok(await a.page.locator('#player-recent a[href^="#/replay/"]').count() >= 2);
      // Each game told by its game, players, ending and date: no identifier a reader cannot use.
      for (const id of ids) {
        const item = a.page.locator(`#player-recent [data-game-record^="${id}-"]`);
        assert.equal(await item.count(), 1);
        assert.doesNotMatch(await item.textContent(), new RegExp(id));
        assert.match(await item.textContent(), /Rolf 1st, Rina 2nd/, 'the winner named first');
      }
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
      await p.page.click('.room-tools a.rules-link');
      await p.page.waitForSelector('#rules-title');
      assert.match(await p.page.locator('#rules-title').textContent(), /Tanbo \(Mark Steere\)/);
      await closeAll([p]);
    }},
    {name: 'rules: a page opened while the replays were still loading stays on screen, and so does the page after a replay', fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      // The server's answers held back until the reader has gone on: a late answer must not
      // draw its list, or its error, over the page that took its place.
      let held, release;
      await p.page.route(/\/api\/games(\?|\/)/, async (route) => { await held; await route.continue(); });
      for (const [from, path] of [['#/replays', '/api/games?limit=50'], ['#/replay/nosuchgame', '/api/games/nosuchgame']]) {
        held = new Promise((r) => { release = r; });
        const asked = p.page.waitForRequest((r) => r.url().endsWith(path));
        await p.page.goto(`${env.base}/${from}`);
        await asked;
        await p.page.goto(`${env.base}/#/rules/tsoro`);
        await p.page.waitForSelector('#rules-title');
        const answered = p.page.waitForResponse((r) => r.url().endsWith(path));
        release();
        await answered;
        await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
        assert.equal(await p.page.locator('#rules-title').count(), 1, `the rules gone once ${from} was answered`);
        assert.equal(await p.page.locator('#replay-list, #main [role=alert]').count(), 0, `${from} drawn over the rules`);
      }
      await closeAll([p]);
    }},
  ];
}

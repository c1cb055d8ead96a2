// Accounts in the browser: claim, log in, log out here and everywhere, a new password, export
// and deletion, failed logins, the logged-in devices, the account holder's mark; Log in in the
// header, the recovery code shown once and a forgotten password recovered with it, guest names in
// the reader's language.
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import path from 'node:path';
import {axeCheck, someInView} from './checks.mjs';
import {DESKTOP, newPlayer, openPrefs, closePrefs, rename, closeAll, toLobby, createRoom,
  playComputer, joinFromLobby, whoAmI, submitDialog, dialogRefusal, openDialog, claimAccount,
  logIn, loginRefused, waitNewGuest, reEscape, shownName, waitMine, exportAs, say, openChat, chatLine, smallControls, docShot, writeDownCode, PHONE, LOCALES} from './support.mjs';

export function tests(env) {
  return [
    {name: 'accounts: a guest claims an account from the header; a second device logs in to the same player, its username in the header; a wrong password is refused in French and Japanese and the page stays the guest it was', fn: async () => {
      const a = await newPlayer(env, 'Ana');
      const players = [a];
      try {
        const before = await whoAmI(a);
        await openPrefs(a.page);
        assert.match(await a.page.locator('#account').textContent(), /You play as a guest/);
        assert.equal(await a.page.locator('#me-account').count(), 0);
        await a.page.click('#account-claim');
        await a.page.waitForSelector('#claim-dialog[open]');
        // Refused before anything is sent: two different passwords.
        await submitDialog(a, 'claim', {username: 'Ana.Plays', password: 'rice paddies at dawn', confirm: 'rice paddies at dusk'});
        assert.match(await dialogRefusal(a, 'claim', 'account.mismatch'), /The two passwords are not the same/);
        // The server's refusals, in words, its reason beneath: a weak password, a username
        // breaking the name rule.
        await submitDialog(a, 'claim', {password: 'password', confirm: 'password'});
        assert.match(await dialogRefusal(a, 'claim', 'weak_password'), /That password is too weak/);
        await submitDialog(a, 'claim', {username: 'Ana <3', password: 'rice paddies at dawn', confirm: 'rice paddies at dawn'});
        assert.match(await dialogRefusal(a, 'claim', 'bad_name'), /That username is not allowed: a name is 1 to 24\sletters/);
        assert.equal((await whoAmI(a)).account, null);
        await axeCheck(a.page, 'the claim form (phone)');
        assert.deepEqual(await smallControls(a.page, '#claim-dialog'), [], 'claim form controls under 44 px on a phone');
        await submitDialog(a, 'claim', {username: 'Ana.Plays'});
        await a.page.waitForSelector('#claim-dialog', {state: 'detached'});
        // The recovery code, shown once: it cannot be dismissed with Escape before it is
        // written down, and the dialog is clean for axe on a phone.
        await a.page.waitForSelector('#code-dialog[open]');
        assert.match(await a.page.locator('#code-dialog').textContent(), /Write down your recovery code.*this code is the only way back/s);
        await axeCheck(a.page, 'the recovery code (phone)');
        assert.deepEqual(await smallControls(a.page, '#code-dialog'), [], 'recovery code controls under 44 px on a phone');
        await docShot(env, a.page, 'account-code-phone');
        await a.page.keyboard.press('Escape');
        assert.ok(await a.page.locator('#code-dialog[open]').count(), 'Escape leaves the code on screen');
        await writeDownCode(a);
        // The same identity and token, now an account: the header shows its username.
        await a.page.waitForSelector('#me-account');
        assert.match(await a.page.locator('#me-account').textContent(), /Ana\.Plays/);
        assert.equal(await a.page.locator('#me .me-name').textContent(), 'Ana');
        const claimed = await whoAmI(a);
        assert.deepEqual([claimed.id, claimed.token, claimed.account, claimed.saved], [before.id, before.token, 'Ana.Plays', 'Ana.Plays']);
        assert.match(await a.page.locator('#account-user').textContent(), /Your account: Ana\.Plays/);
        assert.match(await a.page.locator('#account-notice').textContent(), /Account created\. Your username is “Ana\.Plays”: use it to log in on your other devices\./);
        assert.deepEqual(await smallControls(a.page, '#account'), [], 'account controls under 44 px on a phone');
        assert.ok(await someInView(a.page, '#account-logout'), 'the account\'s buttons in view on a phone');
        await axeCheck(a.page, 'the header\'s drop-down with the account (phone)');
        await a.page.screenshot({path: path.join(env.outDir, 'account-phone.png')});
        await closePrefs(a.page);
        // A reload says hello with the token: the welcome names the account.
        await a.page.reload();
        await a.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.conn.account?.username === 'Ana.Plays');
        assert.match(await a.page.locator('#me-account').textContent(), /Ana\.Plays/);

        // Another device, in French: the username is taken, whatever its case; a wrong password
        // is refused in words, and the page stays Ben.
        const b = await newPlayer(env, 'Ben', {lang: 'fr', viewport: DESKTOP});
        players.push(b);
        const ben = await whoAmI(b);
        await openDialog(b, '#account-claim', 'claim');
        await submitDialog(b, 'claim', {username: 'ana.plays', password: 'the harvest is in', confirm: 'the harvest is in'});
        assert.match(await dialogRefusal(b, 'claim', 'username_taken'), /Ce nom d’utilisateur est déjà pris/);
        await b.page.click('#claim-cancel');
        assert.match(await loginRefused(b, 'Ana.Plays', 'not the password'), /Nom d’utilisateur ou mot de passe incorrect/);
        const still = await whoAmI(b);
        assert.deepEqual([still.id, still.name, still.token, still.account], [ben.id, 'Ben', ben.token, null]);
        assert.equal(await b.page.locator('#me-account').count(), 0);
        // The right password: Ana's player on this device, a token of its own.
        await logIn(b, 'Ana.Plays', 'rice paddies at dawn');
        const there = await whoAmI(b);
        assert.equal(there.id, before.id, 'the same player on the second device');
        assert.equal(there.name, 'Ana');
        assert.equal(there.account, 'Ana.Plays');
        assert.equal(there.saved, 'Ana.Plays');
        assert.notEqual(there.token, ben.token);
        assert.notEqual(there.token, claimed.token);
        assert.match(await b.page.locator('#me-account').textContent(), /Ana\.Plays/);
        assert.equal(await b.page.locator('#me .me-name').textContent(), 'Ana');
        assert.match(await b.page.locator('#account-notice').textContent(), /Connecté au compte «\u00a0Ana\.Plays\u00a0»\u00a0: vous jouez sous le nom Ana/);
        assert.equal(await b.page.getAttribute('#my-page', 'href'), `#/player/${before.id}`);
        await axeCheck(b.page, 'the header\'s drop-down with the account (fr)');
        await b.page.screenshot({path: path.join(env.outDir, 'account-desktop-fr.png')});
        await closePrefs(b.page);
        await b.page.reload();
        await b.page.waitForFunction((id) => window.tanbo.conn.state === 'open' && window.tanbo.conn.player?.id === id && window.tanbo.conn.account, before.id);
        // Both devices stay logged in.
        assert.equal((await exportAs(env, claimed.token)).status, 200);

        // A third, in Japanese: refused in its words, then let in.
        const c = await newPlayer(env, '花子', {lang: 'ja', viewport: DESKTOP});
        players.push(c);
        const hanako = await whoAmI(c);
        assert.match(await loginRefused(c, 'Ana.Plays', 'rice paddies at noon'), /ユーザー名またはパスワードが違います/);
        assert.equal((await whoAmI(c)).id, hanako.id);
        await logIn(c, 'Ana.Plays', 'rice paddies at dawn');
        assert.equal((await whoAmI(c)).id, before.id);
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: Log in is in the header on a phone and a desktop; it leads to a new account, whose recovery code is shown once, and to recovering a forgotten password with it, in French: every other session ends, the code works once, and a new one can be made', fn: async () => {
      const a = await newPlayer(env, 'Lena');
      const b = await newPlayer(env, 'Odile', {lang: 'fr', viewport: DESKTOP});
      const players = [a, b];
      try {
        // In plain sight in the header on both sizes, not in the drop-down: on the phone on the
        // brand's row, which had room for it, so that the header stays about 15 % of the height.
        for (const [p, words, size] of [[a, 'Log in', PHONE], [b, 'Se connecter', DESKTOP]]) {
          const button = p.page.locator('header.top #sign-in');
          assert.ok(await button.isVisible(), `${p.name}: Log in visible`);
          assert.equal((await button.textContent()).trim(), words);
          const box = await button.boundingBox();
          const brand = await p.page.locator('header.top .brand').boundingBox();
          assert.ok(box.y < brand.y + brand.height, `${p.name}: Log in on the brand's row`);
          assert.ok(box.x + box.width <= size.width, `${p.name}: Log in within the width`);
          assert.ok(box.height >= 32 && box.width >= 44, `${p.name}: Log in is a finger's target`);
          const header = await p.page.locator('header.top').boundingBox();
          assert.ok(header.height <= size.height * 0.16, `${p.name}: header ${header.height} px high`);
        }
        await docShot(env, a.page, 'sign-in-phone');
        // Sign in, then "create one": the claim; its code shown once.
        const lena = await whoAmI(a);
        await a.page.click('#sign-in');
        await a.page.waitForSelector('#login-dialog[open]');
        assert.deepEqual(await smallControls(a.page, '#login-dialog'), [], 'login controls under 44 px on a phone');
        // Its two links, each whole, with nothing between them left dangling at a line's end.
        assert.equal((await a.page.locator('#login-dialog .account-links').textContent()).replace(/\s/g, ''), 'Noaccountyet?CreateoneForgotyourpassword?');
        await a.page.click('#login-to-claim');
        await a.page.waitForSelector('#claim-dialog[open]');
        // A common password from the server's list, dressed with digits: refused in words.
        await submitDialog(a, 'claim', {username: 'lena.l', password: 'strawberry2026', confirm: 'strawberry2026'});
        assert.match(await dialogRefusal(a, 'claim', 'weak_password'), /That password is too weak.*common one with a few characters added/s);
        await submitDialog(a, 'claim', {password: 'lanterns over the paddies', confirm: 'lanterns over the paddies'});
        await a.page.waitForSelector('#claim-dialog', {state: 'detached'});
        const code = await writeDownCode(a);
        await a.page.waitForFunction(() => window.tanbo.conn.account?.username === 'lena.l');
        assert.ok(await a.page.locator('#sign-in').isHidden(), 'no Sign in once the page is an account');

        // Odile's browser, in French: Sign in, "forgotten password", a wrong code refused in words.
        await b.page.click('#sign-in');
        await b.page.waitForSelector('#login-dialog[open]');
        assert.match(await b.page.locator('#login-to-recover').textContent(), /Mot de passe oublié\u202f\?/);
        await b.page.click('#login-to-recover');
        await b.page.waitForSelector('#recover-dialog[open]');
        await axeCheck(b.page, 'the recovery form (fr)');
        await submitDialog(b, 'recover', {username: 'lena.l', code: 'AAAA-BBBB-CCCC-DDDD-EEEE', password: 'a lantern relit', confirm: 'a lantern relit'});
        assert.match(await dialogRefusal(b, 'recover', 'account.error.bad_code'), /Nom d’utilisateur ou code de secours incorrect/);
        assert.equal((await whoAmI(b)).account, null);
        // The right code, typed in lower case without its dashes: Lena's account on this browser,
        // a new code shown, and Lena's phone logged out.
        await submitDialog(b, 'recover', {code: code.replace(/-/g, '').toLowerCase()});
        await b.page.waitForSelector('#recover-dialog', {state: 'detached'});
        await b.page.waitForSelector('#code-dialog[open]');
        assert.match(await b.page.locator('#code-dialog').textContent(), /Notez votre code de secours.*L’ancien code de secours ne fonctionne plus/s);
        await docShot(env, b.page, 'recovered-desktop-fr');
        const next = await writeDownCode(b);
        assert.notEqual(next, code);
        await b.page.waitForFunction((id) => window.tanbo.conn.state === 'open' && window.tanbo.conn.player?.id === id, lena.id);
        assert.equal((await whoAmI(b)).account, 'lena.l');
        await b.page.waitForFunction(() => /Bon retour sur «\u00a0lena\.l\u00a0»/.test(document.getElementById('toast').textContent));
        await waitNewGuest(a, lena.id, 15000);
        // The old password is refused now; the used code is refused too.
        assert.match(await loginRefused(a, 'lena.l', 'lanterns over the paddies'), /Wrong username or password/);
        await a.page.click('#sign-in');
        await a.page.click('#login-to-recover');
        await submitDialog(a, 'recover', {username: 'lena.l', code, password: 'another lantern lit', confirm: 'another lantern lit'});
        assert.match(await dialogRefusal(a, 'recover', 'account.error.bad_code'), /Wrong username or recovery code/);
        await a.page.click('#recover-cancel');
        // A new code from the account's menu, with the password: the last one stops working.
        await openDialog(b, '#account-new-code', 'new-code');
        await submitDialog(b, 'new-code', {password: 'a lantern relit'});
        await b.page.waitForSelector('#new-code-dialog', {state: 'detached'});
        const third = await writeDownCode(b);
        assert.notEqual(third, next);
        const r = await fetch(`${env.base}/api/recover`, {method: 'POST', headers: {'content-type': 'application/json'},
          body: JSON.stringify({username: 'lena.l', code: next, password: 'another lantern lit'})});
        assert.equal(r.status, 401, 'the replaced code no longer works');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: the account-created toast names the username, waits unseen while the recovery code is shown, then stands at the foot of a phone (over the decision bar, no board target under it, a Tsoro board at a decision included) and at the foot at the right of a desktop, over no board nor the room\'s tools, closes with its ✕ and by itself', fn: async () => {
      const p = await newPlayer(env, 'Tova', {viewport: PHONE});
      const d = await newPlayer(env, 'Dana', {viewport: DESKTOP});
      // Whole within the screen; on a desktop at the foot, over no part of the board or its tools,
      // on a phone at its foot and over none of the board's targets.
      const placed = async (pp, size, what) => {
        const box = await pp.page.locator('#toast').boundingBox();
        const header = await pp.page.locator('header.top').boundingBox();
        // The board as laid out: a move the computer makes meanwhile draws it anew.
        let board = null;
        for (const until = Date.now() + 5000; !board && Date.now() < until;) {
          await pp.page.locator('#board svg').waitFor({state: 'visible'});
          board = await pp.page.locator('#board svg').boundingBox();
        }
        assert.ok(box.x >= 0 && box.x + box.width <= size.width, `${what}: the toast runs off the screen (${box.x}, ${box.width})`);
        if (size === PHONE) {
          assert.ok(box.y + box.height > size.height - 20 && box.y + box.height <= size.height, `${what}: the toast not at the foot (${box.y})`);
          // What of a target the decision bar does not already cover (Tsoro's long board runs on
          // under it).
          const under = await pp.page.evaluate((b) => {
            const bar = document.getElementById('controls');
            const foot = bar.classList.contains('active') ? bar.getBoundingClientRect().top : innerHeight;
            return [...document.querySelectorAll('#board .pick')].map((el) => el.getBoundingClientRect())
              .filter((r) => r.left < b.x + b.width && r.right > b.x && r.top < b.y + b.height && Math.min(r.bottom, foot) > b.y).length;
          }, box);
          assert.equal(under, 0, `${what}: the toast over a target of the board`);
        } else {
          // At the foot, clear of the header and of the room's tools (Rules, Copy link).
          assert.ok(box.y > header.y + header.height && box.y + box.height > size.height - 40 && box.y + box.height <= size.height,
            `${what}: the toast not at the foot (${box.y}..${box.y + box.height})`);
          const tools = await pp.page.locator('.room-tools').boundingBox();
          if (tools) assert.ok(box.y >= tools.y + tools.height, `${what}: the toast over the room's tools`);
          assert.ok(box.y + box.height <= board.y || box.x >= board.x + board.width, `${what}: the toast over the board`);
          // Nor over any control of the room: the chat's field, Send, its phrases, its switch.
          // The page lifts them within a quarter of a second of a change (a chat line drawn).
          const covered = (b) => [...document.querySelectorAll('#main :is(a[href], button, input, select, textarea, summary, label, [tabindex="0"])')]
            .filter((c) => { const r = c.getBoundingClientRect(); return c.checkVisibility() && r.left < b.x + b.width && r.right > b.x && r.top < b.y + b.height && r.bottom > b.y; })
            .map((c) => c.id || c.textContent.trim().slice(0, 40));
          let under = await pp.page.evaluate(covered, box);
          for (const until = Date.now() + 2000; under.length && Date.now() < until;) {
            await pp.page.waitForTimeout(100);
            under = await pp.page.evaluate(covered, box);
          }
          assert.deepEqual(under, [], `${what}: the toast over controls of the room`);
        }
        return box;
      };
      try {
        await playComputer(p, 'mancala-simple');
        await waitMine(p.page);
        await openPrefs(p.page);
        await openDialog(p, '#account-claim', 'claim');
        await submitDialog(p, 'claim', {username: 'tova.t', password: 'herons over the paddies', confirm: 'herons over the paddies'});
        await p.page.waitForSelector('#code-dialog[open]');
        const toast = p.page.locator('#toast');
        assert.equal(await toast.locator('.toast-text').textContent(),
          'Account created. Your username is “tova.t”: use it to log in on your other devices.');
        // Never over the dialog, and its time does not run while the dialog is open.
        assert.equal(await toast.isVisible(), false, 'the toast shows over the recovery code');
        await p.page.waitForTimeout(6500);
        assert.equal(await toast.isVisible(), false);
        await writeDownCode(p);
        await closePrefs(p.page);
        assert.ok(await toast.isVisible(), 'the toast is not seen once the code is written down');
        const box = await placed(p, PHONE, 'phone');
        assert.ok(box.width > PHONE.width * 0.7, `the toast squeezed to ${box.width} px`);
        // Its ✕: a finger's target that closes it.
        const close = toast.getByRole('button', {name: 'Close'});
        const cb = await close.boundingBox();
        assert.ok(cb.width >= 44 && cb.height >= 44, 'the ✕ is under 44 px');
        await close.click();
        assert.equal(await toast.isVisible(), false);
        // Shown once: the account's notice stays in the drop-down, the toast does not come back.
        await p.page.waitForTimeout(500);
        assert.equal(await toast.isVisible(), false);
        // Any toast goes by itself after about six seconds.
        // The pointer rests where it appears, as after a click there: a mouse that did not move
        // onto it keeps nothing.
        await p.page.mouse.move(box.x + 20, box.y + box.height - 10);
        await p.page.evaluate(() => import('./util.js').then((u) => u.toast('A word for a moment')));
        const t0 = Date.now();
        await p.page.waitForSelector('#toast[hidden]', {state: 'attached', timeout: 10000});
        const shown = Date.now() - t0;
        assert.ok(shown > 4500 && shown < 9000, `the toast showed for ${shown} ms`);
        // Tsoro's long board on a phone, at a decision.
        await playComputer(p, 'tsoro');
        await waitMine(p.page);
        await p.page.waitForSelector('#controls.active');
        await p.page.evaluate(() => { window.scrollTo(0, 0); window.tanbo.view.boardIntoView(); });
        await p.page.evaluate(() => import('./util.js').then((u) => u.toast('Account created. Your username is “tova.t”: use it to log in on your other devices.')));
        await placed(p, PHONE, 'phone, Tsoro');
        // On a phone scrolled to the chat, no decision pinned: the page lifts the chat's field
        // and Send above the toast, and gives the scroll back when it goes.
        await p.page.evaluate(() => document.querySelector('#toast:not([hidden]) .toast-close')?.click());
        await p.page.click('#resign');
        await p.page.click('#resign-confirm');
        await p.page.waitForSelector('#result:not([hidden])');
        await say(p, 'Well played!');
        await chatLine(p, 'Well played!').waitFor();
        const end = await p.page.evaluate(() => { document.activeElement.blur(); window.scrollTo(0, document.documentElement.scrollHeight); return scrollY; });
        const chatUnder = () => p.page.evaluate(() => {
          const b = document.getElementById('toast').getBoundingClientRect();
          return [...document.querySelectorAll('#chat :is(button, input, summary, label, [tabindex="0"])')]
            .filter((c) => { const r = c.getBoundingClientRect(); return c.checkVisibility() && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top; })
            .map((c) => c.id || c.textContent.trim().slice(0, 40));
        });
        // The chat's last controls at the foot of the screen, where the toast shows.
        const foot = await p.page.evaluate(() => Math.max(...[...document.querySelectorAll('#chat :is(button, input)')]
          .filter((c) => c.checkVisibility()).map((c) => c.getBoundingClientRect().bottom)) - innerHeight);
        assert.ok(foot > -60 && foot <= 0, `the chat's last control ${-foot} px above the foot of the phone`);
        await p.page.evaluate(() => import('./util.js').then((u) => u.toast('Account created. Your username is “tova.t”: use it to log in on your other devices.')));
        await p.page.waitForFunction(() => !document.getElementById('toast').hidden);
        assert.deepEqual(await chatUnder(), [], 'phone, the chat: the toast over its controls');
        await p.page.click('#toast .toast-close');
        assert.equal(await p.page.evaluate(() => scrollY), end, 'phone: the page not back in place once the toast is closed');
        // On a desktop, at the right beside the board of a game whose board fills its column, and
        // beside Tanbo's, the chat with a line said: the page lifts what it would cover.
        for (const game of ['steere-tanbo', 'tanbo']) {
          await playComputer(d, game);
          await d.page.locator('#board svg').waitFor({state: 'visible'});
          await openChat(d);
          await say(d, 'Good luck!');
          await d.page.evaluate(() => { document.activeElement.blur(); window.scrollTo(0, 0); });
          await d.page.evaluate(() => import('./util.js').then((u) => u.toast('Account created. Your username is “dana.d”: use it to log in on your other devices.')));
          const wide = await placed(d, DESKTOP, `desktop, ${game}`);
          assert.ok(wide.x + wide.width > DESKTOP.width - 40, 'the toast not at the right');
          // Scrolled back by a script, not by hand (no key pressed for a second), the page lifts
          // them again at once.
          await d.page.waitForTimeout(1100);
          await d.page.evaluate(() => { window.scrollTo(0, 0); return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); });
          await placed(d, DESKTOP, `desktop, ${game}, scrolled back`);
          // Closed, the page is back where it was.
          await d.page.click('#toast .toast-close');
          assert.equal(await d.page.evaluate(() => scrollY), 0, 'the page not back in place once the toast is closed');
          await d.page.click('#resign');
          await d.page.click('#resign-confirm');
          await d.page.waitForSelector('#result:not([hidden])');
        }
        assert.deepEqual([...p.errors, ...d.errors], []);
      } finally {
        await closeAll([p, d]);
      }
    }},
    {name: 'accounts: a new guest\'s name is the server\'s, said in the reader\'s language (Invité in French, ゲスト in Japanese) in the header, the name field and the seats; a chosen name is shown as chosen', fn: async () => {
      const contexts = [];
      try {
        for (const [lang, word] of [['fr', 'Invité'], ['ja', 'ゲスト'], ['en', 'Guest']]) {
          const ctx = await env.browser.newContext({viewport: PHONE, locale: LOCALES[lang]});
          contexts.push(ctx);
          const page = await ctx.newPage();
          const errors = [];
          page.on('pageerror', (e) => errors.push(e.message));
          await page.goto(`${env.base}/`);
          await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
          const me = await page.evaluate(() => window.tanbo.conn.player);
          assert.equal(me.default_name, true, 'the server marks its own name');
          assert.equal(me.name, `Guest ${me.id.slice(1, 5)}`);
          // Said as a friendly name in the reader's words, never as the id's hex digits.
          const shown = await shownName(page, me.name);
          assert.ok(shown.startsWith(word) && !shown.includes(me.id.slice(1, 5)), `${lang}: ${shown}`);
          assert.equal(await page.locator('#me .me-name').textContent(), shown, `${lang}: the header`);
          await openPrefs(page);
          assert.equal(await page.inputValue('#name-input'), '', `${lang}: nothing to keep in the name field`);
          assert.equal(await page.getAttribute('#name-input', 'placeholder'), shown);
          await closePrefs(page);
          // Its seat in a room against the computer.
          await playComputer({page}, 'mancala-simple');
          await page.waitForSelector('.seat[data-seat="0"] .seat-name');
          assert.match(await page.locator('.seat[data-seat="0"] .seat-name').textContent(), new RegExp(shown));
          assert.deepEqual(errors, []);
        }
        // A chosen name is not the server's: shown as typed.
        const p = await newPlayer(env, 'Guestmaster');
        contexts.push(p.ctx);
        assert.equal(await p.page.evaluate(() => window.tanbo.conn.player.default_name), undefined);
        assert.equal(await p.page.locator('#me .me-name').textContent(), 'Guestmaster');
      } finally {
        for (const c of contexts) await c.close().catch(() => {});
      }
    }},
    {name: 'accounts: on a phone the header keeps to about 15 % of the height whatever the name, "Your turn" as its count named by what it counts, the language and the sound in the drop-down; the drop-down closes under a dialog and opens again after it; a guest chooses the name others see as it creates an account', fn: async () => {
      const ctx = await env.browser.newContext({viewport: PHONE, locale: LOCALES.fr});
      const page = await ctx.newPage();
      page.setDefaultTimeout(15000);
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const p = {ctx, page, errors, name: 'guest'};
      try {
        await page.goto(`${env.base}/`);
        await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
        const header = async (what) => {
          const box = await page.locator('header.top').boundingBox();
          assert.ok(box.height <= PHONE.height * 0.15, `${what}: the header is ${box.height} px high`);
          assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width, `${what}: wider than the screen`);
          return box;
        };
        await header('a new guest');
        // A room: its title is the game's name (the room's id is in Copy link), its tools named;
        // nothing opens the phone's keyboard by itself.
        const room = await playComputer(p, 'mancala-simple');
        assert.equal(await page.locator('#room-title').textContent(), 'Mancala simple');
        assert.doesNotMatch(await page.locator('.room-head').textContent(), new RegExp(reEscape(room)));
        assert.equal(await page.getAttribute('.room-tools .rules-link', 'title'), 'Règles');
        assert.equal((await page.locator('.room-tools .copy-link').textContent()).trim(), 'Copier le lien');
        assert.deepEqual(await smallControls(page, '.room-tools'), [], 'the room\'s tools under 44 px');
        assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'chat-input', 'the chat field focused by itself');
        // The game waits for the guest (who stays in the room: a seat left alone a while is the
        // computer's): "Your turn" is its icon and the count.
        await page.waitForSelector('#turns:not([hidden])');
        const turns = page.locator('#turns-summary');
        // Its name the words (the word for screen readers on a phone), what it counts its tooltip
        // and the first line of its panel.
        assert.equal((await turns.textContent()).trim(), 'À vous 1\u00a0partie');
        assert.equal(await turns.getAttribute('title'), 'À vous\u00a0: 1\u00a0partie attend votre coup');
        assert.equal(await turns.locator('.turns-n').textContent(), '1');
        assert.ok(await turns.locator('.turns-n').isVisible());
        assert.ok((await turns.locator('.turns-unit').boundingBox()).width <= 1, 'what it counts is for screen readers on a phone');
        assert.ok((await turns.locator('.turns-word').boundingBox()).width <= 1, 'its word shown too, on a phone');
        // A guest's row holds Log in: the count alone, no short word.
        assert.equal(await turns.locator('.turns-short').isVisible(), false, 'a short word in a guest\'s row');
        await turns.click();
        assert.equal(await page.locator('#turns-panel .turns-title').textContent(), 'À vous\u00a0: 1\u00a0partie attend votre coup');
        await axeCheck(page, 'the header with the games waiting open (phone, fr)');
        await turns.click();
        const tb = await turns.boundingBox();
        assert.ok(tb.width >= 44 && tb.height >= 44, 'Your turn is a finger\'s target');
        const guest = await header('a guest with a game waiting');
        // Two rows, French included: Log in, Your turn and the drop-down's button (an icon, the
        // guest's name its accessible name and tooltip) on the brand's row, "Tanbo" to the eye.
        assert.ok(guest.height < 100, `a guest's header is ${guest.height} px high`);
        const brandBox = await page.locator('header.top .brand').boundingBox();
        for (const sel of ['#sign-in', '#turns-summary', '#prefs summary']) {
          const b = await page.locator(sel).boundingBox();
          assert.ok(b.y < brandBox.y + brandBox.height && b.y + b.height > brandBox.y, `${sel} not on the brand's row`);
        }
        // Log in beside the drop-down's button at the row's end, "Your turn" before them, as on
        // every page.
        const [signBox, meBox, turnBox] = await Promise.all(['#sign-in', '#prefs summary', '#turns-summary'].map((q) => page.locator(q).boundingBox()));
        assert.ok(meBox.x - (signBox.x + signBox.width) < 16 && turnBox.x + turnBox.width <= signBox.x, 'Log in away from the drop-down\'s button');
        const guestName = await page.evaluate(() => window.tanbo.conn.player.name);
        const shownGuest = await shownName(page, guestName);
        assert.equal(await page.getAttribute('#me', 'title'), shownGuest);
        assert.ok(await page.locator('#me .me-icon').isVisible(), 'the drop-down\'s icon');
        assert.equal((await page.locator('#me').textContent()).trim(), shownGuest, 'the guest\'s name is the button\'s words');
        assert.equal(await page.locator('header.top .brand').textContent(), 'Tanbo Server', 'the brand\'s words');
        // The language and the sound: in the drop-down on a phone.
        assert.ok(!(await page.locator('#lang').isVisible()) && !(await page.locator('#sound').isVisible()));
        await openPrefs(page);
        assert.ok(await page.locator('#prefs-lang').isVisible());
        const sound = await page.getAttribute('#sound', 'aria-pressed');
        await page.click('#prefs-sound');
        assert.notEqual(await page.getAttribute('#sound', 'aria-pressed'), sound, 'the drop-down\'s sound is the header\'s');
        await page.click('#prefs-sound');
        // A dialog from the drop-down: the drop-down closes under it.
        await page.click('#account-claim');
        await page.waitForSelector('#claim-dialog[open]');
        assert.equal(await page.locator('#prefs').evaluate((d) => d.open), false, 'the drop-down open under the dialog');
        assert.match(await page.locator('#claim-display-help').textContent(), /Laissé vide, vous restez Invité \p{Lu}\p{Ll}+[- ]\p{L}/u);
        await submitDialog(p, 'claim', {display: 'Marguerite-Delacroix Vey', username: 'marguerite.v',
          password: 'herons over the paddies', confirm: 'herons over the paddies'});
        await page.waitForSelector('#claim-dialog', {state: 'detached'});
        // The code's zeros slashed: never read as the letter O.
        assert.match(await page.locator('.recovery-code').evaluate((el) => getComputedStyle(el).fontVariantNumeric), /slashed-zero/);
        await writeDownCode(p);
        // The name others see is the one chosen; the header keeps it on one line, on the
        // brand's row, with the account's mark.
        await page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.conn.account?.username === 'marguerite.v' &&
          window.tanbo.conn.player?.name === 'Marguerite-Delacroix Vey');
        await page.waitForFunction(() => document.querySelector('#me .me-name')?.textContent === 'Marguerite-Delacroix Vey');
        assert.match(await page.locator('#me-account').textContent(), /marguerite\.v/);
        // Once the last dialog has closed, the drop-down is open again, focus in it.
        await page.waitForFunction(() => document.getElementById('prefs').open && document.getElementById('account').contains(document.activeElement));
        await page.click('#account-sessions');
        await page.waitForSelector('#sessions-dialog[open]');
        assert.equal(await page.locator('#prefs').evaluate((d) => d.open), false, 'the drop-down open under the sessions');
        await page.click('#sessions-close');
        await page.waitForFunction(() => document.getElementById('prefs').open && document.activeElement?.id === 'account-sessions');
        await closePrefs(page);
        const box = await header('an account holder with a 24-letter name');
        const me = await page.locator('#prefs summary').boundingBox();
        const brand = await page.locator('header.top .brand').boundingBox();
        assert.ok(me.y < brand.y + brand.height && box.height < 100, 'the name on the brand\'s row');
        assert.ok(me.height <= 48, 'the name taller than a button (two short lines at most)');
        // An account holder's row has room for short words after the count: "1 à jouer" (a word
        // before it, "Tour 1", would read as a turn's number).
        assert.equal(await page.locator('#turns-summary .turns-short').evaluate((e) => getComputedStyle(e, '::before').content), '"à jouer"');
        const short = await page.locator('#turns-summary .turns-short').boundingBox();
        assert.ok(short.width > 20, 'the short word not shown');
        assert.ok(short.x > (await page.locator('#turns-summary .turns-count').boundingBox()).x, 'the short words before the count');
        // One header on every page: "Tanbo" to the eye, an account holder's as a guest's.
        assert.ok((await page.locator('header.top .brand-more').boundingBox()).width <= 1, 'the brand "Tanbo Server" on a phone');
        assert.deepEqual(errors, []);
      } finally {
        await ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: the header\'s "Your turn" is as wide as its words in each language on both sizes; on a desktop Log in stays on the first row and the name takes the room left, on one line, cut short with an ellipsis where the row is full, whole in its tooltip', fn: async () => {
      const contexts = [];
      try {
        for (const lang of ['en', 'fr', 'ja']) {
          for (const viewport of [DESKTOP, PHONE]) {
            const ctx = await env.browser.newContext({viewport, locale: LOCALES[lang]});
            contexts.push(ctx);
            const page = await ctx.newPage();
            const what = `${lang} ${viewport.width}`;
            await page.goto(`${env.base}/`);
            await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
            await playComputer({page}, 'mancala-simple');
            await page.waitForSelector('#turns:not([hidden])');
            const cut = (sel) => page.locator(sel).evaluate((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight + 1);
            assert.equal(await cut('#turns-summary'), false, `${what}: "Your turn" cut`);
            assert.ok(await page.locator('#turns-summary .icon').evaluate((e) => e.getBoundingClientRect().width >= 12), `${what}: its icon squeezed`);
            if (viewport !== DESKTOP) continue;
            // The longest name a guest may choose, in a room with a game waiting.
            const guest = await page.locator('#me .me-name').textContent();
            for (const name of lang === 'fr' ? [guest, 'Bérengère-Dumontel Vasse'] : [guest]) {
              if (name !== guest) await rename({page}, name);
              await page.waitForFunction((n) => document.querySelector('#me .me-name')?.title === n, name);
              const header = await page.locator('header.top').boundingBox();
              const brand = await page.locator('header.top .brand').boundingBox();
              const sign = await page.locator('#sign-in').boundingBox();
              assert.ok(sign.y < brand.y + brand.height && header.height < 70, `${what}: Log in on a row of its own (${header.height} px)`);
              const lines = await page.locator('#me .me-name').evaluate((e) => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)));
              assert.equal(lines, 1, `${what}: ${name} on ${lines} lines`);
              assert.equal(await page.getAttribute('#me .me-name', 'title'), name);
            }
          }
        }
      } finally {
        for (const c of contexts) await c.close().catch(() => {});
      }
    }},
    {name: 'accounts: log out ends this device\'s session only; log out everywhere ends the other device\'s too, whose saved token is refused: it becomes a guest and says so', fn: async () => {
      const a = await newPlayer(env, 'Rolf', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Bea', {lang: 'ja'});
      const players = [a, b];
      try {
        const rolf = (await whoAmI(a)).id;
        await claimAccount(a, 'rolf.r', 'seven paddies of rice');
        await logIn(b, 'rolf.r', 'seven paddies of rice');
        const first = await whoAmI(b);
        assert.equal(first.id, rolf);
        // Log out here (on the phone, in Japanese): a new guest, said in words; the token is dead.
        await openPrefs(b.page);
        await b.page.click('#account-logout');
        await waitNewGuest(b, rolf);
        const guest = await whoAmI(b);
        assert.notEqual(guest.token, first.token);
        assert.equal(guest.saved, null);
        assert.notEqual(guest.name, 'Rolf');
        assert.equal(await b.page.locator('#me-account').count(), 0);
        // The new guest's server-made name ("Guest 14cf") is said in the reader's language.
        assert.match(guest.name, /^Guest [0-9a-f]{4}$/);
        const guestShown = await shownName(b.page, guest.name);
        assert.match(guestShown, /^ゲスト・\S+$/);
        assert.match(await b.page.locator('#account-notice').textContent(), new RegExp(`ログアウトしました。この\\u2060ブラウザーは新しいゲスト（${guestShown}）として遊びます`));
        assert.ok(await b.page.locator('#account-login').isVisible(), 'Log in offered again');
        assert.deepEqual(await exportAs(env, first.token).then((r) => [r.status, r.code]), [401, 'unauthorized']);
        // The other device is still logged in.
        await a.page.reload();
        await a.page.waitForFunction((id) => window.tanbo.conn.state === 'open' && window.tanbo.conn.player?.id === id && window.tanbo.conn.account?.username === 'rolf.r', rolf);

        // Log out everywhere, from Ana's desktop: both sessions end; the phone is told by its
        // next connection (the server closes its current one), and says why.
        await logIn(b, 'rolf.r', 'seven paddies of rice');
        const second = await whoAmI(b);
        assert.equal(second.id, rolf);
        await closePrefs(b.page);
        await openPrefs(a.page);
        await a.page.click('#account-logout-all');
        await waitNewGuest(a, rolf);
        assert.match(await a.page.locator('#account-notice').textContent(), /Logged out on every device\. This browser now plays as a new guest/);
        await waitNewGuest(b, rolf, 15000);
        const after = await whoAmI(b);
        assert.notEqual(after.token, second.token);
        assert.equal(after.saved, null);
        await openPrefs(b.page);
        assert.match(await b.page.locator('#account-notice').textContent(), new RegExp(`「rolf\\.r」からログアウトされました.*いまは新しいゲスト（${await shownName(b.page, after.name)}）です`));
        assert.equal(await b.page.locator('#me-account').count(), 0);
        assert.deepEqual(await exportAs(env, second.token).then((r) => [r.status, r.code]), [401, 'unauthorized']);
        // A reload stays the new guest.
        await b.page.reload();
        await b.page.waitForFunction((id) => window.tanbo.conn.state === 'open' && window.tanbo.conn.player?.id === id, after.id);
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: a changed password logs the other device out; the old password is refused in words, the new one lets it in', fn: async () => {
      const a = await newPlayer(env, 'Cleo', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Dan');
      const players = [a, b];
      try {
        const cleo = (await whoAmI(a)).id;
        await claimAccount(a, 'cleo.c', 'harvest moon rising');
        await logIn(b, 'cleo.c', 'harvest moon rising');
        const old = await whoAmI(b);
        // The phone is closed meanwhile: it comes back after the change.
        await b.page.goto('about:blank');
        await openDialog(a, '#account-password', 'password');
        await axeCheck(a.page, 'the change of password form');
        await submitDialog(a, 'password', {current: 'harvest moon rising', password: 'a snake in paddy five', confirm: 'a snake in paddy six'});
        assert.match(await dialogRefusal(a, 'password', 'account.mismatch'), /not the same/);
        await submitDialog(a, 'password', {confirm: 'a snake in paddy five'});
        await a.page.waitForSelector('#password-dialog', {state: 'detached'});
        assert.match(await a.page.locator('#account-notice').textContent(), /Password changed\. Your other devices will have to log in again/);
        // This device stays logged in, across a reload too.
        await a.page.reload();
        await a.page.waitForFunction((id) => window.tanbo.conn.state === 'open' && window.tanbo.conn.player?.id === id && window.tanbo.conn.account, cleo);
        // The other's token is refused on its next connection, the page's first: a guest, told why.
        assert.deepEqual(await exportAs(env, old.token).then((r) => [r.status, r.code]), [401, 'unauthorized']);
        await b.page.goto(`${env.base}/`);
        await waitNewGuest(b, cleo);
        assert.equal(await b.page.evaluate(() => localStorage.getItem('tanbo.account')), null);
        await openPrefs(b.page);
        assert.match(await b.page.locator('#account-notice').textContent(), /You are no longer logged in to cleo\.c/);
        const guest = await whoAmI(b);
        assert.match(await loginRefused(b, 'cleo.c', 'harvest moon rising'), /Wrong username or password/);
        assert.equal((await whoAmI(b)).id, guest.id, 'a refused login keeps the guest');
        await logIn(b, 'cleo.c', 'a snake in paddy five');
        assert.equal((await whoAmI(b)).id, cleo);
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: an account plays bots once it ticks the box, kept after a reload; a guest has no box', fn: async () => {
      const p = await newPlayer(env, 'Pia', {viewport: DESKTOP});
      try {
        await openPrefs(p.page);
        assert.equal(await p.page.locator('#account-play-bots').count(), 0, 'a guest has no account to set');
        await claimAccount(p, 'pia', 'harvest moon rising');
        await openPrefs(p.page);
        const box = p.page.locator('#account-play-bots');
        await p.page.waitForSelector('#account-play-bots:not([disabled])');
        assert.equal(await box.isChecked(), false, 'off until the person turns it on');
        assert.equal(await p.page.locator('label[for="account-play-bots"]').textContent(), 'Play against bots');
        await box.check();
        const token = await p.page.evaluate(() => window.tanbo.conn.token);
        const flags = async () => (await fetch(`${env.base}/api/me/bot`, {headers: {authorization: `Bearer ${token}`}})).json();
        for (let i = 0; i < 50 && !(await flags()).play_bots; ++i) await p.page.waitForTimeout(100);
        assert.deepEqual(await flags(), {bot: false, play_bots: true});
        await p.page.reload();
        await p.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.conn.account);
        await openPrefs(p.page);
        await p.page.waitForSelector('#account-play-bots:checked');
        await box.uncheck();
        for (let i = 0; i < 50 && (await flags()).play_bots; ++i) await p.page.waitForTimeout(100);
        assert.equal((await flags()).play_bots, false);
        assert.deepEqual(p.errors, []);
      } finally {
        await closeAll([p]);
      }
    }},
    {name: 'accounts: export downloads tanbo-<id>.json about the player; delete asks for the password and a confirmation, is refused while a game is unfinished, then leaves a new guest', fn: async () => {
      const a = await newPlayer(env, 'Dora');
      try {
        const dora = await whoAmI(a);
        await claimAccount(a, 'dora.d', 'three rings of paddies');
        const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.click('#account-export')]);
        assert.equal(download.suggestedFilename(), `tanbo-${dora.id}.json`);
        const doc = JSON.parse(await readFile(await download.path(), 'utf8'));
        assert.equal(doc.identity.id, dora.id);
        assert.equal(doc.identity.name, 'Dora');
        assert.equal(doc.account?.username, 'dora.d');
        await a.page.waitForFunction((f) => document.getElementById('account-notice')?.textContent.includes(f), `tanbo-${dora.id}.json`);
        // An unfinished game: the deletion is refused, the game named.
        await closePrefs(a.page);
        const room = await playComputer(a, 'tsoro');
        await openDialog(a, '#account-delete', 'delete');
        await submitDialog(a, 'delete', {password: 'three rings of paddies'});
        assert.match(await dialogRefusal(a, 'delete', 'account.delete_unconfirmed'), /Tick the box to confirm/);
        await a.page.check('#delete-check');
        await axeCheck(a.page, 'the deletion form (phone)');
        assert.deepEqual(await smallControls(a.page, '#delete-dialog'), [], 'deletion form controls under 44 px on a phone');
        await a.page.click('#delete-submit');
        assert.match(await dialogRefusal(a, 'delete', 'games_in_progress'), /You still have unfinished games/);
        const links = await a.page.$$eval('#delete-problems a', (els) => els.map((el) => el.getAttribute('href')));
        assert.deepEqual(links, [`#/room/${room}`], 'the unfinished game linked');
        await a.page.click('#delete-cancel');
        assert.equal((await whoAmI(a)).account, 'dora.d');
        await closePrefs(a.page);
        await a.page.setViewportSize(DESKTOP);
        await a.page.click('#resign');
        await a.page.click('#resign-confirm');
        await a.page.waitForSelector('#result .reason');
        // Finished: deleted, and the page is a new guest.
        await openDialog(a, '#account-delete', 'delete');
        await a.page.check('#delete-check');
        await submitDialog(a, 'delete', {password: 'three rings of paddies'});
        await a.page.waitForSelector('#delete-dialog', {state: 'detached'});
        await waitNewGuest(a, dora.id);
        const guest = await whoAmI(a);
        assert.equal(guest.saved, null);
        assert.notEqual(guest.name, 'Dora');
        assert.match(await a.page.locator('#account-notice').textContent(), new RegExp(`Account deleted\\. This browser now plays as a new guest, ${reEscape(await shownName(a.page, guest.name))}`));
        assert.equal(await a.page.locator('#me-account').count(), 0);
        assert.deepEqual(await exportAs(env, dora.token).then((r) => [r.status, r.code]), [401, 'unauthorized']);
        await closeAll([a]);
      } finally {
        await a.ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: wrong passwords in a row make the account wait; the right one too soon is refused as a wrong one, with a hint to wait, in French; then it lets in', fn: async () => {
      const a = await newPlayer(env, 'Eve', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Gaspard', {lang: 'fr', viewport: DESKTOP});
      const players = [a, b];
      try {
        await claimAccount(a, 'eve.e', 'paddies under the moon');
        const gaspard = await whoAmI(b);
        await openDialog(b, '#account-login', 'login');
        // Five free attempts, then one after 1 s, then one after 2 s: the account now waits 4 s.
        for (let i = 0; i < 7; ++i) {
          if (i >= 5) await b.page.waitForTimeout(i === 5 ? 1100 : 2100);
          await submitDialog(b, 'login', {username: 'eve.e', password: `guess number ${i}`});
          const why = b.page.locator('#login-problems [data-code]');
          await why.waitFor();
          assert.equal(await why.getAttribute('data-code'), 'bad_login');
          await b.page.evaluate(() => document.querySelector('#login-problems').replaceChildren());
        }
        // The right password, too soon: the same words as a wrong one, and the hint to wait.
        await submitDialog(b, 'login', {password: 'paddies under the moon'});
        const text = await dialogRefusal(b, 'login', 'bad_login');
        assert.match(text, /Nom d’utilisateur ou mot de passe incorrect/);
        assert.match(text, /ralenti/);
        const still = await whoAmI(b);
        assert.deepEqual([still.id, still.account], [gaspard.id, null]);
        // Once the wait is over it lets in.
        await b.page.waitForTimeout(4100);
        await submitDialog(b, 'login', {password: 'paddies under the moon'});
        await b.page.waitForSelector('#login-dialog', {state: 'detached'});
        await b.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.conn.account?.username === 'eve.e');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: the logged-in devices are listed, this one first and marked, in Japanese; logging out the other device makes it a guest', fn: async () => {
      const a = await newPlayer(env, 'Hana', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Ivo', {lang: 'ja'});
      const players = [a, b];
      try {
        const hana = (await whoAmI(a)).id;
        await claimAccount(a, 'hana.h', 'rice under the rain');
        await logIn(b, 'hana.h', 'rice under the rain');
        await openDialog(b, '#account-sessions', 'sessions');
        const rows = b.page.locator('#sessions-list .session');
        await rows.nth(1).waitFor();
        assert.equal(await rows.count(), 2);
        assert.match(await b.page.locator('#sessions-status').textContent(), /2台の端末がログインしています/);
        const mine = b.page.locator('#sessions-list .session:has(.session-current)');
        assert.equal(await mine.count(), 1);
        assert.equal(await rows.first().locator('.session-current').count(), 1, 'this device first');
        // This device is in use now: said once, not as a time ("最終利用 利用中" read as nonsense).
        assert.match(await mine.textContent(), /ログイン .+・利用中/);
        assert.doesNotMatch(await mine.textContent(), /最終利用/);
        assert.match(await mine.textContent(), /この\u2060端末/);
        assert.match(await mine.textContent(), /Chrome（Linux）/);
        assert.equal(await mine.locator('.session-end').count(), 0, 'this device ends its session with Log out');
        await axeCheck(b.page, 'the sessions dialog');
        await docShot(env, b.page, 'sessions-ja');
        // The desktop's session ends: the desktop is told and becomes a guest.
        await b.page.locator('#sessions-list .session:not(:has(.session-current)) .session-end').click();
        await b.page.waitForFunction(() => document.querySelectorAll('#sessions-list .session').length === 1);
        assert.match(await b.page.locator('#sessions-status').textContent(), /をログアウトさせました|1台の端末/);
        await waitNewGuest(a, hana, 15000);
        const after = await whoAmI(b);
        assert.equal(after.id, hana, 'this device stays logged in');
        await b.page.click('#sessions-close');
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
    {name: 'accounts: an account holder is marked beside its name in the lobby, the seats, the chat and the player page, a guest is not; a guest cannot take a name like the account\'s', fn: async () => {
      const a = await newPlayer(env, 'Mira', {viewport: DESKTOP});
      const b = await newPlayer(env, 'Nils');
      const c = await newPlayer(env, 'Carl', {lang: 'fr'});
      const players = [a, b, c];
      try {
        await claimAccount(a, 'mira.m', 'terraces of green rice');
        await closePrefs(a.page);
        const room = await createRoom(a, 'mancala-simple');
        // The lobby: Mira's room, her name marked.
        await toLobby(b);
        const item = b.page.locator(`.room[data-room="${room}"]`);
        await item.waitFor();
        assert.equal(await item.locator('.room-players .account-mark').count(), 1);
        assert.match(await item.locator('.room-players').textContent(), /Players: Mira/);
        await joinFromLobby(b, room);
        // The seats, on both pages: Mira's marked, with its words for readers and a tooltip.
        for (const p of [a, b]) {
          await p.page.waitForSelector('.seat[data-seat="1"] .seat-name');
          const mark = p.page.locator('.seat[data-seat="0"] .account-mark');
          assert.equal(await mark.count(), 1, `${p.name}: Mira's seat marked`);
          assert.equal(await mark.getAttribute('role'), 'img');
          assert.equal(await mark.getAttribute('aria-label'), 'account holder');
          assert.equal(await mark.getAttribute('title'), 'This player has an account (guests have no mark)');
          assert.equal(await p.page.locator('.seat[data-seat="1"] .account-mark').count(), 0, `${p.name}: Nils's seat not marked`);
        }
        // The chat: Mira's line marked, Nils's not.
        await say(a, 'good luck');
        await say(b, 'thanks');
        for (const p of [a, b]) {
          await chatLine(p, 'thanks').waitFor();
          assert.equal(await chatLine(p, 'good luck').locator('.account-mark').count(), 1, `${p.name}: Mira's line marked`);
          assert.equal(await chatLine(p, 'thanks').locator('.account-mark').count(), 0, `${p.name}: Nils's line not marked`);
        }
        await axeCheck(a.page, 'a room with an account holder (desktop)');
        await axeCheck(b.page, 'a room with an account holder (phone)');
        await docShot(env, a.page, 'account-mark-desktop');
        await docShot(env, b.page, 'account-mark-phone');
        // A guest taking Mira's name with a Cyrillic М is refused in its words, and stays Carl;
        // the mark's words are French there.
        await rename(c, '\u041Cira');
        await c.page.waitForFunction(() => /«\u00a0Мira\u00a0» a été refusé\u00a0: c’est celui d’un compte/.test(document.getElementById('toast').textContent));
        await c.page.waitForFunction(() => window.tanbo.conn.state === 'open');
        assert.equal(await c.page.evaluate(() => window.tanbo.conn.player.name), 'Carl');
        await c.page.goto(`${env.base}/#/room/${encodeURIComponent(room)}`);
        await c.page.waitForSelector('.seat[data-seat="0"] .account-mark');
        assert.equal(await c.page.getAttribute('.seat[data-seat="0"] .account-mark', 'aria-label'), 'titulaire d’un compte');
        // The player pages: Mira's name marked, Nils's not.
        for (const [who, marks] of [[a, 1], [b, 0]]) {
          const id = await who.page.evaluate(() => window.tanbo.conn.player.id);
          await c.page.goto(`${env.base}/#/player/${encodeURIComponent(id)}`);
          await c.page.waitForFunction((i) => window.tanbo.view?.player?.id === i, id);
          assert.equal(await c.page.locator('#player-name .account-mark').count(), marks, `${who.name}'s page`);
        }
        await closeAll(players);
      } finally {
        for (const p of players) await p.ctx.close().catch(() => {});
      }
    }},
  ];
}

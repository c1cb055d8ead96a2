// Mail in the browser, against a server of its own that sends mail through the stand-in
// tests/server/support/mailbox.sh (a sendmail-compatible program that delivers to files): the
// account panel's address (asked, waiting, confirmed by the link, removed), and a forgotten
// password by mail: the login's "Forgot your password?", the mail, its link, a new password, the
// page logged in and the account's other sessions ended. Without mail (the other tests' server),
// "Forgot your password?" leads straight to the recovery code (accounts.mjs).
import assert from 'node:assert/strict';
import {mkdtemp, readFile, readdir, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {axeCheck} from './checks.mjs';
import {startServer} from './harness.mjs';
import {DESKTOP, newPlayer, openPrefs, closeAll, submitDialog, dialogRefusal, openDialog, claimAccount,
  whoAmI, waitNewGuest, loginRefused} from './support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAILBOX = path.join(here, '..', 'server', 'support', 'mailbox.sh');

// Mail number `n` once the stand-in delivered it.
async function mailNumber(dir, n) {
  const file = path.join(dir, `${n}.eml`);
  for (let i = 0; i < 400; ++i) {
    const names = await readdir(dir);
    if (names.includes(`${n}.eml`)) return readFile(file, 'utf8');
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no mail ${n} in ${dir}`);
}

// The link a mail holds, as the reader would open it: on the test's own server.
function linkIn(mail, base) {
  const m = mail.match(/https:\/\/play\.example\.org(\/#\/[a-z-]+\/[0-9a-f]{40})\n/);
  assert.ok(m, `a link in:\n${mail}`);
  return `${base}${m[1]}`;
}

export function tests(env) {
  return [
    {name: 'accounts: mail: an address confirmed by the link sent to it; forgot password -> mail -> link -> new password -> logged in, the other sessions gone', fn: async () => {
      const box = await mkdtemp(path.join(tmpdir(), 'tanbo-web-mail-'));
      const server = await startServer({binary: env.serverBinary, webDir: env.webDir, extraArgs: [
        '--mail-command', `${MAILBOX} ${box} -t -i`, '--mail-from', 'Tanbo <tanbo@example.org>',
        '--public-url', 'https://play.example.org']});
      const local = {...env, base: server.base};
      const players = [];
      let ended = '';
      try {
        const a = await newPlayer(local, 'Ana', {viewport: DESKTOP});
        players.push(a);
        await claimAccount(a, 'ana.m', 'rice paddies at dawn');
        await openPrefs(a.page);
        await a.page.waitForSelector('#account-mail');
        assert.match(await a.page.locator('#account-mail').textContent(), /No mail address yet/);
        // An address, with the password: a link goes there, and the panel says it waits.
        await openDialog(a, '#account-mail-set', 'mail');
        await axeCheck(a.page, 'the mail address form');
        await submitDialog(a, 'mail', {mail: 'ana@example', password: 'rice paddies at dawn'});
        assert.match(await dialogRefusal(a, 'mail', 'bad_mail'), /not a mail address the server can send to/);
        await submitDialog(a, 'mail', {mail: 'Ana@Example.org'});
        await a.page.waitForSelector('#mail-dialog', {state: 'detached'});
        await a.page.waitForSelector('#account-mail-pending');
        assert.match(await a.page.locator('#account-mail-pending').textContent(), /Waiting for confirmation: ana@example\.org/);
        const confirm = await mailNumber(box, 1);
        assert.match(confirm, /^To: ana@example\.org$/m);
        // The link opens the page, which confirms the address.
        await a.page.goto(linkIn(confirm, server.base));
        await a.page.waitForFunction(() => /Mail address confirmed: ana@example\.org/.test(document.getElementById('toast').textContent));
        assert.equal(new URL(a.page.url()).hash, '#/', 'the token left the address bar');
        await openPrefs(a.page);
        await a.page.waitForFunction(() => /Mail address: ana@example\.org/.test(document.getElementById('account-mail')?.textContent ?? ''));

        // A second device, in French: the password forgotten; the login offers the mail way.
        const b = await newPlayer(local, 'Odile', {lang: 'fr'});
        players.push(b);
        await b.page.click('#sign-in');
        await b.page.waitForSelector('#login-dialog[open]');
        await b.page.click('#login-to-recover');
        await b.page.waitForSelector('#forgot-dialog[open]');
        await axeCheck(b.page, 'the forgotten password form (fr)');
        assert.match(await b.page.locator('#forgot-dialog').textContent(), /Mot de passe oublié\u202f\?/);
        await submitDialog(b, 'forgot', {login: 'ANA@example.org'});
        await b.page.waitForSelector('#forgot-dialog', {state: 'detached'});
        await b.page.waitForFunction(() => /un lien vient d’y être envoyé/.test(document.getElementById('toast').textContent));
        const reset = await mailNumber(box, 2);
        assert.match(reset, /^To: ana@example\.org$/m);
        assert.match(reset, /Bonjour ana\.m,/);
        // The link: "choose a new password"; a weak one is refused, the link still good.
        await b.page.goto(linkIn(reset, server.base));
        await b.page.waitForSelector('#reset-dialog[open]');
        await submitDialog(b, 'reset', {password: 'password123', confirm: 'password123'});
        await dialogRefusal(b, 'reset', 'weak_password');
        await submitDialog(b, 'reset', {password: 'lanterns over the paddies', confirm: 'lanterns over the paddies'});
        await b.page.waitForSelector('#reset-dialog', {state: 'detached'});
        await b.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.conn.account?.username === 'ana.m');
        await b.page.waitForFunction(() => /Bon retour sur «\u00a0ana\.m\u00a0»/.test(document.getElementById('toast').textContent));
        // Ana's first browser: its session ended; the old password no longer logs in.
        const ana = await whoAmI(b);
        await waitNewGuest(a, ana.id, 15000);
        assert.match(await loginRefused(a, 'ana.m', 'rice paddies at dawn'), /Wrong username or password/);
        // The same link again: refused in words.
        await b.page.goto(linkIn(reset, server.base));
        await b.page.waitForSelector('#reset-dialog[open]');
        await submitDialog(b, 'reset', {password: 'yet another lantern', confirm: 'yet another lantern'});
        assert.match(await dialogRefusal(b, 'reset', 'expired_link'), /Ce lien est inconnu, déjà utilisé ou expiré/);
        await b.page.click('#reset-cancel');
        // The address removed, with the password.
        await openDialog(b, '#account-mail-remove', 'mail-remove');
        await submitDialog(b, 'mail-remove', {password: 'lanterns over the paddies'});
        await b.page.waitForSelector('#mail-remove-dialog', {state: 'detached'});
        await b.page.waitForFunction(() => /Aucune adresse électronique/.test(document.getElementById('account-mail')?.textContent ?? ''));
        assert.equal((await readdir(box)).filter((f) => f.endsWith('.eml')).length, 2);
      } finally {
        await closeAll(players);
        ended = await server.stop();
        await rm(box, {recursive: true, force: true});
      }
      assert.equal(ended, 'exited with 0', 'its server, sent SIGTERM');
    }},
  ];
}

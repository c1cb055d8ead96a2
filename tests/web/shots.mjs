// The page as people see it, for a review by eye (not a test): for each language and each of the
// two screen sizes, the lobby, a refused login, an account's sessions, a room of each game
// against the computer with a chat line said (`--game none`: no room), a move being played out,
// and the end of a ranked game between two people (the loser's view, the winner's) with its
// replay at move 5 (`--end no`: not those). The pictures go to --out (default web-shots/).
//
// node tests/web/shots.mjs --server build/asan/server/tanbo-server [--web-dir web] [--out DIR]
//                          [--chromium /usr/bin/chromium] [--lang en,fr,ja] [--game tsoro,...]
//                          [--format jpeg]
// The gallery in docs/web/gallery is this script's whole output in JPEG (docs/web.md, Gallery).
import {mkdir} from 'node:fs/promises';
import path from 'node:path';
import {chromium} from 'playwright-core';
import {CHROMIUM_FLAGS, startServer} from './harness.mjs';
import {createRoom, joinFromLobby} from './support.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const VIEWPORTS = {desktop: {width: 1280, height: 800}, phone: {width: 390, height: 844}};
const LOCALES = {en: 'en-GB', fr: 'fr-FR', ja: 'ja-JP'};
const langs = opt('lang', 'en,fr,ja').split(',');
const games = opt('game', 'mancala-simple,steere-tanbo,tsoro,tanbo').split(',').filter((g) => g && g !== 'none');
const outDir = path.resolve(opt('out', 'web-shots'));
const withEnd = opt('end', 'yes') !== 'no';
const jpeg = opt('format', 'png') === 'jpeg';  // a fifth of the bytes: the gallery kept in docs/web/gallery
const password = 'rice under the rain';

const server = await startServer({binary: opt('server'), webDir: path.resolve(opt('web-dir', 'web'))});
const browser = await chromium.launch({executablePath: opt('chromium', '/usr/bin/chromium'), args: CHROMIUM_FLAGS});
await mkdir(outDir, {recursive: true});
let accounts = 0;

async function open(lang, viewport) {
  const ctx = await browser.newContext({viewport, locale: LOCALES[lang]});
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${server.base}/`);
  await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
  await page.waitForSelector('.game-card');
  // The cards' pictures come after the cards.
  await page.waitForFunction(() => document.querySelectorAll('.card-picture svg').length === document.querySelectorAll('.game-card').length);
  return {ctx, page};
}

async function prefs(page, open) {
  if ((await page.locator('#prefs').evaluate((d) => d.open)) !== open) await page.click('#prefs summary');
}

async function shot(page, name) {
  await page.screenshot(jpeg ? {path: path.join(outDir, `${name}.jpg`), type: 'jpeg', quality: 80}
    : {path: path.join(outDir, `${name}.png`)});
  console.log(name);
}

// Whichever of the two pages must decide picks its first choice on the board.
async function playOne(pages) {
  for (const page of pages) {
    const mine = await page.evaluate(() => { const v = window.tanbo.view; return !!(v.msg?.legal && v.myDecision()); });
    if (!mine) continue;
    const v = await page.evaluate(() => window.tanbo.view.msg.version);
    await page.locator('#board .pick').first().click();
    await page.waitForFunction((x) => window.tanbo.view.msg.version > x && !window.tanbo.view.animating, v);
    return true;
  }
  await pages[0].waitForTimeout(50);
  return false;
}

// A ranked game of Mancala between two people: eight moves, then the second resigns.
async function endOfGame(lang, size, viewport) {
  const a = await open(lang, viewport);
  const b = await open(lang, viewport);
  for (const p of [a, b]) await p.page.evaluate(() => localStorage.setItem('tanbo.speed', 'fast'));
  const room = await createRoom(a, 'mancala-simple', {ranked: true, options: {first: 0}});
  await joinFromLobby(b, room);
  await a.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
  for (let moves = 0; moves < 8;) if (await playOne([a.page, b.page])) ++moves;
  await b.page.click('#resign');
  await b.page.click('#resign-confirm');
  for (const p of [a, b]) await p.page.waitForSelector('#result .places');
  await b.page.waitForSelector('#result details.fair summary');
  for (const p of [a, b]) await p.page.evaluate(() => window.scrollTo(0, 0));
  await shot(b.page, `end-lost-${lang}-${size}`);
  await shot(a.page, `end-won-${lang}-${size}`);
  // Its replay, at move 5.
  await b.page.click('#open-replay');
  await b.page.waitForSelector('#replay-board svg');
  for (let i = 0; i < 5; ++i) await b.page.keyboard.press('ArrowRight');
  await b.page.waitForFunction(() => !window.tanbo.view.animating);
  await shot(b.page, `replay-${lang}-${size}`);
  await a.ctx.close();
  await b.ctx.close();
}

try {
  for (const lang of langs) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const {ctx, page} = await open(lang, viewport);
      await shot(page, `lobby-${lang}-${size}`);
      // A login refused, as the dialog says it.
      const username = `shots${++accounts}`;
      await prefs(page, true);
      await page.click('#account-login');
      await page.fill('#login-username', 'nobody');
      await page.fill('#login-password', 'not the password');
      await page.click('#login-submit');
      await page.waitForSelector('#login-problems [data-code]');
      await shot(page, `login-refused-${lang}-${size}`);
      await page.click('#login-cancel');
      await page.waitForFunction(() => window.tanbo.conn.state === 'open');
      // An account: claimed from the menu, then a second device, then the sessions.
      await prefs(page, true);
      await page.click('#account-claim');
      // A name of one's own (one per size: an account's name is reserved to it).
      await page.fill('#claim-display', {en: ['Ana', 'Ben'], fr: ['Élodie', 'Bastien'], ja: ['花子', '太郎']}[lang]?.[size === 'phone' ? 1 : 0] ?? `Ana ${accounts}`);
      await page.fill('#claim-username', username);
      await page.fill('#claim-password', password);
      await page.fill('#claim-confirm', password);
      await page.click('#claim-submit');
      await page.waitForFunction((u) => window.tanbo.conn.account?.username === u, username);
      // The recovery code, shown once: its picture, then written down.
      await page.waitForSelector('#code-dialog[open]');
      await shot(page, `recovery-code-${lang}-${size}`);
      await page.check('#code-check');
      await page.click('#code-done');
      await page.waitForSelector('#code-dialog', {state: 'detached'});
      await fetch(`${server.base}/api/login`, {method: 'POST', headers: {'content-type': 'application/json',
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Safari/604.1'},
      body: JSON.stringify({username, password})});
      await page.click('#account-sessions');
      await page.waitForSelector('#sessions-list .session:nth-child(2)');
      await shot(page, `sessions-${lang}-${size}`);
      await page.click('#sessions-close');
      await prefs(page, false);
      for (const game of games) {
        await page.goto(`${server.base}/#/`);
        await page.waitForSelector('.game-card');
        await page.click(`[data-play="${game}"]`);  // nobody waits here: the computer at once
        if (await page.locator('#level-ok').count()) await page.click('#level-ok');
        await page.waitForFunction(() => window.tanbo.view?.msg?.status === 'playing');
        await page.waitForSelector('#chat-toggle');
        if ((await page.getAttribute('#chat-toggle', 'aria-expanded')) !== 'true') await page.click('#chat-toggle');
        await page.fill('#chat-input', lang === 'ja' ? 'よろしくお願いします' : lang === 'fr' ? 'Bonne partie !' : 'Good luck!');
        await page.press('#chat-input', 'Enter');
        // The room as a player sees it, not with the field this script typed in focused.
        await page.locator('#chat-input').blur();
        await page.waitForTimeout(1500);  // the computer's first moves, the line said
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, `${game}-${lang}-${size}`);
        if (game === 'mancala-simple') {
          // A move being played out: slow, caught halfway.
          await page.evaluate(() => localStorage.setItem('tanbo.speed', 'slow'));
          await page.waitForFunction(() => window.tanbo.view.myDecision() || window.tanbo.view.msg.status !== 'playing');
          if (await page.evaluate(() => window.tanbo.view.myDecision())) {
            await page.locator('#board .pick').first().click();
            await page.waitForFunction(() => window.tanbo.view.motion.playing);
            await page.waitForTimeout(500);
            await shot(page, `moving-${lang}-${size}`);
          }
          await page.evaluate(() => localStorage.setItem('tanbo.speed', 'normal'));
        }
      }
      await ctx.close();
      if (withEnd) await endOfGame(lang, size, viewport);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

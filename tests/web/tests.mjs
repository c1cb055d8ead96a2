// The browser tests: everything is done by clicking in the page, as a person would; the page's
// own state (window.tanbo) is only read, to know when the server's answer has arrived and an
// animation has finished.
import assert from 'node:assert/strict';
import {copyFile, readFile} from 'node:fs/promises';
import path from 'node:path';
import {axeCheck, smallTargets, someInView, clientSize} from './checks.mjs';
import {catalogueProblems} from './catalogue.mjs';

const PHONE = {width: 390, height: 844};
const DESKTOP = {width: 1280, height: 800};
const LOCALES = {en: 'en-GB', fr: 'fr-FR', ja: 'ja-JP'};
const GAMES = ['mancala-simple', 'steere-tanbo', 'tsoro', 'tanbo'];

// The tests in groups that ctest runs apart (tests/CMakeLists.txt), each with a server and a
// browser of its own, so that no one run comes near its time limit: a test belongs to the group
// whose prefix its name starts with. run.mjs fails a test that is in no group.
export const GROUPS = {
  site: ['catalogues:', 'size:', 'lobby:', 'names:', 'rules:', 'ratings:'],
  accounts: ['accounts:'],
  social: ['play now', 'challenges:', 'chat:'],
  // replay: reads the game the full mancala-simple game leaves, before it in this group.
  games: ['mancala-simple:', 'replay:', 'steere-tanbo:', 'tsoro:', 'tanbo:', 'animation:', 'absences:'],
  clocks: ['time controls:'],
  'play-mancala-steere': ['play: mancala-simple', 'play: steere-tanbo'],
  'play-tsoro-tanbo': ['play: tsoro', 'play: tanbo'],
};
export const inGroup = (name, group) => GROUPS[group].some((prefix) => name.startsWith(prefix));

// Collects in window.tanboCsp what the Content-Security-Policy refused on the page, from the
// document's first moment (an init script is the browser's, outside the policy).
async function watchCsp(page) {
  await page.addInitScript(() => {
    window.tanboCsp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.tanboCsp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
}

// A new browser context: its language is the browser's (navigator.languages), the name and the
// animation speed are set through the header's settings.
async function newPlayer(env, name, {viewport = PHONE, lang = 'en', speed = 'fast', reducedMotion} = {}) {
  const ctx = await env.browser.newContext({viewport, locale: LOCALES[lang], reducedMotion});
  const page = await ctx.newPage();
  page.setDefaultTimeout(10000);
  const errors = [];
  page.on('pageerror', (e) => { errors.push(e.message); console.log(`     [${name}] page error: ${e.stack || e.message}`); });
  page.on('console', (m) => { if (m.type() === 'warning' && m.text().startsWith('i18n')) errors.push(m.text()); });
  // The page runs under the server's Content-Security-Policy: anything it refuses is an error.
  page.on('console', (m) => { if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text()); });
  await watchCsp(page);
  await page.goto(`${env.base}/`);
  await page.waitForFunction(() => window.tanbo?.conn?.state === 'open' && window.tanbo.registry);
  await rename({page}, name);
  await page.waitForFunction((n) => window.tanbo.conn.player?.name === n && window.tanbo.conn.state === 'open', name);
  await setSpeed({page}, speed);
  await page.waitForSelector('.game-card');
  return {ctx, page, errors, name};
}

async function openPrefs(page) {
  if (!(await page.locator('#prefs').evaluate((d) => d.open))) await page.click('#prefs summary');
}
async function closePrefs(page) {
  if (await page.locator('#prefs').evaluate((d) => d.open)) await page.click('#prefs summary');
}
async function rename(p, name) {
  await openPrefs(p.page);
  await p.page.fill('#name-input', name);
  await p.page.click('.name-form button');
  await p.page.waitForFunction(() => window.tanbo.conn.state === 'open');
  await closePrefs(p.page);
}
async function setSpeed(p, speed) {
  await openPrefs(p.page);
  await p.page.selectOption('#speed', speed);
  await closePrefs(p.page);
}

async function closeAll(players) {
  for (const p of players) {
    assert.deepEqual(p.errors, [], `${p.name}: errors in the page`);
    await p.ctx.close();
  }
}

async function toLobby(p) {
  if (!(await p.page.locator('.game-card').count())) {
    await p.page.goto(`${new URL(p.page.url()).origin}/#/`);
    await p.page.waitForSelector('.game-card');
  }
}

// Fills the "Custom game" form (game, players, options, CPU seats, the time control) and submits
// it; returns the room id. `clock` is a standard clock's button ("3+2") or {base, unit, increment};
// `days` a correspondence's days per move.
async function createRoom(p, game, {seats, options = {}, cpu = {}, timer, clock, days, setup, ranked} = {}) {
  const page = p.page;
  await toLobby(p);
  await page.click(`[data-custom="${game}"]`);
  await page.waitForSelector('#create-form');
  if (seats) await page.selectOption('#create-seats', String(seats));
  for (const [name, value] of Object.entries(options)) {
    const sel = `#opt-${name}`;
    const tag = await page.locator(sel).evaluate((el) => el.tagName + ':' + el.type);
    if (tag === 'INPUT:checkbox') await page.setChecked(sel, value);
    else if (tag.startsWith('SELECT')) await page.selectOption(sel, JSON.stringify(value));
    else await page.fill(sel, String(value));
  }
  for (const [seat, level] of Object.entries(cpu)) await page.selectOption(`#cpu-${seat}`, level);
  if (timer) await page.selectOption('#create-timer', String(timer));
  if (clock) {
    await page.selectOption('#create-timer', 'clock');
    if (typeof clock === 'string') {
      await page.click(`[data-clock-preset="${clock}"]`);
    } else {
      await page.selectOption('#create-clock-unit', clock.unit || 'min');
      await page.fill('#create-clock-base', String(clock.base));
      await page.fill('#create-clock-increment', String(clock.increment));
    }
  }
  if (days) {
    await page.selectOption('#create-timer', 'correspondence');
    await page.selectOption('#create-days', String(days));
  }
  if (ranked) await page.setChecked('#create-ranked', true);
  if (setup) {
    await page.click('details.setup summary');
    await page.fill('#create-setup', JSON.stringify(setup));
  }
  await page.click('#create-form button[type=submit]');
  await page.waitForFunction(() => window.tanbo.view?.msg?.room);
  return page.evaluate(() => window.tanbo.view.msg.room);
}

// "Play the computer" on a game's card: the first time, the level is chosen in a dialog.
async function playComputer(p, game, level = 'random') {
  await toLobby(p);
  await p.page.click(`[data-play-cpu="${game}"]`);
  if (await p.page.locator('#level-ok').count()) {
    await p.page.check(`.level-dialog input[value="${level}"]`);
    await p.page.click('#level-ok');
  }
  await p.page.waitForFunction(() => window.tanbo.view?.msg?.status === 'playing');
  return p.page.evaluate(() => window.tanbo.view.msg.room);
}

async function joinFromLobby(p, room) {
  const page = p.page;
  await toLobby(p);
  await page.waitForSelector(`[data-join="${room}"]`);
  await page.click(`[data-join="${room}"]`);
  await page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat !== null, room);
}

// "Play now" on a game's card, after setting its terms beside the button (remembered).
async function playNow(p, game, {timer, ranked, players, cpu, keyboard} = {}) {
  const page = p.page;
  await toLobby(p);
  if (timer !== undefined) await page.selectOption(`[data-seek-timer="${game}"]`, String(timer));
  if (ranked !== undefined) await page.setChecked(`[data-seek-ranked="${game}"]`, ranked);
  if (players !== undefined) await page.selectOption(`[data-seek-players="${game}"]`, String(players));
  if (cpu !== undefined) await page.setChecked(`[data-seek-cpu="${game}"]`, cpu);
  if (keyboard) {
    await page.focus(`[data-play-now="${game}"]`);
    await page.keyboard.press('Enter');
  } else {
    await page.click(`[data-play-now="${game}"]`);
  }
}

// The waiting panel is up, for `game`.
async function waitSeeking(p, game) {
  await p.page.waitForSelector(`#seek-panel[data-game="${game}"]`);
}

// In a room, seated, its game started: returns the room and the seat.
async function waitSeated(p, timeout = 10000) {
  await p.page.waitForFunction(() => {
    const v = window.tanbo.view;
    return v?.msg?.status === 'playing' && v.seat !== null && location.hash === `#/room/${encodeURIComponent(v.room)}`;
  }, null, {timeout});
  return p.page.evaluate(() => ({room: window.tanbo.view.room, seat: window.tanbo.view.seat}));
}

// The lobby card's count of `game`'s pools: the sum of their waiting counts.
async function poolCount(p, game) {
  return p.page.$$eval(`[data-pools="${game}"] li[data-waiting]`, (els) => els.reduce((n, el) => n + Number(el.dataset.waiting), 0));
}

const playerId = (p) => p.page.evaluate(() => window.tanbo.conn.player.id);

// A room as the server lists it (GET /api/rooms).
async function listed(env, room) {
  const {rooms} = await (await fetch(`${env.base}/api/rooms`)).json();
  return rooms.find((r) => r.room === room);
}

// Accounts, through the Account part of the header's drop-down (web/account.js). Who the page
// is, as it knows it: the identity of the last welcome, its account, the saved token and the
// username saved beside it.
const whoAmI = (p) => p.page.evaluate(() => ({id: window.tanbo.conn.player?.id, name: window.tanbo.conn.player?.name,
  account: window.tanbo.conn.account?.username ?? null, token: localStorage.getItem('tanbo.token'),
  saved: localStorage.getItem('tanbo.account'), open: window.tanbo.conn.state === 'open'}));

// Fills a dialog's fields (`{password: 'x'}` fills #<id>-password) and submits it.
async function submitDialog(p, id, values) {
  for (const [k, v] of Object.entries(values)) await p.page.fill(`#${id}-${k}`, v);
  await p.page.click(`#${id}-submit`);
}
// The dialog's refusal: waits for it (the code the page gave it) and returns its words.
async function dialogRefusal(p, id, code) {
  const why = p.page.locator(`#${id}-problems [data-code="${code}"]`);
  await why.waitFor();
  return p.page.locator(`#${id}-problems`).textContent();
}
async function openDialog(p, button, id) {
  await openPrefs(p.page);
  await p.page.click(button);
  await p.page.waitForSelector(`#${id}-dialog[open]`);
}
async function claimAccount(p, username, password) {
  await openDialog(p, '#account-claim', 'claim');
  await submitDialog(p, 'claim', {username, password, confirm: password});
  await p.page.waitForSelector('#claim-dialog', {state: 'detached'});
  await p.page.waitForFunction((u) => window.tanbo.conn.account?.username === u, username);
}
// Logs in from the Log in dialog; the page is then the account's player.
async function logIn(p, username, password) {
  await openDialog(p, '#account-login', 'login');
  await submitDialog(p, 'login', {username, password});
  await p.page.waitForSelector('#login-dialog', {state: 'detached'});
  await p.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.conn.account);
}
// A login refused: the dialog says why; the connection says hello again as the guest it was.
async function loginRefused(p, username, password, code = 'bad_login') {
  await openDialog(p, '#account-login', 'login');
  await submitDialog(p, 'login', {username, password});
  const text = await dialogRefusal(p, 'login', code);
  await p.page.click('#login-cancel');
  await p.page.waitForFunction(() => window.tanbo.conn.state === 'open');
  return text;
}
// After a logout or a deletion: a new guest, welcomed.
async function waitNewGuest(p, old, timeout = 10000) {
  await p.page.waitForFunction((id) => window.tanbo.conn.state === 'open' && window.tanbo.conn.player?.id !== id && !window.tanbo.conn.account, old, {timeout});
}
// GET /api/me/export with a token: the server's status and error code.
const reEscape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
async function exportAs(env, token) {
  const res = await fetch(`${env.base}/api/me/export`, {headers: {authorization: `Bearer ${token}`}});
  const body = await res.json().catch(() => null);
  return {status: res.status, code: body?.error?.code ?? null, body};
}

// A game clock's figure on a seat ("3:00", "0:09.4"), in ms; and whether it is the running one.
function clockMs(text) {
  const m = /(?:(\d+):)?(\d+):(\d{2})(?:\.(\d))?/.exec(text);
  assert.ok(m, `no clock figure in "${text}"`);
  return ((Number(m[1] || 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4] || 0) * 100;
}
const seatClock = (p, seat) => p.page.locator(`.seat[data-seat="${seat}"] [data-clock-seat="${seat}"]`);
async function readClocks(p, n) {
  const out = [];
  for (let seat = 0; seat < n; ++seat) {
    const el = seatClock(p, seat);
    out.push({ms: clockMs(await el.locator('.clock-text').textContent()), running: await el.evaluate((e) => e.classList.contains('running'))});
  }
  return out;
}
// Two readings a second and a half apart: the running seat's time goes down, the others' stay.
async function clocksTick(p, running, what) {
  await seatClock(p, 0).locator('.clock-text:not(:empty)').waitFor();
  const first = await readClocks(p, 2);
  await p.page.waitForTimeout(1500);
  const second = await readClocks(p, 2);
  for (let seat = 0; seat < 2; ++seat) {
    assert.equal(first[seat].running, seat === running, `${what}: seat ${seat} running`);
    if (seat === running) assert.ok(second[seat].ms < first[seat].ms - 500, `${what}: the running clock went ${first[seat].ms} -> ${second[seat].ms}`);
    else assert.equal(second[seat].ms, first[seat].ms, `${what}: a stopped clock moved`);
  }
  return second;
}

// The challenge form, opened from a button: the game, then its terms; sent.
async function sendChallenge(p, opener, {game, options = {}, timer} = {}) {
  const page = p.page;
  await page.click(opener);
  await page.waitForSelector('#challenge-form');
  if (game) await page.selectOption('#challenge-game', game);
  if (Object.keys(options).length) {
    await page.click('.challenge-options summary');
    for (const [name, value] of Object.entries(options)) await page.selectOption(`#challenge-opt-${name}`, JSON.stringify(value));
  }
  if (timer) await page.selectOption('#challenge-timer', String(timer));
  await page.click('#challenge-send');
}

// The chat panel: unfolded (on a phone it starts folded).
async function openChat(p) {
  await p.page.waitForSelector('#chat-toggle');
  if ((await p.page.getAttribute('#chat-toggle', 'aria-expanded')) !== 'true') await p.page.click('#chat-toggle');
  await p.page.waitForSelector('#chat-input');
}

// Types a line in the chat's text box and sends it with Enter.
// Waits for what the page shows once a request is answered, failing with `message`: a line
// said shows on its `said`, which comes before the `ok` that empties the box or clears an error.
async function shows(wait, message) {
  await wait.catch((e) => assert.fail(`${message} (${e.message.split('\n')[0]})`));
}

async function say(p, text) {
  await openChat(p);
  await p.page.fill('#chat-input', text);
  await p.page.press('#chat-input', 'Enter');
}

// The chat line on screen holding `text` (a locator), and every line as the reader sees it.
const chatLine = (p, text) => p.page.locator('#chat-lines .chat-line', {hasText: text});
function chatLines(p) {
  return p.page.$$eval('#chat-lines .chat-line', (els) => els.map((el) => ({
    channel: el.dataset.channel, n: Number(el.dataset.n), from: el.querySelector('.chat-name').textContent,
    text: el.querySelector('.chat-text').textContent, phrase: el.querySelector('.chat-text').dataset.phrase ?? null})));
}
// The lines the page holds (read from window.tanbo): what the server sent, shown or not.
const heldLines = (p) => p.page.evaluate(() => window.tanbo.view.chat.lines.map((l) => ({from: l.from.name, text: l.text ?? null, phrase: l.phrase ?? null})));

// The operators' API of the test server (docs/operations.md, "Moderation").
async function admin(env, method, url) {
  const res = await fetch(`${env.base}/api/admin/${url}`, {method, headers: {authorization: `Bearer ${env.adminToken}`}});
  assert.ok(res.ok, `admin ${method} ${url}: ${res.status}`);
  return res.json();
}

// The visible controls under `scope` smaller than 44 x 44 CSS pixels: buttons, fields, summaries,
// and a checkbox's label (the checkbox is the label's to tap).
function smallControls(page, scope) {
  return page.$$eval(`${scope} :is(button, select, input:not([type=checkbox]):not([type=hidden]), textarea, summary, a), ${scope} input[type=checkbox]`, (els) => els.map((el) => {
    const target = el.type === 'checkbox' ? (el.labels?.[0] || el) : el;
    const r = target.getBoundingClientRect();
    return {w: Math.round(r.width), h: Math.round(r.height), what: `${el.tagName.toLowerCase()}#${el.id} ${(target.textContent || '').trim().slice(0, 30)}`};
  }).filter((r) => r.w > 0 && r.h > 0 && (r.w < 44 || r.h < 44)));
}

function viewInfo(page) {
  return page.evaluate(() => {
    const v = window.tanbo.view;
    const m = v?.msg;
    if (!m) return null;
    return {version: m.version, status: m.status, decision: m.pending?.decision ?? null,
            mine: !!(m.pending && v.seat === m.pending.seat && m.legal && v.sent !== m.version && !v.animating)};
  });
}

const waitMine = (page, timeout = 15000) => page.waitForFunction(() => {
  const v = window.tanbo.view, m = v?.msg;
  return m && (m.status === 'finished' || (m.pending && m.pending.seat === v.seat && m.legal && v.sent !== m.version && !v.animating));
}, null, {timeout});

// Clicks one of the offered choices at random: a highlighted board element or a control button
// (a swap takes two clicks).
async function clickDecision(page) {
  const choices = page.locator('#board .pick, #controls [data-action], #controls [data-swap-first]');
  const n = await choices.count();
  if (n === 0) {
    const why = await page.evaluate(() => JSON.stringify({pending: window.tanbo.view.msg.pending, legal: window.tanbo.view.msg.legal}));
    assert.fail(`no control for the pending decision: ${why}`);
  }
  const pick = choices.nth(Math.floor(Math.random() * n));
  const swapFirst = await pick.getAttribute('data-swap-first');
  await pick.click();
  if (swapFirst !== null) {
    const second = page.locator('#controls [data-swap-second]');
    await second.first().waitFor();
    await second.nth(Math.floor(Math.random() * (await second.count()))).click();
  }
}

// One decision by whichever page must decide; returns its kind, or null when nobody was to
// decide yet (a state still on its way).
async function playStep(players) {
  for (const p of players) {
    const info = await viewInfo(p.page);
    if (!info?.mine) continue;
    await clickDecision(p.page);
    await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version, {timeout: 10000});
    return info.decision;
  }
  await players[0].page.waitForTimeout(30);
  return null;
}

async function clickWhenMine(p, selector, timeout = 10000) {
  await waitMine(p.page, timeout);
  const info = await viewInfo(p.page);
  await p.page.locator(selector).first().click();
  await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version, {timeout});
  return info.decision;
}

async function status(p) { return (await viewInfo(p.page))?.status; }

async function rematchAll(players) {
  for (const p of players) if (await p.page.locator('#rematch:not([disabled])').count()) await p.page.click('#rematch');
  await players[0].page.waitForFunction(() => window.tanbo.view.msg.status === 'playing', null, {timeout: 10000});
}

// Plays by clicking until every kind in `kinds` was decided by a click (rematching when a game
// ends first) or `maxSteps` decisions were made; returns the kinds seen.
async function playForKinds(players, kinds, maxSteps) {
  const seen = new Set();
  for (let steps = 0; steps < maxSteps && !kinds.every((k) => seen.has(k));) {
    if ((await status(players[0])) === 'finished') { await rematchAll(players); continue; }
    const kind = await playStep(players);
    if (kind) { seen.add(kind); steps++; }
  }
  return seen;
}

async function shot(env, p, name) {
  await p.page.locator('#board').screenshot({path: path.join(env.outDir, `${name}.png`)});
  await p.page.screenshot({path: path.join(env.outDir, `${name}-page.png`), fullPage: true});
}

// A picture for docs/web (when the run was given --docs): the viewport as a player sees it.
async function docShot(env, page, name) {
  const file = path.join(env.outDir, `doc-${name}.png`);
  await page.screenshot({path: file});
  if (env.docsDir) await copyFile(file, path.join(env.docsDir, `${name}.png`));
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

  // One game of `game` against the computer, in `lang` at `viewport`: a few decisions by
  // clicking (one by the keyboard), each with its controls in view and its targets finger-sized
  // on a phone; axe on the room; a screenshot for docs/web in English.
  async function playEverywhere(game, lang, viewport, label) {
    const p = await newPlayer(env, lang === 'ja' ? '花子' : lang === 'fr' ? 'Élodie' : 'Ana', {viewport, lang});
    assert.equal(await p.page.evaluate(() => document.documentElement.lang), lang);
    await playComputer(p, game);
    await p.page.waitForSelector('#board svg');
    const phone = viewport.width < 500;
    let keyboard = false, decisions = 0;
    for (let i = 0; i < 40 && decisions < 6; ++i) {
      await waitMine(p.page);
      if ((await status(p)) === 'finished') { await rematchAll([p]); continue; }
      await p.page.evaluate(() => window.scrollTo(0, 0));
      const info = await viewInfo(p.page);
      if (phone) {
        assert.deepEqual(await smallTargets(p.page), [], `${game} ${lang}: board targets under 44 px`);
        assert.ok(await someInView(p.page, '#board .pick, #controls button'), `${game} ${lang} ${info.decision}: no control in view without scrolling`);
      }
      if (!keyboard && (await p.page.locator('#board .pick, #controls button').count())) {
        // The keyboard: focus is on the first control when a decision arrives; Enter plays it.
        const focused = await p.page.evaluate(() => document.activeElement?.matches?.('.pick [role=button], #controls button'));
        if (focused) {
          await p.page.keyboard.press('Enter');
          await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
          keyboard = true;
          decisions++;
          continue;
        }
      }
      await clickDecision(p.page);
      await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      decisions++;
    }
    assert.ok(decisions >= 3, `${game} ${lang}: only ${decisions} decisions made`);
    assert.ok(keyboard, `${game} ${lang}: no decision made by the keyboard`);
    await waitMine(p.page);
    await p.page.waitForTimeout(100);  // the page scrolls the board into view on a phone
    if (lang === 'en') await docShot(env, p.page, `${game}-${label}`);
    await p.page.evaluate(() => window.scrollTo(0, 0));
    // The log names the computer's seat as the seats do: one name per computer seat.
    const cpuName = await p.page.locator('.seat[data-seat="1"] .seat-name').textContent();
    assert.ok((await p.page.locator('#log').textContent()).includes(cpuName), `${game} ${lang}: log without "${cpuName}"`);
    // The last move is marked whenever the last step moved something (not after a bare start).
    const moved = await p.page.evaluate(() => window.tanbo.view.msg.events.some((e) => ['sow', 'place', 'pick_up', 'capture', 'bonus'].includes(e.type)));
    if (moved) assert.ok((await p.page.locator('#board .mark, #board .last-dot').count()) > 0, `${game}: no last move marked`);
    await axeCheck(p.page, `${game} room (${lang}, ${viewport.width} px)`);
    await closeAll([p]);
  }

  const everywhere = [];
  for (const game of GAMES)
    for (const lang of ['en', 'fr', 'ja'])
      for (const [label, vp] of [['desktop', DESKTOP], ['phone', PHONE]])
        everywhere.push({name: `play: ${game} against the computer in ${lang} at ${vp.width}x${vp.height}`, fn: () => playEverywhere(game, lang, vp, label)});

  return [
    {name: 'catalogues: every key in every language, no extra key, plural forms and placeholders agree', fn: async () => {
      const problems = await catalogueProblems(env.webDir);
      assert.deepEqual(problems, []);
    }},
    {name: 'size: the whole client compressed', fn: async () => {
      const size = await clientSize(env.webDir);
      console.log(`     client: ${size.files} files, ${(size.raw / 1024).toFixed(1)} KiB, gzip -9 ${(size.gz / 1024).toFixed(1)} KiB`);
      assert.ok(size.gz < 200 * 1024, `${size.gz} bytes compressed`);
    }},
    {name: 'lobby: first render, each language, rooms in view at both sizes, language and sound remembered', fn: async () => {
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
        assert.ok(await someInView(p.page, '#open-h'), `open rooms heading in view at ${label}`);
        assert.ok(await someInView(p.page, `#open-rooms [data-room="${open}"] .room-main`), `open room in view at ${label}`);
        assert.ok(await someInView(p.page, `#live-rooms [data-room="${live}"] .room-main`), `live match in view at ${label}`);
        assert.match(await p.page.locator(`#open-rooms [data-room="${open}"]`).textContent(), /Ben, Seat 2 \(free\)/);
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
        await p.page.click(`[data-custom="${game}"]`);
        assert.equal(await p.page.locator('#create-setup').count(), offered, `set-up field for ${game}`);
      }
      // Option labels in players' words: no ruling ids such as "(M1)".
      assert.doesNotMatch(await p.page.locator('#custom').textContent(), /\([A-Z]\d\)/);
      await closeAll([p, b, c]);
    }},
    {name: 'names: an apostrophe is a name; a refused one is shown with the reason (in each language) and the old name stays', fn: async () => {
      const a = await newPlayer(env, "D'Artagnan");
      await openPrefs(a.page);
      assert.equal(await a.page.locator('#name-input').getAttribute('maxlength'), '24');
      await closePrefs(a.page);
      await rename(a, 'Ana <3');
      await a.page.waitForSelector('#toast:not([hidden])');
      assert.match(await a.page.locator('#toast').textContent(), /"Ana <3" was refused: a name is 1 to 24 letters/);
      await a.page.waitForFunction(() => window.tanbo.conn.state === 'open');
      assert.equal(await a.page.evaluate(() => window.tanbo.conn.player.name), "D'Artagnan");
      await a.page.selectOption('#lang', 'fr');
      await rename(a, 'Ana <3');
      await a.page.waitForFunction(() => /« Ana <3 » a été refusé : un nom compte de 1 à 24/.test(document.getElementById('toast').textContent));
      assert.equal(await a.page.evaluate(() => window.tanbo.conn.player.name), "D'Artagnan");
      await closeAll([a]);
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
        assert.match(await dialogRefusal(a, 'claim', 'bad_name'), /That username is not allowed: a name is 1 to 24 letters/);
        assert.equal((await whoAmI(a)).account, null);
        await axeCheck(a.page, 'the claim form (phone)');
        assert.deepEqual(await smallControls(a.page, '#claim-dialog'), [], 'claim form controls under 44 px on a phone');
        await submitDialog(a, 'claim', {username: 'Ana.Plays'});
        await a.page.waitForSelector('#claim-dialog', {state: 'detached'});
        // The same identity and token, now an account: the header shows its username.
        await a.page.waitForSelector('#me-account');
        assert.match(await a.page.locator('#me-account').textContent(), /Ana\.Plays/);
        assert.equal(await a.page.locator('#me .me-name').textContent(), 'Ana');
        const claimed = await whoAmI(a);
        assert.deepEqual([claimed.id, claimed.token, claimed.account, claimed.saved], [before.id, before.token, 'Ana.Plays', 'Ana.Plays']);
        assert.match(await a.page.locator('#account-user').textContent(), /Your account: Ana\.Plays/);
        assert.match(await a.page.locator('#account-notice').textContent(), /Account Ana\.Plays created/);
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
        assert.match(await b.page.locator('#account-notice').textContent(), /Connecté au compte Ana\.Plays : vous jouez sous le nom Ana/);
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
        assert.match(await b.page.locator('#account-notice').textContent(), new RegExp(`ログアウトしました。このブラウザーは新しいゲスト（${reEscape(guest.name)}）として遊びます`));
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
        assert.match(await b.page.locator('#account-notice').textContent(), new RegExp(`「rolf\\.r」からログアウトされました.*いまは新しいゲスト（${reEscape(after.name)}）です`));
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
        assert.match(await a.page.locator('#account-notice').textContent(), new RegExp(`Account deleted\\. This browser now plays as a new guest, ${reEscape(guest.name)}`));
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
        assert.match(await mine.textContent(), /最終利用 利用中/);
        assert.match(await mine.textContent(), /この端末/);
        assert.match(await mine.textContent(), /Linux の Chrome/);
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
        await c.page.waitForFunction(() => /« Мira » a été refusé : c’est celui d’un compte/.test(document.getElementById('toast').textContent));
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
        assert.match(await panel.locator('.seek-terms').textContent(), /Tsoro · 2 players · 60 s per move · unranked · standard rules/);
        await a.page.waitForFunction(() => /Waiting for 0:0[1-9]/.test(document.getElementById('seek-time').textContent));
        await a.page.waitForSelector('#seek-pool[data-waiting="1"]');
        assert.match(await panel.locator('#seek-pool').textContent(), /only one waiting/);
        assert.equal(await a.page.locator('#seek-offer').isHidden(), true, 'the computer is offered only after a while');
        // Ben's lobby shows her in Tsoro's pool, live.
        await b.page.waitForFunction(() => document.querySelector('[data-pools="tsoro"] li[data-waiting="1"]'));
        assert.match(await b.page.locator('[data-pools="tsoro"]').textContent(), /2 players · 60 s per move · unranked · standard rules: 1 waiting/);
        assert.match(await a.page.locator('[data-pools="tsoro"]').textContent(), /1 waiting \(you\)/);
        // A dropped connection loses the seek on the server: the page seeks again on its own.
        const before = await a.page.locator('#seek-panel').getAttribute('data-seek');
        await a.page.evaluate(() => window.tanbo.conn.ws.close());
        await a.page.waitForFunction((s) => window.tanbo.conn.state === 'open' && document.querySelector('#seek-panel')?.dataset.seek !== s, before);
        await a.page.waitForSelector('#seek-pool[data-waiting="1"]');
        await b.page.waitForFunction(() => document.querySelector('[data-pools="tsoro"] li[data-waiting="1"]'));
        await axeCheck(a.page, 'lobby with the waiting panel');
        await a.page.evaluate(() => window.scrollTo(0, 0));
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
        assert.match(await card.locator('.challenge-terms').textContent(), /Tsoro · 2 players · no time limit · unranked · Holes per row: 6/);
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
        await b.page.selectOption('#lang', 'fr');
        await b.page.goto(`${env.base}/#/player/${cid}`);
        await sendChallenge(b, '#challenge-player');
        await b.page.waitForSelector('#challenge-form .problems p');
        assert.match(await b.page.locator('#challenge-form .problems').textContent(), /Le défi n’a pas pu être envoyé : ce joueur n’est pas connecté en ce moment/);
        await b.page.click('#challenge-close');
        await b.page.selectOption('#lang', 'en');
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
            const join = b.page.locator('[data-pools="steere-tanbo"] li[data-waiting="1"] button');
            await join.waitFor();
            assert.match(await join.getAttribute('aria-label'), /Rejoindre les joueurs en attente : 2 joueurs · sans limite de temps · amicale · règles standard/);
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
        assert.match(await b.page.locator('#chat-unread').textContent(), /1 nouveau/);
        await openChat(b);
        await chatLine(b, 'Hello Ben, have a good game').waitFor();
        assert.deepEqual((await chatLines(b)).map((l) => [l.from, l.text]), [['Ana', 'Hello Ben, have a good game']]);
        assert.match(await b.page.locator('#chat-public').textContent(), /^Discussion publiée en fin de partie\.$/);
        // A phrase is the reader's: Ben sends "Bonne chance !", Ana reads "Good luck!".
        assert.match(await b.page.locator('#chat-phrases [data-phrase="good_luck"]').textContent(), /Bonne chance !/);
        await b.page.click('#chat-phrases [data-phrase="good_luck"]');
        await a.page.waitForSelector('#chat-lines .chat-text[data-phrase="good_luck"]');
        assert.equal(await a.page.locator('#chat-lines .chat-text[data-phrase="good_luck"]').textContent(), 'Good luck!');
        await b.page.waitForSelector('#chat-lines .chat-text[data-phrase="good_luck"]');
        assert.equal(await b.page.locator('#chat-lines .chat-text[data-phrase="good_luck"]').textContent(), 'Bonne chance !');
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
        for (let i = 1; i <= 8 && !(await b.page.locator('#chat-error:not([hidden])').count()); ++i) await say(b, `ligne ${i}`);
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
        await b.page.selectOption('#lang', 'en');
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
          assert.match(await p.page.locator('#chat-reads').textContent(), /players’ chat and the spectators’/);
          assert.match(await chatLine(p, 'いい序盤ですね').locator('.chat-tag').textContent(), /spectator/);
          await chatLine(p, 'Good luck').waitFor();
        }
        assert.equal(await c.page.locator('#chat-lines [data-channel="players"]').count(), 0, 'the spectator reads only the spectators');
        await axeCheck(c.page, 'the room with the spectators\' chat (ja)');
        // A room created with the spectators' chat closed: the spectator is told at once.
        await a.page.goto(`${env.base}/#/`);
        await a.page.waitForSelector('.game-card');
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
      // Record what the board shows while the next states arrive: frames with a pit being sown.
      await p.page.evaluate(() => {
        window.__frames = 0;
        new MutationObserver(() => { if (document.querySelector('#board .mark.active')) window.__frames++; })
          .observe(document.getElementById('board'), {childList: true, subtree: true});
      });
      await clickDecision(p.page);
      await p.page.waitForFunction(() => window.__frames >= 2, null, {timeout: 10000});
      await waitMine(p.page, 20000);
      // Once played, the board is the server's: every hole shows the state's count.
      const same = await p.page.evaluate(() => {
        const st = window.tanbo.view.msg.state;
        return [...document.querySelectorAll('#board .pit')].every((g) =>
          Number(g.querySelector('.count').textContent) === st.seats[g.dataset.seat].holes[g.dataset.hole]);
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
      assert.match(await a.page.locator('.rating-card .rating').textContent(), /after 2 ranked games/);
      assert.equal(await a.page.locator('.rating-chart .chart-dot').count(), 3);
      assert.ok(await a.page.locator('#player-recent a[href^="#/replay/"]').count() >= 2);
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
      await p.page.click('.room-info a.rules-link');
      await p.page.waitForSelector('#rules-title');
      assert.match(await p.page.locator('#rules-title').textContent(), /Tanbo \(Mark Steere\)/);
      await closeAll([p]);
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
    {name: 'time controls: a 3+2 game clock from the form shows both clocks to a player and a spectator, the running one ticking down; the form sends each kind of timer', fn: async () => {
      const a = await newPlayer(env, 'Ana', {viewport: DESKTOP});
      const c = await newPlayer(env, 'Cid', {viewport: DESKTOP, lang: 'fr'});
      const players = [a, c];
      try {
        // The clock's fields show only for a game clock; a standard one is one click.
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
        for (const [r, words] of [[r30, /30 s per move/], [r45, /¾\+0 clock/], [r14, /14 days per move/]]) {
          await a.page.waitForSelector(`#open-rooms [data-room="${r}"]`);
          assert.match(await a.page.locator(`#open-rooms [data-room="${r}"] .room-options`).textContent(), words);
        }
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
        assert.equal(await b.page.locator('#turns-summary').textContent(), 'Your turn (1)');
        // The room: the days left to the deciding seat, and the date they end.
        const seat = b.page.locator('.seat[data-seat="1"] [data-clock-seat="1"] .clock-text');
        await seat.filter({hasText: /left/}).waitFor();
        assert.match(await seat.textContent(), /^(2 d 23 h|3 d 0 h) left$/);
        assert.match(await b.page.locator('#banner').textContent(), /(2 d 23 h|3 d 0 h) left \(due .+\)/);
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
        assert.match(await item.textContent(), /(2 d 23 h|3 d 0 h) left \(due .+\)/);
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
        assert.equal(await a.page.locator('#turns-summary').textContent(), 'あなたの手番（1）');
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
        assert.match(await a.page.locator('#seek-panel .seek-terms').textContent(), /Tsoro · 2 players · game clock: 5 min \+ 3 s per move · unranked/);
        const join = b.page.locator('[data-pools="tsoro"] li[data-waiting="1"]');
        await join.waitFor();
        assert.match(await join.textContent(), /game clock: 5 min \+ 3 s per move/);
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
        assert.match(await card.locator('.challenge-terms').textContent(), /Tsoro · 2 players · 5 days per move · unranked/);
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
    ...everywhere,
  ];
}

// What the browser tests share: a player in a browser context of its own, the page's controls
// used as a person uses them, and what the page's own state (window.tanbo) says.
import assert from 'node:assert/strict';
import {copyFile} from 'node:fs/promises';
import path from 'node:path';

export const PHONE = {width: 390, height: 844};
export const DESKTOP = {width: 1280, height: 800};
export const LOCALES = {en: 'en-GB', fr: 'fr-FR', ja: 'ja-JP'};
export const GAMES = ['mancala-simple', 'steere-tanbo', 'tsoro', 'tanbo'];


// Collects in window.tanboCsp what the Content-Security-Policy refused on the page, from the
// document's first moment (an init script is the browser's, outside the policy).
export async function watchCsp(page) {
  await page.addInitScript(() => {
    window.tanboCsp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.tanboCsp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
}

// A new browser context: its language is the browser's (navigator.languages), the name and the
// animation speed are set through the header's settings.
export async function newPlayer(env, name, {viewport = PHONE, lang = 'en', speed = 'fast', reducedMotion, touch} = {}) {
  const ctx = await env.browser.newContext({viewport, locale: LOCALES[lang], reducedMotion,
    ...(touch ? {hasTouch: true, isMobile: true} : {})});
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

export async function openPrefs(page) {
  if (!(await page.locator('#prefs').evaluate((d) => d.open))) await page.click('#prefs summary');
}
export async function closePrefs(page) {
  if (await page.locator('#prefs').evaluate((d) => d.open)) await page.click('#prefs summary');
}
// The language: the header's on a wide screen; on a phone the header has no room for it, and
// it is in the drop-down.
export async function chooseLanguage(page, lang) {
  if (await page.locator('#lang').isVisible()) {
    await page.selectOption('#lang', lang);
  } else {
    await openPrefs(page);
    await page.selectOption('#prefs-lang', lang);
    await closePrefs(page);
  }
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}
export async function rename(p, name) {
  await openPrefs(p.page);
  await p.page.fill('#name-input', name);
  await p.page.click('.name-form button');
  await p.page.waitForFunction(() => window.tanbo.conn.state === 'open');
  await closePrefs(p.page);
}
export async function setSpeed(p, speed) {
  await openPrefs(p.page);
  await p.page.selectOption('#speed', speed);
  await closePrefs(p.page);
}

export async function closeAll(players) {
  for (const p of players) {
    assert.deepEqual(p.errors, [], `${p.name}: errors in the page`);
    await p.ctx.close();
  }
}

export async function toLobby(p) {
  if (!(await p.page.locator('.game-card').count())) {
    await p.page.goto(`${new URL(p.page.url()).origin}/#/`);
    await p.page.waitForSelector('.game-card');
  }
}

// Opens a game card's "More options" (Play the computer, Play now and its terms, Custom game).
export async function openMore(page, game) {
  const toggle = page.locator(`[data-more="${game}"]`);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

// Fills the "Custom game" form (game, players, options, CPU seats, the time control) and submits
// it; returns the room id. `clock` is a standard clock's button ("3+2") or {base, unit, increment};
// `days` a correspondence's days per move.
export async function createRoom(p, game, {seats, options = {}, cpu = {}, timer, clock, days, setup, ranked} = {}) {
  const page = p.page;
  await toLobby(p);
  await openMore(page, game);
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

// "Play the computer" in a game card's "More options": the first time, the level is chosen in a
// dialog.
export async function playComputer(p, game, level = 'random') {
  await toLobby(p);
  await openMore(p.page, game);
  await p.page.click(`[data-play-cpu="${game}"]`);
  if (await p.page.locator('#level-ok').count()) {
    await p.page.check(`.level-dialog input[value="${level}"]`);
    await p.page.click('#level-ok');
  }
  await p.page.waitForFunction(() => window.tanbo.view?.msg?.status === 'playing');
  return p.page.evaluate(() => window.tanbo.view.msg.room);
}

export async function joinFromLobby(p, room) {
  const page = p.page;
  await toLobby(p);
  // The room's line as the server has it first: a join just before this one adds a name to the
  // line when it reaches this page, the line grows, and a click aimed at Join lands beside it.
  const taken = await page.evaluate(async (r) => {
    const lobby = await (await fetch('/api/rooms')).json();
    return lobby.rooms.find((x) => x.room === r)?.seats.filter((s) => s.player).length;
  }, room);
  await page.waitForFunction(([r, n]) => window.tanbo.view?.rooms?.get(r)?.seats.filter((s) => s.player).length === n, [room, taken]);
  await page.waitForSelector(`[data-join="${room}"]`);
  await page.click(`[data-join="${room}"]`);
  await page.waitForFunction((r) => window.tanbo.view?.msg?.room === r && window.tanbo.view.seat !== null, room)
    .catch(async (err) => {
      const where = await page.evaluate(() => ({hash: location.hash, toast: document.getElementById('toast')?.textContent}));
      throw new Error(`${p.name ?? 'a player'} not seated in ${room} after Join (page at ${where.hash}, toast: ${JSON.stringify(where.toast)}): ${err.message}`);
    });
}

// "Play now" in a game card's "More options", after setting its terms beside the button
// (remembered).
export async function playNow(p, game, {timer, ranked, players, cpu, keyboard} = {}) {
  const page = p.page;
  await toLobby(p);
  await openMore(page, game);
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
export async function waitSeeking(p, game) {
  await p.page.waitForSelector(`#seek-panel[data-game="${game}"]`);
}

// In a room, seated, its game started: returns the room and the seat.
export async function waitSeated(p, timeout = 10000) {
  await p.page.waitForFunction(() => {
    const v = window.tanbo.view;
    return v?.msg?.status === 'playing' && v.seat !== null && location.hash === `#/room/${encodeURIComponent(v.room)}`;
  }, null, {timeout});
  return p.page.evaluate(() => ({room: window.tanbo.view.room, seat: window.tanbo.view.seat}));
}

// The lobby card's count of `game`'s pools: the sum of their waiting counts.
export async function poolCount(p, game) {
  return p.page.$$eval(`[data-pools="${game}"] li[data-waiting]`, (els) => els.reduce((n, el) => n + Number(el.dataset.waiting), 0));
}

export const playerId = (p) => p.page.evaluate(() => window.tanbo.conn.player.id);

// A room as the server lists it (GET /api/rooms).
export async function listed(env, room) {
  const {rooms} = await (await fetch(`${env.base}/api/rooms`)).json();
  return rooms.find((r) => r.room === room);
}

// Accounts, through the Account part of the header's drop-down (web/account.js). Who the page
// is, as it knows it: the identity of the last welcome, its account, the saved token and the
// username saved beside it.
export const whoAmI = (p) => p.page.evaluate(() => ({id: window.tanbo.conn.player?.id, name: window.tanbo.conn.player?.name,
  account: window.tanbo.conn.account?.username ?? null, token: localStorage.getItem('tanbo.token'),
  saved: localStorage.getItem('tanbo.account'), open: window.tanbo.conn.state === 'open'}));

// Fills a dialog's fields (`{password: 'x'}` fills #<id>-password) and submits it.
export async function submitDialog(p, id, values) {
  for (const [k, v] of Object.entries(values)) await p.page.fill(`#${id}-${k}`, v);
  await p.page.click(`#${id}-submit`);
}
// The dialog's refusal: waits for it (the code the page gave it) and returns its words.
export async function dialogRefusal(p, id, code) {
  const why = p.page.locator(`#${id}-problems [data-code="${code}"]`);
  await why.waitFor();
  return p.page.locator(`#${id}-problems`).textContent();
}
export async function openDialog(p, button, id) {
  await openPrefs(p.page);
  await p.page.click(button);
  await p.page.waitForSelector(`#${id}-dialog[open]`);
}
// Claims an account; returns the recovery code the page showed once, after writing it down.
export async function claimAccount(p, username, password) {
  await openDialog(p, '#account-claim', 'claim');
  await submitDialog(p, 'claim', {username, password, confirm: password});
  await p.page.waitForSelector('#claim-dialog', {state: 'detached'});
  await p.page.waitForFunction((u) => window.tanbo.conn.account?.username === u, username);
  return writeDownCode(p);
}
// The recovery code dialog: reads the code, ticks "written down" (Done stays disabled until
// then) and closes it.
export async function writeDownCode(p) {
  await p.page.waitForSelector('#code-dialog[open]');
  const code = (await p.page.locator('#recovery-code').textContent()).trim();
  assert.match(code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
  assert.ok(await p.page.locator('#code-done').isDisabled(), 'Done waits for the box to be ticked');
  await p.page.check('#code-check');
  await p.page.click('#code-done');
  await p.page.waitForSelector('#code-dialog', {state: 'detached'});
  return code;
}
// Logs in from the Log in dialog; the page is then the account's player.
export async function logIn(p, username, password) {
  await openDialog(p, '#account-login', 'login');
  await submitDialog(p, 'login', {username, password});
  await p.page.waitForSelector('#login-dialog', {state: 'detached'});
  await p.page.waitForFunction(() => window.tanbo.conn.state === 'open' && window.tanbo.conn.account);
}
// A login refused: the dialog says why; the connection says hello again as the guest it was.
export async function loginRefused(p, username, password, code = 'bad_login') {
  await openDialog(p, '#account-login', 'login');
  await submitDialog(p, 'login', {username, password});
  const text = await dialogRefusal(p, 'login', code);
  await p.page.click('#login-cancel');
  // The drop-down the dialog was opened from opens again, in a timeout after the close: until
  // then a click on its summary would race it (and close it).
  await p.page.waitForSelector('#login-dialog', {state: 'detached'});
  await p.page.waitForFunction(() => document.getElementById('prefs')?.open);
  await p.page.waitForFunction(() => window.tanbo.conn.state === 'open');
  return text;
}
// After a logout or a deletion: a new guest, welcomed.
export async function waitNewGuest(p, old, timeout = 10000) {
  await p.page.waitForFunction((id) => window.tanbo.conn.state === 'open' && window.tanbo.conn.player?.id !== id && !window.tanbo.conn.account, old, {timeout});
}
// GET /api/me/export with a token: the server's status and error code.
// A player's name as the page shows it (player-mark.js playerName): a new guest's server-made
// name ("Guest 51d0") reads as a friendly name in the page's language ("Invité Héron bleu").
export const shownName = (page, name) => page.evaluate((n) => import('./player-mark.js').then((m) => m.playerName(n)), name);

export const reEscape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export async function exportAs(env, token) {
  const res = await fetch(`${env.base}/api/me/export`, {headers: {authorization: `Bearer ${token}`}});
  const body = await res.json().catch(() => null);
  return {status: res.status, code: body?.error?.code ?? null, body};
}

// A game clock's figure on a seat ("3:00", "0:09.4"), in ms; and whether it is the running one.
export function clockMs(text) {
  const m = /(?:(\d+):)?(\d+):(\d{2})(?:\.(\d))?/.exec(text);
  assert.ok(m, `no clock figure in "${text}"`);
  return ((Number(m[1] || 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4] || 0) * 100;
}
export const seatClock = (p, seat) => p.page.locator(`.seat[data-seat="${seat}"] [data-clock-seat="${seat}"]`);
export async function readClocks(p, n) {
  const out = [];
  for (let seat = 0; seat < n; ++seat) {
    const el = seatClock(p, seat);
    out.push({ms: clockMs(await el.locator('.clock-text').textContent()), running: await el.evaluate((e) => e.classList.contains('running'))});
  }
  return out;
}
// Two readings a second and a half apart: the running seat's time goes down, the others' stay.
export async function clocksTick(p, running, what) {
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
export async function sendChallenge(p, opener, {game, options = {}, timer} = {}) {
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
export async function openChat(p) {
  await p.page.waitForSelector('#chat-toggle');
  if ((await p.page.getAttribute('#chat-toggle', 'aria-expanded')) !== 'true') await p.page.click('#chat-toggle');
  await p.page.waitForSelector('#chat-input');
}

// Types a line in the chat's text box and sends it with Enter.
// Waits for what the page shows once a request is answered, failing with `message`: a line
// said shows on its `said`, which comes before the `ok` that empties the box or clears an error.
export async function shows(wait, message) {
  await wait.catch((e) => assert.fail(`${message} (${e.message.split('\n')[0]})`));
}

export async function say(p, text) {
  await openChat(p);
  await p.page.fill('#chat-input', text);
  await p.page.press('#chat-input', 'Enter');
}

// The chat line on screen holding `text` (a locator), and every line as the reader sees it.
export const chatLine = (p, text) => p.page.locator('#chat-lines .chat-line', {hasText: text});
export function chatLines(p) {
  return p.page.$$eval('#chat-lines .chat-line', (els) => els.map((el) => ({
    channel: el.dataset.channel, n: Number(el.dataset.n), from: el.querySelector('.chat-name').textContent,
    text: el.querySelector('.chat-text').textContent, phrase: el.querySelector('.chat-text').dataset.phrase ?? null})));
}
// The lines the page holds (read from window.tanbo): what the server sent, shown or not.
export const heldLines = (p) => p.page.evaluate(() => window.tanbo.view.chat.lines.map((l) => ({from: l.from.name, text: l.text ?? null, phrase: l.phrase ?? null})));

// The operators' API of the test server (docs/operations.md, "Moderation").
export async function admin(env, method, url) {
  const res = await fetch(`${env.base}/api/admin/${url}`, {method, headers: {authorization: `Bearer ${env.adminToken}`}});
  assert.ok(res.ok, `admin ${method} ${url}: ${res.status}`);
  return res.json();
}

// The visible controls under `scope` smaller than 44 x 44 CSS pixels: buttons, fields, summaries,
// and a checkbox's label (the checkbox is the label's to tap).
export function smallControls(page, scope) {
  return page.$$eval(`${scope} :is(button, select, input:not([type=checkbox]):not([type=hidden]), textarea, summary, a), ${scope} input[type=checkbox]`, (els) => els.map((el) => {
    const target = el.type === 'checkbox' ? (el.labels?.[0] || el) : el;
    const r = target.getBoundingClientRect();
    return {w: Math.round(r.width), h: Math.round(r.height), what: `${el.tagName.toLowerCase()}#${el.id} ${(target.textContent || '').trim().slice(0, 30)}`};
  }).filter((r) => r.w > 0 && r.h > 0 && (r.w < 44 || r.h < 44)));
}

export function viewInfo(page) {
  return page.evaluate(() => {
    const v = window.tanbo.view;
    const m = v?.msg;
    if (!m) return null;
    return {version: m.version, status: m.status, decision: m.pending?.decision ?? null,
            mine: !!(m.pending && v.seat === m.pending.seat && m.legal && v.sent !== m.version && !v.animating)};
  });
}

export const waitMine = (page, timeout = 15000) => page.waitForFunction(() => {
  const v = window.tanbo.view, m = v?.msg;
  return m && (m.status === 'finished' || (m.pending && m.pending.seat === v.seat && m.legal && v.sent !== m.version && !v.animating));
}, null, {timeout});

// Clicks one of the offered choices at random: a highlighted board element or a control button,
// as many taps as the decision takes (a swap's two tokens, the rice of a harvest, then the
// confirm the board shows beside them), until the page has sent it.
export async function clickDecision(page) {
  const version = await page.evaluate(() => window.tanbo.view.msg.version);
  const sent = () => page.evaluate((v) => window.tanbo.view.msg.version !== v || window.tanbo.view.sent === v, version);
  for (let taps = 0; taps < 40; ++taps) {
    const choices = page.locator('#board .pick, #controls [data-action]');
    const n = await choices.count();
    if (n === 0) {
      const why = await page.evaluate(() => JSON.stringify({pending: window.tanbo.view.msg.pending, legal: window.tanbo.view.msg.legal}));
      assert.fail(`no control for the pending decision: ${why}`);
    }
    const confirm = page.locator('#board .pick[data-key="confirm"]');
    // Mostly a token still to choose rather than one taken back from the tray: a choice of
    // several tokens converges instead of walking at random.
    const ahead = page.locator('#board .pick:not(.tb-tray-item):not([data-key="confirm"]), #controls [data-action]');
    const m = await ahead.count();
    const pick = (await confirm.count()) && Math.random() < 0.6 ? confirm
      : m && Math.random() < 0.8 ? ahead.nth(Math.floor(Math.random() * m)) : choices.nth(Math.floor(Math.random() * n));
    await pick.click();
    if (await sent()) return;
  }
  assert.fail('40 taps and still no decision sent');
}

// One decision by whichever page must decide; returns its kind, or null when nobody was to
// decide yet (a state still on its way).
export async function playStep(players) {
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

export async function clickWhenMine(p, selector, timeout = 10000) {
  await waitMine(p.page, timeout);
  const info = await viewInfo(p.page);
  await p.page.locator(selector).first().click();
  await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version, {timeout});
  return info.decision;
}

export async function status(p) { return (await viewInfo(p.page))?.status; }

// Every seated player asks for a rematch, from the end card (shown once the board has played the
// last move out).
export async function rematchAll(players) {
  for (const p of players) {
    if ((await p.page.evaluate(() => window.tanbo.view.seat)) === null) continue;
    await p.page.waitForSelector('#rematch');
    if (await p.page.locator('#rematch:not([disabled])').count()) await p.page.click('#rematch');
  }
  await players[0].page.waitForFunction(() => window.tanbo.view.msg.status === 'playing', null, {timeout: 10000});
}

// Plays by clicking until every kind in `kinds` was decided by a click (rematching when a game
// ends first) or `maxSteps` decisions were made; returns the kinds seen.
export async function playForKinds(players, kinds, maxSteps) {
  const seen = new Set();
  for (let steps = 0; steps < maxSteps && !kinds.every((k) => seen.has(k));) {
    if ((await status(players[0])) === 'finished') { await rematchAll(players); continue; }
    const kind = await playStep(players);
    if (kind) { seen.add(kind); steps++; }
  }
  return seen;
}

export async function shot(env, p, name) {
  await p.page.locator('#board').screenshot({path: path.join(env.outDir, `${name}.png`)});
  await p.page.screenshot({path: path.join(env.outDir, `${name}-page.png`), fullPage: true});
}

// A picture for docs/web (when the run was given --docs): the viewport as a player sees it.
export async function docShot(env, page, name) {
  const file = path.join(env.outDir, `doc-${name}.png`);
  await page.screenshot({path: file});
  if (env.docsDir) await copyFile(file, path.join(env.docsDir, `${name}.png`));
}

// The page: one connection, a hash router (#/, #/room/ID, #/replays, #/replay/ID,
// #/leaderboard/GAME, #/player/ID, #/rules/GAME), the header (connection state, language,
// sound, the player's name, animation speed, whether challenges are taken and the players
// muted in the chat; "Your turn (N)", the games waiting for the player: my-games.js), and the
// dock that follows the player on every page: Play now's waiting panel and the challenges. A
// `paired` message (a pool or an accepted challenge) takes the page to its room. The header's
// drop-down also holds the account (account.js).
// Start-up (docs/web.md, "Serving" and "Offline"): the games' registry comes in the page (the
// server puts it there), so the lobby is drawn before the connection is open, and with no
// network at all from the page the service worker kept; the header says when the browser is
// offline, and the connection is tried again the moment the network is back; the service worker
// (sw.js) is registered once the page has loaded, so that it keeps the page for the next visit
// without slowing this one.
import {Connection} from './conn.js';
import {LobbyView} from './lobby.js';
import {RoomView} from './room.js';
import {rememberSeat, forgetSeats} from './seats.js';
import {ReplayView, ReplayListView} from './replay.js';
import {LeaderboardView, PlayerView} from './ratings.js';
import {RulesView} from './rules.js';
import {h, toast} from './util.js';
import {errorText, errorDetails} from './words.js';
import {t, language, setLanguage, applyLanguage, onLanguageChange} from './i18n/index.js';
import {get, set, SPEEDS, muted} from './settings.js';
import {icon} from './icons.js';
import {unlockOnGesture} from './sound.js';
import {PlayNow} from './play-now.js';
import {Challenges, challengesOpen} from './challenges.js';
import {initDock} from './dock.js';
import {mutes, syncMutes} from './mutes.js';
import {mutedList} from './chat.js';
import {MyGames} from './my-games.js';
import {Account} from './account.js';
import {playerName} from './player-mark.js';

const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
const conn = new Connection(`${scheme}//${location.host}/ws`);
const app = {conn, registry: pageRegistry(), view: null, paired: null};
// A page without the registry (served by something else than tanbo-server) asks for it on the
// first welcome.
let registryFresh = !!app.registry;
let challengesDrawn = false;
window.tanbo = app;  // for the curious, and for tests reading the page's state
app.playNow = new PlayNow(app);
app.challenges = new Challenges(app);
app.myGames = new MyGames(app);
app.account = new Account(app);

conn.addEventListener('connstate', () => renderConn());
function renderConn() {
  const el = document.getElementById('conn');
  // Offline rather than "reconnecting": the browser knows there is no network to try.
  const offline = conn.state !== 'open' && !navigator.onLine;
  const state = offline ? 'offline' : conn.state;
  el.dataset.state = state;
  el.textContent = t(`conn.${state}`);
  let note = document.getElementById('offline-note');
  if (offline && !note) {
    note = h('p', {id: 'offline-note', class: 'offline-note'});
    document.querySelector('header.top').after(note);
  }
  if (note) {
    note.hidden = !offline;
    note.textContent = t('conn.offline_note');
  }
}
window.addEventListener('offline', () => renderConn());
window.addEventListener('online', () => {
  renderConn();
  // The back-off could still wait seconds: the network is back, so try now.
  if (conn.state === 'closed' && !conn.banned) conn.start();
});

// The `games` list the server put in the page (a JSON data block), or null.
function pageRegistry() {
  try {
    const games = JSON.parse(document.getElementById('tanbo-games')?.textContent ?? 'null');
    return Array.isArray(games) && games.length ? games : null;
  } catch {
    return null;
  }
}

conn.addEventListener('ready', async (e) => {
  // Another identity (logged in, logged out, a token refused): what was kept for the old one
  // goes, and the view is drawn again for this one.
  if (e.detail.changed) {
    forgetSeats();
    if (app.playNow.seek) app.playNow.clear();
    app.challenges.forget();
    app.account.identityChanged(e.detail.player);
  }
  syncMutes(conn.mutes);
  renderPrefs();
  app.challenges.ready(e.detail);
  if (!registryFresh) {
    try {
      app.registry = (await conn.request({type: 'games'})).games;
    } catch (err) {
      toast(t('toast.games_failed', {message: errorText(err)}), errorDetails(err));
      return;
    }
    registryFresh = true;
  }
  if (!challengesDrawn) {  // once, as soon as the registry and the first welcome are in
    challengesDrawn = true;
    app.challenges.render();
  }
  if (e.detail.reconnect) app.playNow.ready();
  if (!app.view || e.detail.changed) route();
  else app.view.ready?.(e.detail);
});

// Paired, from a pool or a challenge: the room exists with this player seated, and the server
// follows with `joined` and a `state`, which the room view takes as its own join.
conn.addEventListener('paired', (e) => {
  const m = e.detail;
  app.playNow.paired(m);
  app.challenges.paired(m);
  rememberSeat(m.room);
  app.paired = {room: m.room, seat: m.seat};
  navigate(`#/room/${encodeURIComponent(m.room)}`);
});

conn.addEventListener('message', (e) => app.view?.message?.(e.detail));
conn.addEventListener('name-refused', (e) => toast(e.detail.code === 'name_reserved'
  ? t('toast.name_reserved', {name: e.detail.name}) : t('toast.name_refused', {name: e.detail.name, rule: t('name.rule')})));
conn.addEventListener('error', (e) => {
  if (e.detail?.code === 'banned') toast(t('chat.error.banned'));
  else if (e.detail?.code) toast(t('toast.error', {message: errorText(e.detail)}), errorDetails(e.detail));
});
conn.addEventListener('banned', () => toast(t('chat.error.banned')));
mutes.addEventListener('change', () => renderPrefs());
app.account.addEventListener('change', () => renderPrefs());

// The name (with the account's username), the animation speed and the account, in the
// header's drop-down.
function renderPrefs() {
  const account = conn.account;
  document.getElementById('me').replaceChildren(
    h('span', {class: 'me-name'}, conn.player ? playerName(conn.player) : t('prefs.title')),
    account ? h('span', {class: 'me-account', id: 'me-account'}, icon('account'),
      h('span', {class: 'sr-only'}, `${t('account.header_prefix')} `), account.username) : '');
  const panel = document.getElementById('prefs-panel');
  // The server's guest name is no choice: the field starts empty, the name in the reader's words.
  const input = h('input', {id: 'name-input', value: conn.player?.default_name ? '' : conn.player?.name || conn.name,
    placeholder: conn.player?.default_name ? playerName(conn.player) : null, maxlength: 24, size: 14, autocomplete: 'nickname'});
  const form = h('form', {class: 'name-form', onsubmit: (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name || name === conn.player?.name) return;
    conn.setName(name);
    conn.restart();
  }}, h('label', {for: 'name-input'}, t('prefs.name')), ' ', input, ' ', h('button', {type: 'submit'}, t('prefs.rename')));
  const speed = h('select', {id: 'speed', onchange: (e) => set('speed', e.target.value)},
    SPEEDS.map((sp) => h('option', {value: sp, selected: get('speed') === sp}, t(`prefs.speed.${sp}`))));
  const open = h('input', {type: 'checkbox', id: 'challenges-open', checked: challengesOpen(),
    onchange: (e) => app.challenges.setOpen(e.target.checked)});
  app.account.renderSignIn();
  panel.replaceChildren(form,
    app.account.section(),
    h('p', {class: 'pref-row'}, h('label', {for: 'speed'}, t('prefs.speed')), ' ', speed),
    h('p', {class: 'muted small'}, t('prefs.motion_note')),
    h('p', {class: 'pref-row check-row'}, open, ' ', h('label', {for: 'challenges-open'}, t('prefs.challenges'))),
    h('p', {class: 'muted small'}, t('prefs.challenges_note')),
    mutedList(app, 'prefs'),
    conn.player ? h('p', {class: 'small'}, h('a', {href: `#/player/${encodeURIComponent(conn.player.id)}`, id: 'my-page'}, t('prefs.my_page'))) : null);
}

function renderSound() {
  const btn = document.getElementById('sound');
  const off = muted();
  btn.replaceChildren(icon(off ? 'mute' : 'sound'));
  btn.setAttribute('aria-pressed', String(!off));
  btn.setAttribute('aria-label', t('prefs.sound'));
  btn.title = t(off ? 'prefs.sound_off' : 'prefs.sound_on');
}

function setupHeader() {
  const lang = /** @type {HTMLSelectElement} */ (document.getElementById('lang'));
  lang.value = language();
  // A catalogue not fetched before cannot be loaded offline: the choice goes back.
  lang.addEventListener('change', () => setLanguage(lang.value).catch(() => {
    lang.value = language();
    toast(t('toast.language_failed'));
  }));
  document.getElementById('sound').addEventListener('click', () => { set('muted', !muted()); renderSound(); });
  renderSound();
  renderConn();
  renderPrefs();
}

onLanguageChange(() => {
  /** @type {HTMLSelectElement} */ (document.getElementById('lang')).value = language();
  renderSound();
  renderConn();
  renderPrefs();
  app.playNow.relabel();
  app.challenges.relabel();
  app.myGames.relabel();
  if (app.view?.relabel) app.view.relabel();
  else route();
});

export function game(id) {
  return (app.registry || []).find((g) => g.id === id);
}
app.game = game;

// Goes to `hash` now, not on the next hashchange: the messages that follow (a paired room's
// `joined` and `state`) reach the new view.
function navigate(hash) {
  if (location.hash !== hash) location.hash = hash;
  route();
}

let firstRender = true;
let routed = null;  // the hash the current view is for
function route() {
  if (!app.registry) return;  // ready() routes once the registry is in
  routed = location.hash;
  app.view?.unmount?.();
  const main = document.getElementById('main');
  main.replaceChildren();
  const hash = location.hash.replace(/^#/, '') || '/';
  const part = (re) => { const m = hash.match(re); return m ? decodeURIComponent(m[1] || '') : null; };
  let id;
  if ((id = part(/^\/room\/([^/]+)$/))) app.view = new RoomView(app, id);
  else if ((id = part(/^\/replay\/([^/]+)$/))) app.view = new ReplayView(app, id);
  else if (hash === '/replays') app.view = new ReplayListView(app);
  else if ((id = part(/^\/leaderboard(?:\/([^/]*))?$/)) !== null) app.view = new LeaderboardView(app, id);
  else if ((id = part(/^\/player\/([^/]+)$/))) app.view = new PlayerView(app, id);
  else if ((id = part(/^\/rules(?:\/([^/]*))?$/)) !== null) app.view = new RulesView(app, id);
  else app.view = new LobbyView(app);
  app.view.mount(main);
  app.myGames.syncWatch();
  if (firstRender) {
    // The first view on screen: the tests read this mark to report the first render's time.
    firstRender = false;
    performance.mark('tanbo-first-render');
  }
}

applyLanguage();
setupHeader();
app.myGames.mount();
unlockOnGesture();
window.addEventListener('hashchange', () => { if (location.hash !== routed) route(); });
initDock();
conn.start();
// The lobby from the page's registry, without waiting for the connection: its lists fill in once
// the connection is open (the view's ready()). Other views ask the server for their room or
// record as they open, so they wait for it.
if (app.registry && /^#?\/?$/.test(location.hash)) route();
registerServiceWorker();

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  // sw.js beside this module (under the version prefix), its scope the whole site: the server
  // allows it (Service-Worker-Allowed). A new version registers a new script, which replaces the
  // old one.
  const register = () => navigator.serviceWorker.register(new URL('sw.js', import.meta.url), {scope: '/'})
    .catch((err) => console.info(`service worker not registered: ${err.message}`));
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, {once: true});
}

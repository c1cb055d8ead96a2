// The page: one connection, a hash router (#/, #/room/ID, #/replays, #/replay/ID,
// #/leaderboard/GAME, #/player/ID, #/rules/GAME), the header (connection, language, sound, the
// games waiting for the player: my-games.js; the name and its drop-down: settings, muted
// players, the account: account.js), and the dock of every page (Play now, challenges). A
// `paired` message takes the page to its room.
// Start-up (docs/web.md, "Serving" and "Offline"): the lobby is drawn from the registry in the
// page before the connection opens, even offline; other views load when first opened, and are
// fetched once the page has loaded so that the service worker (sw.js) keeps them.
import {Connection} from './conn.js';
import {LobbyView} from './lobby.js';
import {rememberSeat, forgetSeats} from './seats.js';
import {h, toast, trackInputMode} from './util.js';
import {errorText, errorDetails} from './words.js';
import {t, language, setLanguage, applyLanguage, onLanguageChange} from './i18n/index.js';
import {get, set, SPEEDS, muted} from './settings.js';
import {icon} from './icons.js';
import {unlockOnGesture} from './sound.js';
import {PlayNow} from './play-now.js';
import {Challenges, challengesOpen} from './challenges.js';
import {initDock} from './dock.js';
import {mutes, syncMutes, mutedList} from './mutes.js';
import {MyGames} from './my-games.js';
import {Account} from './account.js';
import {playerName} from './player-mark.js';
import {picturesLoaded} from './game-cards.js';

const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
const conn = new Connection(`${scheme}//${location.host}/ws`);
const app = {conn, registry: pageRegistry(), view: null, paired: null, warmed: null};
// A page without the registry (served by something else than tanbo-server) asks for it on the
// first welcome.
let registryFresh = !!app.registry;
let challengesDrawn = false;
window.tanbo = app;  // for the curious, and for tests reading the page's state
trackInputMode();
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
  // A dot alone once connected: its tooltip says what it is.
  el.title = t('conn.title', {state: el.textContent});
  let note = document.getElementById('offline-note');
  if (offline && !note) {
    // A landmark of its own, named as the header's badge: everything on the page is in one.
    note = h('aside', {id: 'offline-note', class: 'offline-note'});
    document.querySelector('header.top').after(note);
  }
  if (note) {
    note.hidden = !offline;
    note.textContent = t('conn.offline_note');
    note.setAttribute('aria-label', t('conn.offline'));
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

conn.addEventListener('message', (e) => {
  keepEarly(e.detail);
  app.view?.message?.(e.detail);
});
conn.addEventListener('name-refused', (e) => toast(e.detail.code === 'name_reserved'
  ? t('toast.name_reserved', {name: e.detail.name}) : t('toast.name_refused', {name: e.detail.name, rule: t('name.rule')})));
conn.addEventListener('error', (e) => {
  if (e.detail?.code === 'banned') toast(t('chat.error.banned'));
  else if (e.detail?.code) toast(t('toast.error', {message: errorText(e.detail)}), errorDetails(e.detail));
});
conn.addEventListener('banned', () => toast(t('chat.error.banned')));
mutes.addEventListener('change', () => renderPrefs());
app.account.addEventListener('change', () => renderPrefs());

// The name on one line (an account holder's with the account's mark, its username said to
// screen readers and in its tooltip), then the drop-down: the name, the account, the animation
// speed, challenges, the muted players; on a phone the language and the sound too, which the
// header has no room for there (style.css).
function renderPrefs() {
  const account = conn.account;
  const name = conn.player ? playerName(conn.player) : t('prefs.title');
  // A guest's phone shows the icon alone beside Log in (style.css), the name its words and title.
  const me = document.getElementById('me');
  me.title = name;
  me.replaceChildren(icon('account', 'me-icon'), h('span', {class: 'me-name', title: name}, name),
    account ? h('span', {class: 'me-account', id: 'me-account', title: `${t('account.header_prefix')} ${account.username}`}, icon('verified'),
      h('span', {class: 'sr-only'}, ` ${t('account.header_prefix')} ${account.username}`)) : '');
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
  const lang = /** @type {HTMLSelectElement} */ (document.getElementById('lang').cloneNode(true));
  lang.id = 'prefs-lang';
  lang.removeAttribute('aria-label');
  lang.removeAttribute('data-i18n-label');
  lang.value = language();
  lang.addEventListener('change', () => chooseLanguage(lang.value));
  const sound = h('input', {type: 'checkbox', id: 'prefs-sound', checked: !muted(), onchange: () => toggleSound()});
  app.account.renderSignIn();
  panel.replaceChildren(form,
    app.account.section(),
    h('p', {class: 'pref-row phone-pref'}, h('label', {for: 'prefs-lang'}, t('prefs.language')), ' ', lang),
    h('p', {class: 'pref-row check-row phone-pref'}, sound, ' ', h('label', {for: 'prefs-sound'}, t('prefs.sound'))),
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
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById('prefs-sound'));
  if (box) box.checked = !off;
}

function toggleSound() {
  set('muted', !muted());
  renderSound();
}

// A catalogue not fetched before cannot be loaded offline: the choice goes back.
function chooseLanguage(lang) {
  setLanguage(lang).catch(() => {
    /** @type {HTMLSelectElement} */ (document.getElementById('lang')).value = language();
    renderPrefs();
    toast(t('toast.language_failed'));
  });
}

function setupHeader() {
  const lang = /** @type {HTMLSelectElement} */ (document.getElementById('lang'));
  lang.value = language();
  lang.addEventListener('change', () => chooseLanguage(lang.value));
  document.getElementById('sound').addEventListener('click', toggleSound);
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

// The views other than the lobby, by module: loaded when first opened (a lobby on a slow network
// waits for none of them), then kept.
const VIEWS = {
  room: () => import('./room.js'),
  replay: () => import('./replay.js'),
  ratings: () => import('./ratings.js'),
  rules: () => import('./rules.js'),
};
const views = {};  // name -> the module, once loaded
const loading = {};  // name -> the promise of it
function loadView(name) {
  loading[name] ??= VIEWS[name]().then((mod) => { views[name] = mod; return mod; },
    (err) => { delete loading[name]; throw err; });
  return loading[name];
}

// What stands in a view's place while its module loads.
class LoadingView {
  mount(main) { main.replaceChildren(h('p', {class: 'muted', 'aria-busy': 'true'}, '…')); }
}

// A room's pushes that reach the page before its view shows it (a created room's first state,
// the computer's opening move, a paired room's `joined`): handed to the room's view when it
// opens, as if they came after, so that it plays that move rather than start behind it.
const EARLY_MS = 5000;
const early = new Map();  // room -> {at, messages}
function keepEarly(m) {
  if (!m.room || (m.type !== 'state' && m.type !== 'joined') || app.view?.room === m.room) return;
  const kept = early.get(m.room);
  const messages = kept && performance.now() - kept.at < EARLY_MS ? [...kept.messages.slice(-2), m] : [m];
  early.delete(m.room);  // the newest room last: the oldest goes first
  early.set(m.room, {at: performance.now(), messages});
  if (early.size > 8) early.delete(early.keys().next().value);
}
function handEarly(view) {
  const kept = early.get(view.room);
  early.delete(view.room);
  if (kept && performance.now() - kept.at < EARLY_MS) for (const m of kept.messages) view.message(m);
}

let firstRender = true;
let routed = null;  // the hash the current view is for
function route() {
  if (!app.registry) return;  // ready() routes once the registry is in
  // A link from a mail: its token leaves the address bar and the history at once, and its
  // dialog opens over the lobby.
  const mailLink = location.hash.match(/^#\/(reset|confirm-mail)\/([0-9a-f]{40})$/);
  if (mailLink) {
    history.replaceState(null, '', '#/');
    app.account.openMailLink(mailLink[1], mailLink[2]);
  }
  routed = location.hash;
  app.view?.unmount?.();
  const main = document.getElementById('main');
  main.replaceChildren();
  const hash = location.hash.replace(/^#/, '') || '/';
  const part = (re) => { const m = hash.match(re); return m ? decodeURIComponent(m[1] || '') : null; };
  let id;
  /** @type {[string, (mod: any) => any] | null} */
  let lazy = null;  // the module of the view and how to make the view from it
  if ((id = part(/^\/room\/([^/]+)$/))) lazy = ['room', (m) => new m.RoomView(app, id)];
  else if ((id = part(/^\/replay\/([^/]+)$/))) lazy = ['replay', (m) => new m.ReplayView(app, id)];
  else if (hash === '/replays') lazy = ['replay', (m) => new m.ReplayListView(app)];
  else if ((id = part(/^\/leaderboard(?:\/([^/]*))?$/)) !== null) lazy = ['ratings', (m) => new m.LeaderboardView(app, id)];
  else if ((id = part(/^\/player\/([^/]+)$/))) lazy = ['ratings', (m) => new m.PlayerView(app, id)];
  else if ((id = part(/^\/rules(?:\/([^/]*))?$/)) !== null) lazy = ['rules', (m) => new m.RulesView(app, id)];
  if (!lazy) return show(new LobbyView(app), main);
  const [name, make] = lazy;
  if (views[name]) return show(make(views[name]), main);
  const waiting = new LoadingView();
  app.view = waiting;
  waiting.mount(main);
  loadView(name).then((mod) => {
    if (app.view !== waiting) return;  // gone elsewhere meanwhile
    show(make(mod), main);
  }, () => {
    if (app.view === waiting) toast(t('toast.view_failed'));
  });
}

function show(view, main) {
  app.view = view;
  main.replaceChildren();
  view.mount(main);
  if (view.room) handEarly(view);
  app.myGames.syncWatch();
  if (firstRender) {
    // The first view on screen: the tests read this mark to report the first render's time.
    firstRender = false;
    performance.mark('tanbo-first-render');
  }
}

// The other views, fetched after the lobby's pictures once the service worker (if any) is in
// charge, so that it keeps them; the room first. `app.warmed` settles when they are in.
let warming = null;
function warmViews() {
  warming ??= picturesLoaded().then(() => Promise.allSettled(['room', 'rules', 'replay', 'ratings'].map(loadView))).then(() => {});
  app.warmed ??= warming;
  return warming;
}

// What the page fetched before the service worker took charge is asked for again through it,
// which keeps it; the HTTP cache answers, not the network.
function handOver() {
  const prefix = new URL('./', import.meta.url).pathname;
  if (prefix === '/') return Promise.resolve();  // unversioned: the worker keeps nothing
  const urls = performance.getEntriesByType('resource').map((e) => new URL(e.name))
    .filter((u) => u.origin === location.origin && u.pathname.startsWith(prefix));
  return Promise.allSettled(urls.map((u) => fetch(u))).then(() => {});
}

applyLanguage();
setupHeader();
app.myGames.mount();
unlockOnGesture();
window.addEventListener('hashchange', () => { if (location.hash !== routed) route(); });
initDock();
conn.start();
// The lobby from the page's registry at once (its lists fill in once connected); other views
// ask the server as they open, so they wait for the connection.
if (app.registry && /^#?\/?$/.test(location.hash)) route();
registerServiceWorker();

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) {
    window.addEventListener('load', warmViews, {once: true});
    return;
  }
  // sw.js beside this module (under the version prefix), its scope the whole site: the server
  // allows it (Service-Worker-Allowed). A new version registers a new script, which replaces the
  // old one.
  const sw = navigator.serviceWorker;
  const startedWith = sw.controller;  // the worker in charge of this page as it loaded, if any
  const register = () => sw.register(new URL('sw.js', import.meta.url), {scope: '/'})
    .then(() => sw.ready)
    .then(() => {
      // A worker taking charge (the first visit, a new version) is handed what came before it.
      // Twice: a fetch still on its way the first time is kept the second.
      const handed = () => { app.warmed = handOver().then(warmViews).then(handOver); };
      sw.addEventListener('controllerchange', handed);
      if (sw.controller && sw.controller !== startedWith) handed();
      else if (sw.controller) warmViews();
    })
    .catch((err) => {
      console.info(`service worker not registered: ${err.message}`);
      warmViews();
    });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, {once: true});
}

// Play now (docs/protocol.md, "Play now") and the lobby's one Play button. Play (playChoice,
// play) seats the player against a person waiting, else the computer at once. Play now, in a
// card's "More options", seeks in the game's pool with the terms remembered for it; the dock's
// waiting panel shows the time waited and the pool's size, Cancel and, after a while, "Play the
// computer instead". The pools someone waits in are kept here for the lobby's cards.
import {h, toast, canon} from './util.js';
import {t} from './i18n/index.js';
import {termsText, errorText, duration, playerName} from './words.js';
import {savedLevel, playComputer, DEFAULT_LEVEL} from './cpu-level.js';
import {rememberSeat} from './seats.js';
import {dockPart, refreshDock, announce} from './dock.js';
import {isChoice, normalTimer} from './timectl.js';

const PREFS_KEY = 'tanbo.playNow';
export const CPU_AFTER_S = 30;  // "play the computer if nobody comes within 30 s"
export const OFFER_CPU_S = 20;  // the panel offers the computer after this long

function allPrefs() {
  try { return JSON.parse(localStorage.getItem(PREFS_KEY)) || {}; } catch { return {}; }
}

// The remembered Play now terms of a game (registry entry `g`), each checked against the game.
export function seekPrefs(g) {
  const p = allPrefs()[g.id] || {};
  const players = Number.isInteger(p.players) && p.players >= g.players.min && p.players <= g.players.max
    ? p.players : g.players.default;
  return {timer: isChoice(p.timer) ? normalTimer(p.timer) : 'none', ranked: p.ranked === true, players, cpu: p.cpu === true};
}

export function setSeekPrefs(g, changes) {
  const all = allPrefs();
  all[g.id] = {...seekPrefs(g), ...changes};
  localStorage.setItem(PREFS_KEY, JSON.stringify(all));
}

// The seek message for a game's card; `pool` (a pools entry) asks for exactly its terms.
export function seekMessage(g, pool = null) {
  const prefs = seekPrefs(g);
  const msg = {type: 'seek', game: g.id, timer: pool ? pool.timer : prefs.timer, ranked: pool ? pool.ranked : prefs.ranked};
  const players = pool ? pool.players : prefs.players;
  if (players && (pool || g.players.min !== g.players.max)) msg.players = players;
  if (pool?.options) msg.options = pool.options;
  if (prefs.cpu) {
    msg.cpu_after = CPU_AFTER_S;
    msg.level = savedLevel() || DEFAULT_LEVEL;
  }
  return msg;
}

// A pool's terms, comparable whatever the order of their members.
export function poolKey(p) {
  return canon({game: p.game, players: p.players, options: p.options, timer: p.timer, ranked: p.ranked});
}

// What the one Play button of game `g`'s card does now, from the lobby's rooms and pools: join
// an open room where a person waits for players (all of them here); else seek in a pool someone
// else waits in (the next wave pairs them); neither by correspondence, a game of days; else the
// computer at once, at the level saved or Medium. `me` is the player's id; `isMine(pool)`
// whether the page waits in that pool already.
/** @param {(pool: import('./types/protocol').Pool) => boolean} [isMine] */
export function playChoice(g, rooms, pools, me, isMine = () => false) {
  const room = rooms.find((r) => r.game === g.id && r.status === 'waiting' && r.timer?.type !== 'correspondence'
    && r.seats.some((st) => !st.player && !st.cpu)
    && r.seats.some((st) => st.player && !st.cpu)
    && r.seats.every((st) => !st.player || st.cpu || (st.connected && st.player.id !== me)));
  if (room) return {kind: 'room', room: room.room, name: playerName(room.seats.find((st) => st.player && !st.cpu).player)};
  const pool = pools.find((p) => p.game === g.id && p.waiting > 0 && !isMine(p) && p.timer?.type !== 'correspondence');
  if (pool) return {kind: 'pool', pool, n: pool.waiting};
  return {kind: 'cpu', level: savedLevel() || DEFAULT_LEVEL};
}

// Plays `choice` (playChoice's) for game `g`; `origin` gets the focus back if a wait is cancelled.
// A seek from Play turns to the computer by itself if the person it went for is gone meanwhile.
export async function play(app, g, choice, origin = null) {
  if (choice.kind === 'room') {
    try {
      await app.conn.request({type: 'join', room: choice.room, as: 'player'});
      rememberSeat(choice.room);
      location.hash = `#/room/${encodeURIComponent(choice.room)}`;
    } catch (err) {
      toast(t('toast.join_refused', {message: errorText(err)}));
    }
  } else if (choice.kind === 'pool') {
    const msg = {...seekMessage(g, choice.pool), cpu_after: CPU_AFTER_S, level: savedLevel() || DEFAULT_LEVEL};
    await app.playNow.start(msg, origin);
  } else {
    await playComputer(app, g.id, {level: choice.level});
  }
}

export class PlayNow extends EventTarget {
  constructor(app) {
    super();
    this.app = app;
    this.pools = [];       // every pool someone waits in, with its `waiting` count
    this.seek = null;      // {id, msg, pool, since, origin}: the seek waiting now
    this.busy = false;
    this.early = new Set();  // seeks paired before their `seeking` reply was read
    this.offered = false;
    this.timer = null;
    this.el = dockPart('seek');
    app.conn.addEventListener('lobby', (e) => { if (e.detail.pools) this.setPools(e.detail.pools); });
  }

  // A `rooms` reply's or a `lobby` push's pools: all of them, or those of one game.
  setPools(list, game = null) {
    this.pools = game ? this.pools.filter((p) => p.game !== game).concat(list || []) : (list || []);
    this.dispatchEvent(new Event('change'));
    this.renderPool();
  }

  poolsOf(game) { return this.pools.filter((p) => p.game === game); }

  // Whether `pool` is the one this page waits in.
  isMine(pool) { return !!this.seek && poolKey(this.seek.pool) === poolKey(pool); }

  waiting() {
    if (!this.seek) return null;
    const key = poolKey(this.seek.pool);
    return this.pools.find((p) => poolKey(p) === key)?.waiting ?? null;
  }

  // Starts waiting in the pool of `msg` (one seek at a time: a seek elsewhere is left first).
  // `origin` gets the focus back when the wait is cancelled.
  async start(msg, origin = null) {
    const conn = this.app.conn;
    if (this.busy) return;
    if (this.seek && canon(this.seek.msg) === canon(msg)) { this.focusPanel(); return; }
    this.busy = true;
    try {
      if (this.seek && !(await this.leave())) return;
      conn.watchLobby('seek');
      const reply = await conn.request(msg);
      if (this.early.delete(reply.seek)) return;  // already paired: the room is on its way
      this.seek = {id: reply.seek, msg, pool: reply.pool, since: Date.now(), origin};
      this.offered = false;
      this.render();
      this.focusPanel();
      const g = this.app.game(msg.game);
      announce(t('seek.announce', {terms: termsText(reply.pool, g)}));
      this.dispatchEvent(new Event('change'));
      // The pool's size now; the lobby's pushes bring every change after it.
      const rooms = await conn.request({type: 'rooms', game: msg.game});
      this.setPools(rooms.pools, msg.game);
    } catch (err) {
      if (!this.seek) conn.unwatchLobby('seek');
      if (err.code !== 'disconnected' || !this.seek) toast(t('seek.failed', {why: errorText(err)}));
    } finally {
      this.busy = false;
    }
  }

  // Leaves the pool; false when the seek no longer waited (paired meanwhile: the room comes).
  async leave() {
    const s = this.seek;
    if (!s) return true;
    try {
      await this.app.conn.request({type: 'unseek', seek: s.id});
    } catch (err) {
      if (err.code === 'no_such_seek') return false;
      if (err.code !== 'disconnected') {
        toast(t('seek.cancel_failed', {why: errorText(err)}));
        return false;
      }
      // The connection dropped: its seeks went with it.
    }
    if (this.seek === s) this.clear();
    return true;
  }

  async cancel() {
    const origin = this.seek?.origin;
    if (!(await this.leave())) return;
    announce(t('seek.cancelled'));
    if (origin?.isConnected) origin.focus();
    else document.getElementById('main')?.focus();
  }

  async cpuInstead() {
    const s = this.seek;
    if (!s || !(await this.leave())) return;
    await playComputer(this.app, s.pool.game, {players: s.pool.players, options: s.pool.options, timer: s.pool.timer});
  }

  clear() {
    this.seek = null;
    clearInterval(this.timer);
    this.timer = null;
    this.app.conn.unwatchLobby('seek');
    this.render();
    this.dispatchEvent(new Event('change'));
  }

  // `paired` (app.js takes the page to the room): this seek is over; a game found another way
  // (an accepted challenge, another pool) ends the wait too.
  paired(msg) {
    if (msg.seek && this.seek?.id === msg.seek) {
      announce(t('seek.found'));
      this.clear();
    } else if (msg.seek && !this.seek) {
      this.early.add(msg.seek);
    } else if (this.seek && !this.busy) {
      this.leave();
    }
  }

  // A new connection: the old one's seeks are gone, so the page seeks again on the same terms
  // (the time waited counts on).
  async ready() {
    const s = this.seek;
    if (!s) return;
    this.app.conn.watchLobby('seek');
    const conn = this.app.conn;
    try {
      let reply;
      try {
        reply = await conn.request(s.msg);
      } catch (err) {
        // The server has not noticed the old connection's end yet: its seek still waits, and
        // a pairing would be told to that connection. Leave it (a seek is the identity's) and
        // seek from this one.
        if (err.code !== 'already_seeking') throw err;
        await conn.request({type: 'unseek', seek: s.id}).catch(() => {});
        reply = await conn.request(s.msg);
      }
      if (this.seek !== s) return;
      if (this.early.delete(reply.seek)) { this.clear(); return; }
      s.id = reply.seek;
      s.pool = reply.pool;
      this.render();
      const rooms = await this.app.conn.request({type: 'rooms', game: s.msg.game});
      this.setPools(rooms.pools, s.msg.game);
    } catch (err) {
      if (err.code === 'disconnected') return;  // the next connection tries again
      if (this.seek === s) this.clear();
      toast(t('seek.lost', {why: errorText(err)}));
    }
  }

  focusPanel() { this.el.querySelector('.seek-panel')?.focus({preventScroll: true}); }

  render() {
    const s = this.seek;
    const focused = this.el.contains(document.activeElement) ? document.activeElement.id : null;
    if (!s) {
      this.el.replaceChildren();
      refreshDock();
      return;
    }
    const g = this.app.game(s.pool.game);
    this.timeEl = h('span', {id: 'seek-time'});
    this.poolEl = h('span', {id: 'seek-pool'});
    this.offerEl = h('p', {id: 'seek-offer', class: 'seek-offer', hidden: true}, t('seek.offer'), ' ',
      h('button', {type: 'button', id: 'seek-cpu', onclick: () => this.cpuInstead()}, t('seek.cpu_instead')));
    const cpuAt = s.msg.cpu_after
      ? h('p', {class: 'small', id: 'seek-cpu-at'}, t('seek.cpu_at', {time: duration(s.msg.cpu_after * 1000)})) : null;
    this.el.replaceChildren(h('section', {class: 'seek-panel', id: 'seek-panel', tabindex: -1, 'aria-labelledby': 'seek-h',
      'data-seek': s.id, 'data-game': s.pool.game},
      h('h2', {id: 'seek-h'}, t((s.pool.players || 2) > 2 ? 'seek.title_many' : 'seek.title')),
      h('p', {class: 'seek-terms'}, termsText(s.pool, g)),
      h('p', {class: 'seek-status'}, this.timeEl, t('list.sep'), this.poolEl),
      cpuAt,
      h('div', {class: 'seek-buttons'}, this.offerEl,
        h('button', {type: 'button', id: 'seek-cancel', class: 'danger-outline', onclick: () => this.cancel()}, t('seek.cancel')))));
    this.tick();
    this.renderPool();
    refreshDock();
    if (!this.timer) this.timer = setInterval(() => this.tick(), 1000);
    if (focused) document.getElementById(focused)?.focus({preventScroll: true});
  }

  tick() {
    const s = this.seek;
    if (!s || !this.timeEl) return;
    const waited = Date.now() - s.since;
    this.timeEl.textContent = t('seek.waited', {time: duration(waited)});
    if (waited >= OFFER_CPU_S * 1000 && this.offerEl.hidden) {
      this.offerEl.hidden = false;
      if (!this.offered) announce(`${t('seek.offer')} ${t('seek.cpu_instead')}`);
      this.offered = true;
    }
  }

  renderPool() {
    if (!this.seek || !this.poolEl) return;
    const n = this.waiting();
    this.poolEl.textContent = (n ?? 1) <= 1 ? t('seek.alone') : t('seek.pool', {n});
    this.poolEl.dataset.waiting = n ?? '';
  }

  relabel() { this.render(); }
}

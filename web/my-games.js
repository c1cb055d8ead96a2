// The player's unfinished games (`my_games`, docs/protocol.md): asked after each hello, and again
// (debounced) when a lobby push or a room's state shows a change of hands or a new game. The
// header shows "Your turn" and the count of games waiting; the lobby lists them all, each linking
// to its room (its game, the opponents, whose turn, the time left by correspondence). While a game
// is elsewhere than on screen, the lobby's pushes are watched: they carry each room's `to_move`.
import {h} from './util.js';
import {icon} from './icons.js';
import {t} from './i18n/index.js';
import {gameName, seatName} from './words.js';
import {rememberSeat} from './seats.js';
import {announce} from './dock.js';
import {longLeft, localDate, serverNow, timerShort, normalTimer} from './timectl.js';
import {markedName, tNodes, listNodes} from './player-mark.js';

const DEBOUNCE_MS = 400;
const IDLE_MS = 4000;  // how long "Your turn" keeps its room once no game waits

export class MyGames extends EventTarget {
  constructor(app) {
    super();
    this.app = app;
    this.games = [];            // the my_games entries, as the server sent them
    this.seats = new Map();     // room -> its seats, as a listing or a state last showed them
    this.supported = true;      // false once a server says it has no my_games
    this.busy = false;
    this.again = false;
    this.timer = null;
    this.watching = false;
    const conn = app.conn;
    conn.addEventListener('ready', () => this.refresh());
    conn.addEventListener('lobby', (e) => this.lobby(e.detail));
    // The time left by correspondence, in minutes: the words are redone now and then.
    setInterval(() => { if (this.games.some((g) => g.deadline)) this.render(); }, 30000);
  }

  mount() {
    this.headEl = /** @type {HTMLDetailsElement | null} */ (document.getElementById('turns'));
    this.summaryEl = document.getElementById('turns-summary');
    this.panelEl = document.getElementById('turns-panel');
    this.panelEl.addEventListener('click', (e) => { if (/** @type {Element} */ (e.target).closest('a')) this.headEl.open = false; });
    this.render();
  }

  get mine() { return this.app.conn.player?.id; }

  entry(room) { return this.games.find((g) => g.room === room); }

  waiting() { return this.games.filter((g) => this.yours(g)); }

  // Whether a game waits for the player. The room on screen says it as its board shows it
  // (room.js `boardTurn`), so that "Your turn" is not said before the opponent's move has
  // played out there; the others as the server listed them.
  yours(g) {
    const v = this.app.view;
    return v?.room === g.room && typeof v.boardTurn === 'boolean' ? v.boardTurn : !!g.your_turn;
  }

  schedule() {
    if (!this.supported) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), DEBOUNCE_MS);
  }

  async refresh() {
    const conn = this.app.conn;
    if (!this.supported || conn.state !== 'open') return;
    if (this.busy) { this.again = true; return; }
    this.busy = true;
    const before = new Set(this.waiting().map((g) => g.room));
    try {
      const reply = await conn.request({type: 'my_games'});
      this.games = reply.games || [];
    } catch (err) {
      if (err.code === 'unknown_type') this.supported = false;
      if (err.code === 'unknown_type') this.games = [];
    } finally {
      this.busy = false;
    }
    if (this.again) { this.again = false; this.schedule(); }
    const current = this.currentRoom();
    const fresh = this.waiting().filter((g) => !before.has(g.room) && g.room !== current);
    if (fresh.length && this.announced)
      announce(t('mygames.announce', {game: gameName(fresh[0].game, this.app.game(fresh[0].game))}));
    this.announced = true;  // not for the games already waiting when the page opens
    this.syncWatch();
    this.render();
    this.dispatchEvent(new Event('change'));
  }

  currentRoom() { return this.app.view?.room ?? null; }

  // Lobby pushes while some game of the player is elsewhere than on screen.
  syncWatch() {
    const want = this.supported && this.games.some((g) => g.room !== this.currentRoom());
    if (want === this.watching) return;
    this.watching = want;
    if (want) this.app.conn.watchLobby('my-games');
    else this.app.conn.unwatchLobby('my-games');
  }

  // A room listing (the lobby's `rooms` reply): the names of each room's seats.
  noteRooms(rooms) {
    for (const r of rooms || []) this.seats.set(r.room, r.seats);
    this.render();
  }

  lobby(msg) {
    let stale = false;
    for (const r of msg.changed || []) {
      this.seats.set(r.room, r.seats);
      const g = this.entry(r.room);
      if (g) {
        const yours = r.status === 'playing' && r.to_move === g.seat;
        if (yours !== g.your_turn || r.status !== g.status) stale = true;
      } else if (r.status !== 'finished' && r.seats?.some((st) => st.player?.id === this.mine)) {
        stale = true;  // a game of the player's that the list does not have yet
      }
    }
    for (const id of msg.removed || []) {
      this.seats.delete(id);
      if (this.entry(id)) stale = true;
    }
    if (stale) this.schedule();
  }

  // A room's state (room.js): asks again when it tells another turn than the list's.
  noteState(msg) {
    if (msg.seats) this.seats.set(msg.room, msg.seats);
    const g = this.entry(msg.room);
    if (g) {
      const yours = msg.status === 'playing' && msg.pending?.seat === g.seat;
      if (yours !== g.your_turn || msg.status !== g.status) this.schedule();
    } else if (msg.status !== 'finished' && msg.seats?.some((st) => st.player?.id === this.mine)) {
      this.schedule();
    }
  }

  // Every game, the player's turn first, as a list of links.
  listElement(id) {
    const games = [...this.games].sort((a, b) => Number(this.yours(b)) - Number(this.yours(a)) || (a.deadline ?? Infinity) - (b.deadline ?? Infinity));
    return h('ul', {class: 'my-games', id}, games.map((g) => this.item(g)));
  }

  item(g) {
    const yours = this.yours(g);
    const href = `#/room/${encodeURIComponent(g.room)}`;
    const seats = this.seats.get(g.room);
    const others = seats ? seats.filter((st) => st.seat !== g.seat && (st.player || st.cpu))
      .map((st) => markedName(st.player, seatName(seats, st.seat))) : [];
    const bits = [h('a', {href, class: 'my-game-link', onclick: () => rememberSeat(g.room)}, gameName(g.game, this.app.game(g.game)))];
    if (others.length) bits.push(' ', h('span', {class: 'my-game-who'}, tNodes('mygames.against', {names: listNodes(others)})));
    const state = yours ? h('span', {class: 'tag turn'}, t('mygames.your_turn'))
      : h('span', {class: 'tag'}, t(g.status === 'waiting' ? 'mygames.waiting_players' : 'mygames.their_turn'));
    bits.push(' ', state);
    const tm = normalTimer(g.timer);
    if (tm?.type === 'correspondence' && g.deadline && yours) {
      const left = g.deadline - serverNow();
      bits.push(h('div', {class: 'small my-game-time'}, t('tc.left_due', {left: t('tc.left', {time: longLeft(left)}), due: localDate(g.deadline)})));
    } else if (timerShort(tm)) {
      bits.push(h('div', {class: 'small muted my-game-time'}, timerShort(tm)));
    }
    return h('li', {class: `my-game${yours ? ' your-turn' : ''}`, 'data-room': g.room, 'data-your-turn': String(yours)}, bits);
  }

  // The header's "Your turn" and the count of games waiting for the player, named by what it
  // counts ("Your turn [2 games]"), shown while there are some; on a phone its icon, a short word
  // where the width allows ("Turn [2]") and the number, the words for screen readers (style.css). What the count counts is its tooltip too, and the
  // panel's first line. At 0 it keeps its room for a moment before it goes: the count passes
  // through 0 while the computer answers a move, and the header would jump each time.
  render() {
    if (!this.headEl) return;
    const n = this.waiting().length;
    if (n || this.headEl.hidden) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
      this.headEl.hidden = !n;
      this.headEl.classList.remove('turns-idle');
    } else if (!this.idleTimer) {
      this.headEl.open = false;
      this.headEl.classList.add('turns-idle');
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        if (!this.waiting().length) this.headEl.hidden = true;
        this.render();
      }, IDLE_MS);
    }
    const label = t('mygames.waiting_label', {n});
    const [before, after] = t('mygames.head_count', {n}).split(String(n));
    this.summaryEl.replaceChildren(icon('play'), h('span', {class: 'turns-word'}, t('mygames.head')),
      // The short word drawn from an attribute: the summary's words stay the long ones.
      h('span', {class: 'turns-short', 'aria-hidden': 'true', 'data-short': t('mygames.head_short')}), ' ',
      h('span', {class: 'turns-count'}, before ? h('span', {class: 'turns-unit'}, before) : '',
        h('span', {class: 'turns-n'}, String(n)), after ? h('span', {class: 'turns-unit'}, after) : ''));
    this.summaryEl.title = label;
    this.summaryEl.dataset.count = String(n);
    this.panelEl.replaceChildren(h('p', {class: 'turns-title'}, label), this.listElement('turns-list'));
  }

  relabel() { this.render(); }
}

// A room: seats, the board, the controls for the pending decision, the event log, the clock,
// the result, resign and rematch. Players and spectators share the view.
import {h, toast, ordinal, plural, seatName} from './util.js';
import {boardFor} from './boards/index.js';
import {sha256Hex} from './verify.js';

const SEATS_KEY = 'tanbo.seats';
const LOG_MAX = 200;

function seatRooms() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY)) || []; } catch { return []; }
}
export function rememberSeat(room) {
  const rooms = seatRooms().filter((r) => r !== room);
  rooms.unshift(room);
  localStorage.setItem(SEATS_KEY, JSON.stringify(rooms.slice(0, 50)));
}
function hasSeat(room) { return seatRooms().includes(room); }

const REASONS = {
  finished: 'a player emptied their side', resigned: 'resignation', annihilation: 'a colour lost every stone',
  captured_all: 'every stone captured', immobilised: 'a player could not move',
  repetition: 'the position repeated three times', no_capture: '200 turns without a capture',
  '25_points': '25 points reached', lead_20: 'a lead of 20 points', '20_in_turn': '20 points in one turn',
  stalled: 'too many turns without a score change', timeout: 'time ran out',
};

export class RoomView {
  constructor(app, room) {
    this.app = app;
    this.room = room;
    this.msg = null;       // the last state message
    this.seat = null;      // my seat, when I play here
    this.role = null;
    this.logged = -1;      // the last version whose events are in the log
    this.sent = -1;        // the version an action was sent for (one click per version)
    this.clockTimer = null;
    this.verified = null;  // {commit, ok}
  }

  mount(main) {
    this.main = main;
    this.titleEl = h('h2', {id: 'room-title'}, `Room ${this.room}`);
    this.infoEl = h('div', {class: 'room-info'});
    this.seatsEl = h('ol', {class: 'seats', 'aria-label': 'Seats'});
    this.bannerEl = h('p', {class: 'banner', id: 'banner', role: 'status', 'aria-live': 'polite'});
    this.boardEl = h('div', {class: 'board', id: 'board'});
    this.controlsEl = h('div', {class: 'controls', id: 'controls'});
    this.resultEl = h('div', {class: 'result', id: 'result'});
    this.actionsEl = h('div', {class: 'room-actions'});
    this.logEl = h('ul', {class: 'log', id: 'log'});
    this.dialog = this.resignDialog();
    main.append(
      h('div', {class: 'room-head'}, this.titleEl, this.infoEl),
      this.seatsEl, this.bannerEl,
      h('div', {class: 'play'}, this.boardEl,
        h('div', {class: 'side'}, this.controlsEl, this.resultEl, this.actionsEl,
          h('section', {'aria-labelledby': 'log-h'}, h('h3', {id: 'log-h'}, 'What happened'),
            this.logEl))),
      this.dialog);
    this.clockTimer = setInterval(() => this.tickClock(), 250);
    if (this.app.conn.state === 'open') this.enter(false);
  }

  unmount() {
    clearInterval(this.clockTimer);
    this.app.conn.fire({type: 'leave', room: this.room}).catch(() => {});
  }

  ready({reconnect}) { this.enter(reconnect); }

  async enter(reconnect) {
    const conn = this.app.conn;
    const as = hasSeat(this.room) ? 'player' : 'spectator';
    try {
      const joined = await conn.request({type: 'join', room: this.room, as});
      this.role = joined.role;
      this.seat = joined.role === 'player' ? joined.seat : null;
      if (reconnect && this.msg)
        await conn.request({type: 'resume', room: this.room, version: this.msg.version});
    } catch (err) {
      if (err.code === 'no_such_room') {
        this.bannerEl.textContent = 'There is no such room (it may have ended and been closed).';
        this.boardEl.replaceChildren(h('p', {}, h('a', {href: '#/'}, 'Back to the lobby')));
      } else if (err.code === 'room_full' && as === 'player') {
        localStorage.setItem(SEATS_KEY, JSON.stringify(seatRooms().filter((r) => r !== this.room)));
        this.enter(reconnect);
      } else if (err.code !== 'disconnected') {
        toast(`Room: ${err.message}`);
      }
    }
  }

  message(msg) {
    if (msg.room !== this.room) return;
    if (msg.type === 'resumed') {
      for (const step of msg.steps || []) this.logStep(step.version, step.events);
      return;
    }
    if (msg.type !== 'state') return;
    const firstOfVersion = !this.msg || msg.version !== this.msg.version;
    // A state without `legal` for the same version (a spectator count) keeps what we had.
    this.msg = msg;
    if (firstOfVersion || msg.version > this.logged) this.logStep(msg.version, msg.events);
    if (msg.seed && msg.commit && this.verified?.commit !== msg.commit) this.verifySeed(msg);
    this.render();
  }

  logStep(version, events) {
    if (version <= this.logged) return;
    this.logged = version;
    const board = boardFor(this.msg?.game);
    const name = (seat) => seatName(this.msg?.seats, seat);
    const lines = [];
    for (const ev of events || []) {
      const text = describeCore(ev, name, board) ?? board.describeEvent?.(ev, name);
      if (text) lines.push(text);
    }
    if (!lines.length) return;
    const item = h('li', {'data-version': version},
      h('span', {class: 'v'}, `#${version}`), ' ', lines.join('; '));
    this.logEl.prepend(item);
    while (this.logEl.children.length > LOG_MAX) this.logEl.lastElementChild.remove();
  }

  render() {
    const m = this.msg;
    const g = this.app.game(m.game);
    const board = boardFor(m.game);
    this.titleEl.textContent = `${g ? g.name : m.game}: room ${this.room}`;
    this.infoEl.replaceChildren(
      h('span', {class: `status status-${m.status}`}, m.status),
      ' · ',
      h('span', {class: 'spectators', id: 'spectators'}, `${plural(m.spectators, 'spectator')} watching`),
      ' · ',
      h('span', {}, this.seat !== null ? `You play seat ${this.seat + 1}` : 'You are watching'),
      ' · ',
      h('button', {type: 'button', class: 'link', onclick: () => this.copyLink()}, 'Copy link'));

    this.renderSeats(m);

    const mine = m.pending && this.seat !== null && m.pending.seat === this.seat && m.legal;
    const legal = mine && this.sent !== m.version ? m.legal : null;
    const act = (action) => this.act(action);
    const viewer = this.seat ?? 0;
    const name = (seat) => seatName(m.seats, seat);

    const focusWasOnBoard = this.main.contains(document.activeElement) &&
                            document.activeElement !== this.main;
    if (m.state) {
      const out = board.render({state: m.state, legal, pending: m.pending, me: this.seat, viewer,
                                seats: m.seats, act, name});
      this.boardEl.replaceChildren(out.svg);
      this.controlsEl.replaceChildren(...(out.controls || []));
      if (legal) this.controlsEl.append(allActions(legal, board, act));
      this.bannerEl.textContent = this.banner(m, board, name);
    } else {
      this.boardEl.replaceChildren(h('p', {class: 'waiting'}, 'Waiting for every seat to be taken…'));
      this.controlsEl.replaceChildren();
      this.bannerEl.textContent = this.banner(m, board, name);
    }
    this.renderResult(m, name);
    this.renderActions(m);
    if (legal && !focusWasOnBoard) {
      const first = this.boardEl.querySelector('.pick') || this.controlsEl.querySelector('button');
      if (first && document.activeElement === document.body) first.focus({preventScroll: true});
    }
  }

  banner(m, board, name) {
    if (m.status === 'waiting') {
      const free = m.seats.filter((st) => !st.player && !st.cpu).length;
      return `Waiting for ${plural(free, 'player')} to join.`;
    }
    if (m.status === 'finished') return `Game over.`;
    if (!m.pending) return '';
    const what = board.decisions?.[m.pending.decision] || m.pending.decision;
    if (this.seat !== null && m.pending.seat === this.seat) return `Your turn: ${what}.`;
    return `${name(m.pending.seat)} to play (seat ${m.pending.seat + 1}): ${what}.`;
  }

  renderSeats(m) {
    this.seatsEl.replaceChildren(...m.seats.map((st) => {
      const turn = m.pending && m.pending.seat === st.seat;
      const place = m.result ? m.result.places[st.seat] : null;
      const who = st.player ? st.player.name : st.cpu ? `Computer (${st.level || 'cpu'})` : 'Free seat';
      const bits = [h('span', {class: 'seat-no'}, `Seat ${st.seat + 1}`), ' ', h('strong', {}, who)];
      if (st.seat === this.seat) bits.push(' ', h('span', {class: 'tag'}, 'you'));
      if (st.cpu && st.player) bits.push(' ', h('span', {class: 'tag'}, 'computer standing in'));
      if (st.player)
        bits.push(' ', h('span', {class: `dot ${st.connected ? 'on' : 'off'}`},
          st.connected ? 'online' : 'offline'));
      if (turn) bits.push(' ', h('span', {class: 'tag turn'}, '▶ to play'));
      if (turn && m.clock && m.clock.seat === st.seat) bits.push(' ', h('span', {class: 'clock', 'data-clock': ''}));
      if (place) bits.push(' ', h('span', {class: 'tag place'}, `${ordinal(place)} place`));
      if (!st.player && !st.cpu && m.status === 'waiting' && this.seat === null)
        bits.push(' ', h('button', {type: 'button', 'data-take': st.seat,
          onclick: () => this.takeSeat(st.seat)}, 'Take this seat'));
      return h('li', {class: `seat${turn ? ' turn' : ''}${st.seat === this.seat ? ' mine' : ''}`}, bits);
    }));
    if (m.clock) this.clockDeadline = performance.now() + m.clock.left;
    this.tickClock();
  }

  tickClock() {
    const el = this.seatsEl?.querySelector('[data-clock]');
    if (!el || !this.msg?.clock) return;
    const left = Math.max(0, this.clockDeadline - performance.now());
    const s = Math.ceil(left / 1000);
    el.textContent = `⏱ ${s} s left`;
    el.classList.toggle('low', s <= 10);
  }

  renderResult(m, name) {
    if (m.status !== 'finished' || !m.result) {
      this.resultEl.replaceChildren();
      return;
    }
    const order = m.result.places.map((p, seat) => ({p, seat})).sort((a, b) => a.p - b.p);
    const mine = this.seat !== null ? m.result.places[this.seat] : null;
    const headline = mine === null ? 'Game over'
      : mine === 1 ? (m.result.places.filter((p) => p === 1).length > 1 ? 'A shared win' : 'You won!')
      : `You finished ${ordinal(mine)}`;
    const parts = [
      h('h3', {}, headline),
      h('p', {class: 'reason'}, `Reason: ${m.result.reason} (${REASONS[m.result.reason] || m.result.reason}).`),
      h('ol', {class: 'places'}, order.map(({p, seat}) =>
        h('li', {}, `${ordinal(p)}: ${name(seat)} (seat ${seat + 1})`))),
    ];
    if (this.verified && this.verified.commit === m.commit)
      parts.push(h('p', {class: this.verified.ok ? 'ok' : 'bad'}, this.verified.ok
        ? '✔ Seed checked: SHA-256 of the revealed seed equals the commitment shown from the start.'
        : '✘ The revealed seed does not match the commitment!'));
    if (m.rematch && m.rematch.length)
      parts.push(h('p', {}, `Rematch asked by: ${m.rematch.map(name).join(', ')}`));
    parts.push(h('p', {}, h('button', {type: 'button', class: 'link', onclick: () => this.openReplay()},
      'Replay this game')));
    this.resultEl.replaceChildren(...parts);
  }

  renderActions(m) {
    const buttons = [];
    if (this.seat !== null && m.status === 'playing')
      buttons.push(h('button', {type: 'button', class: 'danger', id: 'resign',
        onclick: () => this.dialog.showModal()}, 'Resign…'));
    if (this.seat !== null && m.status === 'finished') {
      const asked = (m.rematch || []).includes(this.seat);
      buttons.push(h('button', {type: 'button', class: 'primary', id: 'rematch', disabled: asked,
        onclick: () => this.rematch()}, asked ? 'Rematch asked: waiting' : 'Rematch'));
    }
    if (this.seat !== null && m.status === 'waiting' && !m.ranked) {
      const level = h('select', {id: 'fill-level', 'aria-label': 'Computer level'},
        ['random', 'greedy', 'mcts'].map((l) => h('option', {value: l}, l)));
      buttons.push(h('span', {class: 'fill-cpu'},
        h('button', {type: 'button', id: 'fill-cpu', onclick: () => this.fillCpu(level.value)},
          'Fill empty seats with the computer'), ' ', level));
    }
    buttons.push(h('a', {href: '#/', class: 'button'}, 'Back to lobby'));
    this.actionsEl.replaceChildren(...buttons);
  }

  resignDialog() {
    const d = h('dialog', {class: 'confirm', 'aria-labelledby': 'resign-h'},
      h('h3', {id: 'resign-h'}, 'Resign this game?'),
      h('p', {}, 'Your seat gives the game up at once; this cannot be undone.'),
      h('form', {method: 'dialog'},
        h('button', {value: 'cancel', id: 'resign-cancel', autofocus: true}, 'Keep playing'), ' ',
        h('button', {value: 'resign', class: 'danger', id: 'resign-confirm'}, 'Resign')));
    d.addEventListener('close', () => {
      if (d.returnValue === 'resign') this.resign();
    });
    return d;
  }

  async act(action) {
    const m = this.msg;
    if (this.sent === m.version) return;
    this.sent = m.version;
    this.render();  // controls off until the next state
    try {
      await this.app.conn.fire({type: 'act', room: this.room, version: m.version, action});
    } catch (err) {
      this.sent = -1;
      if (err.code !== 'stale_version') toast(`Refused: ${err.message}`);
      if (this.msg) this.render();
    }
  }

  async resign() {
    try {
      await this.app.conn.fire({type: 'resign', room: this.room});
    } catch (err) { toast(`Resign refused: ${err.message}`); }
  }

  async rematch() {
    try {
      await this.app.conn.fire({type: 'rematch', room: this.room});
    } catch (err) { toast(`Rematch refused: ${err.message}`); }
  }

  async fillCpu(level) {
    try {
      await this.app.conn.fire({type: 'fill_cpu', room: this.room, level});
    } catch (err) { toast(`The computer cannot take the seats: ${err.message}`); }
  }

  async takeSeat(seat) {
    try {
      const joined = await this.app.conn.request({type: 'join', room: this.room, as: 'player', seat});
      rememberSeat(this.room);
      this.role = joined.role;
      this.seat = joined.seat;
      if (this.msg) this.render();
    } catch (err) { toast(`Could not take the seat: ${err.message}`); }
  }

  copyLink() {
    const url = `${location.origin}/#/room/${encodeURIComponent(this.room)}`;
    navigator.clipboard?.writeText(url).then(() => toast('Link copied'), () => toast(url));
  }

  async verifySeed(m) {
    const ok = (await sha256Hex(m.seed)) === m.commit.toLowerCase();
    this.verified = {commit: m.commit, ok};
    if (this.msg) this.render();
  }

  async openReplay() {
    try {
      const res = await fetch(`/api/games?game=${encodeURIComponent(this.msg.game)}&limit=100`);
      const page = await res.json();
      const mine = (page.games || []).filter((g) => g.room === this.room)
        .sort((a, b) => b.game_no - a.game_no)[0];
      if (mine) location.hash = `#/replay/${encodeURIComponent(mine.id)}`;
      else toast('The record is not stored yet; try again in a moment.');
    } catch (err) { toast(`Could not find the record: ${err.message}`); }
  }
}

// Events the core adds to every game (engine/core/match.cpp); the replay words them the same.
export function describeCore(ev, name, board) {
  switch (ev.type) {
    case 'start': return `Game starts; ${name(ev.first)} moves first`;
    // A game may name its own events `action` too (Tanbo's T4 letters): those carry no `action`.
    case 'action': return ev.action === undefined ? undefined : `${name(ev.seat)}: ${board.describeAction(ev.action)}`;
    case 'forced': return `${name(ev.seat)} (only choice): ${board.describeAction(ev.action)}`;
    case 'resign': return `${name(ev.seat)} resigns`;
    case 'end': return `Game over (${ev.result.reason})`;
    default: return undefined;
  }
}

// Every legal action as a button: the fallback that keeps each decision reachable by keyboard
// and screen reader, whatever the board draws.
function allActions(legal, board, act) {
  return h('details', {class: 'all-actions'},
    h('summary', {}, `All legal choices (${legal.length})`),
    h('div', {class: 'choice-list'}, legal.map((a) =>
      h('button', {type: 'button', onclick: () => act(a)}, board.describeAction(a)))));
}


// A room: seats, the board, the controls for the pending decision, the event log, the clocks
// (clock.js), the end of the game (room-end.js), resign, rematch and a new opponent, and the chat
// (chat.js). Players and spectators share the view. The server's states are shown in order
// (motion.js): the board animates each step from the position before it, and everything else
// (banner, turn marks, decision bar, sounds, the log) follows the board, not the newest message.
import {h, toast} from './util.js';
import {t} from './i18n/index.js';
import {seatName, sentence, seatSign, youPlayText, place, levelName, gameName, errorText, errorDetails, spectatorsTag} from './words.js';
import {boardFor} from './boards/index.js';
import {boardLegend} from './boards/marks.js';
import {sha256Hex} from './verify.js';
import {Motion} from './motion.js';
import {BoardViewport} from './zoom.js';
import {Clock} from './clock.js';
import {play as sound} from './sound.js';
import {describeCore, withTimeOuts} from './describe.js';
import {challengeButton} from './challenges.js';
import {RoomChat} from './chat.js';
import {announce} from './dock.js';
import {accountMark} from './player-mark.js';
import {endCard} from './room-end.js';
import {seekMessage} from './play-now.js';
import {normalTimer} from './timectl.js';
import {icon} from './icons.js';

import {rememberSeat, hasSeat, forgetSeat, createdRooms} from './seats.js';

// "What happened" in a room: the events of each step in words, newest first. Decisions are
// numbered from their game's start as the replay counts them (the start is decision 0), and a
// line separates the games of a rematch. Entries keep the server's events, not their words, so
// a change of language rewords the whole log; the room shows them only as far as its board.
const LOG_MAX = 200;

class RoomLog {
  constructor() {
    this.steps = new Map();  // version -> events
  }

  add(version, events) {
    if (this.steps.has(version) || !events?.length) return;
    this.steps.set(version, events);
    if (this.steps.size > LOG_MAX) this.steps.delete(Math.min(...this.steps.keys()));
  }

  // The versions where a game started (a `start` event), oldest first.
  starts() {
    return [...this.steps.entries()].filter(([, evs]) => evs.some((e) => e.type === 'start')).map(([v]) => v).sort((a, b) => a - b);
  }

  // Who moved first in the latest game seen starting (a rematch may change it).
  first() {
    const v = this.starts().pop();
    return v === undefined ? undefined : this.steps.get(v).find((e) => e.type === 'start').first;
  }

  // The steps up to version `upTo` (the one the board shows: later ones are not told yet).
  render(el, describe, upTo = Infinity) {
    const starts = this.starts();
    const versions = [...this.steps.keys()].filter((v) => v <= upTo).sort((a, b) => b - a);
    const items = [];
    for (const v of versions) {
      const lines = this.steps.get(v).map(describe).filter(Boolean);
      const start = starts.filter((s) => s <= v).pop();
      const isStart = start === v;
      if (lines.length) {
        // A line in brackets (Japanese 「（4個）」, a sowing's stones) closes its action's sentence.
        const number = start !== undefined && !isStart ? h('span', {class: 'v'}, t('log.number', {n: v - start})) : null;
        items.push(h('li', {'data-version': v, 'data-decision': start !== undefined ? v - start : null, class: isStart ? 'start' : ''},
          number, number ? ' ' : '', sentence(lines.join(t('log.sep')).replaceAll(`${t('log.sep')}（`, '（'))));
      }
      // A rematch: a separator above the new game's start (the first game needs none).
      if (isStart && v > 1) items.push(h('li', {class: 'game-sep'}, t('log.new_game')));
    }
    el.replaceChildren(...items);
  }
}

const HISTORY = 64;  // steps a room keeps for `resume` (docs/protocol.md)

export class RoomView {
  constructor(app, room) {
    this.app = app;
    this.room = room;
    this.msg = null;       // the newest state message (the board may still be showing an older one)
    this.seat = null;      // my seat, when I play here
    this.role = null;
    this.sent = -1;        // the version an action was sent for (one click per version)
    this.verified = null;  // {commit, ok}
    this.log = new RoomLog();
    this.motion = new Motion({
      plan: (from, to) => boardFor(to.game).plan(from.state, to.state, to.events),
      frame: (f, to) => this.drawBoard(to, f.state, null, f.marks, false, true),
      moving: (to) => this.showMoving(to),
      settle: (m, how) => this.settle(m, how),
    });
    this.drawn = null;     // what the board shows: {version, frame} (the tests read it)
    this.terms = null;     // the room's terms as the lobby lists them: for New opponent
    this.onKey = (e) => this.key(e);
    this.viewport = new BoardViewport();
    this.viewport.onSpace = () => { if (this.msg?.state && !this.animating) this.render(false); };
    this.clock = new Clock({onLow: (seat) => { if (seat === this.seat) announce(t('clock.low_announce')); }});
    this.byComputer = new Map();  // seat -> 'timer' | 'takeover': the computer made its last decision
    this.historyAsked = false;
    this.created = createdRooms().includes(room);
    this.chat = new RoomChat(this);
  }

  // Whether the board is behind the newest state: a step animates, or states wait to be shown.
  get animating() { return this.motion.busy; }

  // The state the board shows, or animates towards.
  get shown() { return this.motion.shown; }

  // Whether the board shows that it is my turn (the header's "Your turn" reads it): not while a
  // step plays or waits; null when I hold no seat here or nothing is shown yet.
  get boardTurn() {
    const m = this.shown;
    if (!m || this.seat === null) return null;
    return m.status === 'playing' && m.pending?.seat === this.seat && !this.motion.busy;
  }

  mount(main) {
    this.main = main;
    this.titleEl = h('h2', {id: 'room-title'});
    this.infoEl = h('div', {class: 'room-info'});
    this.toolsEl = h('div', {class: 'room-tools'});
    this.seatsEl = h('ol', {class: 'seats'});
    // The banner's words are a live region; the clock beside them ticks outside it.
    this.bannerText = h('span', {role: 'status', 'aria-live': 'polite'});
    this.bannerClock = h('span', {class: 'banner-clock'});
    // While a step animates: a button that skips it (a tap on the board or Escape does too).
    this.bannerSkip = h('span', {class: 'banner-skip'});
    this.bannerEl = h('p', {class: 'banner', id: 'banner'}, this.bannerText, this.bannerClock, this.bannerSkip);
    this.boardEl = h('div', {class: 'board', id: 'board'}, this.viewport.el);
    this.boardEl.addEventListener('click', () => this.motion.skip());
    document.addEventListener('keydown', this.onKey);
    this.controlsEl = h('div', {class: 'controls', id: 'controls'});
    // Its height, for the room the page keeps below its last line while it is pinned (style.css).
    this.barSize = new ResizeObserver(() => document.body.style.setProperty('--bar-h', `${Math.ceil(this.controlsEl.offsetHeight)}px`));
    this.barSize.observe(this.controlsEl);
    this.factsEl = h('div', {class: 'facts-box', id: 'facts'});
    // Every possible move as a button, folded beside the board under the decision (allActions).
    this.choicesEl = h('div', {id: 'all-choices'});
    // The end of a game, above the board: the first thing read once it is over.
    this.resultEl = h('section', {class: 'result end-card', id: 'result', hidden: true, 'aria-label': t('replay.result')});
    this.actionsEl = h('div', {class: 'room-actions'});
    this.logHead = h('h3', {id: 'log-h'});
    this.logEl = h('ul', {class: 'log', id: 'log', tabindex: 0, 'aria-labelledby': 'log-h'});  // focusable: it scrolls
    this.dialog = h('dialog', {class: 'confirm', 'aria-labelledby': 'resign-h'});
    this.dialog.addEventListener('close', () => { if (this.dialog.returnValue === 'resign') this.resign(); });
    main.append(
      h('div', {class: 'room-head'}, this.titleEl, this.toolsEl, this.infoEl),
      this.seatsEl, this.bannerEl, this.resultEl,
      h('div', {class: 'play'}, this.boardEl,
        // The log before the chat: what happened stays in view beside the board. Two parts, side
        // by side under a long Tsoro board on a wide screen (style.css), else one column.
        h('div', {class: 'side'}, h('div', {class: 'side-part'}, this.controlsEl, this.choicesEl, this.factsEl, this.actionsEl),
          h('div', {class: 'side-part'}, h('section', {'aria-labelledby': 'log-h'}, this.logHead, this.logEl), this.chat.el))),
      this.dialog);
    this.relabel();
    if (this.app.paired?.room === this.room) {
      // Paired (Play now or a challenge): the server joined this connection itself, and its
      // `joined` and `state` are on their way; nothing to ask.
      this.role = 'player';
      this.seat = this.app.paired.seat;
      this.app.paired = null;
      this.chat.render();
    } else if (this.app.conn.state === 'open') {
      this.enter(false);
    }
  }

  unmount() {
    this.clock.stop();
    this.motion.stop();
    document.removeEventListener('keydown', this.onKey);
    document.body.classList.remove('has-decision');
    this.barSize.disconnect();
    this.chat.unmount();
    this.app.conn.fire({type: 'leave', room: this.room}).catch(() => {});
  }

  // Everything in words again, after a change of language.
  relabel() {
    this.seatsEl.setAttribute('aria-label', t('room.seats'));
    this.logHead.textContent = t('room.log');
    this.viewport.relabel();
    this.resignDialog();
    this.chat.relabel();
    if (this.motion.playing) this.motion.skip();  // the step's words were the old language's
    if (this.shown) this.redraw();
    else this.titleEl.textContent = t('room.title_plain', {room: this.room});
  }

  // Escape skips the step being animated; so does Space, away from fields and buttons.
  key(e) {
    if (!this.motion.playing || e.altKey || e.ctrlKey || e.metaKey) return;
    const field = e.target.closest?.('input, select, textarea, button, a, summary, [role=button], [contenteditable]');
    if (e.key === 'Escape' || (e.key === ' ' && !field)) {
      e.preventDefault();
      this.motion.skip();
    }
  }

  // Everything drawn again from the shown state, unless a step is on its way (its end will).
  redraw() {
    if (this.shown && !this.motion.busy) this.render(false);
  }

  ready({reconnect}) { this.enter(reconnect); }

  // The join's answer says whether I play here and where. It can come after the first state, while
  // the computer's opening move plays out: the title, the seats and the buttons say it at once.
  seatKnown() {
    if (!this.shown) return;
    if (this.motion.busy) this.showMoving(this.shown);
    else this.render(true);  // a decision it reveals comes into view
  }

  async enter(reconnect) {
    const conn = this.app.conn;
    const as = hasSeat(this.room) ? 'player' : 'spectator';
    try {
      const joined = await conn.request({type: 'join', room: this.room, as});
      this.role = joined.role;
      this.seat = joined.role === 'player' ? joined.seat : null;
      this.chat.history(joined.chat);
      this.chat.render();
      this.seatKnown();
      if (reconnect && this.msg)
        await conn.request({type: 'resume', room: this.room, version: this.msg.version, chat: this.chat.seen()});
    } catch (err) {
      if (err.code === 'no_such_room') {
        this.bannerText.textContent = t('room.none');
        this.viewport.scroller.replaceChildren(h('p', {}, h('a', {href: '#/'}, t('nav.back_lobby'))));
      } else if (err.code === 'room_full' && as === 'player') {
        forgetSeat(this.room);
        this.enter(reconnect);
      } else if (err.code !== 'disconnected') {
        toast(t('toast.room', {message: errorText(err)}), errorDetails(err));
      }
    }
  }

  // The steps before we came in, as far as the room keeps them: the log starts from the game's
  // start (so its numbers are the replay's) whenever the game is younger than the history.
  async askHistory(version) {
    if (this.historyAsked) return;
    this.historyAsked = true;
    try {
      await this.app.conn.request({type: 'resume', room: this.room, version: Math.max(0, version - HISTORY), chat: this.chat.seen()});
    } catch { /* the log starts here */ }
  }

  // The chat lines the room keeps after those already shown: for a player, the spectators'
  // channel once the game is over.
  chatHistory() {
    if (this.msg) this.catchUp();
  }

  message(msg) {
    if (msg.room !== this.room) return;
    if (msg.type === 'joined') {  // a join the server made for us (paired), as our own would be
      this.role = msg.role;
      this.seat = msg.role === 'player' ? msg.seat : null;
      this.chat.history(msg.chat);
      this.chat.render();
      this.seatKnown();
      return;
    }
    if (msg.type === 'said') return this.chat.said(msg);
    if (msg.type === 'unsaid') return this.chat.unsaid(msg);
    if (msg.type === 'resumed') {
      this.chat.history(msg.chat);
      for (const step of msg.steps || []) this.addStep(step.version, step.events);
      if (this.shown) this.renderLog(this.shown.version);
      return;
    }
    if (msg.type !== 'state') return;
    const prev = this.msg;
    const newVersion = !prev || msg.version !== prev.version;
    this.msg = msg;
    if (newVersion) this.addStep(msg.version, msg.events);
    if (!prev) {
      this.askHistory(msg.version);
      if (msg.status !== 'finished') this.chat.fetchOpen(msg.game);
      this.loadTerms(msg.game);
    }
    if (msg.seed && msg.commit && this.verified?.commit !== msg.commit) this.verifySeed(msg);
    // Shown in turn: my own move animates from the position I chose it on, then the reply.
    this.motion.push(msg);
  }

  addStep(version, events) {
    events = withTimeOuts(events);
    this.log.add(version, events);
    // A decision the computer made for a person (time out, away) is shown as the computer's.
    for (const ev of events || []) {
      if (ev.type === 'start') this.byComputer.clear();
      if (ev.type !== 'action') continue;
      if (ev.by === 'timer' || ev.by === 'takeover') this.byComputer.set(ev.seat, ev.by);
      else this.byComputer.delete(ev.seat);
    }
  }

  // The board has reached `m` (a step's end, or a state shown at once): everything follows it.
  // `fresh`: a new version; `last`: no state waits behind it (only then may I decide).
  settle(m, {fresh, last}) {
    this.app.myGames?.noteState(m);
    this.app.myGames?.render();
    this.render(fresh && last);
    if (!fresh) return;
    if (m.status === 'finished') {
      sound('end');
      const head = this.resultEl.querySelector('.end-headline');
      if (head) announce(head.textContent);
      // The card above the board comes into view, had the player scrolled down to the board.
      if (this.resultEl.getBoundingClientRect().top < 0) this.resultEl.scrollIntoView({block: 'start', behavior: 'instant'});
    } else if (last && this.myDecision()) sound('turn');
  }

  // A step is being animated towards `to`: the banner says what is played, and nobody is
  // marked to move, asked to decide or told the result until the board has shown it.
  showMoving(to) {
    this.app.myGames?.render();
    const view = {...to, pending: null, legal: undefined, result: null, rematch: null,
                  status: to.status === 'finished' ? 'playing' : to.status};
    this.renderChrome(view, {moving: to});
    this.controlsEl.replaceChildren();
    this.setDecision(false);
  }

  // My decision now: the board shows the newest state, which asks me, and I have not answered.
  myDecision() {
    const m = this.shown;
    return !!(m && m === this.msg && !this.motion.busy && m.pending && this.seat !== null &&
              m.pending.seat === this.seat && m.legal && this.sent !== m.version);
  }

  name() { return (seat) => seatName(this.msg?.seats, seat); }

  // The names inside the log's and the banner's sentences.
  told() { return (seat) => seatName(this.msg?.seats, seat, true); }

  // The log up to the step the board shows (or animates): no move is told before it is seen.
  renderLog(upTo) {
    const board = boardFor(this.msg?.game);
    const name = this.told();
    this.log.render(this.logEl, (ev) => describeCore(ev, name, board) ?? board.describeEvent?.(ev, name), upTo);
  }

  // Everything but the board, for the state `m` the board shows (`moving`: the step being
  // animated): title, seats, banner, result, buttons, log. The clocks are the newest state's:
  // time runs whatever the board shows.
  renderChrome(m, {moving = null} = {}) {
    const g = this.app.game(m.game);
    // The game's name: the room's id is in the link Copy link copies, which is all a player
    // does with it.
    this.titleEl.textContent = gameName(m.game, g);
    // Facts, each kept whole on a line; then Rules and Copy link as the room's tools.
    this.infoEl.replaceChildren(
      h('span', {class: `status status-${m.status}`}, t(`status.${m.status}`)),
      spectatorsTag(m.spectators, 'spectators'),
      h('span', {}, this.seat !== null ? youPlayText(m.game, m.state, this.seat, m.state?.first ?? this.log.first(), m.seats.length, m.status === 'finished') : t('room.you_watch')));
    // On a phone their icons alone (style.css), their words still their names.
    this.toolsEl.replaceChildren(
      h('a', {href: `#/rules/${encodeURIComponent(m.game)}`, class: 'button rules-link', title: t('room.rules')},
        icon('rules'), h('span', {class: 'tool-word'}, t('room.rules'))),
      h('button', {type: 'button', class: 'copy-link', title: t('room.copy_link'), onclick: () => this.copyLink()},
        icon('link'), h('span', {class: 'tool-word'}, t('room.copy_link'))));
    // The clocks while playing; a game clock's final times stay once the game is over.
    const now = this.msg;
    const clock = now.clock && (now.status === 'playing' || (now.status === 'finished' && now.clock.control === 'clock')) ? now.clock : null;
    this.clock.update(clock, this.main);
    this.renderSeats(m);
    this.renderBanner(m, moving);
    this.renderResult(m);
    this.renderActions(m);
    // A step being played is told once its board has shown it (its end settles the log).
    this.renderLog(moving ? moving.version - 1 : m.version);
    this.chat.update();
    this.clock.tick();
  }

  render(refocus) {
    const m = this.shown;
    this.renderChrome(m);
    const board = boardFor(m.game);
    const legal = this.myDecision() ? m.legal : null;
    if (!m.state) {
      this.viewport.out = null;
      this.viewport.nav.hidden = true;
      this.viewport.scroller.replaceChildren(h('p', {class: 'waiting'}, t('room.waiting_board')));
      this.controlsEl.replaceChildren();
      this.factsEl.replaceChildren();
      this.choicesEl.replaceChildren();
      this.setDecision(false);
      return;
    }
    const marks = board.lastMove(m.events, m.state);
    const out = this.drawBoard(m, m.state, legal, marks, refocus);
    this.showLegend(m.game, {play: this.seat !== null && m.status !== 'finished', pick: m.pending?.decision === 'place_farmer' ? 'paddy' : null, last: !!marks?.to});
    const bar = [];
    if (out.hint) bar.push(h('p', {class: 'hint'}, out.hint));
    bar.push(...(out.controls || []));
    this.controlsEl.replaceChildren(...bar);
    this.factsEl.replaceChildren(...(out.facts || []));
    this.choicesEl.replaceChildren(legal ? allActions(legal, board, (a) => this.act(a)) : '');
    this.setDecision(!!legal);
    if (legal && refocus) requestAnimationFrame(() => this.boardIntoView());
    // A decision brings focus to its first control, unless the player is typing or already on
    // one of the board's or the decision's controls.
    const active = document.activeElement;
    const busy = active && active !== document.body && (active.matches('input, select, textarea') ||
      this.boardEl.contains(active) || this.controlsEl.contains(active) || this.chat.el.contains(active) ||
      this.dialog.open || !!document.querySelector('dialog[open]'));
    if (legal && !busy) {
      const first = this.boardEl.querySelector('.pick [role=button]') || this.controlsEl.querySelector('button');
      first?.focus({preventScroll: true});
    }
  }

  // What the board's marks mean, under it (boards/marks.js): drawn again with the language.
  showLegend(game, o) {
    const legend = boardLegend(game, o);
    const key = `${game}:${o.play}:${o.pick}:${legend?.textContent}`;
    if (this.legendKey === key) return;
    this.legendKey = key;
    this.boardEl.querySelector('.board-legend')?.remove();
    if (legend) this.boardEl.append(legend);
  }

  // On a phone, a decision scrolls the page so that the player sees what is asked and what they
  // decide about: the prompt from its first line and the whole board above the decision bar,
  // scrolling as little as may be. A board that fits above the bar but not under its prompt
  // (Tanbo's two fields, Tsoro's turned board) is kept whole instead, from its legend's top when
  // that fits too: the prompt is then wholly above, never cut mid-line (the bar says what to
  // do). A board taller than the screen is shown from the prompt on.
  boardIntoView() {
    if (innerWidth > 760) return;
    const board = this.boardEl.getBoundingClientRect();
    const top = (this.bannerEl.hidden ? this.boardEl : this.bannerEl).getBoundingClientRect().top;
    const bar = this.controlsEl.classList.contains('active') ? this.controlsEl.getBoundingClientRect().height : 0;
    const room = innerHeight - bar;
    const lo = board.bottom - room, hi = top - 4;
    const drawn = this.boardEl.querySelector('svg.board-svg')?.getBoundingClientRect() ?? board;
    const by = lo <= hi ? Math.min(Math.max(0, lo), hi)
      : drawn.height <= room - 4 ? Math.max(drawn.bottom - room, board.top - 4) : hi;
    if (by) window.scrollBy({top: by, behavior: 'instant'});
  }

  // The decision bar: on a phone the controls of my decision stay in view, fixed at the bottom.
  setDecision(on) {
    this.controlsEl.classList.toggle('active', on && this.controlsEl.childElementCount > 0);
    document.body.classList.toggle('has-decision', on && this.controlsEl.childElementCount > 0);
  }

  // The board of state `m` at position `state`; an animation `frame` has nobody to decide.
  // A frame marks nobody to move either: its position is the one before the step, whose mover
  // has just moved.
  drawBoard(m, state, legal, marks, refocus, frame = false) {
    if (frame && state && typeof state === 'object') state = {...state, to_move: null};
    const out = boardFor(m.game).render({state, legal, pending: frame ? null : m.pending, me: this.seat, viewer: this.seat ?? 0,
                                         seats: m.seats, act: (a) => this.act(a), name: this.name(), marks});
    this.drawn = {version: m.version, frame};
    this.viewport.show(out, refocus);
    return out;
  }

  renderBanner(m, moving) {
    const name = this.told();
    let text = '';
    this.bannerSkip.replaceChildren();
    if (moving) {
      // What is being played, in the log's words: "Computer 2: sow hole 4".
      const board = boardFor(m.game);
      const ev = (moving.events || []).find((e) => ['action', 'forced', 'resign', 'time'].includes(e.type));
      // My own move is "You: sow hole 4" to me.
      const mine = ev?.type === 'action' && ev.seat === this.seat && !['timer', 'takeover'].includes(ev.by) && !board.describeSetup?.(ev, name);
      text = mine ? t('core.action_mine', {what: board.describeAction(ev.action, ev.seat)})
        : (ev && (describeCore(ev, name, board) ?? board.describeEvent?.(ev, name))) || '';
      this.bannerSkip.append(h('button', {type: 'button', class: 'link skip-step', id: 'skip-motion',
        'aria-keyshortcuts': 'Escape', onclick: () => this.motion.skip()}, t('room.skip')));
    } else if (m.status === 'waiting') text = t('room.waiting', {n: m.seats.filter((st) => !st.player && !st.cpu).length});
    else if (m.status === 'finished') text = t('room.game_over');
    else if (m.pending) {
      const kind = m.pending.decision;
      text = this.seat !== null && m.pending.seat === this.seat
        ? boardFor(m.game).myTurn?.(m, this.seat, name, m.state?.first ?? this.log.first()) ?? t('turn.mine', {what: t(`decision.${m.game}.${kind}.mine`)})
        : t(`decision.${m.game}.${kind}.other`, {name: name(m.pending.seat)});
    }
    this.bannerText.replaceChildren(sentence(text));
    this.bannerClock.replaceChildren(...(this.clock.inBanner() ? [' ', this.clock.element()] : []));
    // Once over, the end card below says it (its headline is announced as the game ends).
    this.bannerEl.hidden = !moving && m.status === 'finished' && !!m.result;
  }

  renderSeats(m) {
    this.seatsEl.replaceChildren(...m.seats.map((st) => {
      const turn = m.pending && m.pending.seat === st.seat;
      const placeNo = m.result ? m.result.places[st.seat] : null;
      const who = seatName(m.seats, st.seat);
      // The name, its account's mark and its place at the end keep to one line together.
      const name = h('span', {class: 'seat-who'}, st.player ? h('a', {href: `#/player/${encodeURIComponent(st.player.id)}`, class: 'seat-name'}, who)
        : h('strong', {class: 'seat-name'}, who), accountMark(st.player) || '', placeNo ? [' ', h('span', {class: 'tag place'}, place(placeNo))] : '');
      const bits = [h('span', {class: 'seat-no', 'aria-hidden': m.game === 'steere-tanbo' ? null : 'true'}, seatSign(m.game, m.state, st.seat)), ' ', name];
      if (st.seat === this.seat) bits.push(' ', h('span', {class: 'tag'}, t('seat.you')));
      if (st.cpu && !st.player && st.level) bits.push(' ', h('span', {class: 'tag'}, t('seat.level', {level: levelName(st.level)})));
      if (st.cpu && st.player) bits.push(' ', h('span', {class: 'tag cpu'}, t('seat.standing_in')));
      const by = this.byComputer.get(st.seat);
      if (by) bits.push(' ', h('span', {class: 'tag cpu', 'data-by': by}, t(`seat.by.${by}`)));
      // Whether the others are here (one's own presence says nothing, and takes a phone's line).
      if (st.player && st.seat !== this.seat)
        bits.push(' ', h('span', {class: `presence ${st.connected ? 'on' : 'off'}`}, t(st.connected ? 'seat.online' : 'seat.offline')));
      const challenge = challengeButton(this.app, st.player, m.game, {class: 'link challenge-seat', 'data-challenge-seat': st.seat});
      if (challenge) bits.push(' ', challenge);
      if (turn) bits.push(' ', h('span', {class: 'tag turn'}, t('seat.to_play')));
      if (this.clock.shows(st.seat)) bits.push(' ', this.clock.element(st.seat));
      if (!st.player && !st.cpu && m.status === 'waiting' && this.seat === null)
        bits.push(' ', h('button', {type: 'button', 'data-take': st.seat, onclick: () => this.takeSeat(st.seat)}, t('seat.take')));
      return h('li', {class: `seat${turn ? ' turn' : ''}${st.seat === this.seat ? ' mine' : ''}`, 'data-seat': st.seat}, bits);
    }));
  }

  renderResult(m) {
    if (m.status !== 'finished' || !m.result) {
      this.resultEl.replaceChildren();
      this.resultEl.hidden = true;
      return;
    }
    const buttons = [];
    if (this.seat !== null) {
      const asked = (m.rematch || []).includes(this.seat);
      buttons.push(
        h('button', {type: 'button', class: 'primary', id: 'rematch', disabled: asked, onclick: () => this.rematch()},
          t(asked ? 'room.rematch_waiting' : 'room.rematch')),
        h('button', {type: 'button', class: 'primary', id: 'new-opponent', onclick: (e) => this.newOpponent(e.currentTarget)},
          t('room.new_opponent')));
    }
    const links = [
      h('button', {type: 'button', class: 'link', id: 'open-replay', onclick: () => this.openReplay()}, t('result.replay')),
      h('a', {href: '#/'}, t('nav.back_lobby'))];
    const verified = this.verified && this.verified.commit === m.commit ? this.verified : null;
    this.resultEl.hidden = false;
    this.resultEl.replaceChildren(...endCard({m, me: this.seat, name: this.told(), verified, buttons, links,
      onTime: m.result.reason === 'time' ? this.timedOut(m) : []}));
  }

  // The seats whose time ran out in the game just finished: from its `time` events (the last
  // step's, or the log's since the game's start), else the last place.
  timedOut(m) {
    const seats = new Set((m.events || []).filter((e) => e.type === 'time').map((e) => e.seat));
    if (!seats.size) {
      const start = this.log.starts().filter((v) => v <= m.version).pop() ?? 0;
      for (const [v, evs] of this.log.steps)
        if (v >= start) for (const e of evs) if (e.type === 'time') seats.add(e.seat);
    }
    if (!seats.size) {
      const worst = Math.max(...m.result.places);
      m.result.places.forEach((p, seat) => { if (p === worst) seats.add(seat); });
    }
    return [...seats];
  }

  renderActions(m) {
    const buttons = [];
    if (this.seat !== null && m.status === 'playing')
      buttons.push(h('button', {type: 'button', class: 'danger', id: 'resign', onclick: () => this.dialog.showModal()}, t('room.resign')));
    if (this.seat !== null && m.status === 'waiting' && !m.ranked) {
      const level = h('select', {id: 'fill-level', 'aria-label': t('room.fill_level')},
        ['random', 'greedy', 'mcts'].map((l) => h('option', {value: l}, levelName(l))));
      buttons.push(h('span', {class: 'fill-cpu'},
        h('button', {type: 'button', id: 'fill-cpu', onclick: () => this.fillCpu(level.value)}, t('room.fill_cpu')), ' ', level));
    }
    // Once finished, the end card holds the way back.
    if (m.status !== 'finished') buttons.push(h('a', {href: '#/', class: 'button'}, t('nav.back_lobby')));
    this.actionsEl.replaceChildren(...buttons);
  }

  resignDialog() {
    this.dialog.replaceChildren(
      h('h3', {id: 'resign-h'}, t('resign.title')),
      h('p', {}, t('resign.text')),
      h('form', {method: 'dialog'},
        h('button', {value: 'cancel', id: 'resign-cancel', autofocus: true}, t('resign.cancel')), ' ',
        h('button', {value: 'resign', class: 'danger', id: 'resign-confirm'}, t('resign.confirm'))));
  }

  async act(action) {
    const m = this.msg;
    if (this.sent === m.version || !this.myDecision()) return;
    this.sent = m.version;
    this.render(false);  // controls off until the next state
    try {
      const ok = await this.app.conn.fire({type: 'act', room: this.room, version: m.version, action});
      // Silence: the answer or its state was lost on the way; the room says where it is.
      if (ok === null && this.msg.version === m.version) {
        this.sent = -1;
        this.catchUp();
        this.redraw();
      }
    } catch (err) {
      this.sent = -1;
      if (err.code === 'unknown_outcome') this.catchUp();
      else if (err.code !== 'stale_version') toast(t('toast.refused', {message: errorText(err)}), errorDetails(err));
      this.redraw();
    }
  }

  // The server could not say whether a move took effect: the room's state tells.
  catchUp() {
    this.app.conn.request({type: 'resume', room: this.room, version: this.msg.version, chat: this.chat.seen()}).catch(() => {});
  }

  async resign() {
    try { await this.app.conn.fire({type: 'resign', room: this.room}); }
    catch (err) {
      if (err.code === 'unknown_outcome') this.catchUp();
      else toast(t('toast.resign_refused', {message: errorText(err)}), errorDetails(err));
    }
  }

  async rematch() {
    try { await this.app.conn.fire({type: 'rematch', room: this.room}); }
    catch (err) { toast(t('toast.rematch_refused', {message: errorText(err)}), errorDetails(err)); }
  }

  async fillCpu(level) {
    try { await this.app.conn.fire({type: 'fill_cpu', room: this.room, level}); }
    catch (err) { toast(t('toast.fill_refused', {message: errorText(err)}), errorDetails(err)); }
  }

  async takeSeat(seat) {
    try {
      const joined = await this.app.conn.request({type: 'join', room: this.room, as: 'player', seat});
      rememberSeat(this.room);
      this.role = joined.role;
      this.seat = joined.seat;
      this.chat.history(joined.chat);
      if (this.shown && !this.motion.busy) this.render(true);
    } catch (err) { toast(t('toast.take_refused', {message: errorText(err)}), errorDetails(err)); }
  }

  copyLink() {
    const url = `${location.origin}/#/room/${encodeURIComponent(this.room)}`;
    navigator.clipboard?.writeText(url).then(() => toast(t('toast.link_copied')), () => toast(url));
  }

  async verifySeed(m) {
    const ok = (await sha256Hex(m.seed)) === m.commit.toLowerCase();
    this.verified = {commit: m.commit, ok};
    if (this.shown && !this.motion.busy) this.renderChrome(this.shown);
  }

  // The room's terms (game, options, players, time control, ranked) as the lobby lists it, for
  // New opponent; a room the lobby does not list leaves the remembered Play now terms.
  async loadTerms(game) {
    try {
      const reply = await this.app.conn.request({type: 'rooms', game});
      const r = (reply.rooms || []).find((x) => x.room === this.room);
      if (r) this.terms = {players: r.seats.length, options: r.options, timer: normalTimer(r.timer), ranked: !!r.ranked};
    } catch { /* New opponent falls back on the remembered terms */ }
  }

  // New opponent: Play now on this game's terms; the waiting panel takes it from there.
  newOpponent(origin) {
    const g = this.app.game(this.msg.game);
    if (!g) return;
    this.app.playNow.start(seekMessage(g, this.terms), origin);
  }

  async openReplay() {
    try {
      const res = await fetch(`/api/games?game=${encodeURIComponent(this.msg.game)}&limit=100`);
      const page = await res.json();
      const mine = (page.games || []).filter((g) => g.room === this.room).sort((a, b) => b.game_no - a.game_no)[0];
      if (mine) location.hash = `#/replay/${encodeURIComponent(mine.id)}`;
      else toast(t('toast.no_record'));
    } catch (err) { toast(t('toast.record_failed', {message: errorText(err)}), errorDetails(err)); }
  }
}

// Every legal action as a button: the fallback that keeps each decision reachable by keyboard
// and screen reader, whatever the board draws.
function allActions(legal, board, act) {
  return h('details', {class: 'all-actions'},
    h('summary', {}, t('room.all_choices', {n: legal.length})),
    h('div', {class: 'choice-list'}, legal.map((a) =>
      h('button', {type: 'button', onclick: () => act(a)}, board.describeAction(a)))));
}

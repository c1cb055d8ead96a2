// Replays of finished games from the public API: the list (/api/games), one record
// (/api/games/{id}) and its steps (/api/games/{id}/steps: the server replays the record through
// the engine and gives the public state after each decision, so each board is drawn by the room's
// own board code and the page never re-implements a rule); the seed is checked in the page, its
// details folded away below the moves. A step forward animates its board; its words ("What this
// move did", what comes next) are the step's at once.
import {h, apiError} from './util.js';
import {t} from './i18n/index.js';
import {recordNames, sentence, place, reason, optionsText, drawnWhat, gameName, errorText, errorDetails} from './words.js';
import {placesList, reasonLine} from './room-end.js';
import {boardFor} from './boards/index.js';
import {boardLegend} from './boards/marks.js';
import {sha256Hex, firstDraw} from './verify.js';
import {describeCore, withTimeOuts} from './describe.js';
import {icon} from './icons.js';
import {tNodes, listNodes} from './player-mark.js';
import {Animator} from './motion.js';
import {BoardViewport} from './zoom.js';

export class ReplayListView {
  constructor(app) { this.app = app; this.page = null; this.error = null; }

  async mount(main) {
    this.main = main;
    this.relabel();
    try {
      const page = await (await fetch('/api/games?limit=50')).json();
      if (!page.games) throw apiError(page, {statusText: '', status: 0});
      this.page = page;
    } catch (err) {
      this.error = err;
    }
    if (this.app.view === this) this.relabel();  // not once the page has moved on
  }

  relabel() {
    const list = h('ul', {class: 'rooms', id: 'replay-list'});
    if (this.error) list.append(h('li', {}, t('replays.failed', {message: errorText(this.error)}), ' ', errorDetails(this.error) ?? ''));
    else if (!this.page) list.append(h('li', {}, t('app.loading')));
    else if (!this.page.games.length) list.append(h('li', {class: 'muted'}, t('replays.none')));
    else list.append(...this.page.games.map((g) => gameItem(this.app, g)));
    this.main.replaceChildren(h('h2', {}, t('replays.title')), list);
  }
}

// One finished game in a list: who took which place, why, when, and its replay.
export function gameItem(app, g) {
  const name = recordNames(g);
  const who = g.result?.places?.map((p, seat) => [p, seat]).sort((a, b) => a[0] - b[0])
    .map(([p, seat]) => t('replays.who', {name: name(seat), place: place(p)})).join(t('log.and'));
  return h('li', {class: 'room', 'data-game-record': g.id},
    h('div', {class: 'room-main'}, h('strong', {}, gameName(g.game, app.game(g.game))), h('div', {}, who || ''),
      h('div', {class: 'muted small'}, [g.result ? reason(g.result.reason) : '', new Date(g.finished_at).toLocaleString(document.documentElement.lang)].filter(Boolean).join(t('list.sep')))),
    h('div', {class: 'room-actions'}, h('a', {class: 'button', href: `#/replay/${encodeURIComponent(g.id)}`}, t('replays.open'))));
}

// Keys that step the replay while focus is not in a field or on a board button.
const KEYS = {ArrowLeft: (v) => v.step - 1, ArrowRight: (v) => v.step + 1, Home: () => 0,
              End: (v) => v.record.actions.length};

export class ReplayView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.step = 0;
    this.steps = null;  // the server's steps; null when it could not give them (the list stays)
    this.stepsError = null;
    this.verifyLines = null;
    this.onKey = (e) => this.key(e);
    this.animator = new Animator();
    this.viewport = new BoardViewport();
  }

  get animating() { return this.animator.playing; }

  async mount(main) {
    this.main = main;
    main.append(h('h2', {}, t('replay.title_plain', {id: this.id})), h('p', {}, t('app.loading')));
    const id = encodeURIComponent(this.id);
    const steps = fetch(`/api/games/${id}/steps`).then(async (res) => {
      const body = await res.json();
      if (!res.ok) throw apiError(body, res);
      return body.steps;
    });
    steps.catch(() => {});  // awaited below: a failure costs the board only
    try {
      const res = await fetch(`/api/games/${id}`);
      const body = await res.json();
      if (!res.ok) throw apiError(body, res);
      this.record = body;
    } catch (err) {
      if (this.app.view !== this) return;
      main.replaceChildren(h('h2', {}, t('replay.title_plain', {id: this.id})), h('p', {role: 'alert'}, t('replay.failed', {message: errorText(err)}), ' ', errorDetails(err) ?? ''));
      return;
    }
    try {
      this.steps = await steps;
      if (this.steps?.length !== this.record.actions.length + 1) throw Object.assign(new Error('mismatch'), {words: t('replay.mismatch')});
    } catch (err) {
      this.steps = null;
      this.stepsError = err.words ?? errorText(err);
    }
    if (this.app.view !== this) return;  // the page moved on meanwhile
    this.build();
    document.addEventListener('keydown', this.onKey);
    this.verify();
  }

  unmount() {
    document.removeEventListener('keydown', this.onKey);
    this.animator.stop();
  }

  // The board as its player saw it: from the viewer's own seat when they played in the game.
  viewer() {
    const me = this.app.conn.player?.id;
    return (me && this.record.players_info?.find((p) => p.id === me)?.seat) || 0;
  }

  relabel() {
    if (!this.record) return;
    this.viewport.relabel();
    this.build();
    this.renderVerify();
  }

  key(e) {
    if (e.key === 'Escape' && this.animator.playing) { this.animator.skip(); return; }
    const to = KEYS[e.key];
    if (!to || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest?.('input, select, textarea, [contenteditable], [role=button]')) return;
    e.preventDefault();
    this.go(to(this));
  }

  // A record's action in the room log's words (a resignation or a time-out is the core's event).
  describe(a) {
    const end = a.action === 'resign' || a.action === 'time';
    return sentence(describeCore(end ? {type: a.action, seat: a.seat} : {...a, type: 'action'}, this.told, this.board));
  }

  build() {
    const r = this.record;
    const g = this.app.game(r.game);
    this.name = recordNames(r);
    this.told = recordNames(r, true);
    this.board = boardFor(r.game);
    this.counterEl = h('span', {id: 'replay-step', 'aria-live': 'polite'});
    this.currentEl = h('p', {class: 'banner', id: 'replay-current'});
    this.turnEl = h('p', {id: 'replay-turn'});
    this.boardEl = h('div', {class: 'board', id: 'replay-board'}, this.viewport.el, boardLegend(r.game, {play: false}));
    this.boardEl.addEventListener('click', () => this.animator.skip());
    this.factsEl = h('div', {class: 'controls', id: 'replay-facts'});
    this.eventsEl = h('ul', {class: 'log', id: 'replay-events', tabindex: 0, 'aria-labelledby': 'replay-events-h'});
    this.listEl = h('ol', {class: 'log replay-actions', id: 'replay-actions', tabindex: 0, 'aria-labelledby': 'replay-all-h'});
    this.resultEl = h('div', {class: 'result', id: 'replay-result'});
    this.verifyEl = h('div', {class: 'verify', id: 'replay-verify', role: 'status'}, t('seed.checking'));
    // The fairness check, for those who ask: folded, below the moves.
    this.fairEl = h('details', {class: 'fair', id: 'replay-fair'},
      h('summary', {}, t('replay.fair', {what: drawnWhat(r.game)})), this.verifyEl);
    const btn = (id, label, key, ic, f, after) => h('button', {type: 'button', id, 'aria-keyshortcuts': key, onclick: f},
      after ? [h('span', {class: 'step-word'}, label), ' ', icon(ic)] : [icon(ic), ' ', h('span', {class: 'step-word'}, label)]);
    this.listEl.replaceChildren(...r.actions.map((a, i) => h('li', {'data-step': i + 1}, `${i + 1}. ${this.describe(a)}`)));
    const note = this.steps ? '' : `${t('replay.note_nosteps', {why: this.stepsError})} `;
    const players = Array.from({length: r.players}, (_, seat) => {
      const info = (r.players_info || []).find((p) => p.seat === seat);
      return info?.id ? h('a', {href: `#/player/${encodeURIComponent(info.id)}`}, this.name(seat)) : this.name(seat);
    });
    this.main.replaceChildren(
      h('h2', {}, t('replay.title', {game: gameName(r.game, g)})),
      // The rules that were not the standard ones; who began is said by name below.
      h('p', {class: 'muted'}, [optionsText(r.game, r.options, g, ['first']), t('replay.players_n', {n: r.players}), r.ranked ? t('lobby.ranked') : ''].filter(Boolean).join(t('list.sep'))),
      // Who played and who began, each name whole on its line, and the rules.
      h('p', {}, tNodes('replay.players_first', {names: listNodes(players.map((p) => h('span', {class: 'nowrap'}, p))),
        name: h('span', {class: 'nowrap'}, this.name(r.first)),
        rules: h('a', {href: `#/rules/${encodeURIComponent(r.game)}`}, t('room.rules'))})),
      h('div', {class: 'stepper', role: 'group', 'aria-label': t('replay.stepper')},
        btn('replay-start', t('replay.start'), 'Home', 'start', () => this.go(0)),
        btn('replay-back', t('replay.back'), 'ArrowLeft', 'back', () => this.go(this.step - 1)),
        this.counterEl,
        btn('replay-forward', t('replay.forward'), 'ArrowRight', 'forward', () => this.go(this.step + 1), true),
        btn('replay-end', t('replay.end'), 'End', 'end', () => this.go(r.actions.length), true)),
      this.currentEl, this.turnEl,
      h('div', {class: 'play'}, this.boardEl,
        h('div', {class: 'side'}, this.resultEl, this.factsEl,
          h('section', {'aria-labelledby': 'replay-events-h'}, h('h3', {id: 'replay-events-h'}, t('replay.this_step')), this.eventsEl),
          h('section', {'aria-labelledby': 'replay-all-h'}, h('h3', {id: 'replay-all-h'}, t('replay.every')), this.listEl),
          this.fairEl)),
      h('p', {class: 'muted small'}, `${note}${t('replay.keys')}`));
    this.go(this.step, true);
  }

  go(step, instant = false) {
    const r = this.record;
    const from = this.step;
    this.step = Math.max(0, Math.min(r.actions.length, step));
    this.counterEl.textContent = t('replay.counter', {n: this.step, total: r.actions.length});
    for (const li of this.listEl.children) {
      li.classList.toggle('done', Number(li.dataset.step) <= this.step);
      li.classList.toggle('current', Number(li.dataset.step) === this.step);
    }
    const a = r.actions[this.step - 1];
    this.currentEl.textContent = this.step === 0 ? t('replay.at_start') : `${this.step}. ${this.describe(a)}`;
    // Keep the current move in view inside the list, without scrolling the page.
    const cur = this.listEl.querySelector('.current');
    const list = this.listEl;
    if (cur && (cur.offsetTop < list.scrollTop || cur.offsetTop + cur.offsetHeight > list.scrollTop + list.clientHeight))
      list.scrollTop = cur.offsetTop - list.clientHeight / 2;
    const st = this.steps?.[this.step];
    this.animator.stop();
    // The step's words at once; its board animates when it is one step forward, as in the room
    // (any other jump draws at once).
    this.describeStep(st);
    const prev = this.steps?.[from];
    const frames = !instant && st && prev && this.step === from + 1 ? this.board.plan(prev.state, st.state, st.events) : [];
    if (frames.length) this.animator.play(frames, (f) => this.drawState(st, f.state, f.marks, false, true), () => this.draw(st));
    else this.draw(st);
    if (this.step === r.actions.length && r.result) {
      // The ratings are the record's players_info; the result says whom the computer finished for.
      const info = r.players_info || [];
      const rated = info.length === r.players && info.every((p) => p.rating_before !== undefined && p.rating_after !== undefined);
      const res = {...r.result, ratings: rated ? [...info].sort((a, b) => a.seat - b.seat).map((p) => ({before: p.rating_before, after: p.rating_after})) : undefined};
      this.resultEl.replaceChildren(h('h3', {}, t('replay.result')),
        h('p', {class: 'reason', 'data-reason': r.result.reason}, reasonLine(r.result, this.name)),
        ...(r.result.takeover || []).map((seat) => h('p', {class: 'takeover-note', 'data-seat': seat}, t('result.takeover_other', {name: this.name(seat)}))),
        placesList(res, this.name));
    } else {
      this.resultEl.replaceChildren();
    }
  }

  drawState(st, state, marks, refocus, frame = false) {
    const out = this.board.render({state, legal: null, pending: frame ? null : st.pending, me: null, viewer: this.viewer(), seats: [], act: () => {}, name: this.name, marks});
    this.viewport.show(out, refocus);
    return out;
  }

  // The board after this step, by the room's board code from seat 1's side and without `legal`
  // (nothing is played here: no board button, the facts only).
  draw(st) {
    this.boardEl.hidden = !st;
    if (!st) return;
    const out = this.drawState(st, st.state, this.board.lastMove(st.events, st.state), true);
    this.factsEl.replaceChildren(...(out.facts || []));
  }

  // The step's events in words, and who decides next.
  describeStep(st) {
    if (!st) return;
    const name = this.name;
    this.turnEl.textContent = st.pending ? t('replay.next', {name: name(st.pending.seat)})
      : st.status === 'finished' ? t('room.game_over') : '';
    const told = this.told;
    const lines = (withTimeOuts(st.events) || []).map((ev) => describeCore(ev, told, this.board) ?? this.board.describeEvent?.(ev, told));
    // A line in brackets closes the line before it (as in the room's log).
    this.eventsEl.replaceChildren(...lines.filter(Boolean).join('\n').replaceAll('\n（', '（').split('\n').map((l) => h('li', {}, sentence(l))));
  }

  async verify() {
    const r = this.record;
    if (!r.seed) { this.verifyLines = {pending: true}; this.renderVerify(); return; }
    const commitOk = (await sha256Hex(r.seed)) === String(r.commit).toLowerCase();
    let drawn = null;
    if (r.options?.first === 'random') drawn = await firstDraw(r.seed, r.players);
    this.verifyLines = {commitOk, drawn};
    this.renderVerify();
  }

  renderVerify() {
    const v = this.verifyLines;
    if (!v || !this.verifyEl) return;
    if (v.pending) { this.verifyEl.textContent = t('seed.not_revealed'); return; }
    const r = this.record;
    const lines = [t(v.commitOk ? 'seed.commit_ok' : 'seed.commit_bad')];
    let ok = v.commitOk;
    if (v.drawn !== null) {
      const same = v.drawn === r.first;
      ok = ok && same;
      lines.push(same ? t('seed.first_ok', {n: r.first + 1}) : t('seed.first_bad', {drawn: v.drawn + 1, n: r.first + 1}));
    }
    lines.push(t('seed.not_checked'));
    this.verifyEl.dataset.ok = String(ok);
    this.verifyEl.replaceChildren(h('strong', {}, t(ok ? 'seed.verified' : 'seed.failed')), h('ul', {}, lines.map((l) => h('li', {}, l))));
  }
}

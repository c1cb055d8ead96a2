// Replays of finished games from the public API: the list (/api/games), one record
// (/api/games/{id}) and its steps (/api/games/{id}/steps: the server replays the record through
// the engine and gives the public state after each decision, so each board is drawn by the room's
// own board code and the page never re-implements a rule); the seed is checked in the page.
import {h, ordinal, formatOptions} from './util.js';
import {boardFor} from './boards/index.js';
import {sha256Hex, firstDraw} from './verify.js';
import {describeCore} from './room.js';

function names(record) {
  const info = record.players_info || [];
  return (seat) => {
    const p = info.find((x) => x.seat === seat) || info[seat];
    return (p && (p.name || p.player?.name)) || `Seat ${seat + 1}`;
  };
}

export class ReplayListView {
  constructor(app) { this.app = app; }
  async mount(main) {
    const list = h('ul', {class: 'rooms', id: 'replay-list'}, h('li', {}, 'Loading…'));
    main.append(h('h2', {}, 'Finished games'), list);
    try {
      const page = await (await fetch('/api/games?limit=50')).json();
      if (!page.games) throw new Error(page.error?.message || 'no list');
      list.replaceChildren(...(page.games.length ? page.games.map((g) => {
        const name = names(g);
        const who = g.result?.places?.map((p, seat) => `${name(seat)} ${ordinal(p)}`).join(', ');
        return h('li', {class: 'room'},
          h('div', {class: 'room-main'}, h('strong', {}, this.app.game(g.game)?.name || g.game), ' ',
            h('span', {class: 'muted'}, g.id), h('div', {}, who || ''),
            h('div', {class: 'muted small'}, `${g.result?.reason || ''} · ${new Date(g.finished_at).toLocaleString()}`)),
          h('div', {class: 'room-actions'}, h('a', {class: 'button', href: `#/replay/${encodeURIComponent(g.id)}`}, 'Replay')));
      }) : [h('li', {class: 'muted'}, 'No finished game yet.')]));
    } catch (err) {
      list.replaceChildren(h('li', {}, `Could not load the games: ${err.message}`));
    }
  }
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
    this.onKey = (e) => this.key(e);
  }

  async mount(main) {
    this.main = main;
    main.append(h('h2', {}, `Replay of ${this.id}`), h('p', {}, 'Loading…'));
    const id = encodeURIComponent(this.id);
    const steps = fetch(`/api/games/${id}/steps`).then(async (res) => {
      const body = await res.json();
      if (!res.ok) throw new Error(body.error?.message || res.statusText);
      return body.steps;
    });
    steps.catch(() => {});  // awaited below: a failure costs the board only
    try {
      const res = await fetch(`/api/games/${id}`);
      const body = await res.json();
      if (!res.ok) throw new Error(body.error?.message || res.statusText);
      this.record = body;
    } catch (err) {
      main.replaceChildren(h('h2', {}, `Replay of ${this.id}`), h('p', {role: 'alert'}, `Could not load: ${err.message}`));
      return;
    }
    try {
      this.steps = await steps;
      if (this.steps?.length !== this.record.actions.length + 1) throw new Error('the steps do not match the record');
    } catch (err) {
      this.steps = null;
      this.stepsError = err.message;
    }
    if (this.app.view !== this) return;  // the page moved on meanwhile
    this.build();
    document.addEventListener('keydown', this.onKey);
    this.verify();
  }

  unmount() { document.removeEventListener('keydown', this.onKey); }

  key(e) {
    const to = KEYS[e.key];
    if (!to || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest?.('input, select, textarea, [contenteditable], [role=button]')) return;
    e.preventDefault();
    this.go(to(this));
  }

  build() {
    const r = this.record;
    const g = this.app.game(r.game);
    this.name = names(r);
    this.board = boardFor(r.game);
    this.counterEl = h('span', {id: 'replay-step', 'aria-live': 'polite'});
    this.currentEl = h('p', {class: 'banner', id: 'replay-current'});
    this.turnEl = h('p', {id: 'replay-turn'});
    this.boardEl = h('div', {class: 'board', id: 'replay-board'});
    this.factsEl = h('div', {class: 'controls', id: 'replay-facts'});
    this.eventsEl = h('ul', {class: 'log', id: 'replay-events'});
    this.listEl = h('ol', {class: 'log replay-actions', id: 'replay-actions'});
    this.resultEl = h('div', {class: 'result', id: 'replay-result'});
    this.verifyEl = h('div', {class: 'verify', id: 'replay-verify', role: 'status'}, 'Checking the seed…');
    const btn = (id, label, key, f) => h('button', {type: 'button', id, 'aria-keyshortcuts': key, onclick: f}, label);
    this.listEl.replaceChildren(...r.actions.map((a, i) => h('li', {'data-step': i + 1},
      `${this.name(a.seat)}: ${a.action === 'resign' ? 'resigns' : this.board.describeAction(a.action)}`)));
    const note = this.steps
      ? 'Each board is the state the server computed by replaying the record through the engine.'
      : `The board cannot be drawn (${this.stepsError}); the decisions are listed in order.`;
    this.main.replaceChildren(
      h('h2', {}, `Replay: ${g ? g.name : r.game} ${r.id}`),
      h('p', {class: 'muted'}, `${formatOptions(r.options)} · ${r.players} players${r.ranked ? ' · ranked' : ''}`),
      h('p', {}, `Players: ${Array.from({length: r.players}, (_, s) => `${this.name(s)} (seat ${s + 1})`).join(', ')}; first to move: ${this.name(r.first)}.`),
      this.verifyEl,
      h('div', {class: 'stepper', role: 'group', 'aria-label': 'Step through the game (keys: left and right arrows, Home, End)'},
        btn('replay-start', '⏮ Start', 'Home', () => this.go(0)),
        btn('replay-back', '◀ Back', 'ArrowLeft', () => this.go(this.step - 1)),
        this.counterEl,
        btn('replay-forward', 'Forward ▶', 'ArrowRight', () => this.go(this.step + 1)),
        btn('replay-end', 'End ⏭', 'End', () => this.go(r.actions.length))),
      this.currentEl, this.turnEl,
      h('div', {class: 'play'}, this.boardEl,
        h('div', {class: 'side'}, this.resultEl, this.factsEl,
          h('section', {'aria-labelledby': 'replay-events-h'}, h('h3', {id: 'replay-events-h'}, 'What this step did'),
            this.eventsEl),
          h('section', {'aria-labelledby': 'replay-all-h'}, h('h3', {id: 'replay-all-h'}, 'Every decision'),
            this.listEl))),
      h('p', {class: 'muted small'}, `${note} Keys: ← and → step, Home and End jump.`));
    this.go(0);
  }

  go(step) {
    const r = this.record;
    this.step = Math.max(0, Math.min(r.actions.length, step));
    this.counterEl.textContent = `Decision ${this.step} of ${r.actions.length}`;
    for (const li of this.listEl.children)
      li.classList.toggle('done', Number(li.dataset.step) <= this.step),
      li.classList.toggle('current', Number(li.dataset.step) === this.step);
    const a = r.actions[this.step - 1];
    this.currentEl.textContent = this.step === 0 ? 'The start of the game.'
      : `${this.step}. ${this.name(a.seat)}: ${a.action === 'resign' ? 'resigns' : this.board.describeAction(a.action)}`;
    this.listEl.querySelector('.current')?.scrollIntoView?.({block: 'nearest'});
    this.draw(this.steps?.[this.step]);
    if (this.step === r.actions.length && r.result) {
      const order = r.result.places.map((p, seat) => ({p, seat})).sort((x, y) => x.p - y.p);
      this.resultEl.replaceChildren(h('h3', {}, 'Result'),
        h('p', {class: 'reason'}, `Reason: ${r.result.reason}`),
        h('ol', {class: 'places'}, order.map(({p, seat}) => h('li', {}, `${ordinal(p)}: ${this.name(seat)} (seat ${seat + 1})`))));
    } else {
      this.resultEl.replaceChildren();
    }
  }

  // The board after this step, by the room's board code from seat 1's side and without `legal`
  // (nothing is played here: no board button, the facts only); the step's events in words.
  draw(st) {
    this.boardEl.hidden = !st;
    if (!st) return;
    const name = this.name;
    const out = this.board.render({state: st.state, legal: null, pending: st.pending, me: null, viewer: 0,
                                   seats: [], act: () => {}, name});
    this.boardEl.replaceChildren(out.svg);
    this.factsEl.replaceChildren(...(out.controls || []));
    const what = st.pending && (this.board.decisions?.[st.pending.decision] || st.pending.decision);
    this.turnEl.textContent = st.pending ? `Next: ${name(st.pending.seat)} (seat ${st.pending.seat + 1}): ${what}.`
      : st.status === 'finished' ? 'Game over.' : '';
    const lines = (st.events || []).map((ev) => describeCore(ev, name, this.board) ?? this.board.describeEvent?.(ev, name));
    this.eventsEl.replaceChildren(...lines.filter(Boolean).map((l) => h('li', {}, l)));
  }

  async verify() {
    const r = this.record;
    if (!r.seed) {
      this.verifyEl.textContent = 'The seed is not revealed yet (the game is still being played).';
      return;
    }
    const lines = [];
    let ok = (await sha256Hex(r.seed)) === String(r.commit).toLowerCase();
    lines.push(ok ? '✔ SHA-256 of the revealed seed equals the commitment published at the start.'
                  : '✘ SHA-256 of the revealed seed does NOT equal the commitment.');
    if (r.options?.first === 'random') {
      const drawn = await firstDraw(r.seed, r.players);
      const same = drawn === r.first;
      ok = ok && same;
      lines.push(same ? `✔ The first seat (seat ${r.first + 1}) is the seed's first draw.`
                      : `✘ The seed's first draw gives seat ${drawn + 1}, the record says seat ${r.first + 1}.`);
    }
    lines.push('Not checked here: the draws during play, which need the engine (tanbo-engine verify).');
    this.verifyEl.dataset.ok = String(ok);
    this.verifyEl.replaceChildren(h('strong', {}, ok ? 'Seed verified.' : 'Seed check FAILED.'),
      h('ul', {}, lines.map((l) => h('li', {}, l))));
  }
}


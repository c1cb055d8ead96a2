// The lobby: the games, a create form built from the registry, open rooms and live matches,
// kept current by watch_lobby pushes.
import {h, toast, formatOptions, plural} from './util.js';
import {rememberSeat} from './room.js';

const LEVELS = ['random', 'greedy', 'mcts'];

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.rooms = new Map();
    this.selected = app.registry[0]?.id;
  }

  mount(main) {
    this.main = main;
    this.gamesEl = h('ul', {class: 'games'});
    this.formEl = h('section', {class: 'create', 'aria-labelledby': 'create-h'});
    this.openEl = h('ul', {class: 'rooms', id: 'open-rooms'});
    this.liveEl = h('ul', {class: 'rooms', id: 'live-rooms'});
    main.append(
      h('section', {'aria-labelledby': 'games-h'}, h('h2', {id: 'games-h'}, 'Games'), this.gamesEl),
      this.formEl,
      h('section', {'aria-labelledby': 'open-h'}, h('h2', {id: 'open-h'}, 'Open rooms'), this.openEl),
      h('section', {'aria-labelledby': 'live-h'}, h('h2', {id: 'live-h'}, 'Live matches'),
        this.liveEl));
    this.renderGames();
    this.renderForm();
    this.renderRooms();
    this.ready();
  }

  unmount() {
    this.app.conn.fire({type: 'unwatch_lobby'}).catch(() => {});
  }

  async ready() {
    try {
      const reply = await this.app.conn.request({type: 'rooms'});
      this.rooms = new Map(reply.rooms.map((r) => [r.room, r]));
      this.renderRooms();
      await this.app.conn.fire({type: 'watch_lobby'});
    } catch (err) {
      if (err.code !== 'disconnected') toast(`Lobby: ${err.message}`);
    }
  }

  message(msg) {
    if (msg.type !== 'lobby') return;
    for (const r of msg.changed || []) this.rooms.set(r.room, r);
    for (const id of msg.removed || []) this.rooms.delete(id);
    this.renderRooms();
  }

  renderGames() {
    this.gamesEl.replaceChildren(...this.app.registry.map((g) => h('li', {class: 'game-card'},
      h('h3', {}, g.name),
      h('p', {}, g.summary),
      h('p', {class: 'muted'},
        g.players.min === g.players.max ? `${g.players.min} players`
                                        : `${g.players.min} to ${g.players.max} players`),
      h('button', {type: 'button', 'data-game': g.id, onclick: () => {
        this.selected = g.id;
        this.renderForm();
        this.formEl.querySelector('select[name=game]')?.focus();
      }}, `New ${g.name} room`))));
  }

  renderForm() {
    const g = this.app.game(this.selected);
    if (!g) return;
    const gameSelect = h('select', {name: 'game', id: 'create-game', onchange: (e) => {
      this.selected = e.target.value;
      this.renderForm();
      this.formEl.querySelector('select[name=game]')?.focus();
    }}, this.app.registry.map((x) => h('option', {value: x.id, selected: x.id === g.id}, x.name)));

    const seatsInput = h('select', {name: 'seats', id: 'create-seats'});
    for (let n = g.players.min; n <= g.players.max; ++n)
      seatsInput.append(h('option', {value: n, selected: n === g.players.default}, n));

    const optionRows = g.options.map((o) => optionField(o));
    const cpuBox = h('fieldset', {class: 'cpu-seats'});
    const renderCpu = () => {
      const n = Number(seatsInput.value);
      cpuBox.replaceChildren(h('legend', {}, 'Who plays each seat'));
      cpuBox.append(h('div', {class: 'field'}, h('span', {}, 'Seat 1'), h('span', {}, 'you')));
      for (let seat = 1; seat < n; ++seat) {
        const sel = h('select', {name: `cpu-${seat}`, id: `cpu-${seat}`},
          h('option', {value: ''}, 'a person'),
          LEVELS.map((l) => h('option', {value: l}, `computer (${l})`)));
        cpuBox.append(h('div', {class: 'field'},
          h('label', {for: `cpu-${seat}`}, `Seat ${seat + 1}`), sel));
      }
    };
    seatsInput.addEventListener('change', renderCpu);
    renderCpu();

    const form = h('form', {id: 'create-form', onsubmit: (e) => { e.preventDefault(); this.create(form, g); }},
      field('Game', gameSelect, 'create-game'),
      field('Players', seatsInput, 'create-seats'),
      optionRows,
      h('div', {class: 'field'},
        h('label', {for: 'create-ranked'}, 'Ranked'),
        h('input', {type: 'checkbox', name: 'ranked', id: 'create-ranked'}),
        h('small', {class: 'muted'}, 'rated at the end; ranked rooms seat people only')),
      field('Timer', h('select', {name: 'timer', id: 'create-timer'},
        h('option', {value: 'none'}, 'none'),
        h('option', {value: '30'}, '30 s per decision'),
        h('option', {value: '60'}, '60 s per decision')), 'create-timer'),
      cpuBox,
      h('details', {class: 'setup'},
        h('summary', {}, 'Custom set-up (optional, JSON)'),
        h('p', {class: 'muted small'}, 'A position the game can load instead of the standard start; its rules page describes the format.'),
        h('textarea', {name: 'setup', id: 'create-setup', rows: 4, 'aria-label': 'Custom set-up as JSON'})),
      h('div', {class: 'problems', role: 'alert'}),
      h('button', {type: 'submit', class: 'primary'}, 'Create room'));
    this.formEl.replaceChildren(h('h2', {id: 'create-h'}, 'Create a room'),
      h('p', {class: 'muted'}, g.summary), form);
  }

  async create(form, g) {
    const fd = new FormData(form);
    const options = {};
    for (const o of g.options) {
      const el = form.elements[`opt-${o.name}`];
      if (!el) continue;
      let v;
      if (o.type === 'boolean') v = el.checked;
      else if (o.type === 'integer' && !o.allowed) v = Number(el.value);
      else v = JSON.parse(el.value);
      if (JSON.stringify(v) !== JSON.stringify(o.default)) options[o.name] = v;
    }
    const seats = Number(fd.get('seats'));
    const cpu = [];
    for (let seat = 1; seat < seats; ++seat) {
      const level = fd.get(`cpu-${seat}`);
      if (level) cpu.push({seat, level});
    }
    const msg = {type: 'create', game: g.id, options, seats, ranked: form.elements.ranked.checked};
    const timer = fd.get('timer');
    if (timer !== 'none') msg.timer = Number(timer);
    if (cpu.length) msg.cpu = cpu;
    const problems = form.querySelector('.problems');
    problems.replaceChildren();
    const setup = String(fd.get('setup') || '').trim();
    if (setup) {
      try {
        msg.setup = JSON.parse(setup);
      } catch (err) {
        problems.replaceChildren(h('p', {}, `Set-up: not JSON (${err.message})`));
        return;
      }
    }
    try {
      const created = await this.app.conn.request(msg);
      rememberSeat(created.room);
      location.hash = `#/room/${encodeURIComponent(created.room)}`;
    } catch (err) {
      const list = (err.problems || []).map((p) => h('li', {}, `${p.field}: ${p.message}`));
      problems.replaceChildren(h('p', {}, `Refused (${err.code}): ${err.message}`),
        list.length ? h('ul', {}, list) : '');
    }
  }

  renderRooms() {
    const me = this.app.conn.player?.id;
    const rooms = [...this.rooms.values()];
    const open = rooms.filter((r) => r.status === 'waiting');
    const live = rooms.filter((r) => r.status === 'playing');
    this.openEl.replaceChildren(...(open.length ? open.map((r) => this.roomItem(r, me))
                                                : [h('li', {class: 'muted'}, 'No open room. Create one!')]));
    this.liveEl.replaceChildren(...(live.length ? live.map((r) => this.roomItem(r, me))
                                                : [h('li', {class: 'muted'}, 'No match being played.')]));
  }

  roomItem(r, me) {
    const g = this.app.game(r.game);
    const mine = r.seats.some((st) => st.player && st.player.id === me);
    const seatText = r.seats.map((st) =>
      st.player ? st.player.name + (st.connected ? '' : ' (away)')
                : st.cpu ? `computer (${st.level || 'cpu'})` : 'free');
    const free = r.seats.filter((st) => !st.player && !st.cpu).length;
    const go = (hash) => { location.hash = hash; };
    const roomHash = `#/room/${encodeURIComponent(r.room)}`;
    const buttons = [];
    if (mine) {
      buttons.push(h('button', {type: 'button', class: 'primary', onclick: () => {
        rememberSeat(r.room);
        go(roomHash);
      }}, 'Back to my seat'));
    } else if (r.status === 'waiting' && free > 0) {
      buttons.push(h('button', {type: 'button', class: 'primary', 'data-join': r.room,
        onclick: () => this.join(r.room)}, 'Join'));
    }
    buttons.push(h('button', {type: 'button', 'data-watch': r.room, onclick: () => go(roomHash)},
      'Watch'));
    return h('li', {class: 'room', 'data-room': r.room},
      h('div', {class: 'room-main'},
        h('strong', {}, g ? g.name : r.game), ' ',
        h('span', {class: 'muted'}, r.room),
        h('div', {}, `Players: ${seatText.join(', ')}`),
        h('div', {class: 'muted small'}, [
          formatOptions(r.options),
          r.ranked ? ' · ranked' : '',
          r.timer !== 'none' && r.timer !== undefined ? ` · ${r.timer} s timer` : '',
        ].join('')),
        h('div', {class: 'spectators'}, `${plural(r.spectators, 'spectator')} watching`)),
      h('div', {class: 'room-actions'}, buttons));
  }

  async join(room) {
    try {
      await this.app.conn.request({type: 'join', room, as: 'player'});
      rememberSeat(room);
      location.hash = `#/room/${encodeURIComponent(room)}`;
    } catch (err) {
      toast(`Could not join: ${err.message}`);
    }
  }
}

function field(label, input, id) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), input);
}

function optionField(o) {
  const id = `opt-${o.name}`;
  const label = o.name.replace(/_/g, ' ');
  let input;
  if (o.type === 'boolean') {
    input = h('input', {type: 'checkbox', name: id, id, checked: o.default === true});
  } else if (o.allowed) {
    input = h('select', {name: id, id},
      o.allowed.map((v) => h('option', {value: JSON.stringify(v), selected: v === o.default},
        typeof v === 'number' && o.name === 'first' ? `seat ${v + 1}` : String(v))));
  } else {
    input = h('input', {type: 'number', name: id, id, min: o.min, max: o.max, value: o.default,
                        required: true});
  }
  return h('div', {class: 'field'},
    h('label', {for: id}, label), input,
    o.help ? h('small', {class: 'muted'}, o.help) : '');
}

// "Custom game": the full create form, built from the registry (each game's options with their
// defaults and allowed values, never hard-coded), in players' words from the catalogue, with
// the room's own settings (ranked, time per move, who plays each seat, the spectators' chat).
import {h} from './util.js';
import {t} from './i18n/index.js';
import {optionLabel, optionHelp, optionValue, levelName, gameName} from './words.js';
import {LEVELS} from './settings.js';

// Only these games load a custom set-up (docs/rules: mancala-simple and tsoro refuse any).
const SETUP_GAMES = new Set(['tanbo', 'steere-tanbo']);

export function buildCreateForm(app, gameId, {onSelect, onSubmit}) {
  const g = app.game(gameId);
  const gameSelect = h('select', {name: 'game', id: 'create-game', onchange: (e) => onSelect(e.target.value)},
    app.registry.map((x) => h('option', {value: x.id, selected: x.id === g.id}, gameName(x.id, x))));
  const seatsInput = h('select', {name: 'seats', id: 'create-seats'});
  for (let n = g.players.min; n <= g.players.max; ++n)
    seatsInput.append(h('option', {value: n, selected: n === g.players.default}, n));
  const cpuBox = h('fieldset', {class: 'cpu-seats'});
  const renderCpu = () => {
    const n = Number(seatsInput.value);
    cpuBox.replaceChildren(h('legend', {}, t('create.who')),
      h('div', {class: 'field'}, h('span', {}, t('seat.number', {n: 1})), h('span', {}, t('create.you'))));
    for (let seat = 1; seat < n; ++seat) {
      cpuBox.append(h('div', {class: 'field'}, h('label', {for: `cpu-${seat}`}, t('seat.number', {n: seat + 1})),
        h('select', {name: `cpu-${seat}`, id: `cpu-${seat}`},
          h('option', {value: ''}, t('create.person')),
          LEVELS.map((l) => h('option', {value: l}, t('create.computer_at', {level: levelName(l)}))))));
    }
  };
  seatsInput.addEventListener('change', renderCpu);
  renderCpu();
  const form = h('form', {id: 'create-form', onsubmit: (e) => { e.preventDefault(); onSubmit(readForm(form, g)); }},
    field(t('create.game'), gameSelect, 'create-game'),
    g.players.min === g.players.max ? null : field(t('create.players'), seatsInput, 'create-seats'),
    g.options.map((o) => optionField(g.id, o)),
    h('div', {class: 'field'},
      h('label', {for: 'create-ranked'}, t('create.ranked')),
      h('input', {type: 'checkbox', name: 'ranked', id: 'create-ranked'}),
      h('small', {class: 'muted'}, t('create.ranked_help'))),
    field(t('create.timer'), h('select', {name: 'timer', id: 'create-timer'},
      h('option', {value: 'none'}, t('create.timer_none')),
      h('option', {value: '30'}, t('create.timer_s', {n: 30})),
      h('option', {value: '60'}, t('create.timer_s', {n: 60}))), 'create-timer'),
    h('div', {class: 'field'},
      h('label', {for: 'create-spectator-chat'}, t('create.spectator_chat')),
      h('input', {type: 'checkbox', name: 'spectator_chat', id: 'create-spectator-chat', checked: true}),
      h('small', {class: 'muted'}, t('create.spectator_chat_help'))),
    cpuBox,
    SETUP_GAMES.has(g.id) ? h('details', {class: 'setup'},
      h('summary', {}, t('create.setup')),
      h('p', {class: 'muted small'}, t(`create.setup_help.${g.id}`)),
      h('textarea', {name: 'setup', id: 'create-setup', rows: 4, 'aria-label': t('create.setup_label')})) : null,
    h('div', {class: 'problems', role: 'alert'}),
    h('button', {type: 'submit', class: 'primary'}, t('create.submit')));
  if (g.players.min === g.players.max) form.append(h('input', {type: 'hidden', name: 'seats', value: g.players.min}));
  return form;
}

// The options of a form built with optionField: those that differ from their defaults.
export function readOptions(form, g, prefix = 'opt-') {
  const options = {};
  for (const o of g.options) {
    const el = form.elements[`${prefix}${o.name}`];
    if (!el) continue;
    let v;
    if (o.type === 'boolean') v = el.checked;
    else if (o.type === 'integer' && !o.allowed) v = Number(el.value);
    else v = JSON.parse(el.value);
    if (JSON.stringify(v) !== JSON.stringify(o.default)) options[o.name] = v;
  }
  return options;
}

function readForm(form, g) {
  const fd = new FormData(form);
  const options = readOptions(form, g);
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
  if (!form.elements.spectator_chat.checked) msg.spectator_chat = false;
  const setup = String(fd.get('setup') || '').trim();
  return {msg, setup, problems: form.querySelector('.problems')};
}

export function field(label, input, id) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), input);
}

// One option's field, labelled in players' words; `prefix` keeps the ids of two forms apart.
export function optionField(game, o, prefix = 'opt-') {
  const id = `${prefix}${o.name}`;
  let input;
  if (o.type === 'boolean') {
    input = h('input', {type: 'checkbox', name: id, id, checked: o.default === true});
  } else if (o.allowed) {
    input = h('select', {name: id, id},
      o.allowed.map((v) => h('option', {value: JSON.stringify(v), selected: v === o.default}, optionValue(game, o.name, v))));
  } else {
    input = h('input', {type: 'number', name: id, id, min: o.min, max: o.max, value: o.default, required: true});
  }
  const help = optionHelp(game, o.name);
  return h('div', {class: 'field'}, h('label', {for: id}, optionLabel(game, o.name)), input,
    help ? h('small', {class: 'muted'}, help) : '');
}

// "Custom game": the full create form, built from the registry (each game's options with their
// defaults and allowed values, never hard-coded), in players' words from the catalogue, with
// the room's own settings (ranked, the time control, who plays each seat, the spectators' chat).
import {h} from './util.js';
import {t} from './i18n/index.js';
import {optionLabel, optionHelp, optionValue, levelName, gameName} from './words.js';
import {LEVELS} from './settings.js';
import {STANDARD_CLOCKS, CORRESPONDENCE_DAYS, PER_DECISION, CLOCK_BASE, CLOCK_INCREMENT, clockTimer, correspondenceTimer} from './timectl.js';

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
    timeControl(),
    h('div', {class: 'field'},
      h('label', {for: 'create-spectator-chat'}, t('create.spectator_chat')),
      h('input', {type: 'checkbox', name: 'spectator_chat', id: 'create-spectator-chat', checked: true}),
      h('small', {class: 'muted'}, t('create.spectator_chat_help'))),
    cpuBox,
    g.custom_setup ? h('details', {class: 'setup'},
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
  const players = Number(fd.get('seats'));
  const cpu = [];
  for (let seat = 1; seat < players; ++seat) {
    const level = fd.get(`cpu-${seat}`);
    if (level) cpu.push({seat, level});
  }
  const msg = {type: 'create', game: g.id, options, players, ranked: form.elements.ranked.checked};
  const timer = readTimer(fd);
  if (timer !== 'none') msg.timer = timer;
  if (cpu.length) msg.cpu = cpu;
  if (!form.elements.spectator_chat.checked) msg.spectator_chat = false;
  const setup = String(fd.get('setup') || '').trim();
  return {msg, setup, problems: form.querySelector('.problems')};
}

// The time control: none; seconds per decision (the computer decides when they run out); a
// game clock, a standard one in one click or any base (30 s to 60 min, in minutes or seconds) and
// increment (0 to 60 s); or days per decision by correspondence. The fields of the kinds not
// chosen are disabled, so the browser checks only the chosen one's.
function timeControl() {
  const kind = h('select', {name: 'timer', id: 'create-timer', 'aria-describedby': 'create-timer-help'},
    h('option', {value: 'none'}, t('create.timer_none')),
    PER_DECISION.map((n) => h('option', {value: String(n)}, t('create.timer_per_decision', {n}))),
    h('option', {value: 'clock'}, t('create.timer_clock')),
    h('option', {value: 'correspondence'}, t('create.timer_correspondence')));
  const help = h('small', {class: 'muted', id: 'create-timer-help'});
  const base = h('input', {type: 'number', name: 'clock_base', id: 'create-clock-base', value: 5, step: 1, required: true, inputmode: 'numeric'});
  const unit = h('select', {name: 'clock_unit', id: 'create-clock-unit', 'aria-label': t('create.clock_unit')},
    h('option', {value: 'min'}, t('create.clock_minutes')), h('option', {value: 's'}, t('create.clock_seconds')));
  const inc = h('input', {type: 'number', name: 'clock_increment', id: 'create-clock-increment', value: 3, step: 1, required: true,
    min: CLOCK_INCREMENT.min, max: CLOCK_INCREMENT.max, inputmode: 'numeric'});
  const limits = () => {
    const minutes = unit.value === 'min';
    base.min = minutes ? Math.ceil(CLOCK_BASE.min / 60) : CLOCK_BASE.min;
    base.max = minutes ? CLOCK_BASE.max / 60 : CLOCK_BASE.max;
  };
  const presets = STANDARD_CLOCKS.map(([m, i]) => h('button', {type: 'button', class: 'clock-preset', 'data-clock-preset': `${m}+${i}`,
    'aria-label': t('create.clock_preset_label', {m, i}), onclick: () => {
      unit.value = 'min';
      limits();
      base.value = m;
      inc.value = i;
      sync();
    }}, `${m}+${i}`));
  const clockBox = h('fieldset', {class: 'time-fields', id: 'create-clock'},
    h('legend', {}, t('create.clock_legend')),
    h('div', {class: 'clock-presets', role: 'group', 'aria-label': t('create.clock_presets')}, presets),
    h('div', {class: 'field'}, h('label', {for: 'create-clock-base'}, t('create.clock_base')),
      h('span', {class: 'field-pair'}, base, unit),
      h('small', {class: 'muted'}, t('create.clock_base_help'))),
    h('div', {class: 'field'}, h('label', {for: 'create-clock-increment'}, t('create.clock_increment')), inc,
      h('small', {class: 'muted'}, t('create.clock_increment_help'))));
  const days = h('select', {name: 'days', id: 'create-days'},
    CORRESPONDENCE_DAYS.map((n) => h('option', {value: n, selected: n === 3}, t('tc.days', {n}))));
  const daysBox = h('fieldset', {class: 'time-fields', id: 'create-correspondence'},
    h('legend', {}, t('create.correspondence_legend')),
    h('div', {class: 'field'}, h('label', {for: 'create-days'}, t('create.days')), days));
  const sync = () => {
    const k = kind.value;
    clockBox.hidden = clockBox.disabled = k !== 'clock';
    daysBox.hidden = daysBox.disabled = k !== 'correspondence';
    help.textContent = t(`create.timer_help.${k === 'none' || k === 'clock' || k === 'correspondence' ? k : 'per_decision'}`);
    const now = unit.value === 'min' ? `${base.value}+${inc.value}` : null;
    for (const b of presets) b.setAttribute('aria-pressed', String(b.dataset.clockPreset === now));
  };
  kind.addEventListener('change', sync);
  unit.addEventListener('change', () => {
    // The same time in the other unit, as near as whole numbers go.
    const v = Number(base.value);
    if (Number.isFinite(v) && v > 0) base.value = unit.value === 's' ? v * 60 : Math.max(1, Math.round(v / 60));
    limits();
    sync();
  });
  base.addEventListener('input', sync);
  inc.addEventListener('input', sync);
  limits();
  sync();
  return h('div', {class: 'time-control'},
    h('div', {class: 'field'}, h('label', {for: 'create-timer'}, t('create.timer')), kind, help),
    clockBox, daysBox);
}

function readTimer(fd) {
  const kind = fd.get('timer');
  if (kind === 'clock') {
    const base = Number(fd.get('clock_base'));
    return clockTimer(fd.get('clock_unit') === 's' ? base : base * 60, Number(fd.get('clock_increment')));
  }
  if (kind === 'correspondence') return correspondenceTimer(Number(fd.get('days')));
  if (kind && kind !== 'none') return Number(kind);
  return 'none';
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

// The computer's level for "Play the computer": picked once in a small dialog, remembered,
// changed from the lobby's "change" link.
import {h, toast} from './util.js';
import {t} from './i18n/index.js';
import {errorText, errorDetails} from './words.js';
import {get, set, LEVELS} from './settings.js';
import {rememberCreated} from './seats.js';

export function savedLevel() {
  const l = get('cpuLevel');
  return LEVELS.includes(l) ? l : null;
}

// Opens the dialog; resolves with the level chosen, or null when cancelled.
export function chooseLevel(confirmKey = 'level.save') {
  return new Promise((resolve) => {
    const current = savedLevel() || 'greedy';
    const dialog = h('dialog', {class: 'confirm level-dialog', 'aria-labelledby': 'level-h'});
    const radios = LEVELS.map((l) => h('label', {class: 'level-choice'},
      h('input', {type: 'radio', name: 'level', value: l, checked: l === current}),
      h('span', {}, h('strong', {}, t(`level.${l}`)), h('br'), h('small', {class: 'muted'}, t(`level.${l}.about`)))));
    const form = h('form', {method: 'dialog'},
      h('fieldset', {}, h('legend', {}, t('level.legend')), radios),
      h('p', {class: 'dialog-buttons'},
        h('button', {value: 'cancel', type: 'submit', id: 'level-cancel'}, t('level.cancel')), ' ',
        h('button', {value: 'ok', type: 'submit', class: 'primary', id: 'level-ok'}, t(confirmKey))));
    dialog.append(h('h3', {id: 'level-h'}, t('level.title')), h('p', {}, t('level.text')), form);
    dialog.addEventListener('close', () => {
      const chosen = form.querySelector('input[name=level]:checked')?.value;
      dialog.remove();
      if (dialog.returnValue === 'ok' && chosen) {
        set('cpuLevel', chosen);
        resolve(chosen);
      } else {
        resolve(null);
      }
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

// The level a game starts at without asking, until the player chooses one: Medium.
export const DEFAULT_LEVEL = 'greedy';

// "Play the computer": a room with the computer in every other seat, at `level`, else the level
// saved (asked for the first time); `terms` (players, options, timer) default to the game's.
// Resolves with the room id, or null when the player closed the dialog or the server refused.
/**
 * @param {any} app
 * @param {string} game
 * @param {{players?: number, options?: object, timer?: import('./types/protocol').Timer, level?: string}} [terms]
 */
export async function playComputer(app, game, {players, options, timer, level: at} = {}) {
  const level = at || savedLevel() || await chooseLevel('level.play');
  if (!level) return null;
  const msg = {type: 'create', game, cpu: []};
  for (let seat = 1; seat < (players || 2); ++seat) msg.cpu.push({seat, level});
  if (players) msg.players = players;
  if (options && Object.keys(options).length) msg.options = options;
  if (timer && timer !== 'none') msg.timer = timer;
  try {
    const created = await app.conn.request(msg);
    rememberCreated(created.room);
    location.hash = `#/room/${encodeURIComponent(created.room)}`;
    return created.room;
  } catch (err) {
    toast(t('toast.create_refused', {message: errorText(err)}), errorDetails(err));
    return null;
  }
}

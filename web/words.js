// Words built from the server's data, shared by every view: seat names (one name per seat,
// the same in the seats, the log, the board and the replay), places, reasons, levels, options.
import {t, tOr} from './i18n/index.js';
import {timerText} from './timectl.js';
import {h} from './util.js';
import {icon} from './icons.js';
import {playerName as personName} from './player-mark.js';

// A seat's name: its player's, "Computer" for a computer seat, "free seat" otherwise. The
// computer's name carries no seat number (which would read as part of its score, "Computer 2 0");
// only when several computers sit at one game does each take a letter ("Computer A").
export function seatName(seats, seat, told = false) {
  const st = seats && seats[seat];
  if (st?.player) return playerName(st.player, computerLetter(seats, seat, (x) => x?.cpu || isComputer(x?.player)));
  if (st && !st.cpu) return t('seat.free', {n: seat + 1});
  return computerName(computerLetter(seats, seat, (x) => x?.cpu || isComputer(x?.player)), told);
}

// `text` with a capital first, as a line of the log or the banner begins.
export const sentence = (text) => (text ? text[0].toLocaleUpperCase() + text.slice(1) : text);

// A finished record's names: players_info lists a computer seat with no identity, or with the
// computer's own (playerName).
export function recordNames(record, told = false) {
  const info = record.players_info || [];
  const seats = Math.max(record.players || 0, record.result?.places?.length || 0, ...info.map((x) => x.seat + 1));
  const byseat = Array.from({length: seats}, (_, s) => info.find((x) => x.seat === s));
  const computer = (p) => !p?.name || isComputer(p);
  return (seat) => {
    const p = byseat[seat] ?? info.find((x) => x.seat === seat);
    const letter = computerLetter(byseat, seat, computer);
    return p?.name ? playerName(p, letter) : computerName(letter, told);
  };
}

const LETTERS = 'ABCDEFGH';
// The letter of a computer seat among the game's computers (in seat order), or null when it is
// the only one.
function computerLetter(seats, seat, computer) {
  const cpus = (seats || []).map((st, i) => (computer(st) ? i : -1)).filter((i) => i >= 0);
  return cpus.length > 1 && cpus.includes(seat) ? LETTERS[cpus.indexOf(seat)] : null;
}

// `told`: inside a sentence, where a language says "the computer" (« l’ordinateur sème »).
function computerName(letter, told) { return letter ? t('seat.computer_letter', {letter}) : t(told ? 'seat.computer_told' : 'seat.computer'); }

export const isComputer = (player) => /^cpu:\w+$/.test(player?.id ?? '');

// A player's name as the reader should see it. The server names its computer identities after
// their engine ("cpu:greedy", "CPU (greedy)"): those read "Computer (Medium)" in the reader's words.
// `letter` tells one computer from another at the same game ("Computer A (Medium)").
export function playerName(player, letter = null) {
  const level = /^cpu:(\w+)$/.exec(player?.id ?? '')?.[1];
  if (!level) return personName(player);
  return letter ? t('player.computer_letter', {level: levelName(level), letter}) : t('player.computer', {level: levelName(level)});
}

// "1 spectator" with an eye, kept whole on its line; nothing ('') while nobody watches.
export function spectatorsTag(n, id = null) {
  return n > 0 ? h('span', {class: 'spectators tag', id}, icon('eye'), ' ', t('room.spectators', {n})) : '';
}

export function place(n) { return t('ord.place', {n}); }

// What a game draws at random, for the fair draw's label: who starts; in Tanbo, the bag's rice.
export function drawnWhat(game) { return t(game === 'tanbo' ? 'fair.what.bag' : 'fair.what.first'); }

// An end's reason; one the page has no words for (a newer server's) is never shown as its code.
export function reason(code) { return tOr(`reason.${code}`, {}, t('reason.other')); }

// A computer level's name; an unknown level (a newer server's) reads as the plain "Computer".
export function levelName(level) { return tOr(`level.${level}`, {}, t('level.unknown')); }

export function gameName(game, registryEntry) {
  return tOr(`game.${game}.name`, {}, registryEntry?.name || game);
}

// An option's value in words: "6", "random", "player 2", a board size "11 × 13" (not "11x13").
export function optionValue(game, name, value) {
  if (name === 'first') return value === 'random' ? t('opt.first.random') : t('opt.first.seat', {n: value + 1});
  if (typeof value === 'boolean') return t(value ? 'opt.yes' : 'opt.no');
  return tOr(`opt.${game}.${name}.v.${value}`, {}, String(value).replace(/^(\d+)x(\d+)$/, '$1 × $2'));
}

export function optionLabel(game, name) {
  return tOr(`opt.${game}.${name}.label`, {}, tOr(`opt.${name}.label`, {}, t('opt.unknown')));
}

export function optionHelp(game, name) {
  return tOr(`opt.${game}.${name}.help`, {}, tOr(`opt.${name}.help`, {}, ''));
}

// "Holes per row: 6 · Heads: one": the options that differ from the game's defaults (but those in
// `skip`), each named; '' for the standard rules.
export function optionsText(game, options, registryEntry, skip = []) {
  const defaults = Object.fromEntries((registryEntry?.options || []).map((o) => [o.name, JSON.stringify(o.default)]));
  return Object.entries(options || {}).filter(([k, v]) => !skip.includes(k) && defaults[k] !== JSON.stringify(v))
    .map(([k, v]) => t('opt.pair', {label: optionLabel(game, k), value: optionValue(game, k, v)}))
    .join(t('list.sep'));
}

// A seat's sign as its board marks it: a Steere seat's colour, else its shape.
const SHAPES = ['●', '■', '◆', '★'];
export function seatSign(game, state, seat) {
  if (game === 'steere-tanbo' && state?.seats) return state.seats.black === seat ? `● ${t('steere.colour.black')}` : `○ ${t('steere.colour.white')}`;
  return SHAPES[seat % SHAPES.length];
}

// "You play first", "You play Black", "You played second": the viewer's seat by its colour or
// its order of play (`first`, when known), never its number; in the past once the game is over.
export function youPlayText(game, state, seat, first, players, over) {
  const tense = over ? 'past' : 'now';
  const n = 1 + (seat - first + players) % players;
  const order = game === 'steere-tanbo' && state?.seats ? `colour.${state.seats.black === seat ? 'black' : 'white'}`
    : n >= 1 ? `order.${players === 2 && n === 2 ? '2of2' : n}` : null;
  return t(order ? `room.you_order.${tense}` : `room.you_play.${tense}`, {order: order && t(`room.${order}`)});
}

// The terms of a pool or a challenge in words: "Tsoro · 2 players · no time limit · unranked"
// (or "game clock: 3 min + 2 s per move", "5 days per move": timectl.js),
// then every option that differs from the game's default ("Holes per row: 6"), else "standard
// rules". `withGame: false` leaves the game's name out (on its own card).
export function termsText(terms, registryEntry, {withGame = true} = {}) {
  const parts = [];
  if (withGame) parts.push(gameName(terms.game, registryEntry));
  if (terms.players) parts.push(t('lobby.players_exact', {n: terms.players}));
  parts.push(timerText(terms.timer));
  parts.push(t(terms.ranked ? 'terms.ranked' : 'terms.unranked'));
  parts.push(optionsText(terms.game, terms.options, registryEntry) || t('terms.standard'));
  return parts.join(t('list.sep'));
}

// A refusal in the player's words, from its code (docs/protocol.md "Errors"): never the server's
// English, which errorDetails folds away. A code the page has no words for (a newer server's), or
// no code at all (the network failed), reads as a general refusal.
export function errorText(err) {
  return tOr(`error.${err?.code}`, {}, t(err?.code ? 'error.unknown' : 'error.network'));
}

// The server's own words behind a refusal, folded: <details> with a summary in the reader's
// language and the message marked as English. null when there is nothing to fold.
export function errorDetails(err) {
  const message = err?.message;
  if (!message || typeof message !== 'string') return null;
  return h('details', {class: 'error-details'},
    h('summary', {}, t('error.details')),
    h('span', {lang: 'en', dir: 'ltr'}, message));
}

// "1:05": minutes and seconds.
export function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// A bad_option's problems ([{field, message}]) as list items: each field by its label in the
// reader's words ("Holes per row", never "columns"), the server's message folded beside it.
const FIELD_KEYS = {game: 'create.game', players: 'create.players', ranked: 'create.ranked', timer: 'create.timer',
                    cpu: 'create.who', setup: 'create.setup', first: 'opt.first.label'};
export function problemsList(game, problems) {
  const items = (problems || []).map((p) => {
    const name = String(p.field ?? '').split(/[.[]/)[0];  // "setup.board[3]": the set-up
    const field = FIELD_KEYS[name] ? t(FIELD_KEYS[name]) : optionLabel(game, name);
    return h('li', {}, t('create.problem', {field}), ' ', errorDetails(p) ?? '');
  });
  return items.length ? h('ul', {class: 'problem-list'}, items) : '';
}

// Words built from the server's data, shared by every view: seat names (one name per seat,
// the same in the seats, the log, the board and the replay), places, reasons, levels, options.
import {t, tOr, list} from './i18n/index.js';
import {timerText} from './timectl.js';
import {playerName} from './player-mark.js';

// A seat's name: its player's, or "Computer N" for a computer seat, "Seat N (free)" otherwise.
export function seatName(seats, seat) {
  const st = seats && seats[seat];
  if (st?.player) return playerName(st.player);
  if (st && !st.cpu) return t('seat.free', {n: seat + 1});
  return t('seat.computer', {n: seat + 1});
}

// A finished record's names: players_info lists a computer seat with no identity.
export function recordNames(record) {
  const info = record.players_info || [];
  return (seat) => {
    const p = info.find((x) => x.seat === seat);
    return p?.name || t('seat.computer', {n: seat + 1});
  };
}

export function place(n) { return t('ord.place', {n}); }

export function reason(code) { return tOr(`reason.${code}`, {}, code); }

export function levelName(level) { return tOr(`level.${level}`, {}, level); }

export function gameName(game, registryEntry) {
  return tOr(`game.${game}.name`, {}, registryEntry?.name || game);
}

// An option's value in words: "6 holes", "random", "seat 2".
export function optionValue(game, name, value) {
  if (name === 'first') return value === 'random' ? t('opt.first.random') : t('opt.first.seat', {n: value + 1});
  if (typeof value === 'boolean') return t(value ? 'opt.yes' : 'opt.no');
  return tOr(`opt.${game}.${name}.v.${value}`, {}, String(value));
}

export function optionLabel(game, name) {
  return tOr(`opt.${game}.${name}.label`, {}, tOr(`opt.${name}.label`, {}, name.replace(/_/g, ' ')));
}

export function optionHelp(game, name) {
  return tOr(`opt.${game}.${name}.help`, {}, tOr(`opt.${name}.help`, {}, ''));
}

// "Holes: 6 · Stones: 3": the options of a room that differ from nothing (every one is named).
export function formatOptions(game, options) {
  return Object.entries(options || {})
    .map(([k, v]) => t('opt.pair', {label: optionLabel(game, k), value: optionValue(game, k, v)}))
    .join(' · ');
}

export {list};

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
  const defaults = Object.fromEntries((registryEntry?.options || []).map((o) => [o.name, o.default]));
  const changed = Object.fromEntries(Object.entries(terms.options || {})
    .filter(([k, v]) => !(k in defaults) || JSON.stringify(v) !== JSON.stringify(defaults[k])));
  parts.push(Object.keys(changed).length ? formatOptions(terms.game, changed) : t('terms.standard'));
  return parts.join(' · ');
}

export {timerText};

// A refusal in the player's words (its code, docs/protocol.md "Errors"); the server's own
// message when the page has no words for the code.
export function errorText(err) {
  return tOr(`error.${err?.code}`, {message: err?.message ?? ''}, err?.message || String(err));
}

// "1:05": minutes and seconds.
export function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

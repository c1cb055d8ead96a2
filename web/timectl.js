// Time controls (docs/protocol.md, "Time controls"): a room's `timer` is "none", 30 or 60
// seconds per decision, a Fischer game clock {type: "clock", base_s, increment_s}, or
// correspondence {type: "correspondence", days}. Here: their words, the compact choice that
// Play now and the challenge form offer, and the figures a clock shows.
import {h} from './util.js';
import {t, language} from './i18n/index.js';

// The standard game clocks: minutes + seconds added per decision.
export const STANDARD_CLOCKS = [[1, 1], [3, 2], [5, 3], [10, 5], [15, 10]];
export const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 14];
export const PER_DECISION = [30, 60];
export const CLOCK_BASE = {min: 30, max: 3600};  // seconds
export const CLOCK_INCREMENT = {min: 0, max: 60};

export const clockTimer = (base_s, increment_s) => ({type: 'clock', base_s, increment_s});
export const correspondenceTimer = (days) => ({type: 'correspondence', days});

// One timer, whichever way it is written ({type: "per_decision", seconds} is 30 or 60).
export function normalTimer(timer) {
  if (timer === undefined || timer === null || timer === 'none') return 'none';
  if (typeof timer === 'number') return timer;
  if (typeof timer === 'string' && /^\d+$/.test(timer)) return Number(timer);
  if (timer.type === 'per_decision') return timer.seconds;
  return timer;
}

// A timer as one string, for a <select>'s value: "none", "30", "clock:180+2", "days:5".
export function timerKey(timer) {
  const tm = normalTimer(timer);
  if (tm === 'none' || typeof tm === 'number') return String(tm);
  if (tm.type === 'clock') return `clock:${tm.base_s}+${tm.increment_s}`;
  if (tm.type === 'correspondence') return `days:${tm.days}`;
  return JSON.stringify(tm);
}

export function timerFromKey(key) {
  let m;
  if (key === 'none') return 'none';
  if (/^\d+$/.test(key)) return Number(key);
  if ((m = /^clock:(\d+)\+(\d+)$/.exec(key))) return clockTimer(Number(m[1]), Number(m[2]));
  if ((m = /^days:(\d+)$/.exec(key))) return correspondenceTimer(Number(m[1]));
  return 'none';
}

// The compact choice: none, per decision, the standard clocks, correspondence.
export const TIMER_CHOICES = ['none', ...PER_DECISION.map(String),
  ...STANDARD_CLOCKS.map(([m, i]) => `clock:${m * 60}+${i}`), ...CORRESPONDENCE_DAYS.map((d) => `days:${d}`)];

export function isChoice(timer) { return TIMER_CHOICES.includes(timerKey(timer)); }

// The compact <select> (Play now, challenges): its options grouped by kind.
export function timerSelect(attrs, selected) { return h('select', attrs, timerOptions(selected)); }

export function timerOptions(selected) {
  const sel = timerKey(selected);
  const option = (key, label) => h('option', {value: key, selected: key === sel}, label);
  return [
    option('none', t('create.timer_none')),
    h('optgroup', {label: t('tc.group.per_decision')}, PER_DECISION.map((n) => option(String(n), t('create.timer_s', {n})))),
    h('optgroup', {label: t('tc.group.clock')}, STANDARD_CLOCKS.map(([m, i]) =>
      option(`clock:${m * 60}+${i}`, t('tc.clock_choice', {short: clockShort(m * 60, i), base: baseWords(m * 60), inc: i})))),
    h('optgroup', {label: t('tc.group.correspondence')}, CORRESPONDENCE_DAYS.map((n) => option(`days:${n}`, t('tc.days', {n})))),
  ];
}

// A clock's base as "3+2" writes it: minutes, with quarters as fractions the way players write
// them ("½+0", "1¾+1"), any other second count as m:ss.
const QUARTERS = {15: '¼', 30: '½', 45: '¾'};
function clockShort(base_s, inc) {
  const m = Math.floor(base_s / 60), s = base_s % 60;
  const base = s === 0 ? String(m)
    : QUARTERS[s] ? `${m || ''}${QUARTERS[s]}`
    : `${m}:${String(s).padStart(2, '0')}`;
  return t('tc.clock_short', {base, inc});
}

// A clock's base in words: "3 min", "45 s", "1 min 30 s".
export function baseWords(base_s) {
  const m = Math.floor(base_s / 60), s = base_s % 60;
  if (!m) return t('tc.s', {n: s});
  return s ? t('tc.min_s', {m, s}) : t('tc.min', {n: m});
}

// A time control in words, for the terms of a pool or a challenge: "no time limit", "30 s per
// move", "game clock: 3 min + 2 s per move", "5 days per move".
export function timerText(timer) {
  const tm = normalTimer(timer);
  if (tm === 'none') return t('terms.no_timer');
  if (typeof tm === 'number') return t('lobby.timer', {n: tm});
  if (tm.type === 'clock') return t('tc.clock_words', {base: baseWords(tm.base_s), inc: tm.increment_s});
  if (tm.type === 'correspondence') return t('tc.days_per_move', {n: tm.days});
  return '';
}

// The same, short, for a room's card: "30 s per move", "3+2 clock", "5 days per move"; none
// for no time limit.
export function timerShort(timer) {
  const tm = normalTimer(timer);
  if (tm === 'none') return '';
  if (tm.type === 'clock') return t('tc.clock_card', {short: clockShort(tm.base_s, tm.increment_s)});
  return timerText(tm);
}

// A game clock's figure: "4:05", "1:02:30", and tenths under 10 s ("0:09.4").
export function clockFigure(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const secs = Math.floor(ms / 1000);
  const hh = Math.floor(secs / 3600), mm = Math.floor(secs / 60) % 60, ss = String(secs % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

// A long time left in words: "2 d 4 h", "3 h 12 min", "12 min", "40 s".
export function longLeft(ms) {
  ms = Math.max(0, ms);
  const mins = Math.floor(ms / 60000), hours = Math.floor(mins / 60), days = Math.floor(hours / 24);
  if (days) return t('tc.left_dh', {d: days, h: hours % 24});
  if (hours) return t('tc.left_hm', {h: hours, m: mins % 60});
  if (mins) return t('tc.left_m', {m: mins});
  return t('tc.left_s', {s: Math.floor(ms / 1000)});
}

// A deadline (Unix ms) as a local date and time: "Tue 14 May, 18:30".
export function localDate(ms) {
  return new Intl.DateTimeFormat(language(), {weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit'})
    .format(new Date(ms));
}

// The server's time as this page last learned it (a clock's `at`): a deadline that the server
// wrote is compared with it, not with a system clock that may be skewed.
let offset = 0;
export function noteServerTime(at) {
  if (Number.isFinite(at)) offset = at - Date.now();
}
export function serverNow() { return Date.now() + offset; }

// The end of a game, as its players and spectators read it: who won in words ("You won", "You
// lost", "You finished 2nd of 3"), the reason, the rating change of a rated game (+16, 1500 ->
// 1516), the seats the computer finished for an absent player (not counted as theirs:
// docs/rules.md, "Results"), the places, and the two ways on: Rematch and New opponent. The fair
// draw check stays folded below. Pure functions of the finished state; the room acts.
import {h} from './util.js';
import {t} from './i18n/index.js';
import {place, reason, drawnWhat, sentence} from './words.js';

// The places the game counts: a seat the computer finished for is below every other seat (they
// share that place); the others keep their order among themselves, as the ratings do.
export function countedPlaces(result) {
  const away = new Set(result.takeover || []);
  const present = result.places.map((p, seat) => ({p, seat})).filter(({seat}) => !away.has(seat));
  return result.places.map((p, seat) => (away.has(seat)
    ? present.length + 1
    : 1 + present.filter((o) => o.p < p).length));
}

// "+16", "−16" (a true minus sign), "±0".
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return '\u00b10';
}

// The headline for `me` (a seat, or null for a spectator); `onTime`: the seats whose time ran out.
export function headline(result, me, name, onTime = []) {
  const counted = countedPlaces(result);
  const n = counted.length;
  const firsts = counted.map((p, seat) => (p === 1 ? seat : -1)).filter((s) => s >= 0);
  if (me === null || me === undefined) {
    if (firsts.length === n) return t('result.draw');
    if (firsts.length > 1) return t('result.winners', {names: firsts.map(name).join(', ')});
    return sentence(t('result.winner', {name: name(firsts[0])}));
  }
  if (onTime.length && counted[me] === 1) return t('result.won_time');
  if (onTime.includes(me)) return t('result.lost_time');
  if (counted[me] === 1) return t(firsts.length === n ? 'result.draw' : firsts.length > 1 ? 'result.shared' : 'result.won');
  if (n === 2) return t('result.lost');
  return t('result.place_of', {place: place(counted[me]), n});
}

// What the game did to `seat`'s rating, in words; null when it was not rated.
export function ratingLine(result, seat) {
  const r = result.ratings?.[seat];
  if (!r) return null;
  return t('result.rating', {delta: signed(r.after - r.before), before: r.before, after: r.after});
}

// The board's places in order, each with its rating when the game was rated and a mark on the
// seats the computer finished for.
export function placesList(res, name) {
  const away = new Set(res.takeover || []);
  const order = res.places.map((p, seat) => ({p, seat})).sort((a, b) => a.p - b.p || a.seat - b.seat);
  return h('ol', {class: 'places'}, order.map(({p, seat}) => {
    let line = t('result.line', {place: place(p), name: name(seat)});
    if (away.has(seat)) line = t('result.by_computer', {line});
    const r = res.ratings?.[seat];
    if (r) line = t('result.line_rating', {line, after: r.after, delta: signed(r.after - r.before)});
    return h('li', {'data-seat': seat}, line);
  }));
}

// Why the game ended; a resignation between two says who resigned (the one who came second),
// "You resigned." to `me`.
export function reasonLine(res, name, me) {
  if (res.reason === 'resigned' && res.places.length === 2 && res.places[0] !== res.places[1]) {
    const seat = res.places[0] > res.places[1] ? 0 : 1;
    return seat === me ? t('result.you_resigned') : t('result.reason_resigned', {name: name(seat)});
  }
  return t('result.reason', {reason: reason(res.reason)});
}

// Everything the result box shows: `m` the finished state, `me` the viewer's seat (or null),
// `name` seat -> name, `onTime` the seats out of time, `verified` the seed check ({ok} or null),
// and the buttons the room provides (`buttons`: Rematch and New opponent, for a player; `links`).
export function endCard({m, me, name, onTime, verified, buttons, links}) {
  const res = m.result;
  const counted = countedPlaces(res);
  const away = new Set(res.takeover || []);
  const outcome = me === null ? 'over' : counted[me] === 1 ? 'won' : 'lost';
  const parts = [h('h3', {class: 'end-headline', 'data-outcome': outcome}, headline(res, me, name, onTime))];
  const mine = me === null ? null : ratingLine(res, me);
  if (mine) {
    const r = res.ratings[me];
    parts.push(h('p', {class: 'rating-change', 'data-delta': r.after - r.before}, mine));
  }
  parts.push(h('p', {class: 'reason', 'data-reason': res.reason}, reasonLine(res, name, me)));
  for (const seat of onTime) parts.push(h('p', {class: 'time-out', 'data-seat': seat}, t('result.time_out', {name: name(seat)})));
  for (const seat of away)
    parts.push(h('p', {class: 'takeover-note', 'data-seat': seat},
      seat === me ? t('result.takeover_you') : t('result.takeover_other', {name: name(seat)})));
  parts.push(placesList(res, name));
  if (m.rematch?.length)
    parts.push(h('p', {class: 'rematch-asked'}, t('result.rematch_asked', {names: m.rematch.map(name).join(', ')})));
  if (buttons.length) parts.push(h('div', {class: 'end-actions'}, buttons));
  parts.push(h('p', {class: 'end-links'}, links.flatMap((l, i) => (i ? [t('list.sep'), l] : [l]))));
  if (verified) {
    parts.push(h('details', {class: 'fair'},
      h('summary', {class: verified.ok ? 'ok' : 'bad'}, t(verified.ok ? 'result.fair_ok' : 'result.fair_bad', {what: drawnWhat(m.game)})),
      h('p', {}, t(verified.ok ? 'seed.commit_ok' : 'seed.commit_bad'))));
  }
  return parts;
}

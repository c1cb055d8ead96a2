// What the boards mark besides the position: the last move (where it came from, where it
// ended, what it removed) and, while an animation plays, the pit or point just reached; the
// legend naming those marks; and the small symbols of the sowing boards (below).
import {h, s} from '../util.js';
import {t} from '../i18n/index.js';

// A ring round (x, y) of radius r for the mark `kind`: last-from, last-to, active, removed.
export function markRing(kind, x, y, r) {
  return s('circle', {cx: x, cy: y, r, class: `mark ${kind}`, 'aria-hidden': 'true'});
}

// The same mark as an outline of any shape (a paddy's wedge, say), given as a path.
export function markPath(kind, d) {
  return s('path', {d, class: `mark ${kind}`, 'aria-hidden': 'true'});
}

// A transparent square centred on (x, y) that takes the click or tap: the pick is at least as
// large as `size` whatever is drawn inside it.
export function hitArea(x, y, w, hgt = w) {
  return s('rect', {x: x - w / 2, y: y - hgt / 2, width: w, height: hgt, class: 'hit'});
}

// The kind of mark a key carries in `marks`, or null.
export function markOf(marks, key) {
  if (!marks) return null;
  if (marks.active === key) return 'active';
  if (marks.to === key) return 'last-to';
  if (marks.from === key) return 'last-from';
  if (marks.removed?.has?.(key)) return 'removed';
  return null;
}

// The line under a board that says what its marks mean, each drawn as the board draws it: the
// targets one may tap (green), where the last move started (orange, dashed) and where it ended
// (orange, solid). Steere's Tanbo has no start: its last stone placed is ringed. A replay has
// nothing to tap: `play` false leaves the green out.
const SOWING = new Set(['mancala-simple', 'tsoro']);

// One swatch: a small picture of the mark in CSS (style.css, the legend), in the board's colours
// and shape; not SVG, so that the board stays the one picture in #board. Tanbo's targets are its
// paddies where the Farmer may go (`pick` 'paddy'), else tokens in dashed boxes.
function swatch(kind, game, pick) {
  const shape = game === 'tanbo' ? (kind === 'play' && pick !== 'paddy' ? 'token' : 'paddy') : game === 'steere-tanbo' ? 'point' : 'hole';
  return h('span', {class: `legend-swatch ${shape} ${kind}`, 'aria-hidden': 'true'});
}

// The legend of `game`'s board, or null for a board that marks nothing; the last move's marks
// only with `last`, once a move is marked.
export function boardLegend(game, {play = true, pick = null, last = true} = {}) {
  if (!SOWING.has(game) && game !== 'tanbo' && game !== 'steere-tanbo') return null;
  const item = (kind, words) => h('span', {class: 'legend-item', 'data-mark': kind}, swatch(kind, game, pick), words);
  // Two groups, each kept on one line: what one may play; the last move, start and end together.
  return h('p', {class: 'board-legend', 'data-game': game},
    play ? h('span', {class: 'legend-group'}, item('play', t('legend.play'))) : null,
    last ? h('span', {class: 'legend-group'}, game === 'steere-tanbo' ? item('last-to', t('legend.placed'))
      : [item('last-from', t('legend.from')), item('last-to', t('legend.to'))]) : null,
    // What Tanbo's tokens are worth, which the board cannot show.
    game === 'tanbo' ? h('span', {class: 'legend-points'}, t('legend.points')) : null);
}

// Small symbols the sowing boards draw, each with one meaning and told apart by shape, never by
// colour alone: a seat's shape (beside its name, on its store and its tray), and the badge on a
// tappable hole saying what the tap does when it is not a plain sowing (sow on, stop, capture,
// take no more).
// A circle, a square, a diamond, a star: no triangle, which would read as the "▶" of the player
// to move.
const SEAT_SHAPES = ['circle', 'square', 'diamond', 'star'];

// Seat `seat`'s shape centred on (x, y), about 2r across.
export function seatGlyph(seat, x, y, r) {
  const shape = SEAT_SHAPES[seat % SEAT_SHAPES.length];
  const cls = `seat-glyph seat-${seat % SEAT_SHAPES.length}`;
  const f = (v) => Math.round(v * 10) / 10;
  const poly = (pts) => s('polygon', {class: cls, 'aria-hidden': 'true', points: pts.map(([a, b]) => `${f(x + a * r)},${f(y + b * r)}`).join(' ')});
  switch (shape) {
    case 'star': return poly(Array.from({length: 10}, (_, i) => {
      const a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? 0.45 : 1.08;
      return [Math.cos(a) * rr, Math.sin(a) * rr + 0.08];
    }));
    case 'square': return s('rect', {class: cls, 'aria-hidden': 'true', x: f(x - r * 0.8), y: f(y - r * 0.8), width: f(r * 1.6), height: f(r * 1.6), rx: f(r * 0.15)});
    case 'diamond': return poly([[0, -1.05], [0.95, 0], [0, 1.05], [-0.95, 0]]);
    default: return s('ellipse', {class: cls, 'aria-hidden': 'true', cx: f(x), cy: f(y), rx: f(r * 0.85), ry: f(r * 0.85)});
  }
}

// The badge of a tap's meaning, a disc of radius r centred on (x, y): `relay` an arrow pointing
// `angle` degrees (the way the stones will go), `stop` a square (the move ends here), `take` an
// arrow pointing `angle` degrees (towards the capturer), `done` a tick (no more captures).
export function tapBadge(kind, x, y, r, angle = 0) {
  const f = (v) => Math.round(v * 10) / 10;
  let symbol;
  switch (kind) {
    case 'stop':
      symbol = s('rect', {x: f(-r * 0.42), y: f(-r * 0.42), width: f(r * 0.84), height: f(r * 0.84), rx: f(r * 0.08)});
      break;
    case 'done':
      symbol = s('path', {d: `M${f(-r * 0.5)},${f(r * 0.02)} L${f(-r * 0.12)},${f(r * 0.42)} L${f(r * 0.52)},${f(-r * 0.4)}`, class: 'stroke'});
      break;
    default:  // relay, take: an arrow
      symbol = s('path', {d: `M${f(-r * 0.55)},${f(-r * 0.16)} H${f(r * 0.05)} V${f(-r * 0.5)} L${f(r * 0.6)},0 L${f(r * 0.05)},${f(r * 0.5)} V${f(r * 0.16)} H${f(-r * 0.55)} Z`,
        transform: `rotate(${Math.round(angle)})`});
  }
  return s('g', {class: `badge badge-${kind}`, transform: `translate(${f(x)} ${f(y)})`, 'aria-hidden': 'true'},
    s('ellipse', {rx: r, ry: r}), symbol);
}

// The angle, in degrees, from (x1, y1) to (x2, y2) on the screen.
export const angleOf = (x1, y1, x2, y2) => Math.atan2(y2 - y1, x2 - x1) * 180 / Math.PI;

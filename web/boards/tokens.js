// Tanbo's components drawn as SVG by the page itself: snakes, rice of three colours, the two
// Farmers, the dikes, the bag, and a pile of one kind of token. Each function draws one thing
// centred on (x, y) at `u` viewBox units across and knows nothing of the game's state.
//
// Colour is never the only cue: yellow rice is round, black square and red a diamond, each
// carrying its letter; a snake is a long wavy body, never a disc; a Farmer wears a straw hat
// and its seat's shape (marks.js, as on every board), seat 1 dark and seat 2 light. No <circle> is used: the shared board
// style colours the first circle of every pick, and these tokens keep their own colours.
import {s} from '../util.js';
import {t} from '../i18n/index.js';
import {seatGlyph} from './marks.js';

export const RICE = ['yellow', 'black', 'red'];
// The kinds of token in the order the game lists them (`sow`, the legal lists).
export const KINDS = ['snake', 'yellow', 'black', 'red', 'farmer'];
// A kind's member in a paddy, a hand or a trim ({snakes, yellow, black, red, farmer}).
export const FIELD = {snake: 'snakes', yellow: 'yellow', black: 'black', red: 'red', farmer: 'farmer'};
export const POINTS = {yellow: 3, black: 4, red: 5};

const f = (n) => Math.round(n * 10) / 10;

// A round shape as an ellipse (see the module's comment on circles).
export const disc = (cx, cy, r, attrs = {}) => s('ellipse', {cx: f(cx), cy: f(cy), rx: f(r), ry: f(r), ...attrs});

const LETTER_MIN = 50;

export function rice(colour, x, y, u) {
  const r = u / 2;
  let shape;
  if (colour === 'yellow') shape = disc(x, y, r * 0.92, {class: 'tb-body'});
  else if (colour === 'black') shape = s('rect', {x: f(x - r * 0.8), y: f(y - r * 0.8), width: f(r * 1.6), height: f(r * 1.6), rx: f(r * 0.22), class: 'tb-body'});
  else shape = s('path', {d: `M${f(x)},${f(y - r)}L${f(x + r)},${f(y)}L${f(x)},${f(y + r)}L${f(x - r)},${f(y)}Z`, class: 'tb-body', 'stroke-linejoin': 'round'});
  return s('g', {class: `tb-tok tb-rice ${colour}`},
    shape,
    // A little shine on the upper left makes a token of a flat shape.
    s('ellipse', {cx: f(x - r * 0.32), cy: f(y - r * 0.38), rx: f(r * 0.26), ry: f(r * 0.14), class: 'tb-shine'}),
    // Its letter where it can be read (about 12 pixels on a phone from 50 units); a smaller
    // token, the bag's, is told by its colour and shape alone.
    u >= LETTER_MIN ? s('text', {x: f(x), y: f(y + r * 0.04), class: 'tb-letter', 'font-size': f(u * 0.48), 'text-anchor': 'middle', 'dominant-baseline': 'central'},
      t(`tanbo.letter_of.${colour}`)) : null);
}

// A snake: a wavy body with a head and an eye, lying across its place.
export function snake(x, y, u) {
  const w = u * 1.15, a = u * 0.2;
  const x0 = x - w / 2;
  const body = `M${f(x0)},${f(y)}c${f(w * 0.14)},${f(-a * 1.6)} ${f(w * 0.26)},${f(-a * 1.6)} ${f(w * 0.36)},0` +
               `s${f(w * 0.22)},${f(a * 1.6)} ${f(w * 0.36)},0`;
  const hx = x0 + w * 0.84, hy = y - a * 0.2;
  return s('g', {class: 'tb-tok tb-snake'},
    s('path', {d: body, class: 'tb-snake-edge', 'stroke-width': f(u * 0.3)}),
    s('path', {d: body, class: 'tb-snake-body', 'stroke-width': f(u * 0.2)}),
    s('ellipse', {cx: f(hx), cy: f(hy), rx: f(u * 0.17), ry: f(u * 0.13), class: 'tb-snake-head'}),
    disc(hx + u * 0.06, hy - u * 0.03, u * 0.035, {class: 'tb-snake-eye'}));
}

// A Farmer of `seat`: a conical straw hat over a body carrying the seat's shape.
export function farmer(seat, x, y, u) {
  const cls = `tb-tok tb-farmer seat${seat}`;
  return s('g', {class: cls},
    s('path', {d: `M${f(x - u * 0.3)},${f(y + u * 0.5)}L${f(x - u * 0.22)},${f(y - u * 0.02)}Q${f(x)},${f(y - u * 0.12)} ${f(x + u * 0.22)},${f(y - u * 0.02)}L${f(x + u * 0.3)},${f(y + u * 0.5)}Z`, class: 'tb-farmer-body'}),
    disc(x, y - u * 0.12, u * 0.13, {class: 'tb-farmer-face'}),
    s('path', {d: `M${f(x - u * 0.42)},${f(y - u * 0.14)}L${f(x)},${f(y - u * 0.5)}L${f(x + u * 0.42)},${f(y - u * 0.14)}Z`, class: 'tb-farmer-hat', 'stroke-linejoin': 'round'}),
    seatGlyph(seat, x, y + u * 0.28, u * 0.12));
}

// One token of `kind` (a Farmer needs its seat).
export function token(kind, x, y, u, seat = 0) {
  if (kind === 'snake') return snake(x, y, u);
  if (kind === 'farmer') return farmer(seat, x, y, u * 1.35);
  return rice(kind, x, y, u);
}

// Where the tokens of a pile lie, as on a die (one to five), in units of the spacing; a little
// offset each so a heap looks put down by hand.
const PATTERNS = [
  [],
  [[0, 0]],
  [[-0.5, -0.45], [0.5, 0.45]],
  [[-0.62, 0.42], [0.62, 0.42], [0, -0.5]],
  [[-0.55, -0.5], [0.55, -0.5], [-0.55, 0.5], [0.55, 0.5]],
  [[-0.62, -0.55], [0.62, -0.55], [0, 0], [-0.62, 0.55], [0.62, 0.55]],
];
const JITTER = [[2, -1], [-1, 2], [1, 1], [-2, -1], [1, -2]];

// `n` tokens of `kind` around (x, y) in a square of `size`: up to five drawn as on a die, and
// from two on their count on a badge, as on every mancala hole. Nothing for none. A heap may lie
// at `angle` degrees (snakes, along a paddy), its badge upright.
export function pile(kind, n, x, y, size, seat = 0, angle = 0) {
  if (!n) return null;
  const shown = Math.min(n, 5);
  const u = size * [0, 0.74, 0.6, 0.54, 0.5, 0.5][shown];
  const g = size * (kind === 'snake' ? 0.4 : 0.36);
  const a = angle * Math.PI / 180, c = Math.cos(a), sn = Math.sin(a);
  const at = (dx, dy) => [x + dx * c - dy * sn, y + dx * sn + dy * c];
  // Snakes lie side by side across their length, each clear of the next, a heap staggered.
  const items = (kind === 'snake' ? PATTERNS[shown].map((_, i) => [i % 2 * 0.5 - 0.25, shown > 1 ? 1.3 * i / (shown - 1) - 0.65 : 0]) : PATTERNS[shown]).map(([dx, dy], i) => {
    const [tx, ty] = at(dx * g + JITTER[i][0], dy * g + JITTER[i][1]);
    const tk = token(kind, tx, ty, u, seat);
    if (angle) tk.setAttribute('transform', `rotate(${f(angle)} ${f(tx)} ${f(ty)})`);
    return tk;
  });
  if (n > 1) items.push(badge(...(angle ? at(size * 0.62, 0) : at(size * 0.4, -size * 0.4)), n, size * 0.48));
  return s('g', {class: `tb-pile ${kind}`}, items);
}

// A small rounded label with a count, over a corner of a pile.
export function badge(x, y, text, hgt) {
  const w = hgt * (0.5 + 0.42 * String(text).length);
  return s('g', {class: 'tb-badge'},
    s('rect', {x: f(x - w / 2), y: f(y - hgt / 2), width: f(w), height: f(hgt), rx: f(hgt / 2)}),
    s('text', {x: f(x), y: f(y), 'font-size': f(hgt * 0.72), 'text-anchor': 'middle', 'dominant-baseline': 'central'}, text));
}

// A dike: an earth bank laid from radius r0 to r1 of a ring centred on (cx, cy), at `deg`.
export function dike(cx, cy, r0, r1, deg, width) {
  const a = deg * Math.PI / 180;
  const c = Math.cos(a), sn = Math.sin(a);
  const nx = -sn * width / 2, ny = c * width / 2;
  const p = (r, k) => `${f(cx + r * c + k * nx)},${f(cy + r * sn + k * ny)}`;
  return s('g', {class: 'tb-dike'},
    s('path', {d: `M${p(r0, -1)}L${p(r1, -1)}L${p(r1, 1)}L${p(r0, 1)}Z`, 'stroke-linejoin': 'round'}),
    s('path', {d: `M${p(r0 + 6, 0)}L${p(r1 - 6, 0)}`, class: 'tb-dike-crest'}));
}

// The bag the rice not in play is drawn from: a cloth pouch tied at the neck.
export function bag(x, y, w, hgt) {
  const l = x - w / 2, r = x + w / 2, top = y - hgt / 2, bot = y + hgt / 2;
  const neck = top + hgt * 0.22;
  return s('g', {class: 'tb-bag'},
    s('path', {class: 'tb-bag-cloth', d: `M${f(x - w * 0.16)},${f(neck)}C${f(l - w * 0.08)},${f(neck + hgt * 0.2)} ${f(l)},${f(bot)} ${f(x)},${f(bot)}` +
      `C${f(r)},${f(bot)} ${f(r + w * 0.08)},${f(neck + hgt * 0.2)} ${f(x + w * 0.16)},${f(neck)}Z`}),
    s('path', {class: 'tb-bag-cloth', d: `M${f(x - w * 0.16)},${f(neck)}L${f(x - w * 0.3)},${f(top)}L${f(x + w * 0.3)},${f(top)}L${f(x + w * 0.16)},${f(neck)}Z`}),
    s('path', {class: 'tb-bag-tie', d: `M${f(x - w * 0.2)},${f(neck)}L${f(x + w * 0.2)},${f(neck)}`}));
}

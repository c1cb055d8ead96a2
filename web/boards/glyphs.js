// Small symbols the sowing boards draw, each with one meaning and told apart by shape, never by
// colour alone: a seat's shape (beside its name, on its store and its tray), and the badge on a
// tappable hole saying what the tap does when it is not a plain sowing (sow on, stop, capture,
// take no more).
import {s} from '../util.js';

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

// Mancala simple for 2 to 4 players: each seat's holes along one side of the board, its store
// at the corner after them, the circuit counter-clockwise; the viewer's side at the bottom.
import {s, h, svgButton, plural} from '../util.js';

const decisions = {sow: 'choose one of your holes to sow'};

function describeAction(a) { return `sow hole ${a.hole + 1}`; }

function describeEvent(ev, name) {
  switch (ev.type) {
    case 'sow': return `${plural(ev.stones, 'stone')} sown from hole ${ev.hole + 1}`;
    case 'extra_move': return `${name(ev.seat)} moves again (last stone in a store)`;
    case 'place': return `${name(ev.seat)} takes place ${ev.place} (${ev.by.replace('_', ' ')})`;
    default: return null;
  }
}

// Corners of the board for n sides, counter-clockwise from bottom-left, in a 1000-wide box.
function corners(n) {
  if (n === 2) return null;
  if (n === 3) return [[120, 820], [880, 820], [500, 162]];
  return [[130, 870], [870, 870], [870, 130], [130, 130]];
}

// A hole: its count inside, its number at (lx, ly).
function pit(x, y, r, count, label, cls, lx, ly) {
  return s('g', {class: `pit ${cls}`},
    s('circle', {cx: x, cy: y, r}),
    s('text', {x, y, class: 'count', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, count),
    s('text', {x: lx, y: ly, class: 'pit-label', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, label));
}

function render({state, legal, viewer, act, name}) {
  const n = state.seats.length;
  const H = state.holes;
  const legalHoles = new Map((legal || []).map((a) => [a.hole, a]));
  const rel = (k) => (viewer + k) % n;  // the seat drawn on side k
  const items = [];
  const hole = (seat, i, x, y, r, lx, ly) => {
    const st = state.seats[seat];
    const count = st.holes[i];
    const mover = state.to_move === seat;
    const g = pit(x, y, r, count, `${i + 1}`, `${st.in_circuit ? '' : 'out'}${mover ? ' mover' : ''}`, lx, ly);
    g.dataset.seat = seat;
    g.dataset.hole = i;
    const a = seat === viewer ? legalHoles.get(i) : undefined;
    if (a) svgButton(g, `Sow hole ${i + 1} (${plural(count, 'stone')})`, () => act(a));
    else g.append(s('title', {}, `${name(seat)}, hole ${i + 1}: ${plural(count, 'stone')}`));
    items.push(g);
  };
  const store = (seat, x, y, w, hgt, rx = Math.min(w, hgt) / 2) => {
    const st = state.seats[seat];
    items.push(s('g', {class: `store${st.in_circuit ? '' : ' out'}`, 'data-store': seat},
      s('title', {}, `${name(seat)}'s store: ${plural(st.store, 'stone')}`),
      s('rect', {x: x - w / 2, y: y - hgt / 2, width: w, height: hgt, rx}),
      s('text', {x, y, class: 'count', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, st.store)));
  };
  const label = (seat, x, y, rot = 0) => {
    const st = state.seats[seat];
    const place = st.place ? ` · ${st.place}${['', 'st', 'nd', 'rd', 'th'][st.place] || 'th'}` : '';
    const turn = state.to_move === seat ? '▶ ' : '';
    items.push(s('text', {x, y, class: `side-label${state.to_move === seat ? ' mover' : ''}`, 'text-anchor': 'middle',
      transform: rot ? `rotate(${rot} ${x} ${y})` : null}, `${turn}${name(seat)} (seat ${seat + 1})${place}`));
  };

  let viewBox;
  if (n === 2) {
    // Two rows: mine left to right at the bottom, the other right to left on top.
    const W = 1000, x0 = 170, x1 = 830, step = (x1 - x0) / (H - 1), r = Math.min(44, step * 0.42);
    for (let i = 0; i < H; ++i) hole(rel(0), i, x0 + i * step, 320, r, x0 + i * step, 320 + r + 24);
    for (let i = 0; i < H; ++i) hole(rel(1), i, x1 - i * step, 170, r, x1 - i * step, 170 - r - 24);
    store(rel(0), W - 65, 245, 90, 250);
    store(rel(1), 65, 245, 90, 250);
    label(rel(0), 500, 440);
    label(rel(1), 500, 30);
    viewBox = '0 0 1000 470';
    items.unshift(s('rect', {x: 5, y: 100, width: 990, height: 290, rx: 60, class: 'wood'}));
  } else {
    const c = corners(n);
    items.push(s('polygon', {points: c.map((p) => p.join(',')).join(' '), class: 'wood'}));
    const cx = c.reduce((a, p) => a + p[0], 0) / n, cy = c.reduce((a, p) => a + p[1], 0) / n;
    for (let k = 0; k < n; ++k) {
      const seat = rel(k);
      const [ax, ay] = c[k], [bx, by] = c[(k + 1) % n];
      const len = Math.hypot(bx - ax, by - ay);
      const half = n === 3 ? Math.PI / 6 : Math.PI / 4;  // half the corner angle
      // Inward normal of an edge (towards the centre).
      const normal = (px, py, qx, qy) => {
        const l = Math.hypot(qx - px, qy - py);
        let nx = -(qy - py) / l, ny = (qx - px) / l;
        if (nx * (cx - px) + ny * (cy - py) < 0) { nx = -nx; ny = -ny; }
        return [nx, ny];
      };
      const [nx, ny] = normal(ax, ay, bx, by);
      // Holes sit on a line `inset` inside the edge; the store where that line meets the next
      // side's, at the corner; the first and last holes keep clear of both corners' stores.
      const storeHalf = 36;
      let r = 40, t0 = 0.2;
      for (let pass = 0; pass < 3; ++pass) {
        const inset = r + 14, corner = inset / Math.tan(half);
        t0 = (corner + r + storeHalf + 8) / len;
        r = Math.min(40, ((1 - 2 * t0) / (H - 1)) * len * 0.45);
      }
      const inset = r + 14, step = (1 - 2 * t0) / (H - 1);
      for (let i = 0; i < H; ++i) {
        const t = t0 + i * step;
        const x = ax + (bx - ax) * t + nx * inset, y = ay + (by - ay) * t + ny * inset;
        hole(seat, i, x, y, r, x + nx * (r + 20), y + ny * (r + 20));
      }
      const [qx, qy] = c[(k + 2) % n];
      const [mx2, my2] = normal(bx, by, qx, qy);
      const l2 = Math.hypot(qx - bx, qy - by), corner = inset / Math.tan(half);
      store(seat, bx + (qx - bx) / l2 * corner + mx2 * inset, by + (qy - by) / l2 * corner + my2 * inset,
            2 * storeHalf, 2 * storeHalf, 12);
      const mx = (ax + bx) / 2, my = (ay + by) / 2;
      const ox = mx - nx * 34, oy = my - ny * 34;
      let angle = Math.atan2(by - ay, bx - ax) * 180 / Math.PI;
      if (angle > 90.5) angle -= 180;
      if (angle < -90.5) angle += 180;
      label(seat, ox, oy, angle);
    }
    viewBox = n === 3 ? '0 80 1000 820' : '40 40 920 920';
  }
  const svg = s('svg', {viewBox, class: 'board-svg mancala', role: 'group',
    'aria-label': `Mancala board, ${n} players, ${H} holes each`}, items);
  const controls = [];
  if (legal) controls.push(h('p', {class: 'hint'}, 'Click or tab to one of your highlighted holes.'));
  return {svg, controls};
}

export default {decisions, render, describeAction, describeEvent};

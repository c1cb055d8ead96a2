// Steere's Tanbo: the grid with its stones; each root drawn as lines joining its stones, and its
// liberties on a hover title. Black stones are dark discs, White light discs with a dark rim, so
// the colour is told by lightness and by the "B"/"W" in each root's first stone.
import {s, h, svgButton, plural} from '../util.js';

const decisions = {place: 'place a stone next to exactly one of yours'};

function describeAction(a) { return `place at ${a.place}`; }

function describeEvent(ev, name) {
  switch (ev.type) {
    case 'place': return `${ev.colour} stone at ${ev.point}`;
    case 'remove': return `removed ${ev.roots.map((r) => `${r.colour} root of ${plural(r.points.length, 'stone')}`).join(', ')}`;
    case 'win': return `${name(ev.seat)} (${ev.colour}) wins`;
    default: return null;
  }
}

function render({state, legal, viewer, act, name}) {
  const W = state.width, H = state.height;
  const cell = 50, m = 46;
  const X = (x) => m + x * cell, Y = (y) => m + y * cell;
  const point = (p) => ({x: p.charCodeAt(0) - 97, y: H - Number(p.slice(1))});
  const items = [s('rect', {x: m - cell / 2, y: m - cell / 2, width: W * cell, height: H * cell, class: 'wood', rx: 10})];
  for (let x = 0; x < W; ++x) {
    items.push(s('line', {x1: X(x), x2: X(x), y1: Y(0), y2: Y(H - 1), class: 'grid'}));
    items.push(s('text', {x: X(x), y: Y(H - 1) + cell * 0.95, class: 'coord', 'text-anchor': 'middle'}, String.fromCharCode(97 + x)));
  }
  for (let y = 0; y < H; ++y) {
    items.push(s('line', {x1: X(0), x2: X(W - 1), y1: Y(y), y2: Y(y), class: 'grid'}));
    items.push(s('text', {x: X(0) - cell * 0.75, y: Y(y), class: 'coord', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, H - y));
  }
  // Roots: lines between orthogonally adjacent stones of the same root.
  const rootOf = new Map();
  for (const r of state.roots) for (const p of r.stones) rootOf.set(p, r);
  for (const r of state.roots) {
    for (const p of r.stones) {
      const a = point(p);
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        const q = `${String.fromCharCode(97 + a.x + dx)}${H - (a.y + dy)}`;
        if (rootOf.get(q) === r)
          items.push(s('line', {x1: X(a.x), y1: Y(a.y), x2: X(a.x + dx), y2: Y(a.y + dy), class: `root root-${r.colour}`}));
      }
    }
  }
  for (let y = 0; y < H; ++y) {
    for (let x = 0; x < W; ++x) {
      const c = state.board[y][x];
      if (c === '.') continue;
      const p = `${String.fromCharCode(97 + x)}${H - y}`;
      const r = rootOf.get(p);
      const colour = c === 'b' ? 'black' : 'white';
      const title = `${colour} stone at ${p}${r ? `, root of ${plural(r.stones.length, 'stone')} with ${plural(r.liberties, 'liberty', 'liberties')}` : ''}`;
      items.push(s('g', {class: `stone ${colour}`, 'data-point': p}, s('title', {}, title),
        s('circle', {cx: X(x), cy: Y(y), r: cell * 0.4}),
        r && r.stones[0] === p ? s('text', {x: X(x), y: Y(y), class: 'stone-mark', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, `${c === 'b' ? 'B' : 'W'}${r.liberties}`) : null));
    }
  }
  for (const a of legal || []) {
    const {x, y} = point(a.place);
    const g = s('g', {'data-point': a.place}, s('circle', {cx: X(x), cy: Y(y), r: cell * 0.3, class: 'target'}));
    items.push(svgButton(g, `Place a stone at ${a.place}`, () => act(a)));
  }
  const svg = s('svg', {viewBox: `0 0 ${2 * m + (W - 1) * cell} ${2 * m + (H - 1) * cell + 16}`, class: 'board-svg steere', role: 'group',
    'aria-label': `Steere Tanbo board ${state.size}: ${state.stones.black} black, ${state.stones.white} white stones`}, items);
  const seatOf = state.seats;
  const line = (colour) => {
    const seat = seatOf[colour];
    const turn = state.to_move === colour;
    return h('li', {class: turn ? 'mover' : ''}, `${turn ? '▶ ' : ''}${colour === 'black' ? '● Black' : '○ White'}: ${name(seat)} (seat ${seat + 1}), ${plural(state.stones[colour], 'stone')}`);
  };
  const controls = [h('ul', {class: 'facts'}, line('black'), line('white'),
    h('li', {}, `Turn ${state.ply + 1}. A root's first stone shows its colour letter and liberties.`))];
  if (legal) controls.push(h('p', {class: 'hint'}, `You play ${seatOf.black === viewer ? 'Black' : 'White'}: click a dotted point.`));
  return {svg, controls};
}

export default {decisions, render, describeAction, describeEvent};

// Steere's Tanbo: the grid with its stones; each root drawn as lines joining its stones.
// Black stones are dark discs, White light discs with a dark rim, so the colour is told by
// lightness and by the "B"/"W" in each root's first stone. The last stone placed carries a
// bright ring and a dot, and the points whose stones were just removed a cross.
import {s, h, svgButton} from '../util.js';
import {t} from '../i18n/index.js';
import {markRing, hitArea, markOf} from './marks.js';

const decisions = ['place'];

function describeAction(a) { return t('steere.action.place', {point: a.place}); }

const colourName = (c) => t(`steere.colour.${c}`);

function describeEvent(ev, name) {
  switch (ev.type) {
    // The stone placed is the action's own words already ("place at e2"); its colour is the seat's.
    case 'place': return null;
    case 'remove': return ev.roots.map((r) => t(`steere.ev.remove.${r.colour}`, {n: r.points.length})).join(t('log.and'));
    case 'win': return t('steere.ev.win', {name: name(ev.seat), colour: colourName(ev.colour)});
    default: return null;
  }
}

function lastMove(events) {
  const placed = (events || []).filter((e) => e.type === 'place').pop();
  if (!placed) return null;
  const removed = new Set((events || []).filter((e) => e.type === 'remove')
    .flatMap((e) => e.roots.flatMap((r) => r.points)));
  return {to: placed.point, removed};
}

const name = (x, y, H) => `${String.fromCharCode(97 + x)}${H - y}`;

// The animation plan, from the two positions alone: the new stone appears, then the stones
// gone from the board are shown leaving, then the server's position is drawn.
function plan(prev, next) {
  if (prev.width !== next.width || prev.height !== next.height) return [];
  const H = prev.height;
  const added = [], removed = new Set();
  const board = prev.board.map((row) => row.split(''));
  for (let y = 0; y < H; ++y) {
    for (let x = 0; x < prev.width; ++x) {
      const a = prev.board[y][x], b = next.board[y][x];
      if (a === '.' && b !== '.') { added.push(name(x, y, H)); board[y][x] = b; }
      else if (a !== '.' && b === '.') removed.add(name(x, y, H));
    }
  }
  // A placed stone whose own root was bounded is gone already in `next`: the event's point
  // is not needed, a stone both placed and removed simply does not show.
  const mid = {...prev, board: board.map((r) => r.join(''))};
  const frames = [];
  if (added.length) frames.push({state: mid, marks: {to: added[0], removed: new Set()}, sound: 'place', hold: 2});
  if (removed.size) frames.push({state: mid, marks: {to: added[0], removed}, sound: 'capture', hold: 3});
  return frames;
}

function render({state, legal, viewer, act, name: seatName, marks}) {
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
  let focus = null;
  for (let y = 0; y < H; ++y) {
    for (let x = 0; x < W; ++x) {
      const c = state.board[y][x];
      const p = name(x, y, H);
      const mark = markOf(marks, p);
      if (c === '.') {
        // Stones just removed leave a cross; a stone placed and removed at once keeps its ring.
        if (marks?.removed?.has?.(p)) items.push(s('g', {class: 'gone', 'aria-hidden': 'true'},
          s('path', {d: `M${X(x) - 12},${Y(y) - 12}l24,24m0,-24l-24,24`})));
        if (mark === 'last-to') items.push(markRing('last-to', X(x), Y(y), cell * 0.5));
        continue;
      }
      const r = rootOf.get(p);
      const colour = c === 'b' ? 'black' : 'white';
      const title = r ? t('steere.stone_title', {colour: colourName(colour), point: p, n: r.stones.length, liberties: r.liberties})
                      : t('steere.stone_title_bare', {colour: colourName(colour), point: p});
      items.push(s('g', {class: `stone ${colour}${mark === 'removed' ? ' leaving' : ''}`, 'data-point': p}, s('title', {}, title),
        s('circle', {cx: X(x), cy: Y(y), r: cell * 0.4}),
        r && r.stones[0] === p ? s('text', {x: X(x), y: Y(y), class: 'stone-mark', 'text-anchor': 'middle', 'dominant-baseline': 'central'},
          `${t(`steere.letter.${colour}`)}${r.liberties}`) : null));
      if (mark === 'last-to' || mark === 'active') {
        items.push(markRing('last-to', X(x), Y(y), cell * 0.5));
        items.push(s('circle', {cx: X(x) + cell * 0.36, cy: Y(y) - cell * 0.36, r: 7, class: 'last-dot', 'aria-hidden': 'true'}));
        focus = {x: X(x), y: Y(y)};
      }
    }
  }
  const picks = [];
  for (const a of legal || []) {
    const {x, y} = point(a.place);
    const g = s('g', {'data-point': a.place}, hitArea(X(x), Y(y), cell), s('circle', {cx: X(x), cy: Y(y), r: cell * 0.3, class: 'target'}));
    items.push(svgButton(g, t('steere.pick', {point: a.place}), () => act(a)));
    picks.push({x: X(x), y: Y(y)});
  }
  const svg = s('svg', {viewBox: `0 0 ${2 * m + (W - 1) * cell} ${2 * m + (H - 1) * cell + 16}`, class: 'board-svg steere', role: 'group',
    'aria-label': t('steere.board_label', {size: state.size, black: state.stones.black, white: state.stones.white})}, items);
  const seatOf = state.seats;
  const line = (colour) => {
    const seat = seatOf[colour];
    const turn = state.to_move === colour;
    return h('li', {class: turn ? 'mover' : ''}, `${turn ? '▶ ' : ''}${t(`steere.fact.${colour}`, {name: seatName(seat), n: state.stones[colour]})}`);
  };
  const facts = [h('ul', {class: 'facts'}, line('black'), line('white'),
    h('li', {}, t('steere.fact.turn', {n: state.ply + 1})),
    marks?.to ? h('li', {class: 'last-line'}, t('steere.fact.last', {point: marks.to, n: marks.removed?.size || 0})) : null)];
  const hint = legal ? t(seatOf.black === viewer ? 'steere.hint.black' : 'steere.hint.white') : null;
  return {svg, facts, controls: [], hint, minPick: cell, focus: focus || picks[0] || null};
}

export default {decisions, render, describeAction, describeEvent, lastMove, plan};

// Tsoro: four rows; the viewer's two rows at the bottom (inner above outer), the opponent's on
// top. A physical column x holds my outer x, my inner x, their inner N-1-x, their outer N-1-x.
// Heads are outer holes drawn with a double ring and an "H".
import {s, h, svgButton, plural} from '../util.js';

const decisions = {
  sow: 'choose one of your holes to sow',
  head: 'relay from the head or stop',
  bonus: 'pick an opponent hole to capture',
};

const rowName = (r) => (r === 'outer' ? 'back' : 'front');

function describeAction(a) {
  if (a.sow) return `sow ${rowName(a.sow.row)} row, column ${a.sow.col + 1}`;
  if (a.head) return a.head === 'relay' ? 'relay from the head' : 'stop at the head';
  if (a.bonus === 'stop') return 'take no more bonus holes';
  if (a.bonus) return `capture their ${rowName(a.bonus.row)} row hole in column ${a.bonus.col + 1}`;
  return JSON.stringify(a);
}

function describeEvent(ev, name) {
  switch (ev.type) {
    case 'sow': return `${name(ev.seat)} sows${ev.singleton ? ' a single stone' : ''} (${plural(ev.laps, 'lap')})`;
    case 'head': return `${name(ev.seat)} reaches a head with ${plural(ev.stones, 'stone')}`;
    case 'capture': return `${name(ev.seat)} captures ${ev.inner + ev.outer} in column ${ev.col + 1}`;
    case 'bonus': return `${name(ev.seat)} takes a bonus hole (${plural(ev.stones, 'stone')})`;
    case 'turn': return null;
    default: return null;
  }
}

function render({state, legal, viewer, pending, act, name}) {
  const N = state.columns;
  const me = viewer, them = 1 - viewer;
  const heads = new Set(state.head_cols);
  const cell = 60, pad = 40, top = 70;
  const W = pad * 2 + N * cell, Hh = top + 4 * cell + 70;
  const items = [s('rect', {x: pad - 14, y: top - 14, width: N * cell + 28, height: 4 * cell + 28, rx: 22, class: 'wood'}),
                 s('line', {x1: pad - 10, x2: pad + N * cell + 10, y1: top + 2 * cell, y2: top + 2 * cell, class: 'divider'})];
  const sowable = new Map(), bonus = new Map();
  for (const a of legal || []) {
    if (a.sow) sowable.set(`${a.sow.row}:${a.sow.col}`, a);
    if (a.bonus && a.bonus !== 'stop') bonus.set(`${a.bonus.row}:${a.bonus.col}`, a);
  }
  const headHole = state.phase === 'head' && state.head && state.to_move === me ? state.head : null;
  const hole = (seat, row, col, x, y) => {
    const count = state.sides[seat][row][col];
    const isHead = row === 'outer' && heads.has(col);
    const cx = pad + x * cell + cell / 2, cy = top + y * cell + cell / 2;
    const g = s('g', {class: `pit${isHead ? ' head' : ''}`, 'data-seat': seat, 'data-row': row, 'data-col': col},
      s('circle', {cx, cy, r: cell * 0.4}),
      isHead ? s('circle', {cx, cy, r: cell * 0.47, class: 'head-ring'}) : null,
      isHead ? s('text', {x: cx + cell * 0.3, y: cy - cell * 0.3, class: 'head-mark', 'text-anchor': 'middle'}, 'H') : null,
      s('text', {x: cx, y: cy, class: 'count', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, count));
    if (headHole && seat === me && headHole.row === row && headHole.col === col) g.classList.add('focus-hole');
    const what = `${seat === me ? 'your' : name(seat) + "'s"} ${rowName(row)} row, column ${col + 1}${isHead ? ' (head)' : ''}: ${plural(count, 'stone')}`;
    let a;
    if (seat === me) a = sowable.get(`${row}:${col}`);
    else a = bonus.get(`${row}:${N - 1 - col}`);  // bonus columns count from the decider's left
    if (a) svgButton(g, `${describeAction(a)}; ${what}`, () => act(a));
    else g.append(s('title', {}, what));
    items.push(g);
  };
  for (let x = 0; x < N; ++x) {
    hole(them, 'outer', N - 1 - x, x, 0);
    hole(them, 'inner', N - 1 - x, x, 1);
    hole(me, 'inner', x, x, 2);
    hole(me, 'outer', x, x, 3);
  }
  const tag = (seat, y) => items.push(s('text', {x: pad, y, class: `side-label${state.to_move === seat ? ' mover' : ''}`},
    `${state.to_move === seat ? '▶ ' : ''}${name(seat)} (seat ${seat + 1}) · captured ${state.sides[seat].captured}`));
  tag(them, top - 26);
  tag(me, top + 4 * cell + 48);
  const svg = s('svg', {viewBox: `0 0 ${W} ${Hh}`, class: 'board-svg tsoro', role: 'group',
    'aria-label': `Tsoro board, 4 rows of ${N}; heads marked H`}, items);

  const controls = [];
  const extra = [];
  if (state.phase === 'bonus' && state.bonus_left !== undefined)
    extra.push(h('p', {}, `${plural(state.bonus_left, 'bonus hole')} left to pick.`));
  if (legal && pending?.decision === 'head') {
    controls.push(h('div', {class: 'choice-row', role: 'group', 'aria-label': 'Head decision'},
      legal.map((a) => h('button', {type: 'button', class: 'primary', 'data-action': `head-${a.head}`,
        onclick: () => act(a)}, a.head === 'relay' ? 'Relay: sow the head on' : 'Stop here'))));
  }
  if (legal && pending?.decision === 'bonus') {
    controls.push(h('p', {class: 'hint'}, 'Click a highlighted opponent hole to capture it.'));
    const stop = legal.find((a) => a.bonus === 'stop');
    if (stop) controls.push(h('button', {type: 'button', 'data-action': 'bonus-stop', onclick: () => act(stop)}, 'Stop taking bonus holes'));
  }
  if (legal && pending?.decision === 'sow')
    controls.push(h('p', {class: 'hint'}, state.singletons ? 'Only single-stone moves are possible: click a highlighted hole.' : 'Click one of your highlighted holes to sow it.'));
  return {svg, controls: [...extra, ...controls]};
}

export default {decisions, render, describeAction, describeEvent};

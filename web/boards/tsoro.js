// Tsoro: four rows; the viewer's two rows at the bottom (inner above outer), the opponent's on
// top. A physical column x holds my outer x, my inner x, their inner N-1-x, their outer N-1-x.
// Columns are numbered as the log names them, from each player's own left: mine below the
// board, the opponent's above it. Heads are outer holes drawn with a dashed ring and an "H".
import {s, h, svgButton} from '../util.js';
import {t} from '../i18n/index.js';
import {markRing, hitArea, markOf} from './marks.js';

const decisions = ['sow', 'head', 'bonus'];

const rowName = (r) => t(`tsoro.row.${r}`);

function describeAction(a) {
  if (a.sow) return t('tsoro.action.sow', {row: rowName(a.sow.row), col: a.sow.col + 1});
  if (a.head) return t(`tsoro.action.head.${a.head}`);
  if (a.bonus === 'stop') return t('tsoro.action.bonus_stop');
  if (a.bonus) return t('tsoro.action.bonus', {row: rowName(a.bonus.row), col: a.bonus.col + 1});
  return JSON.stringify(a);
}

function describeEvent(ev, name) {
  switch (ev.type) {
    case 'sow': return ev.singleton ? t('tsoro.ev.single', {name: name(ev.seat)})
                                    : t('tsoro.ev.sow', {name: name(ev.seat), n: ev.laps});
    case 'head': return t('tsoro.ev.head', {name: name(ev.seat), n: ev.stones});
    case 'capture': return t('tsoro.ev.capture', {name: name(ev.seat), n: ev.inner + ev.outer, col: ev.col + 1});
    case 'bonus': return t('tsoro.ev.bonus', {name: name(ev.seat), n: ev.stones});
    default: return null;
  }
}

// Holes in sowing order of one side: the outer row from its owner's left, then the inner row
// from the right (docs/rules/tsoro.md).
const indexOf = (hole, N) => (hole.row === 'outer' ? hole.col : 2 * N - 1 - hole.col);
const holeAt = (i, N) => (i < N ? {row: 'outer', col: i} : {row: 'inner', col: 2 * N - 1 - i});
const key = (seat, hole) => `${seat}:${hole.row}:${hole.col}`;

function lastMove(events, state) {
  const evs = events || [];
  const sows = evs.filter((e) => e.type === 'sow');
  const removed = new Set(removedKeys(evs, state?.columns));
  if (!sows.length && !removed.size) return null;
  return {from: sows.length ? key(sows[0].seat, sows[0].from) : null,
          to: sows.length ? key(sows.at(-1).seat, sows.at(-1).last) : null, removed};
}

// The opponent holes a capture or a bonus pick emptied, in the owner's own numbering.
function removedKeys(events, N) {
  const out = [];
  for (const ev of events) {
    if (ev.type === 'capture') {
      const col = N - 1 - ev.col;
      out.push(key(1 - ev.seat, {row: 'inner', col}), key(1 - ev.seat, {row: 'outer', col}));
    }
    if (ev.type === 'bonus') out.push(key(1 - ev.seat, {row: ev.hole.row, col: N - 1 - ev.hole.col}));
  }
  return out;
}

// The animation plan: each sowing of the step replayed stone by stone from the previous
// position (the events give its start and its laps; relays pick the last hole up again),
// then the captured holes emptied. An inconsistent path plays nothing: the state is the truth.
function plan(prev, next, events) {
  const N = prev.columns;
  const st = structuredClone(prev);
  const frames = [];
  const get = (seat, i) => { const hl = holeAt(i, N); return st.sides[seat][hl.row][hl.col]; };
  const put = (seat, i, v) => { const hl = holeAt(i, N); st.sides[seat][hl.row][hl.col] = v; };
  const frame = (marks, sound) => frames.push({state: structuredClone(st), marks, sound});
  for (const ev of events || []) {
    if (ev.type === 'sow') {
      const from = key(ev.seat, ev.from);
      let pos = indexOf(ev.from, N);
      if (ev.singleton) {
        put(ev.seat, pos, get(ev.seat, pos) - 1);
        pos = (pos + 1) % (2 * N);
        put(ev.seat, pos, get(ev.seat, pos) + 1);
        frame({active: key(ev.seat, holeAt(pos, N)), from}, 'stone');
      } else {
        for (let lap = 0; lap < ev.laps; ++lap) {
          let k = get(ev.seat, pos);
          put(ev.seat, pos, 0);
          frame({active: key(ev.seat, holeAt(pos, N)), from}, 'stone');
          while (k-- > 0) {
            pos = (pos + 1) % (2 * N);
            put(ev.seat, pos, get(ev.seat, pos) + 1);
            frame({active: key(ev.seat, holeAt(pos, N)), from}, 'stone');
          }
        }
      }
      if (pos !== indexOf(ev.last, N)) return [];
    }
    if (ev.type === 'capture' || ev.type === 'bonus') {
      const gone = removedKeys([ev], N);
      frame({removed: new Set(gone)}, 'capture');
      for (const k of gone) {
        const [seat, row, col] = k.split(':');
        st.sides[Number(seat)][row][Number(col)] = 0;
      }
      frame({removed: new Set(gone)}, null);
    }
  }
  return frames;
}

function render({state, legal, viewer, pending, act, name, marks}) {
  const N = state.columns;
  const me = viewer, them = 1 - viewer;
  const heads = new Set(state.head_cols);
  const cell = 60, pad = 40, top = 74;
  const W = pad * 2 + N * cell, Hh = top + 4 * cell + 78;
  const items = [s('rect', {x: pad - 14, y: top - 10, width: N * cell + 28, height: 4 * cell + 20, rx: 22, class: 'wood'}),
                 s('line', {x1: pad - 10, x2: pad + N * cell + 10, y1: top + 2 * cell, y2: top + 2 * cell, class: 'divider'})];
  const sowable = new Map(), bonus = new Map();
  for (const a of legal || []) {
    if (a.sow) sowable.set(`${a.sow.row}:${a.sow.col}`, a);
    if (a.bonus && a.bonus !== 'stop') bonus.set(`${a.bonus.row}:${a.bonus.col}`, a);
  }
  const headHole = state.phase === 'head' && state.head ? state.head : null;
  const picks = [];
  let focus = null;
  const hole = (seat, row, col, x, y) => {
    const count = state.sides[seat][row][col];
    const isHead = row === 'outer' && heads.has(col);
    const cx = pad + x * cell + cell / 2, cy = top + y * cell + cell / 2;
    const k = key(seat, {row, col});
    const mark = markOf(marks, k);
    const g = s('g', {class: `pit${isHead ? ' head' : ''}`, 'data-seat': seat, 'data-row': row, 'data-col': col},
      hitArea(cx, cy, cell),
      s('circle', {cx, cy, r: cell * 0.4}),
      isHead ? s('circle', {cx, cy, r: cell * 0.47, class: 'head-ring'}) : null,
      isHead ? s('text', {x: cx + cell * 0.3, y: cy - cell * 0.3, class: 'head-mark', 'text-anchor': 'middle'}, t('tsoro.head_letter')) : null,
      mark ? markRing(mark, cx, cy, cell * 0.46) : null,
      s('text', {x: cx, y: cy, class: 'count', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, count));
    if (headHole && seat === state.to_move && headHole.row === row && headHole.col === col) g.classList.add('focus-hole');
    if (mark === 'last-to') focus = {x: cx, y: cy};
    const what = t(seat === me ? 'tsoro.hole_mine' : 'tsoro.hole_theirs',
      {name: name(seat), row: rowName(row), col: col + 1, n: count, head: isHead ? t('tsoro.head_suffix') : ''});
    const a = seat === me ? sowable.get(`${row}:${col}`) : bonus.get(`${row}:${N - 1 - col}`);  // bonus columns count from the decider's left
    if (a) {
      svgButton(g, `${describeAction(a)}: ${what}`, () => act(a));
      picks.push({x: cx, y: cy});
    } else {
      g.append(s('title', {}, what));
    }
    items.push(g);
  };
  for (let x = 0; x < N; ++x) {
    hole(them, 'outer', N - 1 - x, x, 0);
    hole(them, 'inner', N - 1 - x, x, 1);
    hole(me, 'inner', x, x, 2);
    hole(me, 'outer', x, x, 3);
    const cx = pad + x * cell + cell / 2;
    items.push(s('text', {x: cx, y: top - 20, class: 'coord', 'text-anchor': 'middle'}, N - x));
    items.push(s('text', {x: cx, y: top + 4 * cell + 32, class: 'coord', 'text-anchor': 'middle'}, x + 1));
  }
  const tag = (seat, y) => items.push(s('text', {x: pad, y, class: `side-label${state.to_move === seat ? ' mover' : ''}`},
    `${state.to_move === seat ? '▶ ' : ''}${t('tsoro.side_label', {name: name(seat), n: state.sides[seat].captured})}`));
  tag(them, 24);
  tag(me, top + 4 * cell + 66);
  const svg = s('svg', {viewBox: `0 0 ${W} ${Hh}`, class: 'board-svg tsoro', role: 'group',
    'aria-label': t('tsoro.board_label', {n: N})}, items);

  const facts = [h('p', {class: 'small muted'}, t('tsoro.columns_note'))];
  if (state.phase === 'bonus' && state.bonus_left !== undefined)
    facts.push(h('p', {}, t('tsoro.bonus_left', {n: state.bonus_left})));
  const controls = [];
  let hint = null;
  if (legal && pending?.decision === 'head') {
    controls.push(h('div', {class: 'choice-row', role: 'group', 'aria-label': t('tsoro.head_group')},
      legal.map((a) => h('button', {type: 'button', class: 'primary', 'data-action': `head-${a.head}`,
        onclick: () => act(a)}, t(`tsoro.button.${a.head}`)))));
  }
  if (legal && pending?.decision === 'bonus') {
    hint = t('tsoro.hint.bonus');
    const stop = legal.find((a) => a.bonus === 'stop');
    if (stop) controls.push(h('button', {type: 'button', 'data-action': 'bonus-stop', onclick: () => act(stop)}, t('tsoro.button.bonus_stop')));
  }
  if (legal && pending?.decision === 'sow') hint = t(state.singletons ? 'tsoro.hint.singletons' : 'tsoro.hint.sow');
  return {svg, facts, controls, hint, minPick: cell, focus: focus || picks[0] || null};
}

export default {decisions, render, describeAction, describeEvent, lastMove, plan};

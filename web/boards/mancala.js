// Mancala simple for 2 to 4 players: each seat's holes along one side of the board, its store
// at the corner after them, the circuit counter-clockwise; the viewer's side at the bottom.
// Every hole a player may pick has a hit area at least a column wide, so the 2-player board
// keeps 44-pixel targets on a 390-pixel phone.
import {s, svgButton} from '../util.js';
import {t} from '../i18n/index.js';
import {markRing, hitArea, markOf} from './marks.js';

const decisions = ['sow'];

function describeAction(a) { return t('mancala.action.sow', {n: a.hole + 1}); }

function describeEvent(ev, name) {
  switch (ev.type) {
    case 'sow': return t('mancala.ev.sow', {n: ev.stones});
    case 'extra_move': return t('mancala.ev.extra_move', {name: name(ev.seat)});
    case 'place': return t(`mancala.ev.place.${ev.by}`, {name: name(ev.seat), place: t('ord.place', {n: ev.place})});
    default: return null;
  }
}

const pitKey = (p) => `${p.seat}:${p.hole}`;

// The last move: the hole sown from and the pit its last stone reached.
function lastMove(events) {
  const sows = (events || []).filter((e) => e.type === 'sow');
  if (!sows.length) return null;
  const last = sows[sows.length - 1];
  return {from: pitKey(last), to: pitKey(last.pits[last.pits.length - 1])};
}

// The animation plan: the previous position, then the sown hole emptied and one stone added
// to each pit of the sowing path, in order (the path comes from the step's sow events).
function plan(prev, next, events) {
  const frames = [];
  const st = structuredClone(prev);
  for (const ev of events || []) {
    if (ev.type !== 'sow') continue;
    st.seats[ev.seat].holes[ev.hole] = 0;
    frames.push({state: structuredClone(st), marks: {active: pitKey(ev)}, sound: 'stone'});
    for (const p of ev.pits) {
      if (p.hole === 'store') st.seats[p.seat].store++;
      else st.seats[p.seat].holes[p.hole]++;
      frames.push({state: structuredClone(st), marks: {active: pitKey(p), from: pitKey(ev)}, sound: 'stone'});
    }
  }
  return frames;
}

// Corners of the board for n sides, counter-clockwise from bottom-left, in a 1000-wide box.
function corners(n) {
  if (n === 3) return [[80, 860], [920, 860], [500, 132]];
  return [[90, 910], [910, 910], [910, 90], [90, 90]];
}

function truncate(text, max) { return text.length > max ? `${text.slice(0, max - 1)}…` : text; }

function render({state, legal, viewer, act, name, marks}) {
  const n = state.seats.length;
  const H = state.holes;
  const legalHoles = new Map((legal || []).map((a) => [a.hole, a]));
  const rel = (k) => (viewer + k) % n;  // the seat drawn on side k
  const items = [];
  const picks = [];
  let focus = null;
  const hole = (seat, i, x, y, r, lx, ly, hit) => {
    const st = state.seats[seat];
    const count = st.holes[i];
    const key = `${seat}:${i}`;
    const mark = markOf(marks, key);
    const g = s('g', {class: `pit${st.in_circuit ? '' : ' out'}`, 'data-seat': seat, 'data-hole': i},
      hit,
      s('circle', {cx: x, cy: y, r}),
      mark ? markRing(mark, x, y, r + 7) : null,
      s('text', {x, y, class: 'count', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, count),
      s('text', {x: lx, y: ly, class: 'pit-label', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, i + 1));
    if (mark === 'last-to' || mark === 'last-from') focus ??= {x, y};
    const a = seat === viewer ? legalHoles.get(i) : undefined;
    if (a) {
      svgButton(g, t('mancala.pick', {hole: i + 1, n: count}), () => act(a));
      picks.push({x, y});
    } else {
      g.append(s('title', {}, t('mancala.hole_title', {name: name(seat), hole: i + 1, n: count})));
    }
    items.push(g);
  };
  const store = (seat, x, y, w, hgt, rx, vertical) => {
    const st = state.seats[seat];
    const key = `${seat}:store`;
    const mark = markOf(marks, key);
    const owner = name(seat);
    const countY = vertical ? y - hgt * 0.28 : y - 8;
    items.push(s('g', {class: `store${st.in_circuit ? '' : ' out'}`, 'data-store': seat},
      s('title', {}, t('mancala.store_title', {name: owner, n: st.store})),
      s('rect', {x: x - w / 2, y: y - hgt / 2, width: w, height: hgt, rx}),
      mark ? s('rect', {x: x - w / 2 - 6, y: y - hgt / 2 - 6, width: w + 12, height: hgt + 12, rx: rx + 4, class: `mark ${mark}`}) : null,
      s('text', {x, y: countY, class: 'count', 'dominant-baseline': 'central', 'text-anchor': 'middle'}, st.store),
      vertical
        ? s('text', {x, y: y + hgt * 0.14, class: 'store-owner', 'text-anchor': 'middle', 'dominant-baseline': 'central',
                     transform: `rotate(-90 ${x} ${y + hgt * 0.14})`}, truncate(owner, 14))
        : s('text', {x, y: y + 22, class: 'store-owner small', 'text-anchor': 'middle', 'dominant-baseline': 'central'},
            truncate(owner, 7))));
  };
  const label = (seat, x, y, rot = 0) => {
    const st = state.seats[seat];
    const mover = state.to_move === seat;
    const text = [mover ? '▶ ' : '', name(seat), st.place ? ` · ${t('ord.place', {n: st.place})}` : ''].join('');
    items.push(s('text', {x, y, class: `side-label${mover ? ' mover' : ''}`, 'text-anchor': 'middle',
      'dominant-baseline': 'central', transform: rot ? `rotate(${rot} ${x} ${y})` : null}, text));
  };

  let viewBox, minPick;
  if (n === 2) {
    // Two rows: mine left to right at the bottom, the other right to left on top; the stores
    // narrow at the ends so the holes get the width.
    const x0 = 95, x1 = 905, step = (x1 - x0) / H, r = Math.min(50, step * 0.38);
    items.push(s('rect', {x: 2, y: 70, width: 996, height: 390, rx: 50, class: 'wood'}));
    for (let i = 0; i < H; ++i) {
      const x = x0 + step * (i + 0.5);
      hole(rel(0), i, x, 350, r, x, 350 + r + 26, hitArea(x, 350, step, 180));
    }
    for (let i = 0; i < H; ++i) {
      const x = x1 - step * (i + 0.5);
      hole(rel(1), i, x, 180, r, x, 180 - r - 26, hitArea(x, 180, step, 180));
    }
    store(rel(0), 952, 265, 80, 330, 36, true);
    store(rel(1), 48, 265, 80, 330, 36, true);
    label(rel(0), 500, 500);
    label(rel(1), 500, 32);
    viewBox = '0 0 1000 530';
    minPick = Math.min(step, 180);
  } else {
    const c = corners(n);
    items.push(s('polygon', {points: c.map((p) => p.join(',')).join(' '), class: 'wood'}));
    const cx = c.reduce((a, p) => a + p[0], 0) / n, cy = c.reduce((a, p) => a + p[1], 0) / n;
    minPick = Infinity;
    for (let k = 0; k < n; ++k) {
      const seat = rel(k);
      const [ax, ay] = c[k], [bx, by] = c[(k + 1) % n];
      const len = Math.hypot(bx - ax, by - ay);
      const half = n === 3 ? Math.PI / 6 : Math.PI / 4;  // half the corner angle
      const normal = (px, py, qx, qy) => {  // inward normal of an edge
        const l = Math.hypot(qx - px, qy - py);
        let nx = -(qy - py) / l, ny = (qx - px) / l;
        if (nx * (cx - px) + ny * (cy - py) < 0) { nx = -nx; ny = -ny; }
        return [nx, ny];
      };
      const [nx, ny] = normal(ax, ay, bx, by);
      // Holes on a line `inset` inside the edge; the store where that line meets the next
      // side's, at the corner; the first and last holes keep clear of both corners' stores.
      const storeHalf = 36;
      let r = 40, t0 = 0.2;
      for (let pass = 0; pass < 3; ++pass) {
        const inset = r + 14, corner = inset / Math.tan(half);
        t0 = (corner + r + storeHalf + 8) / len;
        r = Math.min(40, ((1 - 2 * t0) / (H - 1)) * len * 0.45);
      }
      const inset = r + 14, step = (1 - 2 * t0) / (H - 1);
      const stepLen = step * len;
      minPick = Math.min(minPick, stepLen);
      const angle = Math.atan2(by - ay, bx - ax) * 180 / Math.PI;
      for (let i = 0; i < H; ++i) {
        const tt = t0 + i * step;
        const x = ax + (bx - ax) * tt + nx * inset, y = ay + (by - ay) * tt + ny * inset;
        const hit = hitArea(x, y, stepLen, 2 * r + 40);
        hit.setAttribute('transform', `rotate(${angle} ${x} ${y})`);
        hole(seat, i, x, y, r, x + nx * (r + 20), y + ny * (r + 20), hit);
      }
      const [qx, qy] = c[(k + 2) % n];
      const [mx2, my2] = normal(bx, by, qx, qy);
      const l2 = Math.hypot(qx - bx, qy - by), corner = inset / Math.tan(half);
      store(seat, bx + (qx - bx) / l2 * corner + mx2 * inset, by + (qy - by) / l2 * corner + my2 * inset,
            2 * storeHalf, 2 * storeHalf, 12, false);
      const mx = (ax + bx) / 2, my = (ay + by) / 2;
      let rot = angle;
      if (rot > 90.5) rot -= 180;
      if (rot < -90.5) rot += 180;
      label(seat, mx - nx * 30, my - ny * 30, rot);
    }
    viewBox = n === 3 ? '0 80 1000 830' : '30 30 940 940';
  }
  const svg = s('svg', {viewBox, class: 'board-svg mancala', role: 'group',
    'aria-label': t('mancala.board_label', {players: n, n: H})}, items);
  return {svg, controls: [], facts: [], hint: legal ? t('mancala.hint') : null, minPick, focus: focus || picks[0] || null};
}

export default {decisions, render, describeAction, describeEvent, lastMove, plan};

// Mancala simple for 2 to 4 players: each seat's holes along one side of the board, its store
// at the corner after them, the circuit counter-clockwise; the viewer's side at the bottom.
// Holes and stores show their stones as pebbles (pebbles.js). Each seat is named along its row,
// at the end by its store, with its shape (marks.js), which its store carries too. A hole the
// player may sow has a hit area a whole slot wide: 44 pixels on a phone for 2 and 4 players, 32
// at least for 3.
import {s, svgButton} from '../util.js';
import {t} from '../i18n/index.js';
import {hitArea, markOf, markRing, seatGlyph} from './marks.js';
import {pebbles, hand, countFigure} from './pebbles.js';
import {boardSpace, fitLines, textWidth, viewportPick} from './fit.js';
import {stepMs, MAX_ANIMATION_MS} from '../settings.js';

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

// The animation plan, from the previous position and the sow events' paths: the hole picked up
// (its stones in the sower's hand, held a little), then one stone flying from pit to pit along
// the path, the hand emptying as it goes. `ms` is the time of one frame, for the stones' flight.
function plan(prev, next, events) {
  const sows = (events || []).filter((e) => e.type === 'sow');
  if (!sows.length) return [];
  const frames = [];
  const st = structuredClone(prev);
  const units = sows.reduce((n, ev) => n + 2 + ev.pits.length, 0);
  const ms = Math.round(Math.max(16, Math.min(stepMs() || 0, MAX_ANIMATION_MS / units)) * 0.9);
  for (const ev of sows) {
    const from = pitKey(ev);
    let inHand = st.seats[ev.seat].holes[ev.hole];
    if (inHand !== ev.pits.length) return [];  // the path does not add up: the state is the truth
    st.seats[ev.seat].holes[ev.hole] = 0;
    frames.push({state: structuredClone(st), marks: {active: from, hand: {at: from, n: inHand}, ms}, sound: 'stone', hold: 2});
    let at = from;
    for (const p of ev.pits) {
      if (p.hole === 'store') st.seats[p.seat].store++;
      else st.seats[p.seat].holes[p.hole]++;
      const to = pitKey(p);
      inHand--;
      frames.push({state: structuredClone(st), marks: {active: to, from, flight: {from: at, to}, hand: inHand ? {at: to, n: inHand} : null, ms}, sound: 'stone'});
      at = to;
    }
  }
  return frames;
}

// Corners of the board for n sides, counter-clockwise on the screen from the bottom left.
function corners(n) {
  if (n === 3) return [[2, 900], [998, 900], [500, 37.5]];  // equilateral
  return [[4, 996], [996, 996], [996, 4], [4, 4]];
}

// Where everything goes: for each seat drawn on side k (the viewer's at k = 0), its holes (centre,
// radius, the direction of its row `u` and the inward normal `nrm`), its store and its label.
// `px` is how many board units make a CSS pixel at the board's estimated width: words are set
// at a size a reader can read on every screen.
function geometry(n, H) {
  const px = 1000 / boardSpace().width;
  const seats = [];
  const labelSize = Math.max(n === 2 ? 32 : 30, 14 * px), coordSize = Math.max(24, 12 * px);
  if (n === 2) {
    // Two rows: mine left to right at the bottom, the other right to left on top; the stores
    // at the ends, narrow, so the holes get the width.
    const x0 = 88, x1 = 912, step = (x1 - x0) / H, R = Math.min(step * 0.45, 62);
    const y0 = labelSize * 1.7, yT = y0 + coordSize + 22 + R, yB = yT + 2 * R + 22, y1 = yB + R + coordSize + 22;
    const storeTop = y0 + 14, storeH = y1 - 14 - storeTop;
    for (let k = 0; k < 2; ++k) {
      const bottom = k === 0;
      const u = bottom ? [1, 0] : [-1, 0], nrm = bottom ? [0, -1] : [0, 1];
      const y = bottom ? yB : yT;
      seats.push({
        holes: Array.from({length: H}, (_, i) => ({x: bottom ? x0 + step * (i + 0.5) : x1 - step * (i + 0.5), y})),
        R, u, nrm, slot: step, hitH: 2 * R + 22, numGap: R + coordSize * 0.5 + 12,
        // A store with its last-move ring (6 units out, a 9-unit stroke) inside the picture.
        store: {x: bottom ? 951 : 49, y: storeTop + storeH / 2, w: 74, h: storeH, shape: 'rect'},
        glyphAt: {x: bottom ? 951 : 49, y: bottom ? y1 - 34 : storeTop + 20},
        // The name's pill stands out of its text by .35 of its size: inside the picture still.
        label: {x: bottom ? 996 - labelSize * 0.4 : 4 + labelSize * 0.4, y: bottom ? y1 + labelSize * 0.85 : y0 - labelSize * 0.85, anchor: bottom ? 'end' : 'start', rot: 0, max: 640, size: labelSize},
      });
    }
    return {seats, px, coordSize, wood: s('rect', {x: 2, y: y0, width: 996, height: y1 - y0, rx: 56, class: 'wood'}),
            viewBox: `0 0 1000 ${Math.round(y1 + labelSize * 1.7)}`, minPick: Math.min(step, 2 * R + 22)};
  }
  const c = corners(n);
  const cx = c.reduce((a, p) => a + p[0], 0) / n, cy = c.reduce((a, p) => a + p[1], 0) / n;
  const half = n === 3 ? Math.PI / 6 : Math.PI / 4;  // half the corner angle
  // The holes' line inside the edge, the stores' size: in a triangle's sharp corners, close to
  // the edges, so that 6 holes a side keep 44-pixel targets on a phone.
  const d = n === 3 ? 50 : 70;
  const storeHalf = n === 3 ? 48 : 62;
  let minPick = Infinity;
  for (let k = 0; k < n; ++k) {
    const [ax, ay] = c[k], [bx, by] = c[(k + 1) % n];
    const len = Math.hypot(bx - ax, by - ay);
    const u = [(bx - ax) / len, (by - ay) / len];
    let nrm = [-u[1], u[0]];
    if (nrm[0] * (cx - ax) + nrm[1] * (cy - ay) < 0) nrm = [-nrm[0], -nrm[1]];
    const co = d / Math.tan(half);  // where the holes' lines of two sides meet, from the corner
    const ta = co + storeHalf + 8, tb = len - co - storeHalf - 8;
    const slot = (tb - ta) / H, R = Math.min(slot * 0.44, d - 6, 54);
    minPick = Math.min(minPick, slot);
    const at = (tt, inset) => ({x: ax + u[0] * tt + nrm[0] * inset, y: ay + u[1] * tt + nrm[1] * inset});
    const store = at(len - co, d);
    // The label reads left to right, or upwards, and ends (or starts) by the store. A square
    // has room for it inside, along the row; a triangle's middle is too small: outside.
    const forward = u[0] > 0.01 || (Math.abs(u[0]) <= 0.01 && u[1] < 0);
    const read = forward ? u : [-u[0], -u[1]];
    const labelInset = n === 3 ? -(labelSize * 0.8 + 6) : d + R + coordSize + 34;
    // Inside, it stops short of the next side's hole numbers.
    const lab = at(n === 3 ? tb : Math.min(tb, len - (d + R + coordSize + 30)), labelInset);
    const away = Math.hypot(store.x - cx, store.y - cy);
    const glyph = {x: store.x + (store.x - cx) / away * storeHalf * 0.62, y: store.y + (store.y - cy) / away * storeHalf * 0.62};
    seats.push({
      holes: Array.from({length: H}, (_, i) => at(ta + slot * (i + 0.5), d)),
      R, u, nrm, slot, hitH: 2 * R + 40, numGap: R + coordSize * 0.5 + 10,
      store: {...store, w: storeHalf * 2, h: storeHalf * 2, shape: n === 3 ? 'round' : 'rect'},
      glyphAt: glyph,
      label: {x: lab.x, y: lab.y, anchor: forward ? 'end' : 'start', rot: Math.atan2(read[1], read[0]) * 180 / Math.PI,
              max: n === 3 ? tb - ta : len - 2 * (d + R + coordSize + 30) - labelSize * 0.6, size: labelSize},
    });
  }
  return {seats, px, coordSize, centre: {x: cx, y: cy}, wood: s('polygon', {points: c.map((p) => p.join(',')).join(' '), class: 'wood', 'stroke-linejoin': 'round'}),
          viewBox: n === 3 ? '0 0 1000 960' : '0 0 1000 1000', minPick};
}

function render({state, legal, viewer, act, name, marks}) {
  const n = state.seats.length;
  const H = state.holes;
  const legalHoles = new Map((legal || []).map((a) => [a.hole, a]));
  const rel = (k) => (viewer + k) % n;  // the seat drawn on side k
  const geo = geometry(n, H);
  const where = new Map();  // pit key -> its centre, for the stones' flight and the hand
  geo.seats.forEach((g, k) => {
    g.holes.forEach((p, i) => where.set(`${rel(k)}:${i}`, p));
    where.set(`${rel(k)}:store`, g.store);
  });
  const flight = (key) => {
    if (marks?.flight?.to !== key) return null;
    const from = where.get(marks.flight.from), to = where.get(key);
    return from && to ? {dx: from.x - to.x, dy: from.y - to.y} : null;
  };
  const items = [geo.wood];
  const figures = [];  // every count, drawn above every hole and mark
  const picks = [];
  let focus = null;

  geo.seats.forEach((g, k) => {
    const seat = rel(k);
    const st = state.seats[seat];
    const out = st.in_circuit ? '' : ' out';
    const {R, u, nrm} = g;
    g.holes.forEach(({x, y}, i) => {
      const count = st.holes[i];
      const key = `${seat}:${i}`;
      const mark = markOf(marks, key);
      const hit = hitArea(x, y, g.slot, g.hitH);
      const angle = Math.atan2(u[1], u[0]) * 180 / Math.PI;
      if (Math.abs(angle) > 0.5 && Math.abs(Math.abs(angle) - 180) > 0.5) hit.setAttribute('transform', `rotate(${angle.toFixed(2)} ${x} ${y})`);
      // The hole's number beside it: outside the two rows; inside a 3- or 4-sided board, towards
      // its centre, so that the end holes' numbers lean to their own row's middle, clear of the
      // next row's. The count figure on the rim, towards the edge.
      const away = geo.centre ? Math.hypot(geo.centre.x - x, geo.centre.y - y) : 0;
      const toward = away ? [(geo.centre.x - x) / away, (geo.centre.y - y) / away] : [-nrm[0], -nrm[1]];
      const numAt = {x: x + toward[0] * g.numGap, y: y + toward[1] * g.numGap};
      const figAt = {x: x + (u[0] - nrm[0]) * R * 0.72, y: y + (u[1] - nrm[1]) * R * 0.72};
      const grp = s('g', {class: `pit${out}`, 'data-seat': seat, 'data-hole': i, 'data-count': count},
        hit,
        s('ellipse', {class: 'bowl', cx: x, cy: y, rx: R, ry: R}),
        pebbles(count, x, y, {rx: R * 0.9, ry: R * 0.9}, key, {fly: flight(key)}),
        mark ? markRing(mark, x, y, R + 8) : null,
        s('text', {x: numAt.x, y: numAt.y, class: 'hole-num', 'dominant-baseline': 'central', 'text-anchor': 'middle', 'font-size': geo.coordSize}, i + 1));
      // Readable on a phone: 12 pixels at least.
      figures.push(countFigure(count, figAt.x, figAt.y, Math.max(R * 0.42, 12 * geo.px), {heapAt: {x, y}, of: key}));
      if (mark === 'last-to' || mark === 'last-from') focus ??= {x, y};
      const a = seat === viewer ? legalHoles.get(i) : undefined;
      if (a) {
        svgButton(grp, t('mancala.pick', {hole: i + 1, n: count}), () => act(a));
        picks.push({x, y});
      } else {
        grp.append(s('title', {}, t('mancala.hole_title', {name: name(seat), hole: i + 1, n: count})));
      }
      items.push(grp);
    });
    items.push(store(g, seat, st, state.to_move === seat, n));
  });

  function store(g, seat, st, mover, players) {
    const {x, y, w, h, shape} = g.store;
    const key = `${seat}:store`;
    const mark = markOf(marks, key);
    const owner = name(seat);
    const round = shape === 'round';
    const area = round ? {rx: w * 0.43, ry: h * 0.43} : {w: w - 18, h: h - 18};
    const body = round ? s('ellipse', {class: 'bowl', cx: x, cy: y, rx: w / 2, ry: h / 2})
      : s('rect', {class: 'bowl', x: x - w / 2, y: y - h / 2, width: w, height: h, rx: Math.min(w, h) * 0.4});
    const ringEl = !mark ? null : round ? markRing(mark, x, y, w / 2 + 8)
      : s('rect', {class: `mark ${mark}`, 'aria-hidden': 'true', x: x - w / 2 - 6, y: y - h / 2 - 6, width: w + 12, height: h + 12, rx: Math.min(w, h) * 0.4 + 5});
    // Two players: the count beside its owner's shape, at the same end of the store.
    const figAt = players === 2 ? {x, y: g.glyphAt.y < y ? g.glyphAt.y + 46 : g.glyphAt.y - 46} : {x: 2 * x - g.glyphAt.x, y: 2 * y - g.glyphAt.y};
    // A store always says its count, none included.
    figures.push(countFigure(st.store, figAt.x, figAt.y, Math.max(24, 12 * geo.px), {heapAt: {x, y}, from: 0, of: key}));
    return s('g', {class: `sow-store${st.in_circuit ? '' : ' out'}`, 'data-store': seat, 'data-count': st.store},
      s('title', {}, t('mancala.store_title', {name: owner, n: st.store})),
      body,
      pebbles(st.store, x, y, area, key, {fly: flight(key)}),
      ringEl,
      // Its owner's shape hollow, never to be taken for a stone.
      s('g', {class: 'store-glyph'}, seatGlyph(seat, g.glyphAt.x, g.glyphAt.y, players === 2 ? 15 : 13)),
      seatLabel(seat, st, mover, g.label));
  }

  // A seat's name along its row, ending by its store: its shape, "▶" while it is to move, its
  // place once decided. It names the store it stands by (the store's `store-owner`).
  function seatLabel(seat, st, mover, {x, y, anchor, rot, max, size}) {
    const who = st.place ? t('mancala.name_place', {name: name(seat), place: t('ord.place', {n: st.place})}) : name(seat);
    const glyphW = size * 1.1;
    // Whole, a little smaller where it must (a long name with its place on a phone).
    const {lines: [words], size: fs} = fitLines(`${mover ? '▶ ' : ''}${who}`, max - glyphW, size, size * 0.8);
    const width = textWidth(words, fs) + glyphW;
    const x0 = anchor === 'end' ? x - width : x;  // the label's left end, before rotation
    return s('g', {class: `seat-label store-owner${mover ? ' mover' : ''}`, transform: rot ? `rotate(${rot.toFixed(2)} ${x} ${y})` : null},
      mover ? s('rect', {class: 'mover-pill', x: x0 - size * 0.35, y: y - size * 0.72, width: width + size * 0.7, height: size * 1.44, rx: size * 0.72}) : null,
      seatGlyph(seat, x0 + size * 0.45, y, size * 0.42),
      s('text', {x: x0 + glyphW, y, 'dominant-baseline': 'central', 'font-size': fs}, words));
  }

  items.push(s('g', {class: 'figures'}, figures));
  if (marks?.hand?.n) {
    const p = where.get(marks.hand.at);
    const R = geo.seats[0].R;
    // Over the hole it is sown from or into, within its rim: clear of the hole's number outside.
    if (p) items.push(hand(marks.hand.n, p.x - R * 0.2, p.y - R * 0.2, R * 0.26, marks.hand.at, 12 * geo.px));
  }
  const svg = s('svg', {viewBox: geo.viewBox, class: `board-svg mancala sow players-${n}`, role: 'group',
    'aria-label': t('mancala.board_label', {players: n, n: H})}, items);
  if (marks?.ms) svg.style.setProperty('--fly-ms', `${marks.ms}ms`);
  // Seen whole at once: no taller than the space below its top, so no wider than that allows,
  // unless its holes would be under a finger (the zoom viewport takes over then).
  const [, , vbW, vbH] = geo.viewBox.split(' ').map(Number);
  const mine = geo.seats[0];  // the viewer's holes, the only ones tapped
  const fingerWidth = 44 * vbW / Math.min(mine.slot, mine.hitH);
  svg.style.maxWidth = `${Math.floor(Math.max(boardSpace(null, 0.6, legal ? t('mancala.hint') : null).below * vbW / vbH, fingerWidth))}px`;
  return {svg, controls: [], facts: [], hint: legal ? t('mancala.hint') : null,
          minPick: viewportPick(geo.minPick), focus: focus || picks[0] || null};
}

export default {decisions, render, describeAction, describeEvent, lastMove, plan};

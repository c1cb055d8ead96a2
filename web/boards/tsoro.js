// Tsoro: four rows of holes, the viewer's two at the bottom (inner above outer), the opponent's
// on top; a board too long for the screen's width turns a quarter (columns as rows, the
// viewer's rows on the left), always one board seen whole at once. A physical column x holds
// my outer x, my inner x, their inner N-1-x and their outer N-1-x.
// Columns are numbered once, from the viewer's left (the rules count each side from its owner's
// left: words for the opponent's holes and moves are turned into the viewer's numbering). Heads
// are drawn square. Every decision is a tap on the board: a hole to sow; at a head, the head
// itself to stop or the next hole to sow on; a bonus hole to capture, or one's tray of captured
// stones to take no more; a badge on the hole says what the tap does when it is not a sowing.
import {s, h, svgButton} from '../util.js';
import {t} from '../i18n/index.js';
import {hitArea, seatGlyph, tapBadge, angleOf} from './marks.js';
import {pebbles, hand, countFigure} from './pebbles.js';
import {boardSpace, fitLines, fitText, textWidth, viewportPick} from './fit.js';
import {stepMs, MAX_ANIMATION_MS} from '../settings.js';

const decisions = ['sow', 'head', 'bonus'];

const rowName = (r) => t(`tsoro.row.${r}`);

// The seat and column count the words are told for: the last board drawn's viewer (the room
// draws the board whenever it words the log), unless the caller names them.
const told = {viewer: 0, columns: null};
// A column as the viewer numbers it, from `seat`'s own numbering (0-based in, 1-based out).
function viewCol(col, seat, ctx = told) {
  if (seat === undefined || seat === ctx.viewer || !ctx.columns) return col + 1;
  return ctx.columns - col;
}

// An action in words; `seat` is whose it is (the log's actions may be the opponent's), the
// viewer's when omitted (the legal list).
function describeAction(a, seat) {
  if (a.sow) return t('tsoro.action.sow', {row: rowName(a.sow.row), col: viewCol(a.sow.col, seat)});
  if (a.head) return t(`tsoro.action.head.${a.head}`);
  if (a.bonus === 'stop') return t('tsoro.action.bonus_stop');
  if (a.bonus) return t('tsoro.action.bonus', {row: rowName(a.bonus.row), col: viewCol(a.bonus.col, seat)});
  return JSON.stringify(a);
}

function describeEvent(ev, name) {
  switch (ev.type) {
    // A sowing of one lap says no more than the move's own line: only a relay is told.
    case 'sow': return ev.singleton ? t('tsoro.ev.single', {name: name(ev.seat)})
      : ev.laps > 1 ? t('tsoro.ev.sow', {name: name(ev.seat), n: ev.laps}) : null;
    // Always after its sowing's line, whose subject it shares: said without it.
    case 'head': return t('tsoro.ev.head', {n: ev.stones});
    case 'capture': return t('tsoro.ev.capture', {name: name(ev.seat), n: ev.inner + ev.outer, col: viewCol(ev.col, ev.seat)});
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

// The animation plan: each sowing of the step replayed from the previous position (the events
// give its start and its laps; a relay picks the last hole up again): a hole picked up, its
// stones in the hand (held a little), then one stone flying to each next hole; a capture shows
// the holes it takes, then their stones leaving for the capturer's tray. A path that does not
// add up plays nothing: the state is the truth. `ms` is one frame's time, for the flights.
function plan(prev, next, events) {
  const N = prev.columns;
  const st = structuredClone(prev);
  const frames = [];
  const get = (seat, i) => { const hl = holeAt(i, N); return st.sides[seat][hl.row][hl.col]; };
  const put = (seat, i, v) => { const hl = holeAt(i, N); st.sides[seat][hl.row][hl.col] = v; };
  const frame = (marks, sound, hold = 1) => frames.push({state: structuredClone(st), marks, sound, hold});
  for (const ev of events || []) {
    if (ev.type === 'sow') {
      const from = key(ev.seat, ev.from);
      let pos = indexOf(ev.from, N);
      const k = (i) => key(ev.seat, holeAt(i, N));
      if (ev.singleton) {
        put(ev.seat, pos, get(ev.seat, pos) - 1);
        const at = pos;
        pos = (pos + 1) % (2 * N);
        put(ev.seat, pos, get(ev.seat, pos) + 1);
        frame({active: k(pos), from, flight: {from: k(at), to: k(pos)}}, 'stone');
      } else {
        for (let lap = 0; lap < ev.laps; ++lap) {
          let inHand = get(ev.seat, pos);
          if (inHand < 1) return [];
          put(ev.seat, pos, 0);
          frame({active: k(pos), from, hand: {at: k(pos), n: inHand}}, 'stone', 2);
          while (inHand-- > 0) {
            const at = pos;
            pos = (pos + 1) % (2 * N);
            put(ev.seat, pos, get(ev.seat, pos) + 1);
            frame({active: k(pos), from, flight: {from: k(at), to: k(pos)}, hand: inHand ? {at: k(pos), n: inHand} : null}, 'stone');
          }
        }
      }
      if (pos !== indexOf(ev.last, N)) return [];
    }
    if (ev.type === 'capture' || ev.type === 'bonus') {
      const gone = removedKeys([ev], N);
      const removed = new Set(gone);
      frame({removed, taking: removed}, 'capture', 2);
      const leaving = [];
      for (const g of gone) {
        const [seat, row, col] = g.split(':');
        const n = st.sides[Number(seat)][row][Number(col)];
        st.sides[Number(seat)][row][Number(col)] = 0;
        st.sides[ev.seat].captured += n;
        leaving.push({key: g, n, to: ev.seat});
      }
      frame({removed, leaving}, null, 2);
    }
  }
  // One frame's time, as web/motion.js (Animator) will play them, for the stones' flight.
  const units = frames.reduce((n, f) => n + f.hold, 0);
  const ms = Math.round(Math.max(16, Math.min(stepMs() || 0, MAX_ANIMATION_MS / Math.max(1, units))) * 0.9);
  for (const f of frames) f.marks.ms = ms;
  return frames;
}

// The geometry: across (as the board lies between the players) when its holes are 44 pixels or
// at least as large as turned; else turned. Sizes are in board units; `px` is how many make a
// CSS pixel at the estimated width, so that words keep their size on every screen. `picture`:
// the lobby's, always across.
function layout(N, size, hint, picture) {
  // A long board (15 columns and more) has the room's whole width on a wide screen (style.css).
  const space = boardSpace(size, N >= 15 ? 1 : 0.6, hint);
  const across = acrossLayout(N, space);
  const landCell = space.width / (N + 0.5);
  if (picture || landCell >= 44) return across;
  const up = uprightLayout(N, space);
  return landCell >= up.pick ? across : up.L;
}

function acrossLayout(N, space) {
  const c = 60, padX = 14, W = 2 * padX + N * c;
  const px = W / space.width;
  const top = Math.max(40, 30 * px), y0 = top + 6;
  const y1 = y0 + 20 + 4 * c;
  const numY = y1 + Math.max(16, 13 * px);
  const meY = numY + Math.max(30, 24 * px);
  const Hh = meY + Math.max(26, 20 * px);
  // A short board on a wide screen would be taller than the space below it: no wider than fits,
  // unless its holes would be under a finger's 44 pixels.
  const fits = Math.max(space.below * W / Hh, 44 * W / c);
  return {shape: 'across', N, px, W, Hh, maxWidth: fits < space.width ? Math.floor(fits) : null,
    cellW: c, cellH: c, labelSize: Math.max(22, 15 * px), numSize: Math.max(18, 12 * px), woodR: 22,
    at: (lrow, x) => ({x: padX + c * (x + 0.5), y: y0 + 10 + c * (lrow + 0.5)}),
    woods: [{x: 4, y: y0, width: W - 8, height: y1 - y0}],
    dividers: [{x1: padX - 6, x2: W - padX + 6, y1: y0 + 10 + 2 * c, y2: y0 + 10 + 2 * c}],
    num: (x) => ({x: padX + c * (x + 0.5), y: numY}),
    label: {them: {x: padX, y: top / 2 + 2, w: W - 2 * padX}, me: {x: padX, y: meY, w: W - 2 * padX}},
    hole: {rx: c * 0.45, ry: c * 0.45}};
}

// Turned a quarter clockwise: the viewer's rows on the left (outer outermost), column 1 at the
// top, each name above its own two rows; in CSS pixels. Oval holes: stones, then the count. Rows
// as tall as the height allows, 50 at most: on a phone the screen less the decision bar, so that
// the whole board is seen at once (the room scrolls it into view at a decision), else the space
// below the board's top.
function uprightLayout(N, space) {
  const NAME = 54;  // the names and trays, a tray's word above it
  const W = Math.round(space.width);
  const numW = 24, pad = 6, gap = 10;
  const fit = Math.floor(((space.screen ?? space.below) - NAME - 12) / N);
  const row = Math.min(50, fit);
  // Columns no wider than their holes need: on a wide screen the board stays a board.
  const cw = Math.min((W - numW - 2 - 2 * pad - gap) / 4, row * 2.6);
  const bw = numW + 2 * pad + gap + 4 * cw + 2;
  const y0 = NAME, y1 = y0 + 12 + N * row;
  const colX = (u) => numW + pad + cw * (u + 0.5) + (u >= 2 ? gap : 0);
  const half = (bw - numW) / 2;
  const L = {shape: 'upright', N, px: 1, W: bw, Hh: y1 + 4, cellW: cw, cellH: row, labelSize: 13, numSize: 12, woodR: 14, trayHit: NAME - 12,
    at: (lrow, x) => ({x: colX(3 - lrow), y: y0 + 6 + row * (x + 0.5)}),
    woods: [{x: numW, y: y0, width: bw - numW - 2, height: y1 - y0}],
    dividers: [{x1: numW + pad + 2 * cw + gap / 2, x2: numW + pad + 2 * cw + gap / 2, y1: y0 + 2, y2: y1 - 2}],
    num: (x) => ({x: numW / 2, y: y0 + 6 + row * (x + 0.5)}),
    label: {me: {x: numW, y: NAME - 21, w: half - 4}, them: {x: numW + half + 4, y: NAME - 21, w: half - 6}}, captionAbove: true,
    hole: {rx: Math.min(cw * 0.45, row * 1.4), ry: row * 0.44}};
  return {L, pick: Math.min(cw, row)};
}

function render({state, legal, viewer, pending, act, name, marks, size, shape}) {
  const N = state.columns;
  const me = viewer, them = 1 - viewer;
  told.viewer = viewer;
  told.columns = N;
  const heads = new Set(state.head_cols);
  let L = null;
  const pos = (seat, row, col) => {
    const mine = seat === me;
    const x = mine ? col : N - 1 - col;
    const lrow = mine ? (row === 'inner' ? 2 : 3) : (row === 'inner' ? 1 : 0);
    return L.at(lrow, x);
  };
  const where = (k) => {
    const [seat, row, col] = k.split(':');
    if (row === 'tray') return trayAt(Number(seat));
    return pos(Number(seat), row, Number(col));
  };

  // What each tappable hole does: sow it; at a head, stop there or sow on into the next hole;
  // after a capture, take an opponent hole.
  const taps = new Map();  // key -> {action, badge, label}
  const decision = legal ? pending?.decision : null;
  for (const a of legal || []) {
    if (a.sow) {
      const k = key(me, a.sow);
      taps.set(k, {action: a, badge: null, label: t('tsoro.pick.sow', holeWords(me, a.sow))});
    } else if (a.head && state.head) {
      const headKey = key(me, state.head);
      const n = state.sides[me][state.head.row][state.head.col];
      if (a.head === 'stop') taps.set(headKey, {action: a, badge: 'stop', label: t('tsoro.pick.stop', {n})});
      else taps.set(key(me, holeAt((indexOf(state.head, N) + 1) % (2 * N), N)), {action: a, badge: 'relay', label: t('tsoro.pick.relay', {n})});
    } else if (a.bonus && a.bonus !== 'stop') {
      const hole = {row: a.bonus.row, col: N - 1 - a.bonus.col};  // bonus columns count from the decider's left
      taps.set(key(them, hole), {action: a, badge: 'take', label: t('tsoro.pick.bonus', holeWords(them, hole))});
    } else if (a.bonus === 'stop') {
      taps.set(`${me}:tray`, {action: a, badge: 'done', label: t('tsoro.pick.bonus_stop')});
    }
  }
  // The hint goes in the phone's decision bar, under the board: the board leaves it room.
  let hint = null;
  if (decision === 'head') hint = t('tsoro.hint.head');
  if (decision === 'bonus') hint = t(taps.has(`${me}:tray`) ? 'tsoro.hint.bonus_optional' : 'tsoro.hint.bonus');
  if (decision === 'sow') hint = t(state.singletons ? 'tsoro.hint.singletons' : 'tsoro.hint.sow');
  L = layout(N, size, hint, shape === 'wide');
  const {px} = L;

  function holeWords(seat, hole) {
    const count = state.sides[seat][hole.row][hole.col];
    return {name: name(seat), row: rowName(hole.row), col: viewCol(hole.col, seat, {viewer: me, columns: N}), n: count,
            head: hole.row === 'outer' && heads.has(hole.col) ? t('tsoro.head_suffix') : ''};
  }

  const upright = L.shape === 'upright';
  const items = [...L.woods.map((w) => s('rect', {...w, rx: L.woodR, class: 'wood'})),
    ...L.dividers.map((d) => s('line', {...d, class: 'divider'}))];
  const picks = [];
  const figures = [];  // every hole's count, drawn above every hole and mark
  let focus = null;
  const {rx, ry} = L.hole;
  const figSize = Math.max(ry * 0.6, 11 * px);
  const badgeR = Math.max(Math.min(rx, ry) * 0.42, 8 * px);
  const removed = marks?.removed;

  const drawHole = (seat, row, col) => {
    const count = state.sides[seat][row][col];
    const isHead = row === 'outer' && heads.has(col);
    const {x, y} = pos(seat, row, col);
    const k = key(seat, {row, col});
    const mark = marks?.active === k ? 'active' : marks?.to === k ? 'last-to' : marks?.from === k ? 'last-from' : null;
    const fly = marks?.flight?.to === k ? (() => { const f = where(marks.flight.from); return {dx: f.x - x, dy: f.y - y}; })() : null;
    const leave = marks?.leaving?.find((l) => l.key === k);
    const leaveTo = leave ? trayAt(leave.to) : null;
    const bowl = isHead
      ? s('rect', {class: 'bowl', x: x - rx, y: y - ry, width: 2 * rx, height: 2 * ry, rx: Math.min(rx, ry) * 0.38})
      : s('ellipse', {class: 'bowl', cx: x, cy: y, rx, ry});
    const area = upright ? {rx: rx * 0.74, ry: ry * 0.86} : {rx: rx * 0.88, ry: ry * 0.88};
    const ax = upright ? x - rx * 0.14 : x;
    const figAt = upright ? {x: x + rx * 0.74, y} : {x: x + rx * 0.7, y: y + ry * 0.7};
    const tap = taps.get(k);
    const g = s('g', {class: `pit${isHead ? ' head' : ''}${removed?.has(k) ? ' taken' : ''}`, 'data-seat': seat, 'data-row': row, 'data-col': col, 'data-count': count},
      hitArea(x, y, L.cellW, L.cellH),
      bowl,
      pebbles(count, ax, y, area, k, {fly, leave: leave ? {n: leave.n, dx: leaveTo.x - ax, dy: leaveTo.y - y} : null}),
      mark ? ringFor(mark, x, y, isHead) : null,
      removed?.has(k) && !marks?.taking ? cross(x, y, Math.min(rx, ry) * 0.5) : null,
      removed?.has(k) && marks?.taking ? ringFor('taking', x, y, isHead) : null,
      tap?.badge ? tapBadge(tap.badge, upright ? x - rx * 0.78 : x + rx * 0.72, upright ? y : y - ry * 0.72, badgeR, badgeAngle(tap.badge, x, y)) : null);
    // Every count is said: stones are small on a long board, and a relay leaves holes to count.
    figures.push(countFigure(count, figAt.x, figAt.y, figSize, {heapAt: {x: ax, y}, of: k}));
    if (mark === 'last-to') focus = {x, y};
    if (tap) {
      g.classList.add(`tap-${tap.badge || 'sow'}`);
      svgButton(g, tap.label, () => act(tap.action));
      picks.push({x, y});
    } else {
      g.append(s('title', {}, t(seat === me ? 'tsoro.hole_mine' : 'tsoro.hole_theirs', holeWords(seat, {row, col}))));
    }
    items.push(g);
  };

  function ringFor(kind, x, y, square) {
    const grow = 5 * Math.max(1, px * 0.8);
    return square
      ? s('rect', {class: `mark ${kind}`, 'aria-hidden': 'true', x: x - rx - grow, y: y - ry - grow, width: 2 * (rx + grow), height: 2 * (ry + grow), rx: Math.min(rx, ry) * 0.45})
      : s('ellipse', {class: `mark ${kind}`, 'aria-hidden': 'true', cx: x, cy: y, rx: rx + grow, ry: ry + grow});
  }
  // A hole a capture just emptied: a cross (one meaning: taken), not a ring.
  function cross(x, y, r) {
    return s('path', {class: 'mark taken-cross', 'aria-hidden': 'true', d: `M${x - r},${y - r} L${x + r},${y + r} M${x + r},${y - r} L${x - r},${y + r}`});
  }
  function badgeAngle(kind, x, y) {
    if (kind === 'relay') { const hd = pos(me, state.head.row, state.head.col); return angleOf(hd.x, hd.y, x, y); }
    if (kind === 'take') { const tr = trayAt(me); return angleOf(x, y, tr.x, tr.y); }
    return 0;
  }

  // Each side's name and its tray of captured stones.
  const {labelSize} = L;
  const tw = labelSize * (upright ? 3.2 : 3.8), glyphW = labelSize * 1.15;
  function nameFit(seat) {
    const lab = seat === me ? L.label.me : L.label.them;
    const capW = L.captionAbove ? 0 : textWidth(t('tsoro.captured'), labelSize * 0.8) + 6;
    // Whole: a little smaller, or on a phone on two lines, where it must.
    const {lines, size} = fitLines(`${state.to_move === seat ? '▶ ' : ''}${name(seat)}`, lab.w - tw - capW - glyphW - 12, labelSize, labelSize * 0.85, upright);
    return {lines, size, width: Math.max(...lines.map((l) => textWidth(l, size))) + glyphW};
  }
  // The name as it fits; across, the tray ends its side's row; turned, it follows the name.
  function trayBox(seat) {
    const lab = seat === me ? L.label.me : L.label.them;
    const th = labelSize * (upright ? 2.3 : 1.7);
    return {x: L.captionAbove ? lab.x + nameFit(seat).width + labelSize * 0.6 + tw / 2 : lab.x + lab.w - tw / 2, y: lab.y, w: tw, h: th};
  }
  function trayAt(seat) { const b = trayBox(seat); return {x: b.x - b.w * 0.18, y: b.y}; }
  const tag = (seat) => {
    const lab = seat === me ? L.label.me : L.label.them;
    const mover = state.to_move === seat;
    const tray = trayBox(seat);
    // The tray says what it counts, in a word before it.
    const capSize = labelSize * 0.8;
    const capWords = t('tsoro.captured');
    const {lines, size, width} = nameFit(seat);
    const lh = size * 1.15, y0 = lab.y - (lines.length - 1) * lh / 2;
    const captured = state.sides[seat].captured;
    const tk = `${seat}:tray`;
    const tap = taps.get(tk);
    const trayG = s('g', {class: 'tray', 'data-tray': seat},
      hitArea(tray.x, tray.y, Math.max(tray.w, 44 * px), Math.min(Math.max(tray.h, 44 * px), L.trayHit || Infinity)),
      s('rect', {class: 'tray-bowl', x: tray.x - tray.w / 2, y: tray.y - tray.h / 2, width: tray.w, height: tray.h, rx: tray.h / 2}),
      pebbles(Math.min(captured, 3), tray.x - tray.w * 0.2, tray.y, {w: tray.w * 0.42, h: tray.h * 0.6}, tk),
      s('text', {class: 'tray-figure', x: tray.x + tray.w * 0.27, y: tray.y, 'dominant-baseline': 'central', 'text-anchor': 'middle', 'font-size': labelSize}, captured),
      tap ? tapBadge('done', tray.x - tray.w / 2, Math.max(tray.y - tray.h / 2, badgeR + 1), badgeR) : null);
    if (tap) {
      trayG.classList.add('tap-done');
      svgButton(trayG, tap.label, () => act(tap.action));
      picks.push({x: tray.x, y: tray.y});
    } else {
      trayG.append(s('title', {}, t('tsoro.tray_title', {name: name(seat), n: captured})));
    }
    items.push(s('g', {class: `seat-label${mover ? ' mover' : ''}`, 'data-side': seat},
      mover ? s('rect', {class: 'mover-pill', x: lab.x - labelSize * 0.3, y: y0 - labelSize * 0.75, width: width + labelSize * 0.6, height: labelSize * 1.5 + 2 * (lab.y - y0), rx: labelSize * 0.75}) : null,
      seatGlyph(seat, lab.x + labelSize * 0.45, lab.y, labelSize * 0.42),
      s('text', {'dominant-baseline': 'central', 'font-size': size}, lines.map((l, i) => s('tspan', {x: lab.x + glyphW, y: y0 + i * lh}, l)))),
      L.captionAbove
        ? s('text', {class: 'tray-caption', x: tray.x, y: tray.y - tray.h / 2 - 3, 'text-anchor': 'middle', 'font-size': 11, 'aria-hidden': 'true'}, fitText(capWords, lab.w * 0.6, 11))
        : s('text', {class: 'tray-caption', x: tray.x - tray.w / 2 - 6, y: lab.y, 'dominant-baseline': 'central', 'text-anchor': 'end', 'font-size': capSize, 'aria-hidden': 'true'}, capWords),
      trayG);
  };

  for (let x = 0; x < N; ++x) {
    drawHole(them, 'outer', N - 1 - x);
    drawHole(them, 'inner', N - 1 - x);
    drawHole(me, 'inner', x);
    drawHole(me, 'outer', x);
    const at = L.num(x);
    items.push(s('text', {...at, class: 'hole-num', 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': L.numSize}, x + 1));
  }
  tag(them);
  tag(me);
  items.push(s('g', {class: 'figures'}, figures));
  if (marks?.hand?.n) {
    const p = where(marks.hand.at);
    items.push(hand(marks.hand.n, p.x - rx * 0.5, p.y - ry * 0.9, Math.min(rx, ry) * 0.3, marks.hand.at, figSize));
  }
  const svg = s('svg', {viewBox: `0 0 ${Math.round(L.W)} ${Math.round(L.Hh)}`, class: `board-svg tsoro sow${L.shape === 'across' ? '' : ` ${L.shape}`}${N >= 15 ? ' wide' : ''}`,
    role: 'group', 'aria-label': t('tsoro.board_label', {n: N})}, items);
  if (marks?.ms) svg.style.setProperty('--fly-ms', `${marks.ms}ms`);
  if (L.shape !== 'across') svg.style.maxWidth = `${Math.round(L.W)}px`;
  else if (L.maxWidth) svg.style.maxWidth = `${L.maxWidth}px`;

  // What a head does, after a small drawing of one (not a glyph: ■ marks the computer).
  const headIcon = s('svg', {class: 'head-swatch', viewBox: '0 0 20 20', width: 16, height: 16, 'aria-hidden': 'true'},
    s('rect', {x: 2, y: 2, width: 16, height: 16, rx: 4}));
  const facts = [h('p', {class: 'small muted tsoro-legend'}, headIcon, ' ', t('tsoro.heads_note'))];
  if (state.phase === 'bonus' && state.bonus_left !== undefined)
    facts.push(h('p', {}, t('tsoro.bonus_left', {n: state.bonus_left})));
  return {svg, facts, controls: [], hint, minPick: viewportPick(Math.min(L.cellW, L.cellH)), focus: focus || picks[0] || null};
}

export default {decisions, render, describeAction, describeEvent, lastMove, plan};

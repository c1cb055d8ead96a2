// Steere's Tanbo: the wooden board with its grid and stones; each root drawn as lines joining its
// stones. Black stones are dark discs, White light discs with a dark rim. Nothing is written on
// a stone: a root's free points (S4) are a badge on its top-left stone, red at one. The last stone
// placed carries a bright ring and a dot, the points whose stones were just removed a cross, the
// points a stone may go on a small green dot; under the letters each colour's player, a pointer
// at the one to play (none once the game is over).
//
// The board is always drawn whole, with the coordinates the log uses, at any size up to 19 x 19
// on a 390-pixel phone; on a wide screen as large as the window shows below its top. Where its points would be under 32 CSS pixels apart there (15 x 15 and
// up), a tap on the board zooms into the part around it, points a finger wide, where a second tap
// places the stone; "Whole board" comes back. The keyboard needs no zoom: every legal point stays
// a button in the whole board too.
import {s, h, svgButton, canon} from '../util.js';
import {t} from '../i18n/index.js';
import {markRing, hitArea, markOf} from './marks.js';
import {boardSpace, fitLines, fitText, textWidth} from './fit.js';

const decisions = ['place'];

const CELL = 50;
const MIN_PX = 32;     // a point closer than this to its neighbour is zoomed into before a tap
const ZOOM_PX = 46;    // the spacing of the points once zoomed
const wide = matchMedia('(min-width: 761px)');  // the room's layout beside the side column (style.css)

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

const pointName = (x, y, H) => `${String.fromCharCode(97 + x)}${H - y}`;

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
      if (a === '.' && b !== '.') { added.push(pointName(x, y, H)); board[y][x] = b; }
      else if (a !== '.' && b === '.') removed.add(pointName(x, y, H));
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

// The part of the board in view: all of it, or the window a tap zoomed into. Kept across
// redraws of one decision, dropped when the position or the legal list changes.
let zoom = {key: null, win: null};

// One observer tells each board drawn whether its points are a finger apart where it stands.
let observed = null;
const sizes = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => {
  for (const e of entries) fitPoints(e.target);
}) : null;

// The points' spacing in CSS pixels as the board is laid out, or null before it is.
function pointPx(svg) {
  const r = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  if (!r.width || !vb?.width) return null;
  return Math.min(r.width / vb.width, r.height / vb.height) * CELL;
}

// Marks the whole board as too fine to tap (`needs-zoom`): a tap then zooms in, and the points
// keep their buttons for the keyboard only.
function fitPoints(svg) {
  const px = pointPx(svg);
  svg.classList.toggle('needs-zoom', px !== null && px < MIN_PX && svg.dataset.view === 'whole' && !!svg.querySelector('.pick'));
}

// `picture`: the lobby's, the stones alone.
function render({state, legal, viewer, me, act, name: seatName, marks, picture}) {
  const W = state.width, H = state.height;
  const key = `${state.ply}:${state.board.join('')}:${legal ? canon(legal) : ''}`;
  if (zoom.key !== key) zoom = {key, win: null};
  // Coordinates readable on a phone at any size: about 11 pixels however small the points.
  const font = Math.max(20, Math.round(W * 1.6));
  // The wood beyond the outer lines: an edge stone lies on it; in the lobby's picture, where a
  // stone at a card's size would seem to hang off the edge, half a cell more beyond the stones.
  const wood = CELL * (picture ? 0.95 : 0.56);
  // The row numbers' margin: a two-digit number keeps a gap from the wood from 12 rows on; at
  // 11 the wider margin would take the phone's board under its 32 px targets (tap-to-zoom), and
  // "10" and "11" are drawn smaller (below).
  const margin = H >= 12 ? 1.6 : 1.3;
  const left = wood + (picture ? 0 : font * margin);
  const X = (x) => left + x * CELL, Y = (y) => wood + y * CELL;
  const point = (p) => ({x: p.charCodeAt(0) - 97, y: H - Number(p.slice(1))});
  const rootOf = new Map();
  for (const r of state.roots || []) for (const p of r.stones) rootOf.set(p, r);
  const finished = state.to_move === undefined || state.to_move === null;
  const mover = finished ? null : state.colour_to_move;

  const svg = s('svg', {class: 'board-svg steere', role: 'group',
    'aria-label': t('steere.board_label', {size: state.size, black: state.stones.black, white: state.stones.white})});
  let focus = null;

  function draw() {
    const win = zoom.win || {x0: 0, y0: 0, x1: W - 1, y1: H - 1};
    const inWin = (x, y) => x >= win.x0 && x <= win.x1 && y >= win.y0 && y <= win.y1;
    // The window's edges: the board's own edge has its wood; a cut shows the lines running on.
    const ex0 = win.x0 ? CELL * 0.5 : wood, ex1 = win.x1 < W - 1 ? CELL * 0.5 : wood;
    const ey0 = win.y0 ? CELL * 0.5 : wood, ey1 = win.y1 < H - 1 ? CELL * 0.5 : wood;
    // Zoomed, the points are large and the coordinates need not grow with the board.
    const lf = picture ? 0 : zoom.win ? 24 : font;
    // Whole, a row under the letters names the players.
    const below = picture ? 0 : zoom.win ? lf * 1.35 : lf * 2.95;
    // Zoomed, a band above the window holds the way back to the whole board.
    const bandV = zoom.win ? CELL * 1.05 : 0;
    const vx = X(win.x0) - ex0 - lf * margin, vy = Y(win.y0) - ey0 - bandV;
    const vw = X(win.x1) + ex1 - vx, vh = Y(win.y1) + ey1 + below - vy;
    svg.setAttribute('viewBox', `${vx} ${vy} ${vw} ${vh}`);
    svg.dataset.view = zoom.win ? 'zoomed' : 'whole';
    const items = [s('rect', {x: X(win.x0) - ex0, y: Y(win.y0) - ey0, width: X(win.x1) + ex1 - X(win.x0) + ex0,
      height: Y(win.y1) + ey1 - Y(win.y0) + ey0, class: 'wood', rx: zoom.win ? 4 : 10})];
    // The coordinates the log uses, along the window's left and bottom edges.
    const coords = s('g', {class: 'coords', 'font-size': lf});
    for (let x = win.x0; x <= win.x1; ++x) {
      items.push(s('line', {x1: X(x), x2: X(x), y1: Y(win.y0) - (win.y0 ? ey0 : 0), y2: Y(win.y1) + (win.y1 < H - 1 ? ey1 : 0), class: 'grid'}));
      coords.append(s('text', {x: X(x), y: Y(win.y1) + ey1 + lf * 0.95, class: 'coord', 'text-anchor': 'middle'}, String.fromCharCode(97 + x)));
    }
    for (let y = win.y0; y <= win.y1; ++y) {
      items.push(s('line', {x1: X(win.x0) - (win.x0 ? ex0 : 0), x2: X(win.x1) + (win.x1 < W - 1 ? ex1 : 0), y1: Y(y), y2: Y(y), class: 'grid'}));
      // Up to 11 rows the narrower margin holds "10" and "11" a little smaller, clear of the wood.
      const small = H < 12 && H - y >= 10 && !zoom.win;
      coords.append(s('text', {x: X(win.x0) - ex0 - lf * (small ? 0.3 : 0.35), y: Y(y), class: `coord${small ? ' small' : ''}`,
        'text-anchor': 'end', 'dominant-baseline': 'central'}, H - y));
    }
    if (!picture) items.push(coords);
    for (const r of state.roots || []) {
      for (const p of r.stones) {
        const a = point(p);
        for (const [dx, dy] of [[1, 0], [0, 1]]) {
          const q = pointName(a.x + dx, a.y + dy, H);
          if (rootOf.get(q) === r && (inWin(a.x, a.y) || inWin(a.x + dx, a.y + dy)))
            items.push(s('line', {x1: X(a.x), y1: Y(a.y), x2: X(a.x + dx), y2: Y(a.y + dy), class: `root root-${r.colour}`}));
        }
      }
    }
    focus = null;
    // The roots' counts go above every stone and mark: the last move's ring never hides one.
    const badges = [];
    for (let y = win.y0; y <= win.y1; ++y) {
      for (let x = win.x0; x <= win.x1; ++x) {
        const c = state.board[y][x];
        const p = pointName(x, y, H);
        const mark = markOf(marks, p);
        if (c === '.') {
          // Stones just removed leave a cross; a stone placed and removed at once keeps its ring.
          if (marks?.removed?.has?.(p)) items.push(s('g', {class: 'gone', 'aria-hidden': 'true'},
            s('path', {d: `M${X(x) - 12},${Y(y) - 12}l24,24m0,-24l-24,24`})));
          if (mark === 'last-to') items.push(markRing('last-to', X(x), Y(y), CELL * 0.5));
          continue;
        }
        const r = rootOf.get(p);
        const colour = c === 'b' ? 'black' : 'white';
        const title = r ? t('steere.stone_title', {colour: colourName(colour), point: p, n: r.stones.length, liberties: r.liberties})
                        : t('steere.stone_title_bare', {colour: colourName(colour), point: p});
        items.push(s('g', {class: `stone ${colour}${mark === 'removed' ? ' leaving' : ''}`, 'data-root': p}, s('title', {}, title),
          s('circle', {cx: X(x), cy: Y(y), r: CELL * 0.4})));
        if (r && r.stones[0] === p && !picture) badges.push(libertyBadge(X(x) + CELL * 0.3, Y(y) + CELL * 0.3, r.liberties, p));
        if (mark === 'last-to' || mark === 'active') {
          items.push(markRing('last-to', X(x), Y(y), CELL * 0.5));
          items.push(s('circle', {cx: X(x) + CELL * 0.36, cy: Y(y) - CELL * 0.36, r: 7, class: 'last-dot', 'aria-hidden': 'true'}));
          focus = {x: X(x), y: Y(y)};
        }
      }
    }
    items.push(s('g', {class: 'libs-layer'}, badges));
    const picks = [];
    for (const a of legal || []) {
      const {x, y} = point(a.place);
      if (!inWin(x, y)) continue;
      const g = s('g', {'data-point': a.place}, hitArea(X(x), Y(y), CELL), s('circle', {cx: X(x), cy: Y(y), r: CELL * 0.13, class: 'target'}));
      items.push(svgButton(g, t('steere.pick', {point: a.place}), () => act(a)));
      picks.push({x: X(x), y: Y(y)});
    }
    if (zoom.win) items.push(drawBand(vx, vy, vw, bandV));
    else if (!picture) items.push(players(vx, Y(win.y1) + ey1 + lf * 2.2, vw, lf));
    // Over everything, for a finger only: on a board too fine to tap, a tap zooms in around it.
    if (legal && !zoom.win) {
      const cover = s('rect', {x: vx, y: vy + bandV, width: vw, height: vh - bandV, class: 'zoom-in', 'aria-hidden': 'true'});
      cover.addEventListener('click', (e) => zoomAt(e));
      items.push(cover);
    }
    svg.replaceChildren(...items);
    focus ??= picks[0] || null;
    if (sizes) {
      if (observed && observed !== svg) sizes.unobserve(observed);
      sizes.observe(svg);
      observed = svg;
    }
    if (svg.isConnected) fitPoints(svg);
  }

  function libertyBadge(x, y, n, p) {
    return s('g', {class: `libs${n <= 1 ? ' low' : ''}`, 'aria-hidden': 'true', 'data-root': p},
      s('circle', {cx: x, cy: y, r: CELL * 0.22}),
      s('text', {x, y: y + 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, n));
  }

  // Each colour's stone and player ("You" for the viewer), in a row of `width` from x0; `only`
  // that colour's.
  function players(x0, y, width, size, only) {
    const r = size * 0.42, half = width / 2;
    const colours = ['black', 'white'].filter((c) => !only || c === only);
    const whos = colours.map((c) => (state.seats?.[c] === undefined ? '' : state.seats[c] === me ? t('steere.you') : seatName(state.seats[c])));
    // Each name its half of the row, or a long one what the other leaves ("You" takes little).
    const [a, b] = whos.map((w) => r * 4 + size * 1.3 + textWidth(w, size));
    const cut = only ? width : a > half ? Math.max(half, width - b) : b > half ? Math.min(half, Math.max(a + size, width - b)) : half;
    return s('g', {class: 'players'}, colours.map((colour, i) => {
      const turn = mover === colour;
      const x = x0 + i * cut + size * 0.3;
      const {lines, size: fs} = fitLines(whos[i], (i ? width - cut : cut) - r * 4 - size, size, size * 0.8);
      return s('g', {class: `player${turn ? ' to-play' : ''}`, 'data-colour': colour},
        turn ? s('path', {d: `M${x},${y - r}l${r * 1.6},${r}l${-r * 1.6},${r}Z`, class: 'turn-mark'}) : null,
        s('circle', {cx: x + r * 3, cy: y, r, class: `band-stone ${colour}`}),
        s('text', {x: x + r * 4 + size * 0.35, y, class: 'band-text', 'font-size': fs, 'dominant-baseline': 'central'}, lines[0]));
    }));
  }

  // Zoomed, the band above the window: the player to move, and "Whole board".
  function drawBand(vx, vy, vw, band) {
    const font = 20;
    const y = vy + band / 2;
    const w = CELL * 3.4, bh = band * 0.88;
    const x0 = vx + vw - w - 4;
    const g = s('g', {class: 'steere-band'}, players(vx, y, x0 - vx, font, mover));
    const btn = s('g', {class: 'zoom-out', 'data-key': 'whole'},
      s('rect', {x: x0, y: y - bh / 2, width: w, height: bh, rx: bh * 0.2, class: 'hit'}),
      s('text', {x: x0 + w / 2, y, 'font-size': font + 2, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, fitText(t('zoom.fit'), w - 10, font + 2)));
    svgButton(btn, t('zoom.fit'), (e) => { e.stopPropagation(); zoom.win = null; draw(); });
    btn.classList.remove('pick');
    g.append(btn);
    return g;
  }

  // A tap on a board too fine to tap: the window around it, its points ZOOM_PX apart at the
  // board's width, in which a second tap places the stone.
  function zoomAt(e) {
    if (!svg.classList.contains('needs-zoom')) return;
    e.stopPropagation();
    const m = svg.getScreenCTM();
    if (!m) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const cx = Math.round((p.x - left) / CELL), cy = Math.round((p.y - wood) / CELL);
    const px = svg.getBoundingClientRect().width;
    const cols = Math.max(5, Math.min(W, Math.floor(px / ZOOM_PX) - 1));
    const rows = Math.min(H, cols);
    const x0 = Math.max(0, Math.min(W - cols, cx - Math.floor(cols / 2)));
    const y0 = Math.max(0, Math.min(H - rows, cy - Math.floor(rows / 2)));
    zoom.win = {x0, y0, x1: x0 + cols - 1, y1: y0 + rows - 1};
    draw();
    // The zoomed part whole in view, from its top, when it was not.
    const r = svg.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight * 0.88) window.scrollBy({top: r.top - 8, behavior: 'instant'});
  }

  draw();
  const seatOf = state.seats;
  const line = (colour) => {
    const seat = seatOf[colour];
    const turn = mover === colour;
    return h('li', {class: turn ? 'mover' : ''}, `${turn ? '▶ ' : ''}${t(`steere.fact.${colour}`, {name: seatName(seat), n: state.stones[colour]})}`);
  };
  const facts = [h('ul', {class: 'facts'}, line('black'), line('white'),
    h('li', {}, t('steere.fact.roots')),
    // In the text's colour: the ring drawn before it is the one orange, as on the board.
    marks?.to ? h('li', {class: 'last-line'}, h('span', {class: 'legend-swatch point last-to', 'aria-hidden': 'true'}), ' ', t(marks.removed?.size ? 'steere.fact.last' : 'steere.fact.last_none', {point: marks.to, n: marks.removed?.size || 0})) : null)];
  let hint = legal ? t(seatOf.black === viewer ? 'steere.hint.black' : 'steere.hint.white') : null;
  // From 13 columns up a phone shows the points closer than a finger: the first tap zooms.
  if (hint && W >= 13) hint = `${hint} ${t('steere.hint.zoom')}`;
  // Beside the side column, as large as the window shows below the board's top (a phone scrolls
  // the board into view itself), its points a finger apart: 19 x 19 at 1280 x 800 is taller.
  if (wide.matches && !picture) {
    const vb = svg.viewBox.baseVal;
    const finger = (MIN_PX + 1) / CELL * vb.width;
    svg.style.maxWidth = `${Math.floor(Math.max((boardSpace(null).below - 12) * vb.width / vb.height, finger))}px`;
    svg.classList.add('sized');
  }
  // The board zooms itself (above): the viewport is told it never needs to.
  return {svg, facts, controls: [], hint, minPick: Infinity, focus};
}

export default {decisions, render, describeAction, describeEvent, lastMove, plan};

// Tanbo (Musoka Studio): each player's round field divided by five dikes into a ring of five
// paddies, numbered 1-5 clockwise for people (0-4 in the protocol), holding the game's own
// tokens (tokens.js); the bag and the snakes set aside (when there are any) between the fields,
// each player's harvest and score beside their name. The viewer's field comes first: at the top
// on a tall screen, on the left on a wide one (a spectator's, seat 1's).
//
// Every decision is taken on the board, by tapping the tokens or paddies the legal list names:
// a paddy for the Farmer, a token of the hand to sow, rice or snakes for a harvest, a rest or a
// trim, then the confirm beside the tokens chosen (tanbo-choice.js keeps the choice in progress),
// two tokens of one's own field for a swap. Nothing else is tappable.
//
// Marks, one meaning each: an orange outline on the paddy where the last move ended, dashed on
// the one it started from; a green outline on what may be tapped; a blue one on the paddy an
// animation is at; a dark pointer and a gold band on the player to decide, none once the game is
// over. The paddy with a gold number is where the next token of the hand goes.
import {s, h, svgButton, canon} from '../util.js';
import {t, list} from '../i18n/index.js';
import {markPath} from './marks.js';
import {RICE, KINDS, FIELD, rice, farmer, pile, badge, dike, bag, disc, token} from './tokens.js';
import {CountChoice, SwapChoice} from './tanbo-choice.js';
import {plan, lastMove} from './tanbo-plan.js';
import {fitText, textWidth} from './fit.js';

const decisions = ['place_farmer', 'sow', 'harvest', 'rest', 'swap', 'trim'];

// ---- Words -----------------------------------------------------------------------------------

function riceText(r) {
  const parts = RICE.filter((c) => r?.[c]).map((c) => t(`tanbo.rice.${c}`, {n: r[c]}));
  return parts.length ? list(parts) : t('tanbo.nothing');
}

// The bag's rice: "15 yellow, 10 black and 5 red rice tokens", the kind of token said once.
function bagText(r) {
  const parts = RICE.filter((c) => r?.[c]).map((c, i) => t(`tanbo.bag_${i ? 'next' : 'first'}.${c}`, {n: r[c]}));
  return parts.length ? t('tanbo.bag_rice', {list: list(parts)}) : t('tanbo.bag_empty');
}

const tokenText = (tk) => t(`tanbo.token.${tk}`);

function tokensText(tk) {
  const parts = [];
  if (tk.snakes) parts.push(t('tanbo.snakes', {n: tk.snakes}));
  for (const c of RICE) if (tk[c]) parts.push(t(`tanbo.rice.${c}`, {n: tk[c]}));
  if (tk.farmer) parts.push(t('tanbo.the_farmer'));
  return parts.length ? list(parts) : t('tanbo.nothing');
}

function describeAction(a) {
  if (a.farmer !== undefined) return t('tanbo.action.farmer', {paddy: a.farmer + 1});
  if (a.sow) return t('tanbo.action.sow', {token: tokenText(a.sow)});
  if (a.harvest) return t('tanbo.action.harvest', {rice: riceText(a.harvest)});
  if (a.return) return t('tanbo.action.return', {rice: riceText(a.return)});
  if (a.swap) return t('tanbo.action.swap', {a: tokenText(a.swap[0].token), p: a.swap[0].paddy + 1,
                                             b: tokenText(a.swap[1].token), q: a.swap[1].paddy + 1});
  if (a.trim) return t('tanbo.action.trim', {what: tokensText(a.trim), paddy: a.trim.paddy + 1});
  return JSON.stringify(a);
}

// Set-up comes before play, seat 0's Farmer first (T1), whoever moves first: the prompt says it
// as two steps, the set-up then play and who starts it, so that "your turn" does not read as a
// clash with "you play second". `first`: the seat that moves first, when known. The computer
// is "the computer" in running text, not a name.
function myTurn(m, me, name, first) {
  if (m.pending?.decision !== 'place_farmer' || !m.state?.rings) return undefined;
  const other = 1 - me;
  const who = m.seats?.[other]?.cpu && !m.seats[other].player ? t('tanbo.setup.the_cpu') : name(other);
  const starts = first === me ? t('tanbo.setup.starts_me') : first === other ? t('tanbo.setup.starts', {name: who}) : '';
  return t(m.state.rings[other].some((p) => p.farmer) ? 'tanbo.setup.mine_second' : 'tanbo.setup.mine_first',
    {name: who, starts});
}

// A Farmer placed: a line of the set-up, said once (its farmer_placed event says no more).
function describeSetup(ev, name) {
  return ev.action?.farmer !== undefined ? t('tanbo.setup.line', {name: name(ev.seat), paddy: ev.action.farmer + 1}) : undefined;
}

function describeEvent(ev, name) {
  const p = (i) => i + 1;
  switch (ev.type) {
    case 'farmer_placed': return '';
    case 'turn': return t('tanbo.ev.turn', {n: ev.turn, name: name(ev.seat)});
    case 'pick_up': return t('tanbo.ev.pick_up', {what: tokensText(ev.tokens), paddy: p(ev.paddy)});
    case 'paddy_action': return t(ev.replay ? 'tanbo.ev.letter_replay' : 'tanbo.ev.letter', {paddy: p(ev.paddy), what: t(`tanbo.letter.${ev.letter}`)});
    case 'draw': return t('tanbo.ev.draw', {rice: t(`tanbo.rice.${ev.colour}`, {n: 1}), paddy: p(ev.paddy)});
    case 'bag_short': return t('tanbo.ev.bag_short', {n: ev.drawn, wanted: ev.wanted});
    case 'harvest': return t('tanbo.ev.harvest', {name: name(ev.seat), n: ev.points, score: ev.score});
    case 'clear': return t('tanbo.ev.clear', {paddy: p(ev.paddy)});
    case 'add_snakes': return t('tanbo.ev.add_snakes', {n: ev.count, paddy: p(ev.paddy)});
    case 'rest': return t('tanbo.ev.rest', {from: p(ev.from), to: p(ev.to)});
    case 'return': return t('tanbo.ev.return', {name: name(ev.seat), score: ev.score});
    case 'replay': return t('tanbo.ev.replay', {paddy: p(ev.paddy)});
    case 'replay_guard': return t(`tanbo.ev.replay_guard.${ev.reason === 'limit' ? 'limit' : 'repeated'}`);
    case 'no_swap': return t('tanbo.ev.no_swap');
    case 'swap': return t('tanbo.ev.swap', {name: name(ev.seat)});
    case 'replay_end': return t('tanbo.ev.replay_end', {what: t(`tanbo.letter.${ev.letter}`)});
    case 'trim': return t('tanbo.ev.trim', {paddy: p(ev.paddy)});
    case 'victory': return ev.seat === null ? t('tanbo.ev.draw_game') : t('tanbo.ev.victory', {name: name(ev.seat)});
    case 'stalled': return ev.seat === null ? t('tanbo.ev.stalled_draw') : t('tanbo.ev.stalled', {name: name(ev.seat)});
    default: return null;
  }
}

// ---- Geometry (viewBox units) ----------------------------------------------------------------

const RO = 340;          // the paddies' outer radius
const RF = 352;          // the field's rim
const RH = 60;           // the hub where the dikes meet
const RMID = 206;        // between the inner row of places (snakes, Farmer) and the outer (rice)
const BOX = 710;         // a field with its margin
const LABEL = 132;       // a player's row: name, harvest, score
const STRIP = 214;       // the tray of a hand or a choice, under its caption
const CAPTION = 50;      // the tray's caption
const TRAY_ITEM = 130;   // one pile in the tray, and its target (45 px on a 390 px phone)
const CONFIRM_W = 260;     // five Japanese characters beside the tick

const rad = (deg) => deg * Math.PI / 180;
const polar = (cx, cy, r, deg) => [cx + r * Math.cos(rad(deg)), cy + r * Math.sin(rad(deg))];
const r1 = (n) => Math.round(n * 10) / 10;
const centreAngle = (i) => -90 + 72 * i;  // clockwise from the top

function sector(cx, cy, ra, rb, a0, a1) {
  const [x0, y0] = polar(cx, cy, rb, a0), [x1, y1] = polar(cx, cy, rb, a1);
  const [x2, y2] = polar(cx, cy, ra, a1), [x3, y3] = polar(cx, cy, ra, a0);
  const large = a1 - a0 > 180 ? 1 : 0;
  return `M${r1(x0)},${r1(y0)}A${rb},${rb} 0 ${large} 1 ${r1(x1)},${r1(y1)}L${r1(x2)},${r1(y2)}A${ra},${ra} 0 ${large} 0 ${r1(x3)},${r1(y3)}Z`;
}

// A paddy's outline drawn a few units inside its dikes and rim: its sides parallel to the dikes'
// lines (every corner as far from its dike), so neighbouring outlines never meet.
function inset(cx, cy, th) {
  const D = 28, ri = RH + 26, ro = RO - 12;
  const off = (r) => Math.asin(D / r) * 180 / Math.PI;
  const [a, b] = [th - 36 + off(ro), th + 36 - off(ro)];
  const [x0, y0] = polar(cx, cy, ro, a), [x1, y1] = polar(cx, cy, ro, b);
  const [x2, y2] = polar(cx, cy, ri, th + 36 - off(ri)), [x3, y3] = polar(cx, cy, ri, th - 36 + off(ri));
  return `M${r1(x0)},${r1(y0)}A${ro},${ro} 0 0 1 ${r1(x1)},${r1(y1)}L${r1(x2)},${r1(y2)}A${ri},${ri} 0 0 0 ${r1(x3)},${r1(y3)}Z`;
}

// The places of a paddy's tokens, clockwise in each row: rice on the wide outer row, snakes and
// the Farmer on the inner; each with its centre, the size of its pile and its target's outline.
function places(cx, cy, i) {
  const th = centreAngle(i);
  const out = {};
  // Clear of the dikes on either side, so that a token reads as its paddy's.
  ['yellow', 'black', 'red'].forEach((k, j) => {
    const a = th + (j - 1) * 21;
    const [x, y] = polar(cx, cy, (RMID + RO) / 2, a);
    out[k] = {x, y, size: 112, d: sector(cx, cy, RMID, RO, a - 10.5, a + 10.5)};
  });
  // The inner row, either side of the paddy's number: the snakes lying along the paddy (a heap
  // of them is narrow across, clear of the dike), the Farmer upright beside them.
  const [sx, sy] = polar(cx, cy, 156, th - 13);
  out.snake = {x: sx, y: sy, size: 88, angle: th - 13, d: sector(cx, cy, RH, RMID, th - 36, th)};
  const [fx, fy] = polar(cx, cy, 146, th + 15);
  out.farmer = {x: fx, y: fy, size: 80, d: sector(cx, cy, RH, RMID, th, th + 36)};
  return out;
}

// Where everything goes: on a wide screen the fields side by side, under them the tray of the
// field it belongs to and, between the two trays, the bag and the snakes set aside (`pool`: if
// any); on a tall screen the viewer's field first (what a phone opens on), then the bag and the
// tray, then the opponent's.
function layout(landscape, me, them, pool) {
  const mid = (STRIP - CAPTION) / 2 + CAPTION;
  if (landscape) {
    const W = 2 * BOX + 40, H = LABEL + BOX + STRIP;
    const left = {cx: BOX / 2, cy: LABEL + BOX / 2}, right = {cx: W - BOX / 2, cy: LABEL + BOX / 2};
    const rings = {[me]: left, [them]: right};
    const labels = {[me]: {x: 8, y: 4, w: BOX - 16, h: LABEL - 8}, [them]: {x: W - BOX + 8, y: 4, w: BOX - 16, h: LABEL - 8}};
    const y = LABEL + BOX;
    // One tray at a time: its caption may run over the strip's whole width.
    // Between the two trays' places, the bag with its counts and the snakes set aside.
    const trayUnder = (seat) => (seat === me ? {x: 8, y, w: 560, h: STRIP, captionX: 24, captionW: W - 48}
                                             : {x: W - 568, y, w: 560, h: STRIP, captionX: 24, captionW: W - 48});
    return {W, H, rings, labels, trayUnder, bag: {x: W / 2 - (pool ? 80 : 10), y: y + mid - 6}, pool: {x: W / 2 + 92, y: y + mid - 20}};
  }
  const W = 1000, H = 2 * LABEL + 2 * BOX + STRIP;
  const rings = {[me]: {cx: W / 2, cy: LABEL + BOX / 2}, [them]: {cx: W / 2, cy: 2 * LABEL + BOX + STRIP + BOX / 2}};
  const labels = {[me]: {x: 8, y: 4, w: W - 16, h: LABEL - 8}, [them]: {x: 8, y: LABEL + BOX + STRIP + 4, w: W - 16, h: LABEL - 8}};
  const y = LABEL + BOX;
  // The tray's caption runs the strip's width above the bag, the snakes and the tray's tokens.
  return {W, H, rings, labels, trayUnder: () => ({x: 318, y, w: W - 326, h: STRIP, captionX: 24}),
          bag: {x: 84, y: y + mid - 6}, pool: {x: 250, y: y + mid - 20}};
}

// ---- The choice in progress ------------------------------------------------------------------

// Kept across redraws of the same decision (a chat line, a change of language), dropped when
// the decision changes or the page sends it.
let choice = {key: null, value: null};

function choiceFor(state, legal) {
  const decision = state.decision;
  if (!legal || !['harvest', 'rest', 'trim', 'swap'].includes(decision)) return null;
  const key = `${state.turn}:${state.replays}:${decision}:${canon(legal)}`;
  if (choice.key !== key)
    choice = {key, value: decision === 'swap' ? new SwapChoice(legal) : new CountChoice(decision, legal)};
  return choice.value;
}

// ---- Drawing ---------------------------------------------------------------------------------

// A tappable thing: `g` holds a `.hit` outline first (highlighted, named, focusable); `key`
// finds it again after a redraw so the keyboard's focus stays.
function pickable(g, key, label, onTap, pressed) {
  g.setAttribute('data-key', key);
  svgButton(g, label, onTap);
  if (pressed !== undefined) g.querySelector('.hit').setAttribute('aria-pressed', String(pressed));
  return g;
}

// A player's row: their Farmer (its colours and the seat's shape), the pointer when they are to decide,
// the name over the score, and the harvest on the right, colour by colour.
function drawLabel(seat, box, c) {
  const {state, name, current} = c;
  const items = [s('rect', {x: box.x, y: box.y, width: box.w, height: box.h, rx: 26, class: `tb-label${current === seat ? ' turn' : ''}`})];
  const mid = box.y + box.h / 2;
  items.push(farmer(seat, box.x + 52, mid + 2, 86));
  let x = box.x + 100;
  if (current === seat) {
    items.push(s('path', {d: `M${x},${mid - 22}L${x + 32},${mid}L${x},${mid + 22}Z`, class: 'tb-turn-mark'}));
    x += 46;
  }
  const right = box.x + box.w - 10;
  let hx = right;
  const harvest = state.harvest?.[seat] || {};
  const picks = c.harvestPicks?.(seat);
  const HW = c.wide ? 100 : 118;
  for (const colour of [...RICE].reverse()) {
    const n = (harvest[colour] || 0) - (c.givingBack?.(seat, colour) || 0);
    if (!n && !picks?.has(colour)) continue;
    const cx = hx - HW / 2;
    const g = s('g', {class: 'tb-harvest', 'data-seat': seat, 'data-harvest': colour});
    const pick = picks?.get(colour);
    if (pick) g.append(s('rect', {x: cx - HW / 2 + 3, y: box.y + 5, width: HW - 6, height: box.h - 10, rx: 18, class: 'hit'}));
    g.append(rice(colour, cx - 18, mid, 50),
      s('text', {x: cx + 10, y: mid + 2, class: 'tb-count', 'dominant-baseline': 'central'}, `×${n}`));
    items.push(pick ? pickable(g, `harvest:${seat}:${colour}`, pick.label, pick.tap) : g);
    hx -= HW;
  }
  items.push(s('text', {x, y: mid - 22, class: 'tb-name', 'dominant-baseline': 'central'}, fitText(name(seat), hx - x - 12, 38)),
    s('text', {x, y: mid + 24, class: 'tb-score', 'dominant-baseline': 'central'}, t('tanbo.points', {n: state.score?.[seat] ?? 0})));
  return s('g', {class: 'tb-player', 'data-seat': seat},
    s('title', {}, t('tanbo.player_title', {name: name(seat), n: state.score?.[seat] ?? 0, rice: riceText(harvest)})), items);
}

function drawField(seat, cx, cy, c) {
  const {state, marks} = c;
  const items = [disc(cx, cy, RF, {class: 'tb-field'})];
  for (let i = 0; i < 5; ++i) {
    const th = centreAngle(i);
    items.push(s('path', {d: sector(cx, cy, RH, RO, th - 36, th + 36), class: 'tb-water'}));
  }
  for (let i = 0; i < 5; ++i) items.push(dike(cx, cy, RH - 8, RF + 2, centreAngle(i) + 36, 30));
  items.push(disc(cx, cy, RH, {class: 'tb-hub'}));
  const ring = state.rings?.[seat] || [];
  for (let i = 0; i < 5; ++i) {
    const tk = ring[i] || {};
    const th = centreAngle(i);
    const g = s('g', {class: 'tb-paddy', 'data-seat': seat, 'data-paddy': i});
    const paddyPick = c.paddyPicks?.(seat, i);
    // The whole paddy takes the tap; the green inside its dikes, apart from its neighbours', says so.
    if (paddyPick) g.append(s('path', {d: sector(cx, cy, RH, RO, th - 34, th + 34), class: 'hit paddy'}),
                            s('path', {d: inset(cx, cy, th), class: 'tb-legal'}));
    const pl = places(cx, cy, i);
    for (const kind of KINDS) {
      const n = kind === 'farmer' ? (tk.farmer ? 1 : 0) : tk[FIELD[kind]] || 0;
      const place = pl[kind];
      const slotPick = c.slotPicks?.(seat, i, kind);
      const shown = c.shownCount ? c.shownCount(seat, i, kind, n) : n;
      if (!shown && !slotPick) continue;
      const sg = s('g', {class: 'tb-slot', 'data-slot': `${i}:${kind}`});
      if (slotPick) sg.append(s('path', {d: place.d, class: `hit${slotPick.chosen ? ' chosen' : ''}`}));
      sg.append(pile(kind, shown, place.x, place.y, place.size, seat, place.angle));
      g.append(slotPick ? pickable(sg, `slot:${seat}:${i}:${kind}`, slotPick.label, slotPick.tap, slotPick.pressed) : sg);
    }
    const [nx, ny] = polar(cx, cy, RH + 24, th);
    const next = c.nextPaddy === `${seat}:${i}`;
    if (next) g.append(disc(nx, ny, 24, {class: 'tb-next'}));
    g.append(s('text', {x: r1(nx), y: r1(ny), class: `tb-no${next ? ' next' : ''}`, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, i + 1));
    const words = t('tanbo.paddy_title', {name: c.name(seat), paddy: i + 1, what: tokensText(tk)});
    if (paddyPick) items.push(pickable(g, `paddy:${seat}:${i}`, paddyPick.label, paddyPick.tap));
    else { g.prepend(s('title', {}, words)); items.push(g); }
  }
  // Marks over everything but the picks' focus: the last move, the animation's paddy.
  for (let i = 0; i < 5; ++i) {
    const k = `${seat}:${i}`, th = centreAngle(i);
    for (const [kind, on] of [['last-from', marks?.from === k], ['last-to', marks?.to === k], ['active', marks?.active === k]])
      if (on) items.push(markPath(kind, sector(cx, cy, RH + 6, RO - 5, th - 31, th + 31)));
    if (marks?.note?.key === k) {
      const [x, y] = polar(cx, cy, RMID, th);
      items.push(s('g', {class: 'tb-note', 'aria-hidden': 'true'}, badge(x, y, t(`tanbo.letter.${marks.note.letter}`), 56)));
    }
  }
  const arrow = c.swapArrow?.();
  if (arrow?.seat === seat) items.push(swapArrow(cx, cy, arrow));
  return s('g', {class: 'tb-ring', 'data-ring': seat}, items);
}

// The swap to confirm, drawn over the tokens but never in the way of a tap.
function swapArrow(cx, cy, {a, b, seat}) {
  const pa = places(cx, cy, a.paddy)[a.token], pb = places(cx, cy, b.paddy)[b.token];
  const mx = (pa.x + pb.x) / 2, my = (pa.y + pb.y) / 2;
  // Bend toward the hub so the arrow stays on the field.
  const qx = mx + (cx - mx) * 0.5, qy = my + (cy - my) * 0.5;
  const head = (x, y, fx, fy) => {
    const a0 = Math.atan2(y - fy, x - fx), l = 30;
    return `M${r1(x)},${r1(y)}l${r1(-l * Math.cos(a0 - 0.45))},${r1(-l * Math.sin(a0 - 0.45))}M${r1(x)},${r1(y)}l${r1(-l * Math.cos(a0 + 0.45))},${r1(-l * Math.sin(a0 + 0.45))}`;
  };
  const t0 = 0.16, t1 = 0.84;
  const at = (u) => [(1 - u) ** 2 * pa.x + 2 * (1 - u) * u * qx + u * u * pb.x, (1 - u) ** 2 * pa.y + 2 * (1 - u) * u * qy + u * u * pb.y];
  const [sx, sy] = at(t0), [ex, ey] = at(t1);
  return s('g', {class: 'tb-swap-arrow', 'aria-hidden': 'true', 'pointer-events': 'none'},
    s('path', {d: `M${r1(sx)},${r1(sy)}Q${r1(qx)},${r1(qy)} ${r1(ex)},${r1(ey)}`}),
    s('path', {d: `${head(ex, ey, qx, qy)}${head(sx, sy, qx, qy)}`}),
    s('g', {class: 'tb-ghost'}, token(a.token, pb.x + 30, pb.y - 30, 44, seat), token(b.token, pa.x + 30, pa.y - 30, 44, seat)));
}

function drawBag(state, at) {
  // The pouch, and beside it (below it between two fields) what it holds, colour by colour.
  const px = at.x - 42;
  const items = [bag(px, at.y - 8, 84, 112)];
  const bx = at.x + 8;
  const inBag = RICE.filter((c) => state.bag?.[c]);
  inBag.forEach((c, j) => {
    const y = at.y - 48 + j * 48 + (3 - inBag.length) * 24;
    items.push(rice(c, bx + 18, y, 36), s('text', {x: bx + 42, y, class: 'tb-count', 'dominant-baseline': 'central'}, state.bag[c]));
  });
  if (!inBag.length) items.push(s('text', {x: bx + 4, y: at.y, class: 'tb-caption', 'dominant-baseline': 'central'}, t('tanbo.bag_empty')));
  items.push(s('text', {x: px, y: at.y + 78, class: 'tb-caption', 'text-anchor': 'middle'}, t('tanbo.bag')));
  return s('g', {class: 'tb-bag-block'}, s('title', {}, t('tanbo.bag_title', {bag: bagText(state.bag)})), items);
}

function drawPool(state, at) {
  const n = state.pool || 0;
  return s('g', {class: 'tb-pool'}, s('title', {}, t('tanbo.pool_title', {n})),
    s('ellipse', {cx: at.x, cy: at.y + 6, rx: 62, ry: 50, class: 'tb-dish'}),
    pile('snake', n, at.x, at.y + 4, 104),
    s('text', {x: at.x, y: at.y + 92, class: 'tb-caption', 'text-anchor': 'middle'}, t('tanbo.aside')));
}

// The tray: the mover's hand while sowing (its tokens the targets when it is the viewer's), or
// the viewer's choice in progress with its confirm.
function drawTray(box, c) {
  const {state, legal} = c;
  const items = [];
  const captionW = box.captionW ?? box.x + box.w - box.captionX - 10;
  const caption = (text) => items.push(s('text', {x: box.captionX, y: box.y + 36, class: 'tb-caption tray'}, fitText(text, captionW, 32)));
  const rowY = box.y + CAPTION + (box.h - CAPTION) / 2;
  let x = box.x + 8;
  let itemW = TRAY_ITEM;
  const slot = (kind, n, pick, key, seat = 0) => {
    const g = s('g', {class: 'tb-tray-item', 'data-tray': kind});
    if (pick) g.append(s('rect', {x, y: rowY - 64, width: itemW - 6, height: 128, rx: 20, class: 'hit'}));
    g.append(pile(kind, n, x + itemW / 2 - 3, rowY - 2, Math.min(100, itemW - 8), seat));
    items.push(pick ? pickable(g, key, pick.label, pick.tap) : g);
    x += itemW;
  };
  const confirm = (action, word) => {
    const cx = box.x + box.w - CONFIRM_W - 6;
    const room = CONFIRM_W - 84;
    const size = Math.max(26, Math.min(32, Math.floor(32 * room / textWidth(word, 32))));
    const g = s('g', {class: 'tb-confirm', 'data-confirm': state.decision},
      s('rect', {x: cx, y: rowY - 64, width: CONFIRM_W, height: 128, rx: 22, class: 'hit'}),
      s('path', {d: `M${cx + 22},${rowY}l15,17l28,-34`, class: 'tb-check'}),
      // The word as large as fits beside the tick, down to 26 units, then shortened.
      s('text', {x: cx + 74, y: rowY + 2, 'font-size': size, 'dominant-baseline': 'central'}, fitText(word, room, size)));
    items.unshift(pickable(g, 'confirm', t('tanbo.pick.confirm', {what: describeAction(action)}), () => c.act(action)));
  };

  const hand = state.hand || {};
  const handKinds = KINDS.filter((k) => (k === 'farmer' ? hand.farmer : hand[FIELD[k]]));
  if (state.decision === 'sow' && handKinds.length) {
    const mine = !!legal;
    const sows = new Map((legal || []).filter((a) => a.sow).map((a) => [a.sow, a]));
    caption(t(mine ? 'tanbo.tray.hand_mine' : 'tanbo.tray.hand', {name: c.name(state.mover), paddy: (state.cursor ?? 0) + 1}));
    itemW = Math.min(TRAY_ITEM, (box.w - 16) / handKinds.length);
    for (const k of handKinds) {
      const n = k === 'farmer' ? 1 : hand[FIELD[k]];
      const a = sows.get(k);
      slot(k, n, a && {label: t('tanbo.pick.sow', {token: tokenText(k), paddy: (state.cursor ?? 0) + 1, n}), tap: () => c.act(a)},
        `sow:${k}`, state.mover);
    }
    return s('g', {class: 'tb-tray', 'data-tray-of': 'sow'}, items);
  }
  const ch = c.choice;
  if (ch instanceof CountChoice) {
    const left = ch.need - ch.chosen;
    const head = t(`tanbo.tray.${ch.decision}`, {n: ch.need, paddy: (state.trim_paddy ?? 0) + 1});
    caption(left ? `${head}${t('list.sep')}${t('tanbo.tray.more', {n: left})}` : head);
    const kinds = ch.kinds.filter((k) => ch.sel[k]);
    itemW = Math.min(TRAY_ITEM, (box.w - CONFIRM_W - 24) / Math.max(1, kinds.length));
    for (const k of kinds) {
      if (!ch.sel[k]) continue;
      slot(k, ch.sel[k], {label: t('tanbo.pick.put_back', {token: tokenText(k), n: ch.sel[k]}), tap: () => { ch.remove(k); c.redraw(); }}, `chosen:${k}`);
    }
    const a = ch.action();
    if (a) confirm(a, t(`tanbo.confirm.${ch.decision}`));
    return s('g', {class: 'tb-tray', 'data-tray-of': ch.decision}, items);
  }
  if (ch instanceof SwapChoice) {
    caption(t(ch.second ? 'tanbo.tray.swap_ready' : ch.first ? 'tanbo.tray.swap_second' : 'tanbo.tray.swap_first'));
    for (const e of [ch.first, ch.second]) {
      if (!e) continue;
      slot(e.token, 1, null, null, c.viewer);
      items.push(s('text', {x: x - TRAY_ITEM / 2, y: rowY + 66, class: 'tb-caption small', 'text-anchor': 'middle'}, t('tanbo.tray.in_paddy', {paddy: e.paddy + 1})));
      if (e === ch.first && ch.second) {
        items.push(s('text', {x: x + 10, y: rowY, class: 'tb-swap-sign', 'dominant-baseline': 'central'}, '⇄'));
        x += 60;
      }
    }
    const a = ch.action();
    if (a) confirm(a, t('tanbo.confirm.swap'));
    return s('g', {class: 'tb-tray', 'data-tray-of': 'swap'}, items);
  }
  return null;
}

// ---- Render ----------------------------------------------------------------------------------

// Wide screens (and a phone turned sideways) put the fields side by side.
const wide = matchMedia('(min-aspect-ratio: 7/10)');
// The board on the page redraws itself when the screen changes shape.
let redrawLatest = null;
wide.addEventListener('change', () => redrawLatest?.());

function render({state, legal, viewer, act, name, marks, shape}) {
  const me = viewer ?? 0, them = 1 - me;
  const finished = state.status === 'finished' || !state.decision;
  const current = finished ? null : state.seat ?? state.mover ?? null;
  const legalBy = (k) => (legal || []).filter((a) => a[k] !== undefined);

  const c = {state, legal, viewer: me, name, marks, act, current};
  c.redraw = () => draw();
  if (state.decision === 'sow' && state.hand && !finished) c.nextPaddy = `${state.mover}:${state.cursor}`;

  if (legal) {
    const farmerPicks = new Map(legalBy('farmer').map((a) => [a.farmer, a]));
    if (farmerPicks.size) {
      c.paddyPicks = (seat, i) => {
        const a = seat === me ? farmerPicks.get(i) : undefined;
        return a && {label: t('tanbo.pick_farmer', {paddy: i + 1, what: tokensText(state.rings[seat][i])}), tap: () => act(a)};
      };
    }
    c.choice = choiceFor(state, legal);
  } else {
    choice = {key: null, value: null};
  }
  const ch = c.choice;
  if (ch instanceof CountChoice) {
    // The source of the tokens chosen: P, the trimmed paddy, or the mover's harvest; what is
    // chosen is drawn in the tray, no longer where it came from.
    const ring = ch.decision === 'trim' ? state.trim_paddy : state.last;
    const fromHere = (seat, i) => ch.decision !== 'rest' && seat === state.mover && i === ring;
    c.shownCount = (seat, i, kind, n) => (fromHere(seat, i) && ch.sel[kind] !== undefined ? n - ch.sel[kind] : n);
    if (ch.decision === 'rest') {
      c.harvestPicks = (seat) => {
        if (seat !== state.mover) return null;
        const m = new Map();
        for (const k of RICE) if (ch.canAdd(k))
          m.set(k, {label: t('tanbo.pick.give', {token: tokenText(k), n: (state.harvest[seat][k] || 0) - ch.sel[k]}), tap: () => { ch.add(k); draw(); }});
        return m;
      };
      c.givingBack = (seat, k) => (seat === state.mover ? ch.sel[k] : 0);
    } else {
      c.slotPicks = (seat, i, kind) => {
        if (!fromHere(seat, i) || !ch.canAdd(kind)) return null;
        const n = (state.rings[seat][i][FIELD[kind]] || 0) - ch.sel[kind];
        return {label: t('tanbo.pick.take', {token: tokenText(kind), paddy: i + 1, n}), tap: () => { ch.add(kind); draw(); }};
      };
    }
  }
  if (ch instanceof SwapChoice) {
    c.slotPicks = (seat, i, kind) => {
      if (seat !== me) return null;
      const what = ch.targets().get(`${i}:${kind}`);
      if (!what) return null;
      const e = {paddy: i, token: kind};
      const label = t(`tanbo.pick.swap_${what === 'first' ? 'first' : what === 'second' ? 'second' : 'unselect'}`, {token: tokenText(kind), paddy: i + 1});
      return {label, tap: () => { ch.tap(e); draw(); }, chosen: what.startsWith('unselect'), pressed: what.startsWith('unselect') ? true : what === 'first' ? false : undefined};
    };
    // Read at each redraw: the second tap draws where the first token goes.
    c.swapArrow = () => (ch.first && ch.second ? {seat: me, a: ch.first, b: ch.second} : null);
  }

  const svg = s('svg', {role: 'group',
    'aria-label': t('tanbo.board_label', {them: name(them), me: name(me), bag: bagText(state.bag || {}), pool: state.pool ?? 0,
                                          a: state.score?.[0] ?? 0, b: state.score?.[1] ?? 0})});
  function draw() {
    // The layout follows the screen's shape at each redraw (a phone turned sideways).
    // `shape` ('wide' or 'tall') fixes the layout for a picture in a box of its own (the lobby's).
    c.wide = shape ? shape === 'wide' : wide.matches;
    const L = layout(c.wide, me, them, (state.pool || 0) > 0);
    svg.setAttribute('viewBox', `0 0 ${L.W} ${L.H}`);
    svg.setAttribute('class', `board-svg tanbo tb ${c.wide ? 'wide' : 'tall'}`);
    // Keep the keyboard's place across a redraw of the choice in progress.
    const focused = svg.contains(document.activeElement) ? document.activeElement.closest('[data-key]')?.getAttribute('data-key') : null;
    // In the order of the keyboard and the screen reader: the decision's tray (its confirm
    // first), the viewer's row and field, the opponent's, the bag and the snakes set aside.
    const items = [];
    const trayOwner = state.decision === 'sow' ? state.mover : me;
    const tray = drawTray(L.trayUnder(trayOwner ?? me), c);
    if (tray) items.push(tray);
    for (const seat of [me, them]) {
      items.push(drawLabel(seat, L.labels[seat], c));
      items.push(drawField(seat, L.rings[seat].cx, L.rings[seat].cy, c));
    }
    items.push(drawBag(state, L.bag));
    // The snakes set aside only when there are some: an empty dish says nothing to a player.
    if (state.pool) items.push(drawPool(state, L.pool));
    svg.replaceChildren(...items);
    if (focused) {
      const el = svg.querySelector(`[data-key="${CSS.escape(focused)}"] [role=button]`) || svg.querySelector('[data-key="confirm"] [role=button]') ||
                 svg.querySelector('.pick [role=button]');
      el?.focus({preventScroll: true});
    }
  }
  draw();
  redrawLatest = () => { if (svg.isConnected) draw(); };

  // The stop counts rounds (a turn each), as the option and the rules do; the state counts turns.
  const facts = [h('ul', {class: 'facts'},
    h('li', {}, t('tanbo.fact.scores', {a: name(0), sa: state.score?.[0] ?? 0, b: name(1), sb: state.score?.[1] ?? 0})),
    h('li', {}, t(state.pool ? 'tanbo.fact.bag' : 'tanbo.fact.bag_no_pool', {bag: bagText(state.bag || {}), n: state.pool ?? 0})),
    state.turn ? h('li', {}, t('tanbo.fact.turn', {n: state.turn, quiet: Math.floor(state.quiet_turns / 2), stall: state.stall_turns / 2})) : null,
    state.decision === 'sow' && !finished ? h('li', {}, t('tanbo.fact.hand', {what: tokensText(state.hand), paddy: state.cursor + 1})) : null)];
  let hint = null;
  if (legal) {
    const d = state.decision;
    if (d === 'place_farmer') hint = t('tanbo.hint.farmer');
    if (d === 'sow') hint = t('tanbo.hint.sow', {paddy: state.cursor + 1});
    if (d === 'harvest') hint = t('tanbo.hint.harvest', {n: state.tokens_to_move});
    if (d === 'rest') hint = t('tanbo.hint.rest', {n: state.tokens_to_move});
    if (d === 'trim') hint = t('tanbo.hint.trim', {paddy: state.trim_paddy + 1, n: state.tokens_to_move});
    if (d === 'swap') hint = t('tanbo.hint.swap');
  }
  // Every target is at least 32 px wherever the board is whole (a token's place is about a
  // ninth of a field): the viewport is told to fit it whole, never to pan it.
  return {svg, facts, controls: [], hint, minPick: Infinity, focus: null};
}

export default {decisions, render, describeAction, describeEvent, describeSetup, myTurn, lastMove, plan};

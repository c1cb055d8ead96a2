// Tanbo (Musoka Studio): two rings of five paddies, numbered 1-5 clockwise for people (0-4 in
// the protocol). The viewer's ring at the bottom. Rice colours always carry a letter and a shape
// too (Y circle, B square, R diamond), so colour is never the only cue.
import {s, h, svgButton, plural} from '../util.js';

const decisions = {
  place_farmer: 'place your Farmer in one of your paddies',
  sow: 'choose the next token to sow',
  harvest: 'choose the rice to harvest',
  rest: 'choose the rice to give back',
  swap: 'swap two tokens of your own ring (the mover reached action E)',
  trim: 'choose what to remove from the overfull paddy',
};

const RICE = ['yellow', 'black', 'red'];
const LETTER = {yellow: 'Y', black: 'B', red: 'R'};

function riceText(r) {
  const parts = RICE.filter((c) => r[c]).map((c) => `${r[c]} ${c}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

function tokenText(t) {
  return t === 'snake' ? 'snake' : t === 'farmer' ? 'Farmer' : `${t} rice`;
}

function describeAction(a) {
  if (a.farmer !== undefined) return `place the Farmer in paddy ${a.farmer + 1}`;
  if (a.sow) return `sow a ${tokenText(a.sow)}`;
  if (a.harvest) return `harvest ${riceText(a.harvest)}`;
  if (a.return) return `give back ${riceText(a.return)}`;
  if (a.swap) return `swap the ${tokenText(a.swap[0].token)} in paddy ${a.swap[0].paddy + 1} with the ${tokenText(a.swap[1].token)} in paddy ${a.swap[1].paddy + 1}`;
  if (a.trim) {
    const t = a.trim;
    const parts = [];
    if (t.snakes) parts.push(plural(t.snakes, 'snake'));
    for (const c of RICE) if (t[c]) parts.push(`${t[c]} ${c}`);
    return `remove ${parts.join(', ')} from paddy ${t.paddy + 1}`;
  }
  return JSON.stringify(a);
}

function tokensText(t) {
  const parts = [];
  if (t.snakes) parts.push(plural(t.snakes, 'snake'));
  for (const c of RICE) if (t[c]) parts.push(`${t[c]} ${c}`);
  if (t.farmer) parts.push('the Farmer');
  return parts.join(', ') || 'nothing';
}

function describeEvent(ev, name) {
  const p = (i) => `paddy ${i + 1}`;
  switch (ev.type) {
    case 'farmer_placed': return `${name(ev.seat)}'s Farmer goes to ${p(ev.paddy)}`;
    case 'turn': return `turn ${ev.turn}: ${name(ev.seat)}`;
    case 'pick_up': return `picks up ${tokensText(ev.tokens)} from ${p(ev.paddy)}`;
    case 'sow': return null;  // each token is in the action line already
    case 'action': return `${p(ev.paddy)}: action ${ev.letter}${ev.replay ? ' (replay)' : ''}`;
    case 'draw': return `draws ${ev.colour} into ${p(ev.paddy)}`;
    case 'bag_short': return `the bag was short (${ev.drawn} of ${ev.wanted})`;
    case 'harvest': return `${name(ev.seat)} harvests ${plural(ev.points, 'point')} (score ${ev.score})`;
    case 'clear': return `${p(ev.paddy)} cleared`;
    case 'add_snakes': return `${plural(ev.count, 'snake')} into ${p(ev.paddy)}`;
    case 'rest': return `the Farmer rests: ${p(ev.from)} to ${p(ev.to)}`;
    case 'return': return `${name(ev.seat)} gives back rice (score ${ev.score})`;
    case 'replay': return `replay from ${p(ev.paddy)}`;
    case 'replay_guard': return `replay stopped (${ev.reason})`;
    case 'no_swap': return 'no swap possible';
    case 'swap': return `${name(ev.seat)} swaps`;
    case 'replay_end': return `replay ends (${ev.letter} again)`;
    case 'trim': return `${p(ev.paddy)} trimmed`;
    case 'victory': return ev.seat === null ? `draw (${ev.reason})` : `${name(ev.seat)} wins (${ev.reason})`;
    case 'stalled': return `stalled: ${ev.seat === null ? 'a draw' : name(ev.seat) + ' wins'}`;
    default: return null;
  }
}

// A rice chip: its colour, a shape and a letter.
function riceIcon(colour, x, y, r) {
  let shape;
  if (colour === 'yellow') shape = s('circle', {cx: x, cy: y, r});
  else if (colour === 'black') shape = s('rect', {x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 2});
  else shape = s('polygon', {points: `${x},${y - r * 1.25} ${x + r * 1.25},${y} ${x},${y + r * 1.25} ${x - r * 1.25},${y}`});
  return s('g', {class: `rice ${colour}`}, shape,
    s('text', {x, y, class: 'rice-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, LETTER[colour]));
}

function snakeIcon(x, y) {
  return s('path', {class: 'snake', d: `M${x - 20},${y} q10,-14 20,0 t20,0`});
}

function farmerIcon(x, y) {
  return s('g', {class: 'farmer', transform: `translate(${x} ${y}) scale(1.5) translate(${-x} ${-y})`},
    s('circle', {cx: x, cy: y + 6, r: 9}),
    s('polygon', {points: `${x - 17},${y - 2} ${x + 17},${y - 2} ${x},${y - 18}`}),
    s('text', {x, y: y + 7, class: 'farmer-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, 'F'));
}

function paddy(t, x, y, r, index, marks) {
  const g = s('g', {class: `paddy${marks.cls || ''}`, 'data-paddy': index},
    s('circle', {cx: x, cy: y, r, class: 'paddy-bg'}),
    s('text', {x, y: y - r + 28, class: 'paddy-label', 'text-anchor': 'middle'}, `${index + 1}${marks.note ? ' ' + marks.note : ''}`));
  const dim = (n) => (n ? '' : ' zero');
  const rows = [
    [snakeIcon(x - 48, y - 10), t.snakes],
    [riceIcon('yellow', x + 26, y - 10, 15), t.yellow],
    [riceIcon('black', x - 48, y + 34, 15), t.black],
    [riceIcon('red', x + 26, y + 34, 15), t.red],
  ];
  rows.forEach(([icon, n], i) => {
    const ix = i % 2 ? x + 26 : x - 48, iy = i < 2 ? y - 10 : y + 34;
    g.append(s('g', {class: `item${dim(n)}`}, icon,
      s('text', {x: ix + 22, y: iy, class: 'n', 'dominant-baseline': 'central'}, n)));
  });
  if (t.farmer) g.append(farmerIcon(x + r * 0.62, y - r * 0.62));
  return g;
}

function paddyTitle(owner, i, t) {
  return `${owner}, paddy ${i + 1}: ${tokensText(t)}`;
}

function render({state, legal, viewer, pending, act, name}) {
  const me = viewer, them = 1 - viewer;
  const items = [];
  const R = 218, r = 118;
  const decision = pending?.decision;
  const legalBy = (k) => (legal || []).filter((a) => a[k] !== undefined);
  const farmerPicks = new Map(legalBy('farmer').map((a) => [a.farmer, a]));
  const ring = (seat, cx, cy) => {
    const owner = `${name(seat)}'s ring`;
    items.push(s('circle', {cx, cy, r: R + r + 14, class: `ring${state.mover === seat ? ' mover' : ''}`}));
    items.push(s('text', {x: cx, y: cy - 10, class: 'ring-label', 'text-anchor': 'middle'}, name(seat)));
    items.push(s('text', {x: cx, y: cy + 24, class: 'ring-sub', 'text-anchor': 'middle'}, `score ${state.score[seat]}`));
    for (let i = 0; i < 5; ++i) {
      const ang = (-90 + 72 * i) * Math.PI / 180;  // clockwise from the top
      const x = cx + R * Math.cos(ang), y = cy + R * Math.sin(ang);
      const t = state.rings[seat][i];
      const marks = {cls: '', note: ''};
      const sowing = state.decision === 'sow' && state.mover === seat;
      if (sowing && state.cursor === i) { marks.cls += ' cursor'; marks.note = '← next'; }
      if (state.decision === 'trim' && state.mover === seat && state.trim_paddy === i) { marks.cls += ' trim'; marks.note = 'too full'; }
      const g = paddy(t, x, y, r, i, marks);
      const a = seat === me ? farmerPicks.get(i) : undefined;
      if (a) svgButton(g, `Place your Farmer in paddy ${i + 1} (${tokensText(t)})`, () => act(a));
      else g.append(s('title', {}, paddyTitle(owner, i, t)));
      items.push(g);
    }
  };
  ring(them, 500, 350);
  ring(me, 500, 1110);
  // The middle strip: bag, pool, scores, the hand being sown.
  const y0 = 690;
  items.push(s('rect', {x: 20, y: y0, width: 960, height: 80, rx: 16, class: 'strip'}));
  items.push(s('text', {x: 40, y: y0 + 48, class: 'strip-label'}, 'Bag'));
  RICE.forEach((c, i) => {
    const x = 130 + i * 95;
    items.push(riceIcon(c, x, y0 + 40, 14));
    items.push(s('text', {x: x + 22, y: y0 + 40, class: 'n', 'dominant-baseline': 'central'}, state.bag[c]));
  });
  items.push(s('text', {x: 440, y: y0 + 48, class: 'strip-label'}, 'Pool'));
  items.push(snakeIcon(540, y0 + 40));
  items.push(s('text', {x: 565, y: y0 + 40, class: 'n', 'dominant-baseline': 'central'}, state.pool));
  items.push(s('text', {x: 640, y: y0 + 48, class: 'strip-label'}, `Score ${state.score[me]} : ${state.score[them]}`));
  const svg = s('svg', {viewBox: '0 0 1000 1460', class: 'board-svg tanbo', role: 'group',
    'aria-label': `Tanbo: ${name(them)}'s ring above, ${name(me)}'s below; bag ${riceText(state.bag)}; pool ${plural(state.pool, 'snake')}; scores ${state.score.join(' to ')}`}, items);

  const facts = h('ul', {class: 'facts'},
    h('li', {}, `Scores: ${name(0)} ${state.score[0]}, ${name(1)} ${state.score[1]} (25 wins; a lead of 20 wins)`),
    h('li', {}, `Bag: ${riceText(state.bag)} · pool: ${plural(state.pool, 'snake')}`),
    h('li', {}, `Turn ${state.turn}; quiet turns ${state.quiet_turns} of ${state.stall_turns}`),
    state.decision === 'sow' ? h('li', {}, `In hand: ${tokensText(state.hand)}; next paddy ${state.cursor + 1}`) : null);
  const controls = [facts];
  if (!legal) return {svg, controls};
  const buttons = (list, label, attr) => h('div', {class: 'choice-row', role: 'group', 'aria-label': label},
    list.map((a) => h('button', {type: 'button', class: 'primary', 'data-action': attr(a), onclick: () => act(a)}, describeAction(a))));
  if (decision === 'place_farmer')
    controls.push(h('p', {class: 'hint'}, 'Click one of your paddies (bottom ring) for your Farmer.'));
  if (decision === 'sow') {
    controls.push(h('div', {class: 'choice-row', role: 'group', 'aria-label': 'Token to sow'},
      legalBy('sow').map((a) => {
        const n = a.sow === 'snake' ? state.hand.snakes : a.sow === 'farmer' ? 1 : state.hand[a.sow];
        return h('button', {type: 'button', class: `primary token-${a.sow}`, 'data-action': `sow-${a.sow}`, onclick: () => act(a)},
          `Sow ${tokenText(a.sow)} ${a.sow === 'farmer' ? '' : `(${n} in hand)`}`);
      })));
  }
  if (decision === 'harvest') controls.push(buttons(legalBy('harvest'), 'Rice to harvest', () => 'harvest'));
  if (decision === 'rest') controls.push(buttons(legalBy('return'), 'Rice to give back', () => 'return'));
  if (decision === 'trim') controls.push(buttons(legalBy('trim'), 'What to remove', () => 'trim'));
  if (decision === 'swap') controls.push(swapPicker(legalBy('swap'), act));
  return {svg, controls};
}

// The swap in two steps: a first token, then a partner among the legal ones.
// T4 E: the swapper's own ring (the mover's opponent's), drawn at the bottom for them.
function swapPicker(swaps, act) {
  const key = (e) => `${e.paddy}:${e.token}`;
  const label = (e) => `${tokenText(e.token)} in paddy ${e.paddy + 1}`;
  const box = h('div', {class: 'swap', role: 'group', 'aria-label': 'Swap two tokens'});
  const firsts = new Map();
  for (const a of swaps) for (const e of a.swap) firsts.set(key(e), e);
  const step1 = () => {
    box.replaceChildren(h('p', {}, 'Swap two tokens of your ring (bottom), in two paddies: first pick one.'),
      h('div', {class: 'choice-row'}, [...firsts.values()].map((e) =>
        h('button', {type: 'button', 'data-swap-first': key(e), onclick: () => step2(e)}, label(e)))));
  };
  const step2 = (first) => {
    const partners = swaps.filter((a) => a.swap.some((e) => key(e) === key(first)));
    box.replaceChildren(h('p', {}, `Swap the ${label(first)} with:`),
      h('div', {class: 'choice-row'}, partners.map((a) => {
        const other = a.swap.find((e) => key(e) !== key(first)) || a.swap[1];
        return h('button', {type: 'button', class: 'primary', 'data-swap-second': key(other), onclick: () => act(a)}, label(other));
      }), h('button', {type: 'button', onclick: step1}, 'Back')));
    box.querySelector('button')?.focus();
  };
  step1();
  return box;
}

export default {decisions, render, describeAction, describeEvent};

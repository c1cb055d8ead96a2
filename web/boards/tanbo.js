// Tanbo (Musoka Studio): two rings of five paddies, numbered 1-5 clockwise for people (0-4 in
// the protocol). The viewer's ring at the bottom, each ring's owner named outside it (a name
// inside would hide under the paddies). Rice colours always carry a letter and a shape too
// (Y circle, B square, R diamond), so colour is never the only cue.
import {s, h, svgButton} from '../util.js';
import {t, list} from '../i18n/index.js';
import {markRing, markOf} from './marks.js';

const decisions = ['place_farmer', 'sow', 'harvest', 'rest', 'swap', 'trim'];

const RICE = ['yellow', 'black', 'red'];

function riceText(r) {
  const parts = RICE.filter((c) => r[c]).map((c) => t(`tanbo.rice.${c}`, {n: r[c]}));
  return parts.length ? list(parts) : t('tanbo.nothing');
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

function describeEvent(ev, name) {
  const p = (i) => i + 1;
  switch (ev.type) {
    case 'farmer_placed': return t('tanbo.ev.farmer_placed', {name: name(ev.seat), paddy: p(ev.paddy)});
    case 'turn': return t('tanbo.ev.turn', {n: ev.turn, name: name(ev.seat)});
    case 'pick_up': return t('tanbo.ev.pick_up', {what: tokensText(ev.tokens), paddy: p(ev.paddy)});
    case 'action': return t(ev.replay ? 'tanbo.ev.letter_replay' : 'tanbo.ev.letter', {paddy: p(ev.paddy), what: t(`tanbo.letter.${ev.letter}`)});
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

// The last move: where the hand was picked up and the paddy that received its last token
// (or, for a harvest, trim or swap, the paddy it was about).
function lastMove(events) {
  let from = null, to = null;
  for (const ev of events || []) {
    if (ev.type === 'pick_up') from = `${ev.seat}:${ev.paddy}`;
    if ((ev.type === 'sow' || ev.type === 'harvest' || ev.type === 'trim') && ev.paddy !== undefined)
      to = `${ev.seat}:${ev.paddy}`;
  }
  return from || to ? {from, to} : null;
}

const FIELD = {snake: 'snakes', yellow: 'yellow', black: 'black', red: 'red'};

// The animation plan of the movement phase: the hand picked up, then each token put down,
// one paddy after the other; what the action then does is drawn from the server's state.
function plan(prev, next, events) {
  const st = structuredClone(prev);
  const frames = [];
  for (const ev of events || []) {
    if (ev.type === 'action' && ev.letter) break;  // the action phase: counts change otherwise
    if (ev.type === 'pick_up') {
      const p = st.rings[ev.seat][ev.paddy];
      st.hand = {snakes: p.snakes, yellow: p.yellow, black: p.black, red: p.red, farmer: p.farmer};
      st.rings[ev.seat][ev.paddy] = {snakes: 0, yellow: 0, black: 0, red: 0, farmer: false};
      frames.push({state: structuredClone(st), marks: {active: `${ev.seat}:${ev.paddy}`}, sound: 'stone'});
    }
    if (ev.type === 'sow') {
      const p = st.rings[ev.seat][ev.paddy];
      if (ev.token === 'farmer') { p.farmer = true; st.hand.farmer = false; }
      else if (FIELD[ev.token]) { p[FIELD[ev.token]]++; st.hand[FIELD[ev.token]] = Math.max(0, st.hand[FIELD[ev.token]] - 1); }
      st.cursor = (ev.paddy + 1) % 5;
      frames.push({state: structuredClone(st), marks: {active: `${ev.seat}:${ev.paddy}`}, sound: 'stone'});
    }
  }
  return frames.length > 1 ? frames : [];
}

function riceIcon(colour, x, y, r) {
  let shape;
  if (colour === 'yellow') shape = s('circle', {cx: x, cy: y, r});
  else if (colour === 'black') shape = s('rect', {x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 2});
  else shape = s('polygon', {points: `${x},${y - r * 1.25} ${x + r * 1.25},${y} ${x},${y + r * 1.25} ${x - r * 1.25},${y}`});
  return s('g', {class: `rice ${colour}`}, shape,
    s('text', {x, y, class: 'rice-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, t(`tanbo.letter_of.${colour}`)));
}

function snakeIcon(x, y) {
  return s('path', {class: 'snake', d: `M${x - 20},${y} q10,-14 20,0 t20,0`});
}

function farmerIcon(x, y) {
  return s('g', {class: 'farmer', transform: `translate(${x} ${y}) scale(1.5) translate(${-x} ${-y})`},
    s('circle', {cx: x, cy: y + 6, r: 9}),
    s('polygon', {points: `${x - 17},${y - 2} ${x + 17},${y - 2} ${x},${y - 18}`}),
    s('text', {x, y: y + 7, class: 'farmer-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, t('tanbo.letter_of.farmer')));
}

function paddy(tk, x, y, r, index, note, cls, mark) {
  const g = s('g', {class: `paddy${cls}`, 'data-paddy': index},
    s('circle', {cx: x, cy: y, r, class: 'paddy-bg'}),
    mark ? markRing(mark, x, y, r + 8) : null,
    s('text', {x, y: y - r + 28, class: 'paddy-label', 'text-anchor': 'middle'}, note ? t('tanbo.paddy_note', {n: index + 1, note}) : index + 1));
  const rows = [[snakeIcon(x - 48, y - 10), tk.snakes], [riceIcon('yellow', x + 26, y - 10, 15), tk.yellow],
                [riceIcon('black', x - 48, y + 34, 15), tk.black], [riceIcon('red', x + 26, y + 34, 15), tk.red]];
  rows.forEach(([ic, n], i) => {
    const ix = i % 2 ? x + 26 : x - 48, iy = i < 2 ? y - 10 : y + 34;
    g.append(s('g', {class: `item${n ? '' : ' zero'}`}, ic,
      s('text', {x: ix + 22, y: iy, class: 'n', 'dominant-baseline': 'central'}, n)));
  });
  if (tk.farmer) g.append(farmerIcon(x + r * 0.62, y - r * 0.62));
  return g;
}

function render({state, legal, viewer, pending, act, name, marks}) {
  const me = viewer, them = 1 - viewer;
  const items = [];
  const R = 218, r = 118;
  const decision = pending?.decision;
  const legalBy = (k) => (legal || []).filter((a) => a[k] !== undefined);
  const farmerPicks = new Map(legalBy('farmer').map((a) => [a.farmer, a]));
  let focus = null;
  const ring = (seat, cx, cy, labelY) => {
    items.push(s('circle', {cx, cy, r: R + r + 14, class: `ring${state.mover === seat ? ' mover' : ''}`}));
    items.push(s('text', {x: cx, y: labelY, class: `ring-label${state.mover === seat ? ' mover' : ''}`, 'text-anchor': 'middle', 'dominant-baseline': 'central'},
      `${state.mover === seat ? '▶ ' : ''}${t('tanbo.ring_label', {name: name(seat)})}`));
    items.push(s('text', {x: cx, y: cy, class: 'ring-sub', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, t('tanbo.points', {n: state.score[seat]})));
    for (let i = 0; i < 5; ++i) {
      const ang = (-90 + 72 * i) * Math.PI / 180;  // clockwise from the top
      const x = cx + R * Math.cos(ang), y = cy + R * Math.sin(ang);
      const tk = state.rings[seat][i];
      let cls = '', note = '';
      if (state.decision === 'sow' && state.mover === seat && state.cursor === i) { cls += ' cursor'; note = t('tanbo.note.next'); }
      if (state.decision === 'trim' && state.mover === seat && state.trim_paddy === i) { cls += ' trim'; note = t('tanbo.note.too_full'); }
      const mark = markOf(marks, `${seat}:${i}`);
      if (mark === 'last-to' || mark === 'active') focus = {x, y};
      const g = paddy(tk, x, y, r, i, note, cls, mark);
      const a = seat === me ? farmerPicks.get(i) : undefined;
      if (a) svgButton(g, t('tanbo.pick_farmer', {paddy: i + 1, what: tokensText(tk)}), () => act(a));
      else g.append(s('title', {}, t('tanbo.paddy_title', {name: name(seat), paddy: i + 1, what: tokensText(tk)})));
      items.push(g);
    }
  };
  ring(them, 500, 410, 30);
  ring(me, 500, 1240, 1648);
  const y0 = 785;
  items.push(s('rect', {x: 20, y: y0, width: 960, height: 80, rx: 16, class: 'strip'}));
  items.push(s('text', {x: 40, y: y0 + 48, class: 'strip-label'}, t('tanbo.bag')));
  RICE.forEach((c, i) => {
    const x = 150 + i * 95;
    items.push(riceIcon(c, x, y0 + 40, 14));
    items.push(s('text', {x: x + 22, y: y0 + 40, class: 'n', 'dominant-baseline': 'central'}, state.bag[c]));
  });
  items.push(s('text', {x: 430, y: y0 + 48, class: 'strip-label'}, t('tanbo.pool')));
  items.push(snakeIcon(615, y0 + 40));
  items.push(s('text', {x: 640, y: y0 + 40, class: 'n', 'dominant-baseline': 'central'}, state.pool));
  items.push(s('text', {x: 710, y: y0 + 48, class: 'strip-label'}, t('tanbo.score_pair', {a: state.score[me], b: state.score[them]})));
  const svg = s('svg', {viewBox: '0 0 1000 1680', class: 'board-svg tanbo', role: 'group',
    'aria-label': t('tanbo.board_label', {them: name(them), me: name(me), bag: riceText(state.bag), pool: state.pool,
                                          a: state.score[0], b: state.score[1]})}, items);

  // The stop counts rounds (a turn each), as the option and the rules do; the state counts turns.
  const facts = [h('ul', {class: 'facts'},
    h('li', {}, t('tanbo.fact.scores', {a: name(0), sa: state.score[0], b: name(1), sb: state.score[1]})),
    h('li', {}, t('tanbo.fact.bag', {bag: riceText(state.bag), n: state.pool})),
    h('li', {}, t('tanbo.fact.turn', {n: state.turn, quiet: Math.floor(state.quiet_turns / 2), stall: state.stall_turns / 2})),
    state.decision === 'sow' ? h('li', {}, t('tanbo.fact.hand', {what: tokensText(state.hand), paddy: state.cursor + 1})) : null)];
  const controls = [];
  let hint = null;
  if (legal) {
    const buttons = (items, label) => h('div', {class: 'choice-row', role: 'group', 'aria-label': label},
      items.map((a) => h('button', {type: 'button', class: 'primary', 'data-action': Object.keys(a)[0], onclick: () => act(a)}, describeAction(a))));
    if (decision === 'place_farmer') hint = t('tanbo.hint.farmer');
    if (decision === 'sow') {
      hint = t('tanbo.hint.sow', {what: tokensText(state.hand), paddy: state.cursor + 1});
      controls.push(h('div', {class: 'choice-row', role: 'group', 'aria-label': t('tanbo.group.sow')},
        legalBy('sow').map((a) => {
          const n = a.sow === 'snake' ? state.hand.snakes : a.sow === 'farmer' ? 1 : state.hand[a.sow];
          return h('button', {type: 'button', class: `primary token-${a.sow}`, 'data-action': `sow-${a.sow}`, onclick: () => act(a)},
            a.sow === 'farmer' ? t('tanbo.button.sow_farmer') : t('tanbo.button.sow', {token: tokenText(a.sow), n}));
        })));
    }
    if (decision === 'harvest') { hint = t('tanbo.hint.harvest', {n: state.to_move}); controls.push(buttons(legalBy('harvest'), t('tanbo.group.harvest'))); }
    if (decision === 'rest') { hint = t('tanbo.hint.rest', {n: state.to_move}); controls.push(buttons(legalBy('return'), t('tanbo.group.rest'))); }
    if (decision === 'trim') { hint = t('tanbo.hint.trim', {paddy: state.trim_paddy + 1, n: state.to_move}); controls.push(buttons(legalBy('trim'), t('tanbo.group.trim'))); }
    if (decision === 'swap') controls.push(swapPicker(legalBy('swap'), act));
  }
  return {svg, facts, controls, hint, minPick: 2 * r, focus};
}

// The swap in two steps: a first token, then a partner among the legal ones.
// T4 E: the swapper's own ring (the mover's opponent's), drawn at the bottom for them.
function swapPicker(swaps, act) {
  const key = (e) => `${e.paddy}:${e.token}`;
  const label = (e) => t('tanbo.swap.token', {token: tokenText(e.token), paddy: e.paddy + 1});
  const box = h('div', {class: 'swap', role: 'group', 'aria-label': t('tanbo.group.swap')});
  const firsts = new Map();
  for (const a of swaps) for (const e of a.swap) firsts.set(key(e), e);
  const step1 = () => {
    box.replaceChildren(h('p', {}, t('tanbo.swap.first')),
      h('div', {class: 'choice-row'}, [...firsts.values()].map((e) =>
        h('button', {type: 'button', 'data-swap-first': key(e), onclick: () => step2(e)}, label(e)))));
  };
  const step2 = (first) => {
    const partners = swaps.filter((a) => a.swap.some((e) => key(e) === key(first)));
    box.replaceChildren(h('p', {}, t('tanbo.swap.second', {token: label(first)})),
      h('div', {class: 'choice-row'}, partners.map((a) => {
        const other = a.swap.find((e) => key(e) !== key(first)) || a.swap[1];
        return h('button', {type: 'button', class: 'primary', 'data-swap-second': key(other), onclick: () => act(a)}, label(other));
      }), h('button', {type: 'button', onclick: step1}, t('tanbo.swap.back'))));
    box.querySelector('button')?.focus();
  };
  step1();
  return box;
}

export default {decisions, render, describeAction, describeEvent, lastMove, plan};

// Tanbo's motion and last move. plan() replays a step's events on a copy of the previous state,
// one frame per thing a player would see happen at the table: the hand picked up, each token
// put down, the action the last paddy names, each rice drawn from the bag, a harvest, a paddy
// cleared, snakes brought back, the Farmer resting, rice given back, the opponent's swap, a
// trim. The room then draws the server's state as the truth. lastMove() names the paddies the
// last move started from and ended in.
import {FIELD, RICE} from './tokens.js';

const key = (seat, paddy) => `${seat}:${paddy}`;
const emptyPaddy = () => ({snakes: 0, yellow: 0, black: 0, red: 0, farmer: false});

// The paddies the last move started from (the hand picked up) and ended in (the last token put
// down, the paddy harvested or trimmed, the Farmer placed, the two paddies of a swap). A turn
// begun by the step (its Farmer's paddy picked up at once) is the next player's, not the move's;
// a hand picked up counts once a token of it is put down (the pick-up after a swap is the
// mover's next sowing, not the swap).
export function lastMove(events) {
  let from = null, to = null, picked = null;
  for (const ev of events || []) {
    if (ev.type === 'turn' && to) break;
    switch (ev.type) {
      case 'farmer_placed': from = null; to = key(ev.seat, ev.paddy); break;
      case 'pick_up': picked = key(ev.seat, ev.paddy); break;
      case 'sow':
        if (picked) { from = picked; picked = null; }
        to = key(ev.seat, ev.paddy);
        break;
      case 'harvest': case 'trim': to = key(ev.seat, ev.paddy); break;
      case 'swap': from = key(ev.seat, ev.swap[0].paddy); to = key(ev.seat, ev.swap[1].paddy); break;
      default: break;
    }
  }
  return from || to ? {from, to} : null;
}

// Adds (sign +1) or removes (-1) a lot of tokens {snakes, yellow, ...} to a paddy or a pile.
function move(into, tokens, sign) {
  for (const k of ['snakes', ...RICE]) if (tokens[k] !== undefined && into[k] !== undefined) into[k] = Math.max(0, into[k] + sign * tokens[k]);
}

export function plan(prev, next, events) {
  if (!prev?.rings || !next?.rings) return [];
  const st = structuredClone(prev);
  st.hand ??= {...emptyPaddy()};
  let mover = st.mover ?? 0;
  const frames = [];
  const frame = (marks, sound, hold) => frames.push({state: structuredClone(st), marks, sound, hold});
  const paddy = (seat, i) => (st.rings[seat][i] ??= emptyPaddy());
  for (const ev of events || []) {
    const seat = ev.seat ?? mover;
    switch (ev.type) {
      case 'turn':
        mover = ev.seat;
        st.mover = ev.seat;
        st.seat = ev.seat;
        st.applied = [];
        break;
      case 'farmer_placed':
        paddy(ev.seat, ev.paddy).farmer = true;
        frame({to: key(ev.seat, ev.paddy)}, 'place', 2);
        break;
      case 'pick_up': {
        const p = paddy(ev.seat, ev.paddy);
        st.hand = {snakes: p.snakes, yellow: p.yellow, black: p.black, red: p.red, farmer: p.farmer};
        st.rings[ev.seat][ev.paddy] = emptyPaddy();
        st.decision = 'sow';
        st.seat = ev.seat;
        st.cursor = (ev.paddy + 1) % 5;
        frame({active: key(ev.seat, ev.paddy)}, 'stone', 2);
        break;
      }
      case 'sow': {
        const p = paddy(ev.seat, ev.paddy);
        const f = FIELD[ev.token];
        if (ev.token === 'farmer') { p.farmer = true; st.hand.farmer = false; }
        else if (f) { p[f]++; st.hand[f] = Math.max(0, st.hand[f] - 1); }
        st.cursor = (ev.paddy + 1) % 5;
        st.last = ev.paddy;
        frame({active: key(ev.seat, ev.paddy)}, 'stone');
        break;
      }
      case 'paddy_action':
        st.decision = null;
        frame({active: key(seat, ev.paddy), note: {key: key(seat, ev.paddy), letter: ev.letter}}, null, 3);
        break;
      case 'draw':
        if (st.bag?.[ev.colour] !== undefined) st.bag[ev.colour] = Math.max(0, st.bag[ev.colour] - 1);
        paddy(mover, ev.paddy)[ev.colour]++;
        frame({active: key(mover, ev.paddy)}, 'stone');
        break;
      case 'harvest':
        move(paddy(ev.seat, ev.paddy), ev.rice, -1);
        if (st.harvest?.[ev.seat]) move(st.harvest[ev.seat], ev.rice, +1);
        if (st.score) st.score[ev.seat] = ev.score;
        frame({active: key(ev.seat, ev.paddy)}, 'capture', 3);
        break;
      case 'clear': {
        const p = paddy(mover, ev.paddy);
        st.pool = (st.pool ?? 0) + (ev.tokens.snakes || 0);
        if (st.bag) move(st.bag, ev.tokens, +1);
        st.rings[mover][ev.paddy] = {...emptyPaddy(), farmer: p.farmer};
        frame({active: key(mover, ev.paddy)}, 'capture', 2);
        break;
      }
      case 'add_snakes':
        st.pool = Math.max(0, (st.pool ?? 0) - ev.count);
        paddy(mover, ev.paddy).snakes += ev.count;
        frame({active: key(mover, ev.paddy)}, 'stone', 2);
        break;
      case 'rest':
        paddy(ev.seat, ev.from).farmer = false;
        paddy(ev.seat, ev.to).farmer = true;
        frame({from: key(ev.seat, ev.from), active: key(ev.seat, ev.to)}, 'stone', 3);
        break;
      case 'return':
        if (st.harvest?.[ev.seat]) move(st.harvest[ev.seat], ev.rice, -1);
        if (st.bag) move(st.bag, ev.rice, +1);
        if (st.score) st.score[ev.seat] = ev.score;
        frame({}, 'capture', 2);
        break;
      case 'swap': {
        const [a, b] = ev.swap;
        const pa = paddy(ev.seat, a.paddy), pb = paddy(ev.seat, b.paddy);
        const take = (p, tk, d) => { if (tk === 'farmer') p.farmer = d > 0; else p[FIELD[tk]] += d; };
        take(pa, a.token, -1); take(pa, b.token, +1);
        take(pb, b.token, -1); take(pb, a.token, +1);
        frame({from: key(ev.seat, a.paddy), to: key(ev.seat, b.paddy)}, 'place', 3);
        break;
      }
      case 'trim':
        move(paddy(ev.seat, ev.paddy), ev.tokens, -1);
        st.pool = (st.pool ?? 0) + (ev.tokens.snakes || 0);
        if (st.bag) move(st.bag, ev.tokens, +1);
        frame({active: key(ev.seat, ev.paddy)}, 'capture', 2);
        break;
      default: break;
    }
  }
  return frames;
}

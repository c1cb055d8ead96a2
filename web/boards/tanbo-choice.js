// The player's choice in progress on the Tanbo board, for the decisions that take more than one
// tap: the colours of a harvest or a rest, what a trim removes, and the two tokens of a swap.
// Everything here is read from the legal list, the single source of what may be tapped: a token
// can be chosen only while some legal action still contains the choice with it, and the confirm
// exists only when the choice is exactly one legal action, which is what gets sent.
import {POINTS, RICE} from './tokens.js';

const TRIM_KINDS = ['snake', 'yellow', 'black', 'red'];

// The counts per kind an action of a colour decision names, with its kinds and its source: the
// paddy P (harvest), the trimmed paddy (trim) or the mover's harvest (rest).
function countsOf(decision, a) {
  if (decision === 'harvest' && a.harvest) return {...a.harvest};
  if (decision === 'rest' && a.return) return {...a.return};
  if (decision === 'trim' && a.trim) return {snake: a.trim.snakes, yellow: a.trim.yellow, black: a.trim.black, red: a.trim.red};
  return null;
}

const total = (c) => Object.values(c).reduce((n, v) => n + v, 0);
const points = (c) => RICE.reduce((n, k) => n + (c[k] || 0) * POINTS[k], 0);

// A colour choice: `sel` the counts chosen so far. The publisher advises harvesting the most
// valuable rice and giving back the least valuable (T9): those start chosen, to be confirmed or
// changed; a trim starts empty, the rules advising nothing.
export class CountChoice {
  constructor(decision, legal) {
    this.decision = decision;
    this.kinds = decision === 'trim' ? TRIM_KINDS : RICE;
    this.options = (legal || []).map((a) => ({counts: countsOf(decision, a), action: a})).filter((o) => o.counts);
    this.need = this.options.length ? total(this.options[0].counts) : 0;
    this.sel = Object.fromEntries(this.kinds.map((k) => [k, 0]));
    if (decision === 'harvest' || decision === 'rest') {
      const best = [...this.options].sort((a, b) => decision === 'harvest' ? points(b.counts) - points(a.counts) : points(a.counts) - points(b.counts))[0];
      if (best) this.sel = {...this.sel, ...best.counts};
    }
  }

  get chosen() { return total(this.sel); }

  // One more of `kind` keeps the choice inside some legal action (a kind the decision does not
  // deal in never does: a harvest takes no snake).
  canAdd(kind) {
    if (!this.kinds.includes(kind) || this.chosen >= this.need) return false;
    return this.options.some((o) => this.kinds.every((k) => o.counts[k] >= this.sel[k] + (k === kind ? 1 : 0)));
  }

  canRemove(kind) { return this.sel[kind] > 0; }

  add(kind) { if (this.canAdd(kind)) this.sel[kind]++; }
  remove(kind) { if (this.canRemove(kind)) this.sel[kind]--; }

  // The legal action the choice is, once complete.
  action() {
    const o = this.options.find((o) => this.kinds.every((k) => o.counts[k] === this.sel[k]));
    return o ? o.action : null;
  }
}

const sideKey = (e) => `${e.paddy}:${e.token}`;

// The swap (T4 E): a first token, then its partner in another paddy, then the confirm. Every
// token in some legal pair can be first; the partners are those the legal list pairs with it.
export class SwapChoice {
  constructor(legal) {
    this.pairs = (legal || []).filter((a) => Array.isArray(a.swap));
    this.first = null;   // {paddy, token}
    this.second = null;
  }

  // The tokens that may be tapped now, as "paddy:token" keys, and what a tap on each does.
  targets() {
    const out = new Map();
    if (!this.first) {
      for (const a of this.pairs) for (const e of a.swap) out.set(sideKey(e), 'first');
      return out;
    }
    out.set(sideKey(this.first), 'unselect');
    if (this.second) {
      out.set(sideKey(this.second), 'unselect-second');
      return out;
    }
    for (const a of this.pairs) {
      const i = a.swap.findIndex((e) => sideKey(e) === sideKey(this.first));
      if (i >= 0) out.set(sideKey(a.swap[1 - i]), 'second');
    }
    return out;
  }

  tap(e) {
    const what = this.targets().get(sideKey(e));
    if (what === 'first') this.first = e;
    else if (what === 'second') this.second = e;
    else if (what === 'unselect') { this.first = this.second; this.second = null; }
    else if (what === 'unselect-second') this.second = null;
  }

  action() {
    if (!this.first || !this.second) return null;
    const keys = new Set([sideKey(this.first), sideKey(this.second)]);
    return this.pairs.find((a) => a.swap.every((e) => keys.has(sideKey(e)))) || null;
  }
}

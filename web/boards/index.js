// One module per game: render(view) -> {svg, facts, controls, hint, minPick, focus},
// describeAction, describeEvent, lastMove(events, state) -> marks, plan(prev, next, events)
// -> animation frames, and the decision kinds it knows.
import mancala from './mancala.js';
import tanbo from './tanbo.js';
import steere from './steere.js';
import tsoro from './tsoro.js';

const BOARDS = {'mancala-simple': mancala, tanbo, 'steere-tanbo': steere, tsoro};

const generic = {
  decisions: [],
  render({state}) {
    const pre = document.createElement('pre');
    pre.textContent = JSON.stringify(state, null, 1);
    return {svg: pre, facts: [], controls: [], hint: null, minPick: 44, focus: null};
  },
  describeAction: (a) => JSON.stringify(a),
  describeEvent: () => null,
  lastMove: () => null,
  plan: () => [],
};

export function boardFor(game) { return BOARDS[game] || generic; }

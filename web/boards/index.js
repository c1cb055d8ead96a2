// One module per game: render(view) -> {svg, controls}, describeAction, describeEvent, decisions.
import mancala from './mancala.js';
import tanbo from './tanbo.js';
import steere from './steere.js';
import tsoro from './tsoro.js';

const BOARDS = {'mancala-simple': mancala, tanbo, 'steere-tanbo': steere, tsoro};

const generic = {
  decisions: {},
  render({state}) {
    const pre = document.createElement('pre');
    pre.textContent = JSON.stringify(state, null, 1);
    return {svg: pre, controls: []};
  },
  describeAction: (a) => JSON.stringify(a),
  describeEvent: () => null,
};

export function boardFor(game) { return BOARDS[game] || generic; }

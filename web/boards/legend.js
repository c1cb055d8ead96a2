// The line under a board that says what its marks mean, each drawn as the board draws it: the
// targets one may tap (green), where the last move started (orange, dashed) and where it ended
// (orange, solid). Steere's Tanbo has no start: its last stone placed is ringed. A replay has
// nothing to tap: `play` false leaves the green out.
import {h} from '../util.js';
import {t} from '../i18n/index.js';

const SOWING = new Set(['mancala-simple', 'tsoro']);

// One swatch: a small picture of the mark in CSS (css/marks.css), in the board's colours; not
// SVG, so that the board stays the one picture in #board.
function swatch(kind, game) {
  const shape = game === 'tanbo' ? 'paddy' : game === 'steere-tanbo' ? 'point' : 'hole';
  return h('span', {class: `legend-swatch ${shape} ${kind}`, 'aria-hidden': 'true'});
}

// The legend of `game`'s board, or null for a board that marks nothing.
export function boardLegend(game, {play = true} = {}) {
  if (!SOWING.has(game) && game !== 'tanbo' && game !== 'steere-tanbo') return null;
  const item = (kind, words) => h('span', {class: 'legend-item', 'data-mark': kind}, swatch(kind, game), words);
  // Two groups, each kept on one line: what one may play; the last move, start and end together.
  const last = game === 'steere-tanbo' ? [item('last-to', t('legend.placed'))]
    : [item('last-from', t('legend.from')), item('last-to', t('legend.to'))];
  return h('p', {class: 'board-legend', 'data-game': game},
    play ? h('span', {class: 'legend-group'}, item('play', t('legend.play'))) : null,
    h('span', {class: 'legend-group'}, last));
}

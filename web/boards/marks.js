// What the boards mark besides the position: the last move (where it came from, where it
// ended, what it removed) and, while an animation plays, the pit or point just reached.
import {h, s} from '../util.js';
import {t} from '../i18n/index.js';

// A ring round (x, y) of radius r for the mark `kind`: last-from, last-to, active, removed.
export function markRing(kind, x, y, r) {
  return s('circle', {cx: x, cy: y, r, class: `mark ${kind}`, 'aria-hidden': 'true'});
}

// The same mark as an outline of any shape (a paddy's wedge, say), given as a path.
export function markPath(kind, d) {
  return s('path', {d, class: `mark ${kind}`, 'aria-hidden': 'true'});
}

// A transparent square centred on (x, y) that takes the click or tap: the pick is at least as
// large as `size` whatever is drawn inside it.
export function hitArea(x, y, w, hgt = w) {
  return s('rect', {x: x - w / 2, y: y - hgt / 2, width: w, height: hgt, class: 'hit'});
}

// The kind of mark a key carries in `marks`, or null.
export function markOf(marks, key) {
  if (!marks) return null;
  if (marks.active === key) return 'active';
  if (marks.to === key) return 'last-to';
  if (marks.from === key) return 'last-from';
  if (marks.removed?.has?.(key)) return 'removed';
  return null;
}

// The line under a board that says what its marks mean, each drawn as the board draws it: the
// targets one may tap (green), where the last move started (orange, dashed) and where it ended
// (orange, solid). Steere's Tanbo has no start: its last stone placed is ringed. A replay has
// nothing to tap: `play` false leaves the green out.
const SOWING = new Set(['mancala-simple', 'tsoro']);

// One swatch: a small picture of the mark in CSS (style.css, the legend), in the board's colours; not
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

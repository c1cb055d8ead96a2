// What the boards mark besides the position: the last move (where it came from, where it
// ended, what it removed) and, while an animation plays, the pit or point just reached.
import {s} from '../util.js';

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

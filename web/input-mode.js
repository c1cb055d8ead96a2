// How the player moves about the page: by keys or by pointer. The boards ring the focused target
// only while the keys are in use (`<html data-keys>`), since the room itself moves focus to a
// decision's first target: a ring there after a tap, or after a line typed in the chat, would
// read as a mark of the game. Browsers' :focus-visible guesses the same, but shows after typing
// in a field; here only keys that move about the page count (Tab, arrows, Enter and Space
// outside a text field), and any pointer press ends it.
const MOVING = new Set(['Tab', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Enter', ' ', 'Home', 'End']);

function typing(el) {
  return !!el?.closest?.('input:not([type=checkbox]):not([type=radio]), textarea, select, [contenteditable]');
}

export function trackInputMode(doc = document) {
  const root = doc.documentElement;
  doc.addEventListener('keydown', (e) => {
    if (MOVING.has(e.key) && (e.key === 'Tab' || !typing(e.target))) root.dataset.keys = '';
  }, true);
  doc.addEventListener('pointerdown', () => { delete root.dataset.keys; }, true);
}

// The dock: what follows the player from page to page, fixed at the bottom (on a phone at the
// top while the decision bar holds the bottom): Play now's waiting panel and the challenges. It
// disables nothing; the page keeps room for it (--dock-h). `announce` speaks to screen readers.
import {h} from './util.js';

let dockEl = null;
const parts = [];

export function dockPart(name) {
  const el = h('div', {class: `dock-part dock-${name}`});
  parts.push(el);
  if (dockEl) dockEl.append(el);
  return el;
}

export function initDock() {
  dockEl = document.getElementById('dock');
  dockEl.append(...parts);
  new ResizeObserver(() => {
    const height = dockEl.hidden ? 0 : dockEl.getBoundingClientRect().height;
    document.documentElement.style.setProperty('--dock-h', `${Math.ceil(height)}px`);
  }).observe(dockEl);
  refreshDock();
}

// Shows the dock when some part has something in it.
export function refreshDock() {
  if (!dockEl) return;
  const empty = parts.every((p) => !p.childElementCount);
  dockEl.hidden = empty;
  if (empty) document.documentElement.style.setProperty('--dock-h', '0px');
}

export function announce(text) {
  const el = document.getElementById('announce');
  if (!el) return;
  el.textContent = '';
  // A change of text after a frame is read even when the same sentence comes twice.
  requestAnimationFrame(() => { el.textContent = text; });
}

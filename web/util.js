// Small DOM and text helpers shared by every view.
export const SVG_NS = 'http://www.w3.org/2000/svg';

// h('button', {class: 'x', onclick: f}, 'text', child): an HTML element.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

// s('circle', {cx: 1}): an SVG element.
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

// Makes an SVG group behave as a button: the whole group takes the click; its hit area (or
// its background shape) is the focusable button named for readers, so the numbers drawn in the
// group are not read as part of the button's name.
export function svgButton(g, label, onActivate) {
  g.classList.add('pick');
  const target = g.querySelector('.hit, .paddy-bg') || g;
  target.setAttribute('role', 'button');
  target.setAttribute('tabindex', '0');
  target.setAttribute('aria-label', label);
  g.append(s('title', {}, label));
  g.addEventListener('click', onActivate);
  target.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onActivate(e);
    }
  });
  return g;
}

// Stable JSON for comparing actions: same members, any order.
export function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

// An HTTP API refusal ({"error": {code, message}}) as an Error carrying its code, like a
// WebSocket one, so that words.js can say it in the reader's words.
export function apiError(body, res) {
  const err = new Error(body?.error?.message || res.statusText);
  err.code = body?.error?.code || `http_${res.status}`;
  return err;
}

// A passing message; `extra` (a node, such as a refusal's folded server words) follows the text,
// and the message stays while the reader has it open or the pointer or focus is on it.
let toastTimer = null;
export function toast(text, extra = null) {
  const el = document.getElementById('toast');
  if (!el) return;
  el.replaceChildren(text, ...(extra ? [' ', extra] : []));
  el.hidden = false;
  clearTimeout(toastTimer);
  // It stays while it is read: its fold open, focus in it, or a mouse over it, for half a minute
  // at most (a pointer left resting where toasts appear would keep them forever). A touch screen's
  // hover is only the last tap: it keeps nothing.
  const until = Date.now() + 30000;
  const hover = matchMedia('(hover: hover)').matches;
  const hide = () => {
    const read = el.querySelector('details[open]') || el.matches(':focus-within') ||
      (hover && el.matches(':hover') && Date.now() < until);
    if (read) toastTimer = setTimeout(hide, 2000);
    else el.hidden = true;
  };
  toastTimer = setTimeout(hide, 5000);
}

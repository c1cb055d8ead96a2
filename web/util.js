// Small DOM and text helpers shared by every view.
import {t} from './i18n/index.js';

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

// A passing message; `extra` (a node, such as a refusal's folded server words) follows the text.
// It shows six seconds, or until its ✕; while read (its fold open, focus in it, a mouse moved onto
// it) up to half a minute. Never over a modal dialog, whose time does not count. At the foot
// (style.css), clear of the controls it would cover (`lift`).
const TOAST_MS = 6000;
const TOAST_TICK = 250;
let toastTimer = null;
let lifted = null;  // {by, to}: how far `lift` scrolled, to where
let up = false;     // lifted since it showed, a dialog closed or the page changed
let sizes = null;
let changes = null;
export function toast(text, extra = null) {
  const el = document.getElementById('toast');
  if (!el) return;
  const hide = () => {
    clearTimeout(toastTimer);
    el.hidden = true;
    sizes.disconnect();
    changes.disconnect();
    if (lifted?.to === scrollY) scrollBy(0, -lifted.by);
    document.body.style.removeProperty('--toast-h');
    lifted = null;
  };
  const close = h('button', {type: 'button', class: 'toast-close', 'aria-label': t('toast.close'), title: t('toast.close'),
    onclick: hide}, '✕');
  el.replaceChildren(h('span', {class: 'toast-text'}, text, ...(extra ? [' ', extra] : [])), close);
  el.hidden = false;
  clearTimeout(toastTimer);
  let seen = 0;        // how long the reader could see it
  let moved = false;   // a mouse moved onto it since it showed
  el.onpointermove = (e) => { if (e.pointerType === 'mouse') moved = true; };
  const until = Date.now() + 30000;
  const hover = matchMedia('(hover: hover)').matches;
  up = false;
  (sizes ??= new ResizeObserver(() => { up = false; })).observe(document.body);
  // A chat line or a move drawn can move a control under it, the page's height unchanged.
  (changes ??= new MutationObserver(() => { up = false; })).observe(document.getElementById('main') ?? document.body,
    {childList: true, subtree: true});
  const step = () => {
    if (document.querySelector('dialog:modal')) up = false;
    else {
      if (!up) { up = true; lift(el); }
      seen += TOAST_TICK;
    }
    const read = el.querySelector('details[open]') || el.matches(':focus-within') ||
      (hover && moved && el.matches(':hover') && Date.now() < until);
    if (seen < TOAST_MS || read) toastTimer = setTimeout(step, TOAST_TICK);
    else hide();
  };
  step();
}

// The page's own scrolling, not the reader's (a wheel, a key, a touch, the scroll bar), is
// lifted again.
let hand = 0;
for (const k of ['wheel', 'keydown', 'pointerdown', 'touchstart']) addEventListener(k, () => { hand = Date.now(); }, true);
addEventListener('scroll', () => {
  const el = document.getElementById('toast');
  if (up && !el.hidden && Date.now() - hand > 1000) lift(el);
});

// A control under the toast is lifted above it, the page scrolling into room kept below: on a wide
// screen any of the room's; on a phone, which it spans, the chat's (the last part: any other would
// scroll the board away), and none the pinned decision bar hides.
const CONTROLS = ':is(a[href],button,input,select,textarea,summary,label,[tabindex="0"])';
function lift(el) {
  const wide = innerWidth >= 900;
  const box = el.getBoundingClientRect();
  const bar = wide ? null : document.querySelector('#controls.active');
  const foot = bar ? bar.getBoundingClientRect().top : innerHeight;
  if (box.top >= foot - 1) return;
  document.body.style.setProperty('--toast-h', `${innerHeight - box.top}px`);
  const from = scrollY;
  for (let y; y !== scrollY;) {
    y = scrollY;
    const under = [...document.querySelectorAll(`#main ${wide ? '' : '.chat '}${CONTROLS}`)]
      .filter((c) => c.checkVisibility()).map((c) => c.getBoundingClientRect())
      .filter((r) => r.left < box.right && r.right > box.left && r.top < Math.min(box.bottom, foot) && r.bottom > box.top);
    if (under.length) scrollBy(0, Math.max(...under.map((r) => r.bottom)) - box.top + 8);
  }
  if (scrollY !== from) lifted = {by: scrollY - from + (lifted?.by || 0), to: scrollY};
}

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

// The board's viewport. A board whose picks would be smaller than a finger (44 CSS pixels) at
// the width of a phone is drawn larger inside a scrolling area (pan with a finger, the
// scrollbars or the keyboard: focus scrolls a pick into view), centred on the area of interest
// (the last move, else a pick), with a minimap showing which part is in view (tap it to go
// there) and buttons to zoom in, out and back to the whole board.
import {h, s} from './util.js';
import {t} from './i18n/index.js';

const TARGET_PX = 46;
const narrowScreen = matchMedia('(max-width: 760px), (pointer: coarse)');

export class BoardViewport {
  constructor() {
    /** @type {null | 'fit' | number} */
    this.userScale = null;
    this.el = h('div', {class: 'viewport'});
    this.scroller = h('div', {class: 'board-scroll'});
    // The minimap is a pointer convenience; keyboard users pan by moving focus.
    this.minimap = h('div', {class: 'minimap', hidden: true, 'aria-hidden': 'true'});
    this.zoomIn = h('button', {type: 'button', class: 'zoom-btn', onclick: () => this.rescale(1.3)}, '+');
    this.zoomOut = h('button', {type: 'button', class: 'zoom-btn', onclick: () => this.rescale(1 / 1.3)}, '−');
    this.fit = h('button', {type: 'button', class: 'zoom-btn fit', onclick: () => { this.userScale = 'fit'; this.layout(true); }});
    this.nav = h('div', {class: 'board-nav', hidden: true}, this.minimap, this.zoomOut, this.zoomIn, this.fit);
    this.el.append(this.nav, this.scroller);
    this.scroller.addEventListener('scroll', () => this.drawWindow(), {passive: true});
    this.minimap.addEventListener('click', (e) => this.jump(e));
    this.out = null;
    window.addEventListener('resize', () => this.out && this.layout(false));
    // Boards laid out for the space below their top (web/boards/fit.js) are drawn again when
    // that space changes: the window resized, or a line added above the board (the header's,
    // the seats'). `onSpace` is the owner's redraw.
    this.onSpace = null;
    this.top = null;
    const moved = () => {
      if (!this.out?.svg?.isConnected) return;
      const top = Math.round(this.el.getBoundingClientRect().top + scrollY), height = innerHeight;
      if (this.top && (top !== this.top.top || height !== this.top.height)) this.onSpace?.();
      this.top = {top, height};
    };
    window.addEventListener('resize', moved);
    new ResizeObserver(moved).observe(document.body);
    this.relabel();
  }

  relabel() {
    this.zoomIn.setAttribute('aria-label', t('zoom.in'));
    this.zoomOut.setAttribute('aria-label', t('zoom.out'));
    this.fit.textContent = t('zoom.fit');
  }

  // Shows a rendered board; `refocus` (a new position, not an animation frame) scrolls to its
  // area of interest.
  show(out, refocus) {
    this.out = out;
    this.scroller.replaceChildren(out.svg);
    this.top = this.el.isConnected ? {top: Math.round(this.el.getBoundingClientRect().top + scrollY), height: innerHeight} : null;
    this.layout(refocus);
  }

  viewBox() { return this.out?.svg?.viewBox?.baseVal; }

  layout(refocus) {
    const vb = this.viewBox();
    const svg = this.out.svg;
    if (!vb || !vb.width) return;
    const width = this.scroller.clientWidth || this.el.clientWidth;
    if (!width) return;
    const fit = width / vb.width;
    const needed = TARGET_PX / (this.out.minPick || TARGET_PX);
    let scale = fit;
    if (this.userScale === null) scale = narrowScreen.matches && fit < needed ? needed : fit;
    else if (this.userScale !== 'fit') scale = this.userScale;
    const zoomed = scale > fit * 1.02;
    this.scale = scale;
    this.el.classList.toggle('zoomed', zoomed);
    // A scrolling board is reachable by keyboard even when it holds nothing to pick.
    if (zoomed) {
      this.scroller.setAttribute('tabindex', '0');
      this.scroller.setAttribute('role', 'group');
      this.scroller.setAttribute('aria-label', t('zoom.region'));
    } else {
      for (const a of ['tabindex', 'role', 'aria-label']) this.scroller.removeAttribute(a);
    }
    svg.style.width = zoomed ? `${vb.width * scale}px` : '';
    svg.style.height = zoomed ? `${vb.height * scale}px` : '';
    svg.style.maxHeight = zoomed ? 'none' : '';
    this.nav.hidden = !(zoomed || (narrowScreen.matches && fit < needed));
    this.minimap.hidden = !zoomed;
    if (zoomed) {
      this.drawMinimap();
      if (refocus && this.out.focus) this.centre(this.out.focus);
    } else this.minimap.replaceChildren();  // no stale copy of an earlier board left in the page
  }

  rescale(factor) {
    const vb = this.viewBox();
    if (!vb) return;
    const fit = (this.scroller.clientWidth || 1) / vb.width;
    const current = this.scale || fit;
    this.userScale = Math.max(fit, Math.min(current * factor, 4 * fit, 3));
    const cx = (this.scroller.scrollLeft + this.scroller.clientWidth / 2) / current;
    const cy = (this.scroller.scrollTop + this.scroller.clientHeight / 2) / current;
    this.layout(false);
    this.centre({x: cx + vb.x, y: cy + vb.y});
  }

  centre(p) {
    const vb = this.viewBox();
    this.scroller.scrollLeft = (p.x - vb.x) * this.scale - this.scroller.clientWidth / 2;
    this.scroller.scrollTop = (p.y - vb.y) * this.scale - this.scroller.clientHeight / 2;
    this.drawWindow();
  }

  drawMinimap() {
    const vb = this.viewBox();
    const copy = this.out.svg.cloneNode(true);
    // A picture only: no focus, no names, no data or pick classes a script might look for.
    for (const el of copy.querySelectorAll('*')) {
      if (el.tagName === 'title') { el.remove(); continue; }
      for (const a of [...el.attributes]) if (/^(data-|aria-|role$|tabindex$)/.test(a.name)) el.removeAttribute(a.name);
      el.classList.remove('pick');
    }
    copy.removeAttribute('role');
    copy.removeAttribute('aria-label');
    copy.setAttribute('aria-hidden', 'true');
    copy.style.width = '';
    copy.style.height = '';
    copy.setAttribute('class', 'minimap-svg');
    this.window = s('rect', {class: 'minimap-window', x: vb.x, y: vb.y, width: vb.width, height: vb.height});
    copy.append(this.window);
    // The minimap keeps the board's proportions, 3.5rem high and at most 9rem wide.
    this.minimap.style.width = `${Math.min(9, 3.5 * vb.width / vb.height).toFixed(2)}rem`;
    this.minimap.replaceChildren(copy);
    this.drawWindow();
  }

  drawWindow() {
    if (!this.window || this.minimap.hidden) return;
    const vb = this.viewBox();
    const sc = this.scale;
    this.window.setAttribute('x', vb.x + this.scroller.scrollLeft / sc);
    this.window.setAttribute('y', vb.y + this.scroller.scrollTop / sc);
    this.window.setAttribute('width', Math.min(vb.width, this.scroller.clientWidth / sc));
    this.window.setAttribute('height', Math.min(vb.height, this.scroller.clientHeight / sc));
  }

  jump(e) {
    const vb = this.viewBox();
    const box = this.minimap.firstElementChild?.getBoundingClientRect();
    if (!vb || !box?.width) return;
    const k = Math.min(box.width / vb.width, box.height / vb.height);
    const ox = box.left + (box.width - vb.width * k) / 2, oy = box.top + (box.height - vb.height * k) / 2;
    this.centre({x: vb.x + (e.clientX - ox) / k, y: vb.y + (e.clientY - oy) / k});
  }
}

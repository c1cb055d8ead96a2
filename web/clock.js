// The per-decision clock of a timed room (state.clock: seat, deadline, left), shown to everyone
// in the room, spectators included: on the deciding seat and beside the banner. It counts down
// from `left` (ms at the time the state was sent) with the page's own monotonic clock, so a
// skewed system clock does not matter.
import {h} from './util.js';
import {t} from './i18n/index.js';
import {icon} from './icons.js';

export class Clock {
  constructor() {
    this.deadline = null;
    this.seat = null;
    this.timer = setInterval(() => this.tick(), 250);
    this.root = null;
  }

  // Called with every state: a new clock replaces the old one, none hides it.
  update(clock, root) {
    this.root = root;
    this.seat = clock ? clock.seat : null;
    this.deadline = clock ? performance.now() + clock.left : null;
    this.tick();
  }

  // A placeholder the tick fills in: the icon and the seconds left.
  element() {
    return h('span', {class: 'clock', 'data-clock': ''}, icon('clock'), h('span', {class: 'clock-text'}));
  }

  secondsLeft() {
    return this.deadline === null ? null : Math.ceil(Math.max(0, this.deadline - performance.now()) / 1000);
  }

  tick() {
    const secs = this.secondsLeft();
    if (secs === null || !this.root) return;
    for (const el of this.root.querySelectorAll('[data-clock]')) {
      el.querySelector('.clock-text').textContent = t('clock.left', {n: secs});
      el.classList.toggle('low', secs <= 10);
    }
  }

  stop() { clearInterval(this.timer); }
}

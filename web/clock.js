// The clocks of a timed room (state.clock), shown to everyone in the room, spectators included.
// - per_decision: the seconds left to the deciding seat, on its seat and beside the banner;
// - clock (a Fischer game clock): every seat's own time beside its seat, the running one ticking
//   down and highlighted, the others fixed; under 10 s a clock shows tenths and turns red;
// - correspondence: the days and hours left to the deciding seat, and its deadline as a local
//   date and time.
// A running time counts down from the server's figure (`left`, or `remaining` of the running
// seat) with the page's own monotonic clock from the moment the state arrived, so a skewed system
// clock does not matter.
import {h} from './util.js';
import {t} from './i18n/index.js';
import {icon} from './icons.js';
import {clockFigure, longLeft, localDate, noteServerTime} from './timectl.js';

const LOW_MS = 10000;

export class Clock {
  // `onLow(seat)`: the running seat's game clock went under 10 s.
  /** @param {{onLow?: (seat: number) => void}} [handlers] */
  constructor({onLow} = {}) {
    this.msg = null;       // the state.clock shown, as received
    this.at = 0;           // performance.now() when it was received
    this.root = null;
    this.onLow = onLow;
    this.lowSeat = null;   // the seat last said to be under 10 s
    this.timer = setInterval(() => this.tick(), 100);
  }

  // Called with every render: a new clock object replaces the old one (its figures count from
  // now), the same one keeps counting, none hides every clock.
  update(clock, root) {
    this.root = root;
    if (clock !== this.msg) {
      this.msg = clock || null;
      this.at = performance.now();
      if (clock) noteServerTime(clock.at);
    }
    this.tick();
  }

  get control() {
    if (!this.msg) return null;
    return this.msg.control || 'per_decision';  // a server before game clocks sent no control
  }

  get running() { return this.msg ? this.msg.seat ?? null : null; }

  // Whether a seat shows a clock: every seat of a game clock, else the deciding seat.
  shows(seat) {
    if (!this.msg) return false;
    if (this.control === 'clock') return Array.isArray(this.msg.remaining) && seat < this.msg.remaining.length;
    return this.running === seat;
  }

  // Whether the banner shows the deciding seat's time (a game clock's are on the seats).
  inBanner() { return !!this.msg && this.control !== 'clock' && this.running !== null; }

  // A placeholder the tick fills in: on a seat (`seat`), or beside the banner (none).
  element(seat = null) {
    const attrs = {class: 'clock', 'data-clock': '', 'data-control': this.control};
    if (seat !== null) attrs['data-clock-seat'] = seat;
    return h('span', attrs, icon('clock'), h('span', {class: 'clock-text'}));
  }

  // The ms left to `seat` now: the running one counted down since the state came.
  leftOf(seat) {
    const c = this.msg;
    if (!c) return null;
    const running = c.seat !== null && c.seat !== undefined && c.seat === seat;
    let base;
    if (this.control === 'clock') base = c.remaining?.[seat] ?? (running ? c.left : null);
    else base = running ? c.left : null;
    if (base === null || base === undefined) return null;
    return running ? Math.max(0, base - (performance.now() - this.at)) : base;
  }

  text(seat) {
    const control = this.control;
    const s = seat ?? this.running;
    const ms = this.leftOf(s);
    if (ms === null) return {text: '', low: false};
    if (control === 'clock') return {text: clockFigure(ms), low: ms < LOW_MS};
    if (control === 'correspondence') {
      const left = t('tc.left', {time: longLeft(ms)});
      const due = this.msg.deadline ? localDate(this.msg.deadline) : null;
      return {text: seat === null && due ? t('tc.left_due', {left, due}) : left, low: false, title: due ? t('tc.due', {due}) : null};
    }
    const secs = Math.ceil(ms / 1000);
    return {text: t('clock.left', {n: secs}), low: secs <= 10};
  }

  tick() {
    if (!this.msg || !this.root) return;
    const running = this.running;
    for (const el of this.root.querySelectorAll('[data-clock]')) {
      const seat = el.dataset.clockSeat === undefined ? null : Number(el.dataset.clockSeat);
      const {text, low, title} = this.text(seat);
      const textEl = el.querySelector('.clock-text');
      if (textEl.textContent !== text) textEl.textContent = text;
      el.classList.toggle('low', low);
      el.classList.toggle('running', seat === null || seat === running);
      if (title && el.title !== title) el.title = title;
    }
    if (this.control === 'clock' && running !== null) {
      const ms = this.leftOf(running);
      const low = ms !== null && ms < LOW_MS;
      if (low && this.lowSeat !== running) {
        this.lowSeat = running;
        this.onLow?.(running);
      } else if (!low && this.lowSeat === running) {
        this.lowSeat = null;
      }
    }
  }

  stop() { clearInterval(this.timer); }
}

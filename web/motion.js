// The order in which a room shows its positions: every state the server sends is queued and
// shown in turn, each step animated from the position before it (the board module's plan), so
// the player's own move plays out before the computer's reply that arrived 200 ms later, and
// nothing after it is shown (banner, turn marks, decision, sounds) until its board is. A state of
// the version already queued or shown (a seat connecting, a rematch asked) replaces it. Far
// behind (a burst of states, a tab in the background), the queue jumps to the newest position.
import {stepMs, MAX_ANIMATION_MS} from './settings.js';
import {play as sound} from './sound.js';

// States waiting behind the one playing before the queue gives up animating them.
const MAX_BEHIND = 2;
// Between two steps the position rests this many step times (at most MAX_REST_MS): the end of
// one move is seen before the next begins.
const REST_STEPS = 2;
const MAX_REST_MS = 450;

export class Motion {
  // plan(from, to) -> frames (empty: draw `to` at once); frame(f, to) draws one frame of the
  // step towards `to`; moving(to, from) shows what is being played; settle(msg, {fresh, last})
  // shows `msg` as the truth: `fresh`, a new version (not a same-version update); `last`,
  // nothing waits behind it.
  constructor({plan, frame, moving, settle}) {
    this.animator = new Animator();
    this.cb = {plan, frame, moving, settle};
    this.shown = null;  // the state the board shows, or plays towards
    this.queue = [];
    this.rest = null;   // the pause between two steps
    this.stepping = false;  // a step is shown as being played, from moving() to its settle()
  }

  // Whether the board is behind the newest state: an animation plays or states wait.
  get busy() { return this.stepping || this.animator.playing || this.queue.length > 0 || !!this.rest; }

  get playing() { return this.animator.playing; }

  push(msg) {
    if (!this.shown) {
      this.shown = msg;
      this.cb.settle(msg, {fresh: true, last: true});
      return;
    }
    const tail = this.queue.length ? this.queue[this.queue.length - 1] : this.shown;
    if (msg.version === tail.version) {
      // The same step again with other seats or counts: it replaces what was kept of it.
      if (this.queue.length) this.queue[this.queue.length - 1] = msg;
      else {
        this.shown = msg;
        if (!this.animator.playing) this.cb.settle(msg, {fresh: false, last: true});
      }
      return;
    }
    this.queue.push(msg);
    if (this.queue.length > MAX_BEHIND) this.catchUp();
    else this.next();
  }

  // Shows the next queued state: animated when it follows the shown one by exactly one step.
  next() {
    if (this.animator.playing || this.rest) return;
    const to = this.queue.shift();
    if (!to) return;
    const from = this.shown;
    this.shown = to;
    const frames = stepMs() && !document.hidden && follows(from, to) ? this.cb.plan(from, to) : [];
    if (!frames.length) {
      this.cb.settle(to, {fresh: true, last: !this.queue.length});
      this.next();
      return;
    }
    this.stepping = true;
    this.cb.moving(to, from);
    this.animator.play(frames, (f) => this.cb.frame(f, to), () => {
      this.stepping = false;
      this.cb.settle(this.shown, {fresh: true, last: !this.queue.length});
      if (!this.queue.length) return;
      // The next step waits a moment: this one's end stays in view.
      this.rest = setTimeout(() => { this.rest = null; this.next(); }, Math.min(MAX_REST_MS, REST_STEPS * stepMs()));
    });
  }

  // Ends the step playing now (its position is drawn) or the rest after it; the next step, if
  // any, begins.
  skip() {
    if (this.animator.playing) this.animator.skip();
    else if (this.rest) this.endRest();
  }

  endRest() {
    clearTimeout(this.rest);
    this.rest = null;
    this.next();
  }

  // Too far behind: the newest position at once, what lay between only in the log.
  catchUp() {
    this.animator.stop();
    this.stepping = false;
    clearTimeout(this.rest);
    this.rest = null;
    this.shown = this.queue.pop();
    this.queue = [];
    this.cb.settle(this.shown, {fresh: true, last: true});
  }

  stop() {
    this.animator.stop();
    this.stepping = false;
    clearTimeout(this.rest);
    this.rest = null;
    this.queue = [];
  }
}

// Whether `to` is the step right after `from` within one game, so that the board module can
// diff the two positions into a plan.
function follows(from, to) {
  return !!(from?.state && to.state && to.version === from.version + 1 &&
            !(to.events || []).some((e) => e.type === 'start'));
}

// Plays an animation plan as lichess's chessground does: a board module diffs the previous and
// the next position into frames (using the step's events only for the sowing path); each frame
// is drawn for the chosen time per stone, and then the server's state is drawn as the truth.
// One plan at a time: the room's queue (above) starts the next once this one is done; a
// tap on the board or a key skips to its end.
export class Animator {
  constructor() {
    this.timer = null;
    this.finish = null;
  }

  get playing() { return this.timer !== null; }

  // draw(frame) draws one frame; done() draws the truth. Frames may carry `hold` (a multiple of
  // the step time) and `sound`.
  play(frames, draw, done) {
    this.cancel();
    const step = stepMs();
    if (!step || !frames.length) { done(); return; }
    const units = frames.reduce((n, f) => n + (f.hold || 1), 0);
    const unit = Math.max(16, Math.min(step, MAX_ANIMATION_MS / units));
    let i = 0;
    this.finish = () => { this.stop(); done(); };
    const next = () => {
      if (i >= frames.length) { this.finish(); return; }
      const f = frames[i++];
      draw(f);
      if (f.sound) sound(f.sound);
      this.timer = setTimeout(next, unit * (f.hold || 1));
    };
    next();
  }

  // Ends what plays and draws its truth at once.
  skip() { if (this.finish) this.finish(); }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.finish = null;
  }

  cancel() { this.skip(); }
}

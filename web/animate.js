// Plays an animation plan as lichess's chessground does: a board module diffs the previous and
// the next position into frames (using the step's events only for the sowing path); each frame
// is drawn for the chosen time per stone, and then the server's state is drawn as the truth.
// One plan at a time: the room's queue (motion.js) starts the next once this one is done; a
// tap on the board or a key skips to its end.
import {stepMs, MAX_ANIMATION_MS} from './settings.js';
import {play as sound} from './sound.js';

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

// Short sounds synthesized with Web Audio (no audio files): a click per stone sown, a soft chord
// for the player's turn, a falling tone for a capture or removal, a fanfare at the end. Muted
// by the header's switch (remembered). The audio context starts on the first user gesture, as
// browsers require.
import {muted} from './settings.js';

let ctx = null;

function context() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

// One tone: frequency in Hz, from `at` seconds ahead, for `dur` seconds, shaped so it never clicks.
/**
 * @param {number} freq
 * @param {number} at
 * @param {number} dur
 * @param {{type?: OscillatorType, gain?: number, slideTo?: number}} [shape]
 */
function tone(freq, at, dur, {type = 'sine', gain = 0.12, slideTo} = {}) {
  const c = context();
  if (!c || c.state !== 'running') return;
  const t0 = c.currentTime + at;
  const osc = c.createOscillator();
  const amp = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slideTo) osc.frequency.exponentialRampToValueAtTime(slideTo, t0 + dur);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(amp).connect(c.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

const SOUNDS = {
  stone: () => tone(880, 0, 0.06, {type: 'triangle', gain: 0.08}),
  place: () => tone(520, 0, 0.09, {type: 'triangle', gain: 0.12}),
  capture: () => tone(660, 0, 0.22, {type: 'sawtooth', gain: 0.05, slideTo: 220}),
  turn: () => { tone(523, 0, 0.15); tone(784, 0.08, 0.2); },
  end: () => { tone(523, 0, 0.18); tone(659, 0.12, 0.18); tone(784, 0.24, 0.35); },
};

export function play(name) {
  if (muted()) return;
  try { SOUNDS[name]?.(); } catch { /* no sound is no harm */ }
}

// Browsers start audio only after a gesture: the first click or key unlocks it.
export function unlockOnGesture() {
  const unlock = () => { if (!muted()) context(); };
  window.addEventListener('pointerdown', unlock, {once: true});
  window.addEventListener('keydown', unlock, {once: true});
}

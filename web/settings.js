// The player's remembered choices: animation speed, sound on or off, the computer's level for
// "Play the computer". Each lives in localStorage under tanbo.<name>.
const DEFAULTS = {speed: 'normal', muted: 'false', cpuLevel: ''};

export const SPEEDS = ['off', 'slow', 'normal', 'fast'];
// Milliseconds per stone or token moved; a whole animation is kept under MAX_ANIMATION_MS.
const STEP_MS = {off: 0, slow: 320, normal: 170, fast: 80};
export const MAX_ANIMATION_MS = 3000;
export const LEVELS = ['random', 'greedy', 'mcts'];

export function get(name) {
  return localStorage.getItem(`tanbo.${name}`) ?? DEFAULTS[name];
}

export function set(name, value) {
  localStorage.setItem(`tanbo.${name}`, String(value));
}

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

// The time one stone takes: none when the player turned animations off or asks the system for
// reduced motion.
export function stepMs() {
  if (reducedMotion.matches) return 0;
  return STEP_MS[get('speed')] ?? STEP_MS.normal;
}

export function muted() { return get('muted') === 'true'; }

// Inline SVG icons, so no symbol depends on a font the system may lack (⏮ ⏭ ⏱ drew as empty
// boxes on some). Each is decorative: the button or text beside it carries the words.
import {s} from './util.js';

const PATHS = {
  start: 'M5 4h2v16H5zM20 4v16L9 12z',
  back: 'M17 4v16L6 12z',
  forward: 'M7 4v16l11-8z',
  end: 'M17 4h2v16h-2zM4 4v16l11-8z',
  clock: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm-1 3v6l5 3 1-1.7-4-2.4V7z',
  sound: 'M4 9h4l5-4v14l-5-4H4zM16 8a5 5 0 0 1 0 8l-1.4-1.4a3 3 0 0 0 0-5.2zM18.5 5.5a8.5 8.5 0 0 1 0 13l-1.4-1.4a6.5 6.5 0 0 0 0-10.2z',
  mute: 'M4 9h4l5-4v14l-5-4H4zM16 9.4 17.4 8l2.1 2.1L21.6 8 23 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z',
  computer: 'M3 4h18v12H3zm2 2v8h14V6zM8 18h8v2H8z',
  play: 'M8 5v14l11-7z',
  account: 'M12 3a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zm0 11c4.4 0 8 2.2 8 5v2H4v-2c0-2.8 3.6-5 8-5z',
  rules: 'M5 2h10l4 4v16H5zm2 2v16h10V7h-3V4zm2 7h6v2H9zm0 4h6v2H9z',
  link: 'M3.9 12A3.1 3.1 0 0 1 7 8.9h4V7H7a5 5 0 0 0 0 10h4v-1.9H7A3.1 3.1 0 0 1 3.9 12zM8 13h8v-2H8zm9-6h-4v1.9h4a3.1 3.1 0 0 1 0 6.2h-4V17h4a5 5 0 0 0 0-10z',
  eye: 'M12 5C6.5 5 2.7 8.6 1 12c1.7 3.4 5.5 7 11 7s9.3-3.6 11-7c-1.7-3.4-5.5-7-11-7zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  verified: 'M12 1 3 5v6c0 5.5 3.8 10.7 9 12 5.2-1.3 9-6.5 9-12V5zm-1.5 15.5-4-4 1.4-1.4 2.6 2.6 6.1-6.1 1.4 1.4z',
};

export function icon(name, cls = '') {
  return s('svg', {viewBox: '0 0 24 24', class: `icon ${cls}`, 'aria-hidden': 'true', focusable: 'false'},
    s('path', {d: PATHS[name]}));
}

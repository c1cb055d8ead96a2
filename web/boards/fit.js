// Fitting the sowing boards to the screen and their words to the board: a text's width (SVG text
// cannot be measured before it is in the page), a name shortened to a width, the space a board
// gets, and the size of its picks as the zoom viewport reads it.

// Widths in em of a few classes of characters, for a sans-serif face, when nothing can measure:
// enough to keep a name inside its space, not to set type.
function charWidth(c) {
  const code = c.codePointAt(0);
  if (code >= 0x2e80 && code <= 0x9fff) return 1;        // CJK, kana
  if (code >= 0xac00 && code <= 0xd7af) return 1;        // Hangul
  if (code >= 0xff00 && code <= 0xff60) return 1;        // full-width forms
  if (code >= 0x2190 && code <= 0x27bf) return 1;        // arrows, shapes (▶), dingbats
  if (/[ .,:;'’!|il]/.test(c)) return 0.3;
  if (/[fjrt()-]/.test(c)) return 0.38;
  if (/[MWm@w]/.test(c)) return 0.86;
  if (/[A-Z]/.test(c)) return 0.68;
  if (/[0-9]/.test(c)) return 0.58;
  return 0.56;
}

// The width of `text` set at `size` in the page's face, bold unless `weight` says otherwise
// (names on the board are): measured on a canvas, which needs nothing in the page; estimated
// where there is none.
let canvas = null, family = null;
export function textWidth(text, size, weight = 700) {
  try {
    canvas ??= document.createElement('canvas').getContext('2d');
    family ??= getComputedStyle(document.documentElement).fontFamily || 'sans-serif';
    canvas.font = `${weight} ${size}px ${family}`;
    return canvas.measureText(String(text)).width;
  } catch {
    let w = 0;
    for (const c of String(text)) w += charWidth(c);
    return w * size * 1.1;
  }
}

// `text`, shortened with an ellipsis to fit `width` at `size`.
export function fitText(text, width, size) {
  const chars = [...String(text)];
  if (textWidth(text, size) <= width) return String(text);
  while (chars.length > 1 && textWidth(`${chars.join('')}…`, size) > width) chars.pop();
  return `${chars.join('').trimEnd()}…`;
}

// `text` whole in `width` where it can be: at `size`, else smaller (`min` at least), else, given
// `two`, on two lines broken between words, else shortened: {lines, size}.
export function fitLines(text, width, size, min, two) {
  const wide = (l) => Math.max(...l.map((x) => textWidth(x, size)));
  let lines = [text = String(text)];
  if (two && size * width / wide(lines) < min) {
    for (const {index: i} of new Intl.Segmenter(document.documentElement.lang, {granularity: 'word'}).segment(text)) {
      const l = [text.slice(0, i).trimEnd(), text.slice(i).trimStart()];
      if (i && wide(l) < wide(lines)) lines = l;
    }
  }
  size = Math.max(min, Math.min(size, size * width / wide(lines)));
  return {lines: lines.map((l) => fitText(l, width, size)), size};
}

// The space the board gets, in CSS pixels: the room's word for it when it gives one (`size`),
// else an estimate from the window and the room's layout (web/style.css: main at most 1200 px
// wide; from 900 px the board column takes `share` of it beside the side column). `below` is
// the height the board has in view from its top, the page unscrolled: the window less what
// stands above the board (header, room title, seats, turn line) and, on a phone, the decision
// bar fixed at the bottom with `hint` in it and the legend. A board drawn to it is seen whole at
// once. `screen`, on a phone: the window less the bar and the legend, where the room scrolls a
// board at a decision.
export function boardSpace(size, share = 0.6, hint = null) {
  if (size?.width && size?.height) return {below: size.height, ...size};
  const vw = globalThis.innerWidth || 1280, vh = globalThis.innerHeight || 800;
  const main = Math.min(vw, 1200) - (vw > 760 ? 24 : 13);
  const width = vw >= 900 ? (main - 13) * share - 12 : main - 2;
  const board = globalThis.document?.getElementById('board');
  const top = board?.isConnected ? board.getBoundingClientRect().top + (globalThis.scrollY || 0) : vh * 0.3;
  // A finished game's card stands above the board: it is read first, then the page scrolls to
  // a board with nothing left to tap, laid out as it was during the game.
  const result = globalThis.document?.getElementById('result');
  const card = result?.isConnected ? result.getBoundingClientRect().height : 0;
  // On a phone the legend stands above the board (style.css), where the bar cannot cover it:
  // its height, or a line's before it is drawn, is the board's no more.
  const legend = vw > 760 ? 0 : board?.querySelector('.board-legend')?.getBoundingClientRect().height ?? 19;
  const bar = barHeight(hint, vw) + legend, pad = vw > 760 ? 8 : 3;  // the board's padding
  const below = vh - (top - card) - bar - pad;
  return {width, height: vh, below: Math.max(below, vh * 0.25),  // a floor for a page gone astray
          screen: vw > 760 ? undefined : vh - bar - pad - 6};
}

// The height of the phone's decision bar (web/style.css: fixed at the bottom under 760 px, a
// 2-pixel rule, .4rem padding, the hint in 16-pixel type at a line height of 1.4) holding
// `hint`; a line's worth when there is none yet (the player's decision will bring one).
function barHeight(hint, vw) {
  if (vw > 760) return 0;
  const lines = Math.max(1, Math.ceil(textWidth(hint || '', 16, 400) * 1.15 / (vw - 16)));
  return 2 + 12.8 + lines * 22.4 + 1;
}

// The zoom viewport (web/zoom.js) draws a board larger, to be panned, when on a phone its
// smallest pick is under a 46-pixel finger at the board's width. These boards lay themselves out
// for the screen with picks of 44 pixels where they can and 32 at least, and must be seen whole:
// they give their smallest pick in those terms (32 pixels count as a finger).
export const viewportPick = (units) => units * 46 / 32;

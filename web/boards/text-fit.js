// Fitting a line of text into a width of an SVG board, without measuring it in the page: a CJK
// character is about as wide as the font is high, other characters about half as wide (bold
// Latin a little more). Good enough to cut a long name with an ellipsis before it overlaps.
export function textWidth(str, size) {
  let w = 0;
  for (const ch of String(str)) w += /[\u1100-\uffff]/u.test(ch) ? size : size * 0.58;
  return w;
}

// `str`, or as much of it as fits in `max` units at `size`, ending with an ellipsis.
export function clip(str, size, max) {
  str = String(str);
  if (textWidth(str, size) <= max) return str;
  let out = '';
  for (const ch of str) {
    if (textWidth(`${out}${ch}…`, size) > max) break;
    out += ch;
  }
  return `${out}…`;
}

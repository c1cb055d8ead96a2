// Seeds drawn as pebbles, for the sowing boards (mancala-simple, tsoro): a hole or a store shows up
// to a dozen rounded stones, then a heap with its number. A stone's place, shape and shade come
// from its pit's key and its rank, never from chance at render time, so a position drawn twice
// looks the same and a stone dropped during a sowing leaves the others where they lay.
import {s} from '../util.js';

export const VISIBLE = 12;   // stones drawn one by one; more make a heap with its number
const HEAP_EXTRA = 6;        // stones piled on top of a heap's dozen

// Stone colours: river pebbles, greys and browns, told apart by lightness only as texture.
const SHADES = ['#8b8580', '#6f6963', '#a0958a', '#7d8187', '#958268', '#5f5a55'];

// FNV-1a: a string to 32 bits.
function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; ++i) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

// mulberry32: a few numbers in [0, 1) from a seed.
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// Where the stones of an area settle, best place first: points of a hexagonal grid inside the
// area, nearest the centre first (stones roll to the middle of a cup), for stones of radius
// `r`. The radius shrinks until a dozen fit. Cached: the same area always gives the same places.
const slotCache = new Map();
function slots(area) {
  const cacheKey = JSON.stringify(area);
  const known = slotCache.get(cacheKey);
  if (known) return known;
  const ellipse = area.rx !== undefined;
  const halfW = ellipse ? area.rx : area.w / 2, halfH = ellipse ? area.ry : area.h / 2;
  let r = Math.min(halfW, halfH) * 0.55;
  let out = [];
  for (let tries = 0; tries < 30; ++tries, r *= 0.92) {
    const d = r * 1.5;  // neighbours overlap a little, as stones heaped in a cup do
    const ax = halfW - r * 0.85, ay = halfH - r * 0.85;
    const inside = (x, y) => (ellipse ? (x * x) / (ax * ax) + (y * y) / (ay * ay) <= 1 : Math.abs(x) <= ax && Math.abs(y) <= ay);
    out = [];
    const rows = Math.ceil(ay / (d * 0.866)) + 1, cols = Math.ceil(ax / d) + 1;
    for (let j = -rows; j <= rows; ++j) {
      for (let i = -cols; i <= cols; ++i) {
        const x = (i + (j & 1 ? 0.5 : 0)) * d, y = j * d * 0.866;
        // Nearest first: across an ellipse's own proportions (a long hole fills along its
        // length), plainly in a rectangle (a store's stones gather in its middle).
        if (inside(x, y)) out.push({x, y, d: ellipse ? Math.hypot(x / ax, y / ay) : Math.hypot(x, y)});
      }
    }
    if (out.length >= VISIBLE) break;
  }
  out.sort((a, b) => a.d - b.d || Math.atan2(a.y, a.x) - Math.atan2(b.y, b.x));
  const result = {r, points: out.slice(0, VISIBLE), spacing: r * 1.5};
  slotCache.set(cacheKey, result);
  return result;
}

// One stone at (x, y), radius about r, its look drawn from `seed`.
function stone(x, y, r, seed) {
  const rnd = random(hash(seed));
  const rx = r * (0.92 + rnd() * 0.16), ry = rx * (0.78 + rnd() * 0.16);
  const angle = Math.round(rnd() * 180);
  const shade = SHADES[Math.floor(rnd() * SHADES.length)];
  const f = (v) => Math.round(v * 10) / 10;
  return s('g', {class: 'stone', transform: `translate(${f(x)} ${f(y)}) rotate(${angle})`},
    s('ellipse', {rx: f(rx), ry: f(ry), fill: shade}),
    s('ellipse', {class: 'shine', cx: f(-rx * 0.3), cy: f(-ry * 0.32), rx: f(rx * 0.38), ry: f(ry * 0.3)}));
}

// The places of the first `n` stones of an area centred on (x, y), jittered by the pit's key:
// a dozen at most, then up to HEAP_EXTRA more piled near the middle.
function places(n, x, y, area, key) {
  const {r, points, spacing} = slots(area);
  const out = [];
  const shown = Math.min(n, VISIBLE + (n > VISIBLE ? HEAP_EXTRA : 0));
  for (let k = 0; k < shown; ++k) {
    const rnd = random(hash(`${key}#${k}`));
    let p;
    if (k < points.length) p = points[k];
    else {
      const a = rnd() * Math.PI * 2, rr = spacing * 0.5 * (0.4 + rnd());  // the heap's top layer
      p = {x: Math.cos(a) * rr, y: Math.sin(a) * rr * (area.ry !== undefined ? area.ry / area.rx : 1)};
    }
    const jx = (rnd() - 0.5) * spacing * 0.3, jy = (rnd() - 0.5) * spacing * 0.3;
    out.push({x: x + p.x + jx, y: y + p.y + jy, r, seed: `${key}#${k}`});
  }
  return out;
}

// The stones of one pit: `n` stones in `area` ({rx, ry}: an ellipse; {w, h}: a rectangle)
// centred on (x, y). `key` names the pit (its stones' looks come from it). `fly` ({dx, dy}):
// the last stone has just come from (x + dx, y + dy) and is drawn arriving. `leave` ({n, dx,
// dy}): `leave.n` more stones are drawn leaving towards (x + dx, y + dy), as a capture takes them.
export function pebbles(n, x, y, area, key, {fly = null, leave = null} = {}) {
  const g = s('g', {class: 'pebbles', 'aria-hidden': 'true'});
  const here = places(n, x, y, area, key);
  here.forEach((p, k) => {
    const el = stone(p.x, p.y, p.r, p.seed);
    g.append(fly && k === here.length - 1 ? moving('flying', fly, el) : el);
  });
  if (leave?.n) {
    for (const p of places(n + leave.n, x, y, area, key).slice(here.length))
      g.append(moving('leaving', leave, stone(p.x, p.y, p.r, p.seed)));
  }
  return g;
}

// A stone in motion: its offset in custom properties the stylesheet's animation reads (set
// through the CSSOM: the page's Content-Security-Policy refuses style attributes).
function moving(cls, {dx, dy}, el) {
  const g = s('g', {class: cls}, el);
  g.style.setProperty('--fx', `${Math.round(dx)}px`);
  g.style.setProperty('--fy', `${Math.round(dy)}px`);
  return g;
}

// The stones in a sower's hand, carried over the pit at (x, y): a small cluster and how many,
// its figure `size` at least (a count's, where stones are small).
export function hand(n, x, y, r, key, size = 0) {
  const g = s('g', {class: 'hand', 'aria-hidden': 'true'});
  const shown = Math.min(n, 5);
  for (let k = 0; k < shown; ++k) {
    const a = (k / Math.max(1, shown)) * Math.PI * 2 + 0.6, rr = shown > 1 ? r * 0.9 : 0;
    g.append(stone(x + Math.cos(a) * rr, y + Math.sin(a) * rr * 0.7, r, `${key}#hand${k}`));
  }
  const fs = Math.max(r * 1.5, size);
  if (n > 1) g.append(figure(n, x + r + fs * 0.8, y - r * 0.6 - fs * 0.4, fs, 'hand-figure'));
  return g;
}

// How many stones a pit holds, as a small figure: from `from` stones on (by default 1: every
// hole that holds a stone says how many, as every store does), beside the stones, or over a heap; a light chip keeps it readable. `of`
// names the pit: the boards draw the figures in a layer above every hole and mark.
export function countFigure(n, x, y, size, {heapAt = null, from = 1, of = null} = {}) {
  const fig = n > VISIBLE && heapAt ? figure(n, heapAt.x, heapAt.y, size * 1.35, 'heap-figure')
    : n >= from ? figure(n, x, y, size, 'count-figure') : null;
  if (fig && of) fig.dataset.of = of;
  return fig;
}

function figure(n, x, y, size, cls) {
  const text = String(n);
  const w = Math.max(size * 1.15, size * 0.62 * text.length + size * 0.5);
  return s('g', {class: `figure ${cls}`, 'aria-hidden': 'true'},
    s('rect', {x: x - w / 2, y: y - size * 0.62, width: w, height: size * 1.24, rx: size * 0.62}),
    s('text', {x, y, 'dominant-baseline': 'central', 'text-anchor': 'middle', 'font-size': size}, text));
}

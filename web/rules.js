// A rules page per game (#/rules/GAME), in the page's language: what a player needs (the board,
// the set-up, a turn, captures or scoring, the end), written from docs/rules/<game>.md, with
// the board drawn by the game's own board code from its starting position.
import {h} from './util.js';
import {t} from './i18n/index.js';
import {gameName} from './words.js';
import {boardFor} from './boards/index.js';

const SECTIONS = ['aim', 'board', 'setup', 'turn', 'capture', 'end'];

// The starting positions the diagrams show (standard set-ups, docs/rules/*.md).
const SAMPLES = {
  'mancala-simple': () => ({holes: 6, stones: 4, full_ranking: true, to_move: 0,
    seats: [0, 1].map(() => ({holes: [4, 4, 4, 4, 4, 4], store: 0, in_circuit: true, place: null, placed: null}))}),
  tsoro: () => ({columns: 8, heads: 'two', head_cols: [6, 7], to_move: 0, phase: 'sow', singletons: false,
    sides: [0, 1].map(() => ({outer: Array(8).fill(2), inner: Array(8).fill(0), captured: 0}))}),
  'steere-tanbo': () => steereDense(7, 7),
  tanbo: () => {
    const ring = () => [0, 1, 2, 3, 4].map((i) => ({snakes: 2, yellow: 0, black: 0, red: 0, farmer: i === 0}));
    return {status: 'playing', decision: null, seat: null, first: 0, mover: 0, turn: 1, rings: [ring(), ring()],
      bag: {yellow: 15, black: 10, red: 5}, pool: 0, harvest: [{yellow: 0, black: 0, red: 0}, {yellow: 0, black: 0, red: 0}],
      score: [0, 0], hand: {snakes: 0, yellow: 0, black: 0, red: 0, farmer: false}, cursor: 1, last: 0, quiet_turns: 0, stall_turns: 120};
  },
};

// S2: a stone where both coordinates are even, Black where x/2 + y/2 is even; each its own root.
export function steereDense(W, H) {
  const at = (x, y) => (x % 2 || y % 2 ? '.' : (x / 2 + y / 2) % 2 ? 'w' : 'b');
  const board = Array.from({length: H}, (_, y) => Array.from({length: W}, (_, x) => at(x, y)).join(''));
  const cell = (x, y) => (x >= 0 && y >= 0 && x < W && y < H ? board[y][x] : null);
  const nbrs = (x, y) => [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]];
  const roots = [];
  for (let y = 0; y < H; ++y) for (let x = 0; x < W; ++x) {
    const c = cell(x, y);
    if (c === '.') continue;
    const liberties = nbrs(x, y).filter(([a, b]) => cell(a, b) === '.' && nbrs(a, b).filter(([p, q]) => cell(p, q) === c).length === 1).length;
    roots.push({id: roots.length, colour: c === 'b' ? 'black' : 'white', liberties, stones: [`${String.fromCharCode(97 + x)}${H - y}`]});
  }
  const count = (c) => roots.filter((r) => r.colour === c).length;
  return {size: `${W}x${H}`, width: W, height: H, board, roots, stones: {black: count('black'), white: count('white')},
          seats: {black: 0, white: 1}, ply: 0, to_move: 0, colour_to_move: 'black'};
}

export const RULE_GAMES = Object.keys(SAMPLES);

// A game's standard starting position, as its board code draws it (the lobby's pictures too).
export function sampleState(game) { return SAMPLES[game]?.() ?? null; }

export class RulesView {
  constructor(app, game) {
    this.app = app;
    this.game = SAMPLES[game] ? game : RULE_GAMES[0];
  }

  mount(main) { this.main = main; this.relabel(); }

  relabel() {
    const g = this.game;
    const names = (seat) => t(seat === 0 ? 'rules.you' : 'rules.opponent');
    const out = boardFor(g).render({state: SAMPLES[g](), legal: null, pending: null, me: null, viewer: 0, seats: [], act: () => {}, name: names});
    out.svg.setAttribute('aria-label', t(`rules.${g}.diagram`));
    out.svg.setAttribute('role', 'img');
    const nav = h('nav', {class: 'rules-nav', 'aria-label': t('rules.other')},
      RULE_GAMES.map((id) => h('a', {href: `#/rules/${id}`, 'aria-current': id === g ? 'page' : null}, gameName(id, this.app.game(id)))));
    const sections = SECTIONS.map((sec) => h('section', {class: 'rules-section'},
      h('h3', {}, t(sec === 'capture' ? `rules.h.capture.${g}` : `rules.h.${sec}`)), paragraphs(t(`rules.${g}.${sec}`))));
    this.main.replaceChildren(
      h('h2', {id: 'rules-title'}, t('rules.title', {game: gameName(g, this.app.game(g))})), nav,
      h('div', {class: 'rules'},
        h('figure', {class: 'rules-figure'}, h('div', {class: 'board'}, out.svg), h('figcaption', {}, t(`rules.${g}.diagram`))),
        h('div', {class: 'rules-text'}, sections)),
      h('p', {}, h('a', {href: '#/', class: 'button'}, t('nav.back_lobby')), ' ',
        h('a', {href: `#/leaderboard/${g}`, class: 'button'}, t('lobby.leaderboard'))));
  }
}

// A section's text: paragraphs separated by blank lines; lines starting "- " make a list.
function paragraphs(text) {
  return text.split(/\n\n+/).map((block) => {
    const lines = block.split('\n');
    if (lines.every((l) => l.startsWith('- '))) return h('ul', {}, lines.map((l) => h('li', {}, l.slice(2))));
    return h('p', {}, block);
  });
}

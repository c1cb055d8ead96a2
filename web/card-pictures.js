// The lobby's pictures of the games: each game's own board code drawing its starting position
// (rules.js, sampleState), as a picture rather than a board to play on. Loaded after the lobby's
// cards are drawn (game-cards.js, fillPictures): it brings every board's code, which the cards
// themselves do not need.
import {t, language} from './i18n/index.js';
import {gameName} from './words.js';
import {boardFor} from './boards/index.js';
import {sampleState, steereDense} from './rules.js';

// A game's picture, drawn once per language (the drawing names its seats in words).
const pictures = new Map();

// Tsoro's starting position on a short board, whole with its frame at a card's size (the
// default 21 columns would be a thin strip): 2 stones in each outer hole, the two rightmost its
// heads.
const TSORO_COLUMNS = 6;
function tsoroStart() {
  const state = sampleState('tsoro');
  const N = TSORO_COLUMNS;
  return {...state, columns: N, head_cols: [N - 2, N - 1],
          sides: [0, 1].map(() => ({outer: Array(N).fill(2), inner: Array(N).fill(0), captured: 0}))};
}

export function picture(g) {
  const key = `${g.id}:${language()}`;
  let svg = pictures.get(key);
  if (!svg) {
    // Steere's Tanbo at the size people play it; Tsoro short.
    const state = g.id === 'steere-tanbo' ? steereDense(11, 11) : g.id === 'tsoro' ? tsoroStart() : sampleState(g.id);
    if (!state) return null;
    const names = (seat) => t(seat === 0 ? 'rules.you' : 'rules.opponent');
    svg = boardFor(g.id).render({state, legal: null, pending: null, me: null, viewer: 0, seats: [], act: () => {}, name: names, shape: 'wide', picture: true}).svg;
    // A picture, not a board to play on: nothing in it is read or focused on its own.
    svg.setAttribute('role', 'img');
    svg.setAttribute('focusable', 'false');
    svg.removeAttribute('aria-labelledby');
    svg.removeAttribute('id');
    // No words or figures: at a card's size they would be a few pixels tall. Colour and shape
    // say what the picture shows.
    for (const el of svg.querySelectorAll('text, title, .figures, .figure, .seat-label, .tray, .tb-badge')) el.remove();
    // Tsoro's board alone, its frame whole, without the room its names and trays had.
    const wood = g.id === 'tsoro' && svg.querySelector('.wood');
    if (wood) {
      const [x, y, w, hh] = ['x', 'y', 'width', 'height'].map((a) => Number(wood.getAttribute(a)));
      svg.setAttribute('viewBox', `${x - 4} ${y - 4} ${w + 8} ${hh + 8}`);
    }
    pictures.set(key, svg);
  }
  svg.setAttribute('aria-label', t('lobby.picture', {game: gameName(g.id, g)}));
  return svg.cloneNode(true);
}

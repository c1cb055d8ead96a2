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

// Tsoro's starting position with the registry's default number of columns (2 stones in each
// outer hole, the two rightmost its heads).
function tsoroStart(g) {
  const state = sampleState('tsoro');
  const N = g.options?.find((o) => o.name === 'columns')?.default ?? state.columns;
  return {...state, columns: N, head_cols: [N - 2, N - 1],
          sides: [0, 1].map(() => ({outer: Array(N).fill(2), inner: Array(N).fill(0), captured: 0}))};
}

export function picture(g) {
  const key = `${g.id}:${language()}`;
  let svg = pictures.get(key);
  if (!svg) {
    // Steere's Tanbo at the size people play it; Tsoro as long as its default board.
    const state = g.id === 'steere-tanbo' ? steereDense(11, 11) : g.id === 'tsoro' ? tsoroStart(g) : sampleState(g.id);
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
    // Tsoro's long board would be a thin strip at a card's size: its right end, the heads among
    // its holes, as large as the other games' boards, fading out to the left where it runs on.
    const wood = g.id === 'tsoro' && svg.querySelector('.wood');
    if (wood) {
      const [x, y, w, hh] = ['x', 'y', 'width', 'height'].map((a) => Number(wood.getAttribute(a)));
      const part = Math.min(w + 8, (hh + 8) * 1.6);
      svg.setAttribute('viewBox', `${x + w + 4 - part} ${y - 4} ${part} ${hh + 8}`);
      svg.classList.add('part');
    }
    pictures.set(key, svg);
  }
  svg.setAttribute('aria-label', t('lobby.picture', {game: gameName(g.id, g)}));
  return svg.cloneNode(true);
}

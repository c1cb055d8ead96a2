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

export function picture(g) {
  const key = `${g.id}:${language()}`;
  let svg = pictures.get(key);
  if (!svg) {
    // Steere's Tanbo at the size people play it.
    const state = g.id === 'steere-tanbo' ? steereDense(11, 11) : sampleState(g.id);
    if (!state) return null;
    const names = (seat) => t(seat === 0 ? 'rules.you' : 'rules.opponent');
    svg = boardFor(g.id).render({state, legal: null, pending: null, me: null, viewer: 0, seats: [], act: () => {}, name: names, shape: 'wide', picture: true}).svg;
    // A picture, not a board to play on: nothing in it is read or focused on its own.
    svg.setAttribute('role', 'img');
    svg.setAttribute('focusable', 'false');
    svg.removeAttribute('aria-labelledby');
    svg.removeAttribute('id');
    pictures.set(key, svg);
  }
  svg.setAttribute('aria-label', t('lobby.picture', {game: gameName(g.id, g)}));
  return svg.cloneNode(true);
}

// The lobby's games, one card each, drawn again cheaply: the board's picture (card-pictures.js),
// the name, a one-line pitch, how many play it now, one Play button saying whom it sets the
// player against, the rest folded behind "More options". lobby.js owns what they show.
import {h} from './util.js';
import {t, tOr} from './i18n/index.js';
import {gameName, levelName} from './words.js';
import {icon} from './icons.js';

// The pictures' module (card-pictures.js: the boards' code), loaded once the cards are drawn: the
// cards come first on a slow network, each picture in the space kept for it.
let pictures = null;
let loadingPictures = null;

// Settles once the pictures' module asked for (if any) is in or failed: what the page fetches in
// the background waits for it, not to take the network from the pictures.
export function picturesLoaded() { return (loadingPictures ?? Promise.resolve()).catch(() => {}); }

// Draws the picture of every card under `root` that has none yet.
export function fillPictures(root, games) {
  const fill = () => {
    for (const el of root.querySelectorAll('.card-picture:empty')) {
      const g = games.find((x) => x.id === el.dataset.picture);
      const svg = g && pictures.picture(g);
      if (svg) el.append(svg);
      else el.remove();  // a game without a starting position to show
    }
    // The first pictures on screen: the first-visit benchmark reports this mark too.
    if (!performance.getEntriesByName('tanbo-pictures').length) performance.mark('tanbo-pictures');
  };
  if (pictures) return fill();
  loadingPictures ??= import('./card-pictures.js').then((mod) => { pictures = mod; },
    (err) => { loadingPictures = null; throw err; });
  loadingPictures.then(fill, () => { /* the cards stand without pictures */ });
}

// What Play does now, in words: whom it sets the player against.
export function playHow(choice) {
  if (choice.kind === 'room') return t('lobby.play_vs_room', {name: choice.name});
  if (choice.kind === 'pool') return t('lobby.play_vs_pool', {n: choice.n});
  return t('lobby.play_vs_cpu', {level: levelName(choice.level)});
}

// The card's line of facts: the player count, then who plays or waits now (only when someone
// does); each fact kept whole on its line (「いま1人が対局中」 too, which has no space to hold).
export function liveLine(g, live) {
  const parts = [g.players.min === g.players.max ? t('lobby.players_exact', {n: g.players.min})
    : t('lobby.players_range', {min: g.players.min, max: g.players.max})];
  if (live.playing) parts.push(t('lobby.playing_now', {n: live.playing}));
  if (live.waiting) parts.push(t('pool.waiting', {n: live.waiting}));
  return parts.flatMap((p, i) => [i ? t('list.sep') : '', h('span', {class: 'nowrap'}, p)]);
}

// One game's card. `live` {playing, waiting}; `choice` what Play does (play-now.js, playChoice);
// `more` the folded choices (built by the lobby), shown when `open`.
export function gameCard(g, {live, choice, onPlay, more, open, onToggle}) {
  const id = g.id;
  const panel = h('div', {class: 'more-panel', id: `more-${id}`, hidden: !open}, more);
  const toggle = h('button', {type: 'button', class: 'more-btn', 'data-more': id, 'aria-expanded': String(!!open),
    'aria-controls': `more-${id}`, 'aria-describedby': `game-h-${id}`, onclick: (e) => {
      const now = e.currentTarget.getAttribute('aria-expanded') !== 'true';
      e.currentTarget.setAttribute('aria-expanded', String(now));
      panel.hidden = !now;
      onToggle(now);
    }}, t('lobby.more'));
  return h('li', {class: 'game-card', 'data-game': id},
    h('div', {class: 'card-top'},
      h('div', {class: 'card-picture', 'data-picture': id}),
      h('div', {class: 'card-text'},
        h('h3', {id: `game-h-${id}`}, gameName(id, g)),
        // The two games named Tanbo told apart by what one does in them, before who made them.
        tOr(`game.${id}.kind`, {}, '') ? h('p', {class: 'card-kind'}, t(`game.${id}.kind`)) : null,
        h('p', {class: 'pitch'}, t(`game.${id}.pitch`)),
        h('p', {class: 'card-facts small'},
          h('span', {class: 'card-live muted', 'data-live': id}, ...liveLine(g, live)), ' ',
          h('a', {class: 'rules-link', href: `#/rules/${id}`, 'aria-describedby': `game-h-${id}`}, t('lobby.rules'))))),
    h('div', {class: 'card-play'},
      h('button', {type: 'button', class: 'primary play', 'data-play': id, 'data-play-kind': choice.kind,
        'aria-describedby': `game-h-${id}`, onclick: (e) => onPlay(e.currentTarget)},
      h('span', {class: 'play-main'}, icon('play'), ' ', t('lobby.play')),
      h('span', {class: 'play-how'}, playHow(choice))),
      toggle),
    panel);
}

// Brings a card drawn earlier up to date without drawing it again (focus stays where it is).
export function refreshCard(card, g, {live, choice}) {
  card.querySelector('[data-live]').replaceChildren(...liveLine(g, live));
  const play = card.querySelector('[data-play]');
  play.dataset.playKind = choice.kind;
  play.querySelector('.play-how').textContent = playHow(choice);
}

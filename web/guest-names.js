// A new guest's name as the page says it (docs/web.md, "Guest names"). The server names a new
// guest "Guest " and four hex digits of its id, which reads as an id: the page says those digits
// as an adjective and an animal in the reader's language instead ("Guest Blue Heron",
// « Invité Héron bleu », 「ゲスト・青いサギ」). The name comes from the digits alone, so every
// reader of a language sees the same guest under the same name, in every view.
// The words are the catalogue's: guest.adjectives and guest.animals, lists separated by "|" in
// the same order in every language; guest.words puts them in the language's order. French gives
// an adjective's feminine after a slash ("bleu/bleue") and marks a feminine animal "Grue/f".
import {t, language} from './i18n/index.js';

let lexicon = null;  // {lang, adjectives: [[masculine, feminine]], animals: [[word, feminine]]}

function words() {
  if (lexicon?.lang !== language()) {
    const split = (key) => t(key).split('|').map((w) => w.trim().split('/'));
    lexicon = {
      lang: language(),
      adjectives: split('guest.adjectives').map(([m, f]) => [m, f ?? m]),
      animals: split('guest.animals').map(([w, g]) => [w, g === 'f']),
    };
  }
  return lexicon;
}

// How many names there are: two guests in one room share one about once in this many rooms.
export function guestNameCount() {
  const {adjectives, animals} = words();
  return adjectives.length * animals.length;
}

// "Blue Heron" for the four hex digits of a guest's id ("51d0"); null for anything else.
export function guestWords(tag) {
  if (!/^[0-9a-f]{4}$/.test(String(tag))) return null;
  const n = parseInt(tag, 16);
  const {adjectives, animals} = words();
  const [animal, feminine] = animals[Math.floor(n / adjectives.length) % animals.length];
  const adjective = adjectives[n % adjectives.length][feminine ? 1 : 0];
  return t('guest.words', {adjective, animal});
}

// "Guest Blue Heron": the whole name, as the header, the seats and the lists show it.
export function guestName(tag) {
  const name = guestWords(tag);
  return name === null ? null : t('player.guest_name', {name});
}

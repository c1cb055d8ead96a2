// The mark beside an account holder's name (docs/web.md, "Account holders"): the server says
// `account: true` of a player who holds an account, and the page shows a small badge with an
// accessible label and a tooltip, not a colour alone, so that a guest who took a name like an
// account's ("Аna" with a Cyrillic А, say) cannot pass for it. Nothing for a guest.
import {h} from './util.js';
import {icon} from './icons.js';
import {t, language} from './i18n/index.js';

// A player (or a bare name) as this reader sees it, wherever a name is shown: the name the server
// gives a new guest, "Guest " and four hex digits, which it refuses as a chosen one, reads as a
// friendly name in the reader's language ("Invité Héron bleu", below), even where no
// `default_name` says so (docs/protocol.md, "Names"); any other name as its player chose it.
export function playerName(player) {
  const name = String((typeof player === 'object' ? player?.name : player) ?? '');
  const tag = /^Guest ([0-9a-f]{4})$/.exec(name)?.[1] ?? (player?.default_name && player.id?.slice?.(1, 5));
  return (tag && guestName(tag)) || name;
}

export function accountMark(player) {
  if (!player?.account) return null;
  const label = t('player.account');
  return [h('span', {class: 'account-mark', role: 'img', 'aria-label': label, title: t('player.account_title')},
    icon('verified')), player.bot && h('span', {class: 'tag cpu bot', title: t('player.bot')}, 'BOT')];
}

// A name followed by its mark, as nodes (the name as text: it is never markup).
export function markedName(player, name = playerName(player)) {
  const mark = accountMark(player);
  return mark ? [String(name ?? ''), mark] : [String(name ?? '')];
}

// t(key) with some placeholders filled by nodes rather than text: the words around them stay
// the language's own ("Players: {names}", "{name} (away)").
export function tNodes(key, nodes) {
  const marks = {};
  Object.keys(nodes).forEach((name, i) => { marks[name] = `\u0000${i}\u0000`; });
  const values = Object.values(nodes);
  // eslint-disable-next-line no-control-regex -- NUL, which no text holds, marks a placeholder
  return t(key, marks).split(/\u0000(\d+)\u0000/).map((part, i) => (i % 2 ? values[Number(part)] : part));
}

// A list in the language's own way ("a, b and c"), its items nodes (names with their marks).
export function listNodes(items) {
  const parts = new Intl.ListFormat(language(), {style: 'long', type: 'conjunction'})
    .formatToParts(items.map((_, i) => `\u0000${i}\u0000`));
  // eslint-disable-next-line no-control-regex -- NUL, which no text holds, marks a placeholder
  return parts.map((p) => (p.type === 'element' ? items[Number(p.value.replace(/\u0000/g, ''))] : p.value));
}

// A new guest's name as the page says it (docs/web.md, "Guest names"). The server names a new
// guest "Guest " and four hex digits of its id, which reads as an id: the page says those digits
// as an adjective and an animal in the reader's language instead ("Guest Blue Heron",
// « Invité Héron bleu », 「ゲスト・青いサギ」). The name comes from the digits alone, so every
// reader of a language sees the same guest under the same name, in every view.
// The words are the catalogue's: guest.adjectives and guest.animals, lists separated by "|" in
// the same order in every language; guest.words puts them in the language's order. French gives
// an adjective's feminine after a slash ("bleu/bleue") and marks a feminine animal "Grue/f".
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

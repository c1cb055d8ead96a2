// The players this browser muted in the chat (docs/protocol.md, "mute, unmute, report"). The
// server keeps the mute with the identity and stops their lines reaching it, in every room and
// after a restart; the page keeps their names too (tanbo.chatMutes), to hide the lines already on
// screen at once and to list them where they can be unmuted (the chat panel, the header's
// drop-down). A change is announced with a 'change' event.
import {h} from './util.js';
import {t} from './i18n/index.js';
import {playerName} from './player-mark.js';

const KEY = 'tanbo.chatMutes';
export const mutes = new EventTarget();

export function mutedPlayers() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY));
    return Array.isArray(list) ? list.filter((p) => p && typeof p.id === 'string') : [];
  } catch { return []; }
}

export function isMuted(id) { return mutedPlayers().some((p) => p.id === id); }

function save(list) {
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 200)));
  mutes.dispatchEvent(new Event('change'));
}

// The server's list (welcome's `mutes`) is the truth: names kept here are reused, a mute made on
// another device is added under the name /api/players gives it (its id until that answers).
export async function syncMutes(ids) {
  if (!Array.isArray(ids)) return;
  const known = new Map(mutedPlayers().map((p) => [p.id, p]));
  const list = ids.map((id) => known.get(id) || {id, name: id});
  const same = list.length === known.size && list.every((p) => known.has(p.id));
  if (!same) save(list);
  for (const p of list.filter((p) => p.name === p.id)) {
    try {
      const res = await fetch(`/api/players/${encodeURIComponent(p.id)}`);
      const name = res.ok ? (await res.json()).name : null;
      if (typeof name === 'string' && isMuted(p.id))
        save(mutedPlayers().map((q) => (q.id === p.id ? {id: p.id, name} : q)));
    } catch { /* the id stays as the name */ }
  }
}

// Mutes `player` ({id, name}) on the server, then here; rejects with the server's refusal.
export async function mute(conn, player) {
  await conn.request({type: 'mute', player: player.id});
  save([{id: player.id, name: player.name}, ...mutedPlayers().filter((p) => p.id !== player.id)]);
}

// Unmutes: the server sends the player's lines again from now on (those said meanwhile stay
// unseen); the lines already on screen come back.
export async function unmute(conn, player) {
  try {
    await conn.request({type: 'unmute', player: player.id});
  } catch (err) {
    // An identity the server no longer knows cannot be muted either: drop it from the list.
    if (err.code !== 'no_such_player') throw err;
  }
  save(mutedPlayers().filter((p) => p.id !== player.id));
}

// The players muted in the chat, each with Unmute (in the chat panel and the header's
// drop-down); nothing when nobody is muted. `where` keeps the ids of the two lists apart.
export function mutedList(app, where) {
  const list = mutedPlayers();
  if (!list.length) return '';
  const head = `${where}-muted-h`;
  return h('section', {class: 'muted-players', id: `${where}-muted`, 'aria-labelledby': head},
    // In the header's drop-down the sections are the header's (h1) own: h2 there, under the chat's h3 here.
    h(where === 'prefs' ? 'h2' : 'h4', {id: head}, t('chat.muted_list', {n: list.length})),
    h('ul', {}, list.map((p) => h('li', {'data-muted': p.id},
      h('span', {}, playerName(p)), ' ',
      h('button', {type: 'button', class: 'link', 'data-unmute': p.id, 'aria-label': t('chat.unmute', {name: playerName(p)}),
        onclick: async () => {
          try { await unmute(app.conn, p); } catch { /* still listed: try again */ }
        }}, t('chat.unmute_short'))))));
}

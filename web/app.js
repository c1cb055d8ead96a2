// The page: one connection, a hash router (#/, #/room/ID, #/replays, #/replay/ID) and the
// header's connection state.
import {Connection} from './conn.js';
import {LobbyView} from './lobby.js';
import {RoomView} from './room.js';
import {ReplayView, ReplayListView} from './replay.js';
import {h, toast} from './util.js';

const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
const conn = new Connection(`${scheme}//${location.host}/ws`);
const app = {conn, registry: null, view: null};
window.tanbo = app;  // for the curious, and for tests reading the page's state

const CONN_TEXT = {connecting: 'Connecting…', open: 'Connected', closed: 'Disconnected: reconnecting…'};

conn.addEventListener('connstate', (e) => {
  const el = document.getElementById('conn');
  el.dataset.state = e.detail;
  el.textContent = CONN_TEXT[e.detail] || e.detail;
});

conn.addEventListener('ready', async (e) => {
  renderMe();
  if (!app.registry) {
    try {
      app.registry = (await conn.request({type: 'games'})).games;
    } catch (err) {
      toast(`Could not load the games: ${err.message}`);
      return;
    }
  }
  if (!app.view) route();
  else app.view.ready?.(e.detail);
});

conn.addEventListener('message', (e) => app.view?.message?.(e.detail));
conn.addEventListener('error', (e) => {
  if (e.detail && e.detail.message) toast(`${e.detail.code}: ${e.detail.message}`);
});

function renderMe() {
  const me = document.getElementById('me');
  me.replaceChildren();
  if (!conn.player) return;
  const input = h('input', {id: 'name-input', value: conn.player.name, maxlength: 32,
                            'aria-label': 'Your display name', size: 12});
  const form = h('form', {class: 'name-form', onsubmit: (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name || name === conn.player.name) return;
    conn.setName(name);
    conn.restart();
  }}, h('label', {for: 'name-input'}, 'You: '), input, h('button', {type: 'submit'}, 'Rename'));
  me.append(form);
}

export function game(id) {
  return (app.registry || []).find((g) => g.id === id);
}
app.game = game;

function route() {
  if (!app.registry) return;  // ready() routes once the registry is in
  app.view?.unmount?.();
  const main = document.getElementById('main');
  main.replaceChildren();
  const hash = location.hash.replace(/^#/, '') || '/';
  let m;
  if ((m = hash.match(/^\/room\/([^/]+)$/))) app.view = new RoomView(app, decodeURIComponent(m[1]));
  else if ((m = hash.match(/^\/replay\/([^/]+)$/)))
    app.view = new ReplayView(app, decodeURIComponent(m[1]));
  else if (hash === '/replays') app.view = new ReplayListView(app);
  else app.view = new LobbyView(app);
  app.view.mount(main);
}

window.addEventListener('hashchange', route);
conn.start();

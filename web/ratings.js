// Ratings from the public API: a leaderboard per game (/api/leaderboard?game=) and a player's
// page (/api/players/{id}: a rating per game, with a chart of its history drawn from the
// rating_before/rating_after of the player's ranked games, and the recent games with replays).
import {h, s, apiError} from './util.js';
import {t} from './i18n/index.js';
import {gameName, errorText, errorDetails} from './words.js';
import {gameItem} from './replay.js';
import {challengeButton} from './challenges.js';
import {accountMark, playerName} from './player-mark.js';

async function getJson(url) {
  const res = await fetch(url);
  const body = await res.json();
  if (!res.ok) throw apiError(body, res);
  return body;
}

export class LeaderboardView {
  constructor(app, game) {
    this.app = app;
    this.game = app.game(game) ? game : app.registry[0]?.id;
    this.rows = null;
    this.error = null;
  }

  async mount(main) {
    this.main = main;
    this.relabel();
    try { this.rows = (await getJson(`/api/leaderboard?game=${encodeURIComponent(this.game)}&limit=50`)).leaderboard; }
    catch (err) { this.error = err; }
    if (this.app.view === this) this.relabel();
  }

  relabel() {
    const pick = h('select', {id: 'leaderboard-game', onchange: (e) => { location.hash = `#/leaderboard/${e.target.value}`; }},
      this.app.registry.map((g) => h('option', {value: g.id, selected: g.id === this.game}, gameName(g.id, g))));
    let body;
    if (this.error) body = h('p', {role: 'alert'}, t('ratings.failed', {message: errorText(this.error)}), ' ', errorDetails(this.error) ?? '');
    else if (!this.rows) body = h('p', {}, t('app.loading'));
    else if (!this.rows.length) body = h('p', {class: 'muted', id: 'leaderboard-empty'}, t('ratings.none'));
    else body = h('table', {class: 'table', id: 'leaderboard'},
      h('caption', {}, t('ratings.caption', {game: gameName(this.game, this.app.game(this.game))})),
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('ratings.rank')), h('th', {scope: 'col'}, t('ratings.player')),
        h('th', {scope: 'col'}, t('ratings.rating')), h('th', {scope: 'col'}, t('ratings.games')))),
      h('tbody', {}, this.rows.map((r) => h('tr', {},
        h('td', {}, r.rank), h('td', {}, h('a', {href: `#/player/${encodeURIComponent(r.id)}`}, playerName(r) || r.id), accountMark(r)),
        h('td', {}, Math.round(r.rating)), h('td', {}, r.games)))));
    this.main.replaceChildren(h('h2', {}, t('ratings.title')),
      h('p', {}, h('label', {for: 'leaderboard-game'}, t('ratings.game')), ' ', pick, ' ',
        h('a', {href: `#/rules/${this.game}`}, t('lobby.rules'))),
      h('p', {class: 'muted small'}, t('ratings.about')), body);
  }
}

export class PlayerView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.player = null;
    this.history = {};  // game -> [{at, before, after, id}]
    this.error = null;
  }

  async mount(main) {
    this.main = main;
    this.relabel();
    try {
      this.player = await getJson(`/api/players/${encodeURIComponent(this.id)}`);
      await Promise.all(Object.keys(this.player.ratings || {}).map(async (game) => {
        const page = await getJson(`/api/games?player=${encodeURIComponent(this.id)}&game=${encodeURIComponent(game)}&limit=100`);
        this.history[game] = page.games.map((g) => {
          const me = (g.players_info || []).find((p) => p.id === this.id);
          return me && me.rating_after !== undefined ? {at: g.finished_at, before: me.rating_before, after: me.rating_after, id: g.id} : null;
        }).filter(Boolean).reverse();
      }));
    } catch (err) {
      this.error = err;
    }
    if (this.app.view === this) this.relabel();
  }

  relabel() {
    if (this.error) { this.main.replaceChildren(h('h2', {}, t('player.title_plain')), h('p', {role: 'alert'}, t('player.failed', {message: errorText(this.error)}), ' ', errorDetails(this.error) ?? '')); return; }
    if (!this.player) { this.main.replaceChildren(h('h2', {}, t('player.title_plain')), h('p', {}, t('app.loading'))); return; }
    const p = this.player;
    const games = Object.entries(p.ratings || {});
    const me = this.app.conn.player?.id === p.id;
    const challenge = me ? null : challengeButton(this.app, {id: p.id, name: p.name, account: p.account}, Object.keys(p.ratings || {})[0], {id: 'challenge-player', class: 'primary'});
    this.main.replaceChildren(
      h('div', {class: 'player-head'}, h('h2', {id: 'player-name'}, playerName(p), accountMark(p), me ? ` (${t('seat.you')})` : ''), challenge),
      h('section', {'aria-labelledby': 'ratings-h'}, h('h3', {id: 'ratings-h'}, t('player.ratings')),
        games.length ? h('div', {class: 'rating-cards'}, games.map(([game, r]) => h('div', {class: 'rating-card', 'data-game': game},
          h('h4', {}, h('a', {href: `#/leaderboard/${game}`}, gameName(game, this.app.game(game)))),
          h('p', {class: 'rating'}, t('player.rating', {rating: Math.round(r.rating), n: r.games})),
          chart(this.history[game] || [])))) : h('p', {class: 'muted'}, t('player.unrated'))),
      h('section', {'aria-labelledby': 'recent-h'}, h('h3', {id: 'recent-h'}, t('player.recent')),
        p.recent?.length ? h('ul', {class: 'rooms', id: 'player-recent'}, p.recent.map((g) => gameItem(this.app, g)))
                         : h('p', {class: 'muted'}, t('player.no_games'))));
  }
}

// A line of the rating after each ranked game, from the rating before the first one.
function chart(points) {
  if (!points.length) return h('p', {class: 'muted small'}, t('player.no_history'));
  const values = [points[0].before ?? points[0].after, ...points.map((p) => p.after)];
  const lo = Math.min(...values) - 10, hi = Math.max(...values) + 10;
  const W = 300, H = 120, pad = 34;
  const x = (i) => pad + (i * (W - pad - 8)) / Math.max(1, values.length - 1);
  const y = (v) => 8 + ((hi - v) * (H - 24)) / (hi - lo);
  const d = values.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img',
    'aria-label': t('player.chart', {n: points.length, from: Math.round(values[0]), to: Math.round(values.at(-1))})},
    s('line', {x1: pad, x2: W - 8, y1: y(1500), y2: y(1500), class: 'chart-base'}),
    s('text', {x: 2, y: y(hi - 10) + 4, class: 'chart-label'}, Math.round(hi - 10)),
    s('text', {x: 2, y: y(lo + 10) + 4, class: 'chart-label'}, Math.round(lo + 10)),
    s('path', {d, class: 'chart-line'}),
    values.map((v, i) => s('circle', {cx: x(i), cy: y(v), r: 3, class: 'chart-dot'})));
}

// The lobby leads with the games: a card each (game-cards.js), one Play button (play-now.js),
// the other choices folded behind "More options", then "Custom game". Then what is on now, each
// part only when it has something: the player's unfinished games (my-games.js), open rooms and
// live matches (watch_lobby pushes), and while no match is live recent games (GET /api/games).
import {h, toast} from './util.js';
import {t} from './i18n/index.js';
import {seatName, optionsText, levelName, gameName, termsText, errorText, errorDetails, problemsList, recordNames, place, reason, spectatorsTag, isComputer} from './words.js';
import {rememberSeat, rememberCreated} from './seats.js';
import {buildCreateForm} from './create-form.js';
import {savedLevel, chooseLevel, playComputer, DEFAULT_LEVEL} from './cpu-level.js';
import {seekPrefs, setSeekPrefs, seekMessage, CPU_AFTER_S, playChoice, play} from './play-now.js';
import {timerSelect, timerFromKey, timerShort} from './timectl.js';
import {icon} from './icons.js';
import {markedName, tNodes} from './player-mark.js';
import {gameCard, refreshCard, fillPictures} from './game-cards.js';

const RECENT = 5;  // finished games offered while nothing is live

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.rooms = new Map();
    this.selected = app.registry[0]?.id;
  }

  mount(main) {
    this.main = main;
    this.more = new Set();   // the games whose "More options" are open
    this.recent = null;      // the latest finished games (GET /api/games), once loaded
    this.openEl = h('ul', {class: 'rooms', id: 'open-rooms'});
    this.liveEl = h('ul', {class: 'rooms', id: 'live-rooms'});
    this.recentEl = h('ul', {class: 'rooms', id: 'recent-games'});
    this.gamesEl = h('ul', {class: 'games'});
    this.levelEl = h('p', {class: 'level-line', id: 'cpu-level-line'});
    this.customEl = h('details', {class: 'custom', id: 'custom'});
    this.heads = {open: h('h2', {id: 'open-h'}), live: h('h2', {id: 'live-h'}), recent: h('h2', {id: 'recent-h'})};
    this.parts = {
      open: h('section', {'aria-labelledby': 'open-h', class: 'now-part', id: 'open-part'}, this.heads.open, this.openEl),
      live: h('section', {'aria-labelledby': 'live-h', class: 'now-part', id: 'live-part'}, this.heads.live, this.liveEl),
      recent: h('section', {'aria-labelledby': 'recent-h', class: 'now-part', id: 'recent-part', hidden: true}, this.heads.recent, this.recentEl),
    };
    this.myHead = h('h2', {id: 'my-games-h'});
    this.myEl = h('section', {'aria-labelledby': 'my-games-h', class: 'now-part my-part', id: 'my-games', hidden: true});
    this.gamesHead = h('h2', {id: 'games-h'});
    this.lobbyEl = h('div', {class: 'lobby'},
      this.myEl,
      h('section', {'aria-labelledby': 'games-h', class: 'game-list'}, this.gamesHead, this.gamesEl, this.levelEl, this.customEl),
      h('div', {class: 'now'}, this.parts.open, this.parts.live, this.parts.recent));
    main.append(this.lobbyEl);
    this.onPools = () => { this.renderPools(); this.refreshCards(); };
    this.app.playNow.addEventListener('change', this.onPools);
    this.onMine = () => { this.renderMine(); this.renderRooms(); };
    this.app.myGames.addEventListener('change', this.onMine);
    this.relabel();
    this.ready();
    this.loadRecent();
  }

  relabel() {
    this.heads.open.textContent = t('lobby.open');
    this.heads.live.textContent = t('lobby.live');
    this.heads.recent.textContent = t('lobby.recent');
    this.gamesHead.textContent = t('lobby.games');
    this.renderLevel();
    this.renderGames();
    this.renderCustom(false);
    this.renderRooms();
    this.renderMine();
  }

  unmount() {
    this.app.playNow.removeEventListener('change', this.onPools);
    this.app.myGames.removeEventListener('change', this.onMine);
    this.app.conn.unwatchLobby('lobby');
  }

  async ready() {
    try {
      const reply = await this.app.conn.request({type: 'rooms'});
      this.rooms = new Map(reply.rooms.map((r) => [r.room, r]));
      this.app.myGames.noteRooms(reply.rooms);
      this.renderRooms();
      this.app.playNow.setPools(reply.pools);
      this.app.conn.watchLobby('lobby');
    } catch (err) {
      if (err.code !== 'disconnected') toast(t('toast.lobby', {message: errorText(err)}), errorDetails(err));
    }
  }

  message(msg) {
    if (msg.type !== 'lobby') return;
    // A match that ends or goes is a finished game to offer: the list is read again.
    const ended = (msg.changed || []).some((r) => r.status === 'finished' && this.rooms.get(r.room)?.status !== 'finished')
      || (msg.removed || []).some((id) => this.rooms.get(id)?.status === 'playing');
    for (const r of msg.changed || []) this.rooms.set(r.room, r);
    for (const id of msg.removed || []) this.rooms.delete(id);
    this.renderRooms();
    if (ended) this.loadRecent();
    if ((msg.changed || []).some((r) => this.app.myGames.entry(r.room))) this.renderMine();
  }

  // The player's unfinished games, those waiting for them first ("Your turn (N)").
  renderMine() {
    if (!this.myEl) return;
    const mine = this.app.myGames;
    const n = mine.waiting().length;
    this.myEl.hidden = !mine.games.length;
    this.myHead.textContent = n ? t('mygames.badge', {n}) : t('mygames.title');
    this.myEl.replaceChildren(this.myHead, mine.listElement('my-games-list'));
    this.markQuiet();
  }

  // Nothing on now and none of the player's games: the cards take the whole width.
  markQuiet() {
    const quiet = this.myEl.hidden && Object.values(this.parts).every((part) => part.hidden);
    this.lobbyEl.classList.toggle('quiet', quiet);
  }

  // The computer's level, the one Play sets the player against when nobody waits.
  renderLevel() {
    const level = savedLevel();
    this.levelEl.replaceChildren(icon('computer'), ' ', t('lobby.level_is', {level: levelName(level || DEFAULT_LEVEL)}), ' ',
      h('button', {type: 'button', class: 'link', id: 'change-level', onclick: async () => {
        if (await chooseLevel()) { this.renderLevel(); this.renderGames(); }
      }}, t('lobby.level_change')));
  }

  // Who plays each game now: the people seated in its live matches, and those waiting for a
  // game of it (in an open room, or in its pools) other than this player.
  live(g) {
    const me = this.app.conn.player?.id;
    let playing = 0, waiting = 0;
    for (const r of this.rooms.values()) {
      if (r.game !== g.id) continue;
      // A seat the computer holds for a player who dropped out is still that player's game.
      if (r.status === 'playing') playing += r.seats.filter((st) => st.player && st.player.id !== me).length;
      else if (r.status === 'waiting') waiting += r.seats.filter((st) => st.player && st.connected && st.player.id !== me).length;
    }
    for (const p of this.app.playNow.poolsOf(g.id)) waiting += p.waiting - (this.app.playNow.isMine(p) ? 1 : 0);
    return {playing, waiting};
  }

  choice(g) {
    const playNow = this.app.playNow;
    return playChoice(g, [...this.rooms.values()], playNow.poolsOf(g.id), this.app.conn.player?.id, (p) => playNow.isMine(p));
  }

  renderGames() {
    const level = savedLevel();
    this.gamesEl.replaceChildren(...this.app.registry.map((g) => gameCard(g, {
      live: this.live(g),
      choice: this.choice(g),
      onPlay: (origin) => this.play(g, origin),
      open: this.more.has(g.id),
      onToggle: (open) => { if (open) this.more.add(g.id); else this.more.delete(g.id); },
      more: [
        h('div', {class: 'card-actions'},
          h('button', {type: 'button', class: 'play-cpu', 'data-play-cpu': g.id, 'aria-describedby': `game-h-${g.id}`, onclick: () => this.playComputer(g)},
            icon('computer'), ' ', level ? t('lobby.play_cpu_at', {level: levelName(level)}) : t('lobby.play_cpu')),
          this.playNowBlock(g),
          h('button', {type: 'button', class: 'custom-btn', 'data-custom': g.id, onclick: () => this.openCustom(g.id)}, t('lobby.custom'))),
        h('p', {class: 'card-links small'}, h('a', {href: `#/leaderboard/${g.id}`}, t('lobby.leaderboard')))],
    })));
    fillPictures(this.gamesEl, this.app.registry);
  }

  // The cards' counts and what their Play would do, after a lobby push or a pool's change.
  refreshCards() {
    if (!this.gamesEl) return;
    for (const card of this.gamesEl.querySelectorAll('.game-card')) {
      const g = this.app.game(card.dataset.game);
      if (g) refreshCard(card, g, {live: this.live(g), choice: this.choice(g)});
    }
  }

  // Play, once at a time: a second press while the first is on its way makes no second game.
  async play(g, origin) {
    if (this.playing) return;
    this.playing = true;
    try {
      await play(this.app, g, this.choice(g), origin);
    } finally {
      this.playing = false;
    }
  }

  async playComputer(g) {
    await playComputer(this.app, g.id);
    if (this.app.view === this) this.renderLevel();
  }

  // "Play now" and its terms, remembered per game: the time control, ranked, the player count
  // when the game has a choice, and the computer after 30 s; then the pools of the game.
  playNowBlock(g) {
    const prefs = seekPrefs(g);
    const id = (what) => `seek-${what}-${g.id}`;
    const button = h('button', {type: 'button', class: 'play-now', 'data-play-now': g.id, 'aria-describedby': `game-h-${g.id}`,
      onclick: (e) => this.app.playNow.start(seekMessage(g), e.currentTarget)}, icon('play'), ' ', t('playnow.button'));
    const timer = timerSelect({id: id('timer'), 'data-seek-timer': g.id, onchange: (e) => setSeekPrefs(g, {timer: timerFromKey(e.target.value)})},
      prefs.timer);
    const ranked = h('input', {type: 'checkbox', id: id('ranked'), 'data-seek-ranked': g.id, checked: prefs.ranked,
      onchange: (e) => setSeekPrefs(g, {ranked: e.target.checked})});
    const cpu = h('input', {type: 'checkbox', id: id('cpu'), 'data-seek-cpu': g.id, checked: prefs.cpu,
      onchange: (e) => setSeekPrefs(g, {cpu: e.target.checked})});
    let players = null;
    if (g.players.min !== g.players.max) {
      const select = h('select', {id: id('players'), 'data-seek-players': g.id, onchange: (e) => setSeekPrefs(g, {players: Number(e.target.value)})});
      for (let n = g.players.min; n <= g.players.max; ++n) select.append(h('option', {value: n, selected: n === prefs.players}, n));
      players = h('span', {class: 'seek-pref'}, h('label', {for: id('players')}, t('playnow.players')), ' ', select);
    }
    const pools = h('ul', {class: 'pool-list small', 'data-pools': g.id, 'aria-label': t('pool.heading')});
    this.fillPools(g, pools);
    return h('div', {class: 'play-now-block', 'data-slot': 'play-now'},
      button,
      h('div', {class: 'seek-prefs small', role: 'group', 'aria-label': t('playnow.settings')},
        h('span', {class: 'seek-pref'}, h('label', {for: id('timer')}, t('playnow.timer')), ' ', timer),
        players,
        h('span', {class: 'seek-pref check'}, ranked, ' ', h('label', {for: id('ranked')}, t('playnow.ranked'))),
        h('span', {class: 'seek-pref check'}, cpu, ' ', h('label', {for: id('cpu')}, t('playnow.cpu_after', {n: CPU_AFTER_S})))),
      pools);
  }

  // Each pool of the game someone waits in: its terms, how many wait, and Join (the same terms).
  fillPools(g, list) {
    const playNow = this.app.playNow;
    const pools = playNow.poolsOf(g.id);
    if (!pools.length) {
      list.replaceChildren(h('li', {class: 'muted'}, t('pool.none')));
      return;
    }
    list.replaceChildren(...pools.map((p) => {
      const terms = termsText(p, g, {withGame: false});
      const mine = playNow.isMine(p);
      return h('li', {class: `pool${mine ? ' mine' : ''}`, 'data-waiting': p.waiting},
        h('span', {}, tNodes('pool.line', {terms, waiting: h('strong', {}, t('pool.waiting', {n: p.waiting}))}), mine ? ` ${t('pool.you')}` : ''),
        mine ? null : h('button', {type: 'button', class: 'link', 'aria-label': t('pool.join_label', {terms}),
          onclick: (e) => playNow.start(seekMessage(g, p), e.currentTarget)}, t('pool.join')));
    }));
  }

  renderPools() {
    if (!this.gamesEl) return;
    for (const list of this.gamesEl.querySelectorAll('[data-pools]')) {
      const g = this.app.game(list.dataset.pools);
      if (!g) continue;
      const focused = list.contains(document.activeElement);
      this.fillPools(g, list);
      if (focused) list.closest('.game-card').querySelector('[data-play-now]')?.focus({preventScroll: true});
    }
  }

  openCustom(gameId) {
    this.selected = gameId;
    this.renderCustom(true);
    this.customEl.open = true;
    this.customEl.scrollIntoView({block: 'start'});
    this.customEl.querySelector('select[name=game]')?.focus();
  }

  renderCustom(keepOpen) {
    const open = keepOpen || this.customEl.open;
    const form = buildCreateForm(this.app, this.selected, {
      onSelect: (id) => { this.selected = id; this.renderCustom(true); this.customEl.querySelector('select[name=game]')?.focus(); },
      onSubmit: (data) => this.create(data),
    });
    this.customEl.replaceChildren(h('summary', {id: 'custom-h'},
      h('span', {class: 'custom-title'}, t('lobby.custom_title')), h('span', {class: 'custom-hint small muted'}, t('lobby.custom_hint'))),
      h('p', {class: 'muted'}, t(`game.${this.selected}.summary`)), form);
    this.customEl.open = open;
  }

  async create({msg, setup, problems}) {
    problems.replaceChildren();
    if (setup) {
      try { msg.setup = JSON.parse(setup); } catch (err) {
        problems.replaceChildren(h('p', {}, t('create.setup_not_json'), ' ', errorDetails(err) ?? ''));
        return;
      }
    }
    try {
      const created = await this.app.conn.request(msg);
      rememberCreated(created.room);
      location.hash = `#/room/${encodeURIComponent(created.room)}`;
    } catch (err) {
      problems.replaceChildren(h('p', {}, t('create.refused', {message: errorText(err)})), problemsList(msg.game, err.problems));
    }
  }

  // Open rooms and live matches, each part only when it has some; recent games while none is live.
  renderRooms() {
    if (!this.openEl) return;
    const me = this.app.conn.player?.id;
    const rooms = [...this.rooms.values()];
    const open = rooms.filter((r) => r.status === 'waiting');
    // Matches with a person at the board first (docs/web.md, Lobby).
    const here = (r) => r.seats.some((st) => st.player && st.connected && !st.cpu && !isComputer(st.player));
    const live = rooms.filter((r) => r.status === 'playing').sort((a, b) => here(b) - here(a));
    this.openEl.replaceChildren(...open.map((r) => this.roomItem(r, me)));
    this.liveEl.replaceChildren(...live.map((r) => this.roomItem(r, me)));
    this.parts.open.hidden = !open.length;
    this.parts.live.hidden = !live.length;
    this.renderRecent();
    this.refreshCards();
  }

  async loadRecent() {
    try {
      const res = await fetch(`/api/games?limit=${RECENT}`);
      const page = await res.json();
      if (!res.ok || !Array.isArray(page.games)) return;  // nothing to offer: the part stays hidden
      this.recent = page.games;
    } catch {
      return;
    }
    if (this.app.view === this) this.renderRecent();
  }

  renderRecent() {
    const games = this.recent || [];
    const anyLive = [...this.rooms.values()].some((r) => r.status === 'playing');
    this.parts.recent.hidden = anyLive || !games.length;
    this.markQuiet();
    if (this.parts.recent.hidden) return;
    this.recentEl.replaceChildren(...games.map((rec) => this.recentItem(rec)));
  }

  // A finished game: its game, each player's place, and its replay.
  recentItem(rec) {
    const name = recordNames(rec);
    const places = (rec.result?.places || []).map((p, seat) => ({p, seat})).sort((a, b) => a.p - b.p)
      .map(({p, seat}) => t('result.line', {place: place(p), name: name(seat)}));
    return h('li', {class: 'room', 'data-game-record': rec.id},
      h('div', {class: 'room-main'},
        h('strong', {}, gameName(rec.game, this.app.game(rec.game))),
        h('div', {class: 'room-players'}, places.join(t('log.and'))),
        rec.result ? h('div', {class: 'muted small room-options'}, reason(rec.result.reason)) : null),
      h('div', {class: 'room-actions'},
        h('a', {class: 'button', href: `#/replay/${encodeURIComponent(rec.id)}`, 'data-replay': rec.id}, t('replays.open'))));
  }

  roomItem(r, me) {
    const g = this.app.game(r.game);
    const mine = r.seats.some((st) => st.player && st.player.id === me);
    const myTurn = r.status === 'playing' && r.to_move !== null && r.to_move !== undefined && r.seats[r.to_move]?.player?.id === me;
    // Each seat's name, an account holder's with its mark.
    const seatNames = r.seats.map((st) => {
      const name = markedName(st.player, seatName(r.seats, st.seat));
      return st.player && !st.connected ? tNodes('lobby.away', {name}) : name;
    });
    const free = r.seats.filter((st) => !st.player && !st.cpu).length;
    const roomHash = `#/room/${encodeURIComponent(r.room)}`;
    const buttons = [];
    if (mine) {
      buttons.push(h('button', {type: 'button', class: 'primary', onclick: () => { rememberSeat(r.room); location.hash = roomHash; }}, t('lobby.back_to_seat')));
    } else if (r.status === 'waiting' && free > 0) {
      buttons.push(h('button', {type: 'button', class: 'primary', 'data-join': r.room, onclick: () => this.join(r.room)}, t('lobby.join')));
    }
    buttons.push(h('button', {type: 'button', 'data-watch': r.room, onclick: () => { location.hash = roomHash; }}, t('lobby.watch')));
    const extras = [optionsText(r.game, r.options, g)];
    if (r.ranked) extras.push(t('lobby.ranked'));
    const timer = timerShort(r.timer);
    if (timer) extras.push(timer);
    if (r.spectator_chat === false) extras.push(t('lobby.spectator_chat_closed'));
    return h('li', {class: 'room', 'data-room': r.room},
      h('div', {class: 'room-main'},
        h('strong', {}, gameName(r.game, g)), ' ',
        spectatorsTag(r.spectators),
        myTurn ? [' ', h('span', {class: 'tag turn'}, t('mygames.your_turn'))] : null,
        h('div', {class: 'room-players'}, tNodes('lobby.players', {names: seatNames.flatMap((n, i) => (i ? [t('log.and'), n] : [n]))})),
        h('div', {class: 'muted small room-options'}, extras.filter(Boolean).join(t('list.sep')))),
      h('div', {class: 'room-actions'}, buttons));
  }

  async join(room) {
    try {
      await this.app.conn.request({type: 'join', room, as: 'player'});
      rememberSeat(room);
      location.hash = `#/room/${encodeURIComponent(room)}`;
    } catch (err) {
      toast(t('toast.join_refused', {message: errorText(err)}), errorDetails(err));
    }
  }
}

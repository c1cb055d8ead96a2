// Challenges (docs/protocol.md, "Challenges"): "Challenge" on a player's page or on a seat
// opens a small form (game, options, time control, ranked); the challenger then sees "waiting
// for X" with Cancel; a challenge received is shown in the dock wherever the player is, with
// its terms, Accept and Decline; `challenge_ended` says why one ended, on both sides. Whether
// this browser takes challenges is a setting, sent as `challenges {open}` after each hello.
import {h} from './util.js';
import {t} from './i18n/index.js';
import {termsText, errorText, errorDetails, gameName, problemsList, playerName} from './words.js';
import {get, set} from './settings.js';
import {optionField, readOptions, field} from './create-form.js';
import {seekPrefs} from './play-now.js';
import {timerOptions, timerFromKey} from './timectl.js';
import {dockPart, refreshDock, announce} from './dock.js';
import {play as sound} from './sound.js';
import {markedName, tNodes} from './player-mark.js';

const MAX_ENDED = 3;  // ended challenges kept on screen until closed, at most

export function challengesOpen() { return get('challengesOpen') !== 'false'; }

export class Challenges {
  constructor(app) {
    this.app = app;
    this.items = new Map();  // id -> {id, dir: 'in' | 'out', who: {id, name}, terms, ended, busy, error}
    this.el = dockPart('challenges');
    const conn = app.conn;
    conn.addEventListener('challenged', (e) => this.challenged(e.detail));
    conn.addEventListener('challenge_ended', (e) => this.ended(e.detail.challenge, e.detail.reason));
  }

  // After each hello: say whether this connection takes challenges. The challenges this page
  // sent went with the old connection.
  ready({reconnect}) {
    this.app.conn.fire({type: 'challenges', open: challengesOpen()}).catch(() => {});
    if (!reconnect) return;
    for (const c of this.items.values()) if (c.dir === 'out' && !c.ended) c.ended = 'lost';
    this.render();
  }

  // Another identity now: the challenges on screen were the old one's.
  forget() {
    this.items.clear();
    this.render();
  }

  setOpen(open) {
    set('challengesOpen', open);
    this.app.conn.fire({type: 'challenges', open}).catch(() => {});
  }

  challenged(m) {
    this.items.set(m.challenge, {id: m.challenge, dir: 'in', who: m.from, terms: m.terms, ended: null});
    this.render();
    announce(t('challenge.incoming_announce', {name: playerName(m.from), terms: termsText(m.terms, this.app.game(m.terms.game))}));
    sound('turn');
  }

  ended(id, reason) {
    const c = this.items.get(id);
    if (!c) return;
    c.ended = reason;
    c.busy = false;
    this.render();
    announce(this.endedText(c));
  }

  // `paired` (app.js takes the page to the room): that challenge's card is done, and the
  // challenges this player still waits on are withdrawn: a game was found.
  paired(msg) {
    if (msg.challenge) this.items.delete(msg.challenge);
    for (const c of this.items.values()) {
      if (c.dir !== 'out' || c.ended) continue;
      this.items.delete(c.id);
      this.app.conn.request({type: 'cancel', challenge: c.id}).catch(() => {});
    }
    this.render();
  }

  async send(player, terms) {
    const reply = await this.app.conn.request({type: 'challenge', player: player.id, ...terms});
    this.items.set(reply.challenge, {id: reply.challenge, dir: 'out', who: player, terms, ended: null});
    this.render();
    announce(t('challenge.waiting', {name: playerName(player)}));
    /** @type {HTMLElement | null} */ (document.querySelector(`.challenge-card[data-challenge="${CSS.escape(reply.challenge)}"]`))?.focus({preventScroll: true});
  }

  // Accept, decline or cancel: answered `ok`; a refusal is written on the card.
  async answer(c, type) {
    if (c.busy) return;
    c.busy = true;
    c.error = null;
    this.render();
    try {
      await this.app.conn.request({type, challenge: c.id});
      if (type === 'decline' || type === 'cancel') {
        this.items.delete(c.id);
        announce(t(type === 'decline' ? 'challenge.declined_you' : 'challenge.cancelled_you', {name: playerName(c.who)}));
      }
      // Accepted: `paired` follows and takes the page to the room.
    } catch (err) {
      if (err.code === 'no_such_challenge') c.ended = c.ended || 'closed';
      else c.error = errorText(err);
    }
    c.busy = false;
    this.render();
  }

  dismiss(c) {
    this.items.delete(c.id);
    this.render();
    document.getElementById('main')?.focus({preventScroll: true});
  }

  endedText(c) {
    const key = `challenge.ended.${c.ended}`;
    return key in CHALLENGE_ENDED ? t(key, {name: playerName(c.who)}) : t('challenge.ended.other');
  }

  render() {
    // The oldest ended ones go first when too many are kept.
    const ended = [...this.items.values()].filter((c) => c.ended);
    for (const c of ended.slice(0, Math.max(0, ended.length - MAX_ENDED))) this.items.delete(c.id);
    const focused = this.el.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).dataset.focusKey : null;
    this.el.replaceChildren(...[...this.items.values()].map((c) => this.card(c)));
    refreshDock();
    if (focused) this.el.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus({preventScroll: true});
  }

  card(c) {
    const g = this.app.game(c.terms.game);
    const head = `challenge-h-${c.id}`;
    const button = (key, cls, onclick, extra = {}) => h('button', {type: 'button', class: cls, disabled: c.busy,
      'data-focus-key': `${c.id}:${key}`, onclick, ...extra}, t(key));
    const body = [];
    if (c.ended) {
      body.push(h('p', {class: 'challenge-ended', 'data-reason': c.ended}, this.endedText(c)),
        h('div', {class: 'challenge-buttons'}, button('challenge.dismiss', 'dismiss', () => this.dismiss(c))));
    } else if (c.dir === 'in') {
      body.push(h('p', {class: 'challenge-terms'}, termsText(c.terms, g)),
        h('div', {class: 'challenge-buttons'},
          button('challenge.accept', 'primary accept', () => this.answer(c, 'accept')),
          button('challenge.decline', 'decline', () => this.answer(c, 'decline'))));
    } else {
      body.push(h('p', {class: 'challenge-terms'}, termsText(c.terms, g)),
        h('p', {class: 'small'}, t('challenge.waiting_text', {name: playerName(c.who)})),
        h('div', {class: 'challenge-buttons'}, button('challenge.cancel', 'cancel', () => this.answer(c, 'cancel'))));
    }
    if (c.error) body.push(h('p', {class: 'problems', role: 'alert'}, t('challenge.failed', {why: c.error})));
    const name = markedName(c.who);
    const title = c.ended ? tNodes(c.dir === 'in' ? 'challenge.in_title' : 'challenge.out_title', {name})
      : tNodes(c.dir === 'in' ? 'challenge.incoming' : 'challenge.waiting', {name});
    return h('section', {class: `challenge-card ${c.dir}${c.ended ? ' ended' : ''}`, 'data-challenge': c.id, 'data-dir': c.dir,
      tabindex: -1, 'aria-labelledby': head, 'data-focus-key': `${c.id}:card`},
      h('h2', {id: head}, title), body);
  }

  relabel() { this.render(); }
}

// The reasons the page has words for (anything else: "The challenge ended.").
const CHALLENGE_ENDED = Object.fromEntries(['declined', 'cancelled', 'gone', 'accepted', 'lost', 'closed']
  .map((r) => [`challenge.ended.${r}`, true]));

// The games a challenge can be for: two players.
function twoPlayerGames(app) {
  return app.registry.filter((g) => g.players.min <= 2 && g.players.max >= 2);
}

// The challenge form, in a dialog: the game (`game` first when it has two players), its
// options as the Custom game form shows them (the defaults unless changed), the time control
// and ranked (from the game's Play now settings). Sent, it closes; refused, it says why.
export function openChallengeForm(app, player, game = null) {
  const games = twoPlayerGames(app);
  if (!games.length) return;
  let g = games.find((x) => x.id === game) || games[0];
  const dialog = h('dialog', {class: 'confirm challenge-dialog', 'aria-labelledby': 'challenge-form-h'});
  const problems = h('div', {class: 'problems', role: 'alert'});
  const optionsBox = h('details', {class: 'challenge-options'});
  const timer = h('select', {name: 'timer', id: 'challenge-timer'});
  const ranked = h('input', {type: 'checkbox', name: 'ranked', id: 'challenge-ranked'});
  const renderGame = () => {
    const prefs = seekPrefs(g);
    optionsBox.replaceChildren(h('summary', {}, t('challenge.options')),
      h('div', {class: 'challenge-option-fields'}, g.options.map((o) => optionField(g.id, o, 'challenge-opt-'))));
    timer.replaceChildren(...timerOptions(prefs.timer));
    ranked.checked = prefs.ranked;
  };
  const gameSelect = h('select', {name: 'game', id: 'challenge-game', onchange: (e) => {
    g = games.find((x) => x.id === e.target.value);
    renderGame();
  }}, games.map((x) => h('option', {value: x.id, selected: x.id === g.id}, gameName(x.id, x))));
  renderGame();
  const sendBtn = h('button', {type: 'submit', class: 'primary', id: 'challenge-send'}, t('challenge.send'));
  const form = h('form', {id: 'challenge-form', onsubmit: async (e) => {
    e.preventDefault();
    if (e.submitter?.value === 'cancel') { dialog.close(); return; }
    problems.replaceChildren();
    const terms = {game: g.id, players: 2, options: readOptions(form, g, 'challenge-opt-'),
                   timer: timerFromKey(timer.value), ranked: ranked.checked};
    sendBtn.disabled = true;
    try {
      await app.challenges.send(player, terms);
      dialog.close();
    } catch (err) {
      problems.replaceChildren(h('p', {}, t('challenge.refused', {why: errorText(err)}), ' ', errorDetails(err) ?? ''),
        problemsList(g.id, err.problems));
    }
    sendBtn.disabled = false;
  }},
  field(t('challenge.game'), gameSelect, 'challenge-game'),
  optionsBox,
  field(t('playnow.timer'), timer, 'challenge-timer'),
  h('div', {class: 'field'}, h('label', {for: 'challenge-ranked'}, t('create.ranked')), ranked,
    h('small', {class: 'muted'}, t('create.ranked_help'))),
  problems,
  h('p', {class: 'dialog-buttons'},
    h('button', {type: 'submit', value: 'cancel', id: 'challenge-close', formnovalidate: true}, t('challenge.close')), ' ', sendBtn));
  dialog.append(h('h3', {id: 'challenge-form-h'}, t('challenge.title', {name: playerName(player)})),
    h('p', {}, t('challenge.text', {name: playerName(player)})), form);
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  gameSelect.focus();
}

// The "Challenge" button for a player (`player`: {id, name}), or null for oneself.
export function challengeButton(app, player, game, attrs = {}) {
  if (!player || player.id === app.conn.player?.id) return null;
  return h('button', {type: 'button', 'aria-label': t('challenge.button_label', {name: playerName(player)}),
    onclick: () => openChallengeForm(app, player, game), ...attrs}, t('challenge.button'));
}

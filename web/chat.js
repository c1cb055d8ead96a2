// A room's chat (docs/protocol.md, "Chat"). The panel shows the channels the member reads: a
// seated player the players', a spectator the spectators', and a player both once no game is
// being played. Lines come from the history of `joined` and `resumed` and live as `said`, each
// numbered in its channel, so a line that comes twice (a resume after a reload) is shown once;
// `unsaid` takes one away. A text box (280 characters, a counter; Enter sends) and the canned
// phrases, which every reader sees in their own language. Below the box, for the players, a
// quiet line: their channel is published with the game's record once it ends (the spectators'
// is not). From a sender's name: mute or unmute, report, challenge, their page. The room's
// creator opens or closes the spectators' channel.
// Every line is set as text (textContent), never parsed as markup.
import {h} from './util.js';
import {t, language} from './i18n/index.js';
import {errorText, playerName} from './words.js';
import {get, set} from './settings.js';
import {mutes, mutedPlayers, isMuted, mute, unmute, mutedList} from './mutes.js';
import {openChallengeForm} from './challenges.js';
import {accountMark, markedName} from './player-mark.js';

export const PHRASES = ['hello', 'good_game', 'thanks', 'good_luck', 'well_played', 'oops'];
export const MAX_CHARS = 280;
export const MAX_REASON = 500;
const KEPT = 200;  // lines kept per channel
const CHANNELS = ['players', 'spectators'];
// The refusals of `say` the panel words itself; any other is "could not send: why".
const CHAT_ERRORS = new Set(['chat_closed', 'not_your_channel', 'chat_repeated', 'chat_rate_limited', 'bad_text', 'banned']);

// Characters as the server counts them: code points once in NFC.
const chars = (s) => [...s.normalize('NFC')].length;
const sameLine = (a, b) => a.channel === b.channel && a.n === b.n && a.from?.id === b.from?.id && a.at === b.at;
const order = (a, b) => (a.at - b.at) || (a.channel === b.channel ? a.n - b.n : a.channel < b.channel ? -1 : 1);

export class RoomChat {
  constructor(view) {
    this.view = view;
    this.app = view.app;
    this.room = view.room;
    this.lines = [];            // said messages of both channels, in order
    this.error = null;          // the last refusal ({code, message}), shown in the panel
    this.notice = null;         // [key, params]: what was just done (a mute, a report, the switch)
    this.spectatorChat = null;  // the spectators' channel: open (true), closed (false), unknown (null)
    this.unread = 0;
    this.readSpectators = null;
    const saved = get('chatOpen');
    this.open = saved === 'true' || saved === 'false' ? saved === 'true' : innerWidth > 760;
    this.build();
    this.renderMuted();
    this.onMutes = () => { this.renderMuted(); this.render(); };
    mutes.addEventListener('change', this.onMutes);
    this.onBanned = (e) => { if (e.detail?.code === 'banned') this.showError(e.detail); };
    this.app.conn.addEventListener('error', this.onBanned);
    this.app.conn.addEventListener('banned', this.onBanned);
  }

  unmount() {
    mutes.removeEventListener('change', this.onMutes);
    this.app.conn.removeEventListener('error', this.onBanned);
    this.app.conn.removeEventListener('banned', this.onBanned);
  }

  // Who the member is: joined (as a player or a spectator), seated, and the channel written.
  member() { return this.view.role === 'player' || this.view.role === 'spectator'; }
  seated() { return this.view.seat !== null && this.view.seat !== undefined; }
  writes() { return this.seated() ? 'players' : 'spectators'; }
  reads(channel) {
    if (!this.member()) return false;
    if (channel === 'players') return this.seated();
    return !this.seated() || this.view.msg?.status !== 'playing';
  }
  creator() { return this.seated() && this.view.seat === 0 && this.view.created; }
  // The game is over: its chat is published with it now, and the spectators' switch has no
  // game left to guard.
  over() { return this.view.msg?.status === 'finished'; }

  // The last line seen in each channel, for `resume`.
  seen() {
    const out = {};
    for (const c of CHANNELS) out[c] = Math.max(0, ...this.lines.filter((l) => l.channel === c).map((l) => l.n));
    return out;
  }

  build() {
    this.toggleEl = h('button', {type: 'button', id: 'chat-toggle', class: 'chat-toggle', 'aria-controls': 'chat-body',
      onclick: () => this.setOpen(!this.open)});
    this.headEl = h('h3', {id: 'chat-h', class: 'chat-head'}, this.toggleEl);
    this.readsEl = h('p', {class: 'chat-reads small muted', id: 'chat-reads'});
    this.listEl = h('ul', {class: 'chat-lines', id: 'chat-lines'});
    this.logEl = h('div', {class: 'chat-log', id: 'chat-log', role: 'log', tabindex: 0, 'aria-labelledby': 'chat-h'}, this.listEl);
    this.errorEl = h('p', {class: 'chat-error', id: 'chat-error', role: 'alert'});
    this.noticeEl = h('p', {class: 'chat-notice small', id: 'chat-notice', role: 'status'});
    this.closedEl = h('p', {class: 'chat-closed small', id: 'chat-closed'});
    this.inputLabel = h('label', {for: 'chat-input', class: 'sr-only', id: 'chat-input-label'});
    this.input = h('input', {type: 'text', id: 'chat-input', autocomplete: 'off', enterkeyhint: 'send', spellcheck: 'true',
      'aria-describedby': 'chat-public chat-count', oninput: () => this.counted()});
    this.countEl = h('span', {class: 'chat-count small muted', id: 'chat-count'});
    this.publicEl = h('span', {class: 'chat-public small muted', id: 'chat-public'});
    this.sendEl = h('button', {type: 'submit', id: 'chat-send', class: 'primary'});
    this.formEl = h('form', {class: 'chat-form', id: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.sendText(); }},
      this.inputLabel, h('div', {class: 'chat-input-row'}, this.input, this.sendEl),
      h('div', {class: 'chat-form-foot'}, this.publicEl, this.countEl));
    this.phrasesEl = h('div', {class: 'chat-phrases', id: 'chat-phrases', role: 'group'});
    this.switchInput = h('input', {type: 'checkbox', id: 'chat-spectators-open', onchange: (e) => this.setSpectatorChat(e.target.checked)});
    this.switchLabel = h('label', {for: 'chat-spectators-open'});
    this.switchEl = h('p', {class: 'chat-switch check-row', id: 'chat-switch'}, this.switchInput, ' ', this.switchLabel);
    this.mutedEl = h('div', {class: 'chat-muted-box'});
    this.bodyEl = h('div', {class: 'chat-body', id: 'chat-body'}, this.readsEl, this.logEl, this.errorEl, this.noticeEl,
      this.closedEl, this.formEl, this.phrasesEl, this.switchEl, this.mutedEl);
    this.el = h('section', {class: 'chat', id: 'chat', 'aria-labelledby': 'chat-h'}, this.headEl, this.bodyEl);
    this.counted();
  }

  setOpen(open) {
    this.open = open;
    set('chatOpen', open);
    if (open) this.unread = 0;
    this.render();
    if (open) this.scrollDown(true);
  }

  // The history of `joined` or `resumed`.
  history(chat) {
    if (!chat) return;
    let added = false;
    for (const c of CHANNELS) for (const line of chat[c] || []) added = this.add(line) || added;
    if (added) { this.render(); this.scrollDown(true); }
  }

  add(line) {
    if (!line || !CHANNELS.includes(line.channel) || !Number.isInteger(line.n)) return false;
    if (this.lines.some((l) => sameLine(l, line))) return false;
    this.lines.push(line);
    this.lines.sort(order);
    const ofChannel = this.lines.filter((l) => l.channel === line.channel);
    if (ofChannel.length > KEPT) this.lines.splice(this.lines.indexOf(ofChannel[0]), 1);
    return true;
  }

  said(msg) {
    if (!this.add(msg)) return;
    const mine = msg.from?.id === this.app.conn.player?.id;
    if (!this.open && !mine && this.shows(msg)) this.unread++;
    const atEnd = this.atEnd();
    this.render();
    this.scrollDown(atEnd || mine);
  }

  unsaid(msg) {
    const before = this.lines.length;
    this.lines = this.lines.filter((l) => !(l.channel === msg.channel && l.n === msg.n));
    if (this.lines.length !== before) this.render();
  }

  shows(line, muted = new Set(mutedPlayers().map((p) => p.id))) {
    return this.reads(line.channel) && !muted.has(line.from?.id);
  }

  // After a state: the channels read may have changed (the game started or ended). A player
  // who starts reading the spectators' channel asks for its history.
  update() {
    const reads = this.reads('spectators');
    if (this.readSpectators === false && reads && this.seated() && this.view.msg) this.view.chatHistory();
    this.readSpectators = reads;
    const sig = [this.member(), this.reads('players'), reads, this.writes(), this.creator(), this.over()].join();
    if (sig !== this.sig) this.render();
    this.sig = sig;
  }

  atEnd() { return this.logEl.scrollHeight - this.logEl.scrollTop - this.logEl.clientHeight < 24; }
  scrollDown(yes) { if (yes) this.logEl.scrollTop = this.logEl.scrollHeight; }

  counted() {
    let v = this.input.value;
    if ([...v].length > MAX_CHARS) {
      v = [...v].slice(0, MAX_CHARS).join('');
      this.input.value = v;
    }
    const n = chars(v);
    this.countEl.textContent = t('chat.count', {n, max: MAX_CHARS});
    this.countEl.classList.toggle('full', n >= MAX_CHARS);
  }

  relabel() {
    this.counted();
    this.renderMuted();
    this.render();
  }

  // Everything in the panel but the static parts; the text box, the phrases and the switch
  // stay the same elements (focus and typing are kept), the lines keep focus on their name.
  render() {
    const me = this.app.conn.player?.id;
    const both = this.reads('players') && this.reads('spectators');
    this.el.hidden = !this.member();
    this.toggleEl.setAttribute('aria-expanded', String(this.open));
    if (this.open) this.unread = 0;
    this.toggleEl.replaceChildren(h('span', {class: 'chat-arrow', 'aria-hidden': 'true'}, this.open ? '▾' : '▸'), ' ', t('chat.title'));
    if (this.unread) this.toggleEl.append(h('span', {class: 'chat-unread', id: 'chat-unread'}, t('chat.unread', {n: this.unread})));
    this.bodyEl.hidden = !this.open;
    this.readsEl.textContent = both ? t('chat.reads.both') : t(`chat.reads.${this.writes()}`);
    const focused = this.listEl.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).dataset.focusKey : null;
    const muted = new Set(mutedPlayers().map((p) => p.id));
    const shown = this.lines.filter((l) => this.shows(l, muted));
    this.listEl.replaceChildren(...(shown.length ? shown.map((l) => this.lineEl(l, me, both))
      : [h('li', {class: 'chat-empty muted'}, t('chat.empty'))]));
    if (focused) this.listEl.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus({preventScroll: true});
    this.errorEl.textContent = this.error ? this.errorWords(this.error) : '';
    this.errorEl.hidden = !this.error;
    this.noticeEl.textContent = this.notice ? t(...this.notice) : '';
    this.noticeEl.hidden = !this.notice;
    const channel = this.writes();
    const closed = channel === 'spectators' && this.spectatorChat === false;
    this.closedEl.textContent = closed ? t('chat.closed_note') : '';
    this.closedEl.hidden = !closed;
    this.publicEl.textContent = channel === 'players' ? t(this.over() ? 'chat.public_note_over' : 'chat.public_note') : '';
    this.publicEl.hidden = channel !== 'players';
    this.inputLabel.textContent = t(`chat.label.${channel}`);
    this.input.placeholder = t(`chat.placeholder.${channel}`);
    this.sendEl.textContent = t('chat.send');
    this.phrasesEl.setAttribute('aria-label', t('chat.phrases'));
    if (!this.phrasesEl.childElementCount)
      this.phrasesEl.append(...PHRASES.map((p) => h('button', {type: 'button', class: 'phrase', 'data-phrase': p,
        onclick: () => this.send({phrase: p})})));
    for (const b of this.phrasesEl.children) b.textContent = t(`chat.phrase.${b.dataset.phrase}`);
    this.switchEl.hidden = !this.creator() || this.over();
    this.switchInput.checked = this.spectatorChat !== false;
    this.switchLabel.textContent = t('chat.spectators_switch');
  }

  renderMuted() {
    const focused = this.mutedEl.contains(document.activeElement);
    this.mutedEl.replaceChildren(mutedList(this.app, 'chat'));
    if (focused) this.input.focus({preventScroll: true});
  }

  lineEl(l, me, both) {
    const mine = l.from?.id === me;
    const who = l.from ? playerName(l.from) : '?';
    const time = new Date(l.at);
    const name = mine || !l.from?.id
      ? h('strong', {class: 'chat-name me'}, who)
      : h('button', {type: 'button', class: 'link chat-name', 'aria-haspopup': 'dialog', 'data-focus-key': `${l.channel}:${l.n}`,
          title: t('chat.who_title', {name: who}), onclick: (e) => this.openMenu(l.from, e.currentTarget)}, who);
    // The line itself: plain text, or the phrase in this reader's words.
    const text = l.phrase
      ? h('span', {class: 'chat-text phrase', 'data-phrase': l.phrase}, t(`chat.phrase.${l.phrase}`))
      : h('span', {class: 'chat-text'});
    if (!l.phrase) text.textContent = String(l.text ?? '');
    return h('li', {class: `chat-line${mine ? ' mine' : ''}`, 'data-channel': l.channel, 'data-n': l.n, 'data-from': l.from?.id ?? ''},
      h('span', {class: 'chat-meta'},
        h('time', {class: 'chat-time', datetime: time.toISOString()},
          new Intl.DateTimeFormat(language(), {hour: 'numeric', minute: '2-digit'}).format(time)), ' ',
        both && l.channel === 'spectators' ? [h('span', {class: 'tag chat-tag'}, t('chat.tag.spectators')), ' '] : null,
        name, accountMark(l.from), h('span', {class: 'chat-sep'}, t('chat.sep'))),
      text);
  }

  errorWords(err) {
    return CHAT_ERRORS.has(err.code) ? t(`chat.error.${err.code}`) : t('chat.failed', {why: errorText(err)});
  }

  showError(err) {
    this.error = {code: err.code, message: err.message};
    this.notice = null;
    this.render();
  }

  sendText() {
    const text = this.input.value.trim();
    if (!text) { this.input.focus(); return; }
    this.send({text}, this.input.value);
  }

  // say {room, channel, text | phrase}: the line comes back as `said`, then `ok`.
  async send(line, typed = null) {
    const channel = this.writes();
    try {
      await this.app.conn.request({type: 'say', room: this.room, channel, ...line});
      this.error = null;
      if (channel === 'spectators') this.spectatorChat = true;
      if (typed !== null && this.input.value === typed) { this.input.value = ''; this.counted(); }
    } catch (err) {
      if (err.code === 'chat_closed') this.spectatorChat = false;
      this.error = {code: err.code, message: err.message};
    }
    this.notice = null;
    this.render();
  }

  async setSpectatorChat(open) {
    try {
      await this.app.conn.request({type: 'spectator_chat', room: this.room, open});
      this.spectatorChat = open;
      this.error = null;
      this.notice = [open ? 'chat.spectators_opened' : 'chat.spectators_closed'];
    } catch (err) {
      this.error = {code: err.code, message: err.message};
    }
    this.render();
  }

  // Whether the spectators' channel is open, from the room's entry in the lobby's list.
  async fetchOpen(game) {
    try {
      const reply = await this.app.conn.request({type: 'rooms', game});
      const entry = (reply.rooms || []).find((r) => r.room === this.room);
      if (entry && typeof entry.spectator_chat === 'boolean' && this.spectatorChat === null) {
        this.spectatorChat = entry.spectator_chat;
        this.render();
      }
    } catch { /* not known: the switch shows it open, the server says when it is not */ }
  }

  // What can be done from a sender's name: mute or unmute, report, challenge, their page.
  openMenu(player, origin) {
    const name = playerName(player);
    const dialog = h('dialog', {class: 'confirm chat-menu', id: 'chat-menu', 'aria-labelledby': 'chat-menu-h'});
    const close = () => dialog.close();
    const muted = isMuted(player.id);
    dialog.append(h('h3', {id: 'chat-menu-h'}, markedName(player)),
      h('div', {class: 'chat-menu-buttons'},
        h('button', {type: 'button', id: muted ? 'chat-unmute' : 'chat-mute', onclick: () => { close(); this.toggleMute(player); }},
          t(muted ? 'chat.unmute' : 'chat.mute', {name})),
        h('button', {type: 'button', id: 'chat-report', onclick: () => { close(); this.openReport(player, origin); }},
          t('chat.report', {name})),
        h('button', {type: 'button', id: 'chat-challenge', onclick: () => { close(); openChallengeForm(this.app, player, this.view.msg?.game); }},
          t('challenge.button_label', {name})),
        h('a', {href: `#/player/${encodeURIComponent(player.id)}`, class: 'button', id: 'chat-profile', onclick: close},
          t('chat.profile', {name})),
        h('button', {type: 'button', id: 'chat-menu-close', onclick: close}, t('chat.close'))));
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (origin?.isConnected && !document.querySelector('dialog[open]')) origin.focus({preventScroll: true});
    });
    document.body.append(dialog);
    dialog.showModal();
  }

  async toggleMute(player) {
    const was = isMuted(player.id);
    try {
      await (was ? unmute : mute)(this.app.conn, player);
      this.error = null;
      this.notice = [was ? 'chat.unmuted' : 'chat.muted', {name: playerName(player)}];
    } catch (err) {
      this.error = {code: err.code, message: err.message};
      this.notice = null;
    }
    this.render();
    this.input.focus({preventScroll: true});
  }

  // Report: a reason (1 to 500 characters) for the server's operators; the room is named.
  openReport(player, origin) {
    const name = playerName(player);
    const dialog = h('dialog', {class: 'confirm report-dialog', id: 'report-dialog', 'aria-labelledby': 'report-h'});
    const reason = h('textarea', {id: 'report-reason', name: 'reason', rows: 3, required: true, maxlength: MAX_REASON});
    const problems = h('p', {class: 'problems', role: 'alert'});
    const send = h('button', {type: 'submit', class: 'primary', id: 'report-send'}, t('chat.report_send'));
    const form = h('form', {id: 'report-form', onsubmit: async (e) => {
      e.preventDefault();
      if (e.submitter?.value === 'cancel') { dialog.close(); return; }
      const text = reason.value.trim();
      if (!text) { problems.textContent = t('chat.report_empty'); reason.focus(); return; }
      send.disabled = true;
      try {
        await this.app.conn.request({type: 'report', player: player.id, room: this.room, reason: text});
        this.error = null;
        this.notice = ['chat.reported', {name}];
        dialog.close();
        this.render();
      } catch (err) {
        problems.textContent = t('chat.report_failed', {why: errorText(err)});
      }
      send.disabled = false;
    }},
    h('label', {for: 'report-reason'}, t('chat.report_reason')), reason,
    h('small', {class: 'muted'}, t('chat.report_note', {max: MAX_REASON})),
    problems,
    h('p', {class: 'dialog-buttons'},
      h('button', {type: 'submit', value: 'cancel', id: 'report-cancel', formnovalidate: true}, t('chat.report_cancel')), ' ', send));
    dialog.append(h('h3', {id: 'report-h'}, t('chat.report_title', {name})), form);
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (origin?.isConnected) origin.focus({preventScroll: true});
    });
    document.body.append(dialog);
    dialog.showModal();
    reason.focus();
  }
}

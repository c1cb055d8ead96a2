// Optional accounts (docs/web.md, "Accounts"): the header's Sign in and the Account part of its
// drop-down. A guest claims an account or logs in to one, or recovers one with the code shown
// once at the claim; an account changes its password, makes a new code, sees and ends its
// sessions (sessions.js), logs out, exports its data and deletes itself. Each form is a dialog
// saying a refusal in the player's words; a change of identity is said once welcomed.
import {h, toast} from './util.js';
import {t} from './i18n/index.js';
import {errorText, errorDetails} from './words.js';
import {playerName} from './player-mark.js';

// The sessions' dialog, loaded when first opened: a visit to the lobby needs none of it.
async function sessionsDialog() { return (await import('./sessions.js')).openSessions; }
// Mail's forms (mail.js), loaded once the server says it sends mail: most servers send none.
/** @type {Promise<typeof import('./mail.js')> | null} */
let mailKit = null;
const loadMail = () => (mailKit ??= import('./mail.js'));

// Whether the server sends mail (GET /api/server), asked once: false when it cannot be asked.
async function serverSendsMail() {
  try {
    const res = await fetch('/api/server');
    return res.ok && (await res.json())?.mail === true;
  } catch {
    return false;
  }
}

// The refusals the account forms have a sentence for; the others go through errorText.
const CODES = new Set(['bad_login', 'login_locked', 'username_taken', 'weak_password', 'bad_name', 'name_reserved',
  'no_account', 'games_in_progress', 'unauthorized', 'accounts_unavailable', 'bad_message', 'rate_limited',
  'bad_mail', 'mail_taken', 'expired_link', 'mail_unavailable']);
// Where the server's own message adds something to the sentence (why a name or a password was
// refused, how long a lock lasts), it is folded beneath it (errorDetails).
const DETAIL = new Set(['bad_name', 'name_reserved', 'weak_password', 'login_locked', 'accounts_unavailable']);

// A refusal as the forms show it: the sentence, the server's words, and for games_in_progress
// a link to each unfinished room.
function sentenceOf(err) {
  const code = err?.code;
  return CODES.has(code) ? t(`account.error.${code}`, {rule: t('name.rule')}) : errorText(err);
}

function refusal(err) {
  const code = err?.code;
  const sentence = sentenceOf(err);
  const parts = [h('span', {class: 'account-why', 'data-code': code || ''}, sentence)];
  const details = DETAIL.has(code) ? errorDetails(err) : null;
  if (details) parts.push(' ', h('small', {class: 'account-detail muted'}, details));
  // The server answers a login that comes too soon after failed ones as it does a wrong password.
  if (code === 'bad_login') parts.push(' ', h('small', {class: 'account-detail muted'}, t('account.error.bad_login_hint')));
  const rooms = Array.isArray(err?.rooms) ? err.rooms.map((r) => (typeof r === 'string' ? r : r?.room)).filter(Boolean) : [];
  if (code === 'games_in_progress' && rooms.length)
    parts.push(h('ul', {class: 'account-rooms'}, rooms.map((room) => h('li', {},
      h('a', {href: `#/room/${encodeURIComponent(room)}`, onclick: () => closeDialogs()}, t('room.title_plain', {room}))))));
  return parts;
}

// A dialog over the page: the drop-down closes under it (it would show around it), and opens
// again after the last dialog of a chain (Log in, Create, the code); focus back to the opener.
let chain = null;  // {panel: whether the drop-down was open, back: the opener's id}
function showModal(dialog) {
  const prefs = /** @type {HTMLDetailsElement | null} */ (document.getElementById('prefs'));
  chain ??= {panel: !!prefs?.open, back: document.activeElement?.id};
  if (prefs) prefs.open = false;
  dialog.addEventListener('close', () => {
    dialog.remove();
    // After what a closing dialog starts (the next of the chain is opened in a timeout).
    setTimeout(() => {
      if (!chain || document.querySelector('dialog[open]')) return;
      const {panel, back} = chain;
      chain = null;
      if (panel && prefs) prefs.open = true;
      const el = [document.getElementById(back), panel ? document.querySelector('#account button:not([disabled])') : null,
        document.getElementById('sign-in'), prefs?.querySelector('summary')].find((x) => x?.checkVisibility?.());
      /** @type {HTMLElement} */ (el)?.focus({preventScroll: true});
    });
  });
  document.body.append(dialog);
  dialog.showModal();
}

function closeDialogs() {
  for (const d of document.querySelectorAll('dialog.account-dialog[open]')) /** @type {HTMLDialogElement} */ (d).close();
}

// An HTTP refusal ({"error": {code, message}}) as an Error with its code, like a WebSocket one.
async function httpError(res) {
  let body = null;
  try { body = await res.json(); } catch { /* not JSON: the status says it */ }
  const e = body?.error || {};
  const err = new Error(e.message || `HTTP ${res.status}`);
  err.code = e.code || `http_${res.status}`;
  err.rooms = e.rooms;
  return err;
}

async function call(url, init) {
  try {
    return await fetch(url, init);
  } catch (cause) {
    const err = new Error(cause.message);
    err.code = 'disconnected';
    throw err;
  }
}

export class Account extends EventTarget {
  constructor(app) {
    super();
    this.app = app;
    this.notice = null;  // [key, params]: the last thing done, said in the panel
    this.error = null;   // a refusal of a button of the panel itself (log out, export)
    /** @type {[string, Record<string, string>] | null} */
    this.after = null;   // [key, params]: what to say once the next identity is welcomed
    this.busy = false;
    this.mail = false;       // whether the server sends mail (GET /api/server)
    /** @type {typeof import('./mail.js') | null} */
    this.kit = null;         // mail.js, once this.mail
    /** @type {{mail: string | null, pending: string | null} | null} */
    this.mailState = null;   // the account's address, once asked
    this.playBots = null;    // whether the account plays bots (GET /api/me/bot), once asked
    const conn = app.conn;
    serverSendsMail().then((mail) => (mail ? loadMail() : null)).then((kit) => {
      if (!kit) return;
      this.kit = kit;
      this.mail = true;
      this.refreshMail();
    }, () => {});
    conn.addEventListener('session-ended', (e) => {
      // Ended by this page's own logout or deletion (the server closes its connections too):
      // that is what gets said.
      if (!this.after) this.after = ['account.session_ended', {username: e.detail.username}];
    });
    // A guest that claimed an account: its address (none yet) is asked for.
    conn.addEventListener('account', () => { this.refreshMail(); this.refreshBots(); });
    // The account's setting, asked once per identity the connection is welcomed as.
    conn.addEventListener('ready', (e) => { if (e.detail.changed || this.playBots === null) this.refreshBots(); });
  }

  changed() { this.dispatchEvent(new Event('change')); }

  say(key, params) {
    this.notice = [key, params];
    this.error = null;
    toast(t(key, params));
    this.changed();
  }

  // What mail.js needs of the account's helpers.
  mailContext() { return {conn: this.app.conn, call, httpError, sentence: sentenceOf}; }

  // The account's address, asked again (none for a guest, or where the server sends no mail).
  refreshMail() {
    this.mailState = null;
    this.changed();
    if (!this.kit || !this.app.conn.account || !this.app.conn.token) return;
    this.kit.mailState(this.mailContext()).then((state) => {
      this.mailState = state;
      this.changed();
    }, () => {});
  }

  // Whether the account plays bots (docs/bots-write.md): off until the person turns it on.
  refreshBots() {
    this.playBots = null;
    const {account, token} = this.app.conn;
    if (!account || !token) return;
    call('/api/me/bot', {headers: {authorization: `Bearer ${token}`}}).then((res) => (res.ok ? res.json() : null))
      .then((flags) => { this.playBots = flags?.play_bots ?? null; this.changed(); }, () => {});
  }

  async setPlayBots(on) {
    const token = this.app.conn.token;
    try {
      const res = await call('/api/me/play_bots', {method: 'PUT', headers: {authorization: `Bearer ${token}`,
        'content-type': 'application/json'}, body: JSON.stringify({play_bots: on})});
      if (!res.ok) throw await httpError(res);
      this.playBots = (await res.json()).play_bots;
      this.error = null;
    } catch (err) {
      this.error = err;
    }
    this.changed();
  }

  // A refusal with no form to stand beside: said as a toast.
  sayRefusal(sentence) {
    this.notice = null;
    toast(sentence);
    this.changed();
  }

  // A link from a mail: #/reset/TOKEN or #/confirm-mail/TOKEN.
  async openMailLink(kind, token) {
    let kit;
    try {
      kit = await loadMail();
    } catch {
      toast(t('toast.view_failed'));
      return;
    }
    if (kind === 'reset') kit.openReset(this, token, this.mailContext());
    else kit.confirmMail(this, token, this.mailContext());
  }

  // "Forgot your password?": by mail where the server sends it, else the recovery code.
  openForgotten() {
    if (this.kit) this.kit.openForgot(this, this.mailContext());
    else this.openRecover();
  }

  // A welcome for another identity than before: say why, with the new player's name.
  identityChanged(player) {
    this.refreshMail();
    if (!this.after) return;
    const [key, params] = this.after;
    this.after = null;
    this.say(key, {...params, name: playerName(player)});
  }

  // The header's "Sign in", in plain sight on every screen while this browser is a guest: it
  // opens the login, which leads on to creating an account or recovering one.
  renderSignIn() {
    const button = document.getElementById('sign-in');
    if (!button) return;
    button.hidden = !!this.app.conn.account;
    button.textContent = t('account.sign_in');
    button.onclick = () => this.openLogin();
  }

  // The panel's part: who this browser is and what it can do about it.
  section() {
    const conn = this.app.conn;
    const account = conn.account;
    const button = (id, key, onclick, cls) => h('button', {type: 'button', id, class: cls, disabled: this.busy, onclick}, t(key));
    const parts = [h('h2', {id: 'account-h'}, t('account.title'))];
    if (account) {
      parts.push(h('p', {id: 'account-user', class: 'account-user'}, t('account.you_are', {username: account.username})),
        ...(this.kit ? this.kit.mailPart(this, button) : []),
        h('p', {class: 'check-row'}, h('input', {type: 'checkbox', id: 'account-play-bots', checked: !!this.playBots,
          disabled: this.playBots === null, onchange: (e) => this.setPlayBots(e.target.checked)}), ' ',
        h('label', {for: 'account-play-bots'}, t('account.play_bots'))),
        h('div', {class: 'account-buttons'},
          button('account-password', 'account.change_password', () => this.openChangePassword()),
          button('account-new-code', 'account.new_code', () => this.openNewCode()),
          button('account-sessions', 'account.sessions', () => sessionsDialog().then((open) => open({conn, call, httpError, refusal, showModal}),
            () => toast(t('toast.view_failed')))),
          button('account-export', 'account.export', () => this.exportData()),
          button('account-logout', 'account.logout', () => this.logout(false)),
          button('account-logout-all', 'account.logout_everywhere', () => this.logout(true)),
          button('account-delete', 'account.delete', () => this.openDelete(), 'danger-outline')));
    } else {
      parts.push(h('p', {class: 'small muted'}, t('account.guest_note')),
        h('div', {class: 'account-buttons'},
          button('account-claim', 'account.claim', () => this.openClaim(), 'primary'),
          button('account-login', 'account.login', () => this.openLogin()),
          button('account-export', 'account.export', () => this.exportData())));
    }
    parts.push(h('p', {id: 'account-notice', class: 'account-notice small', role: 'status'}, this.notice ? t(...this.notice) : ''),
      h('div', {id: 'account-error', class: 'problems', role: 'alert'}, this.error ? refusal(this.error) : ''));
    return h('section', {class: 'account', id: 'account', 'aria-labelledby': 'account-h'}, parts);
  }

  // A form in a dialog: its fields, the refusal beside them, Cancel and the action. `run` gets
  // the values by field name and closes the dialog by resolving; a thrown refusal stays shown.
  /** @param {{id: string, title: string, text?: string, fields: object[], submit: string, danger?: boolean, check?: string, run: Function, extra?: Function}} form */
  dialog({id, title, text, fields, submit, danger, check, run, extra}) {
    const dialog = h('dialog', {class: 'confirm account-dialog', id: `${id}-dialog`, 'aria-labelledby': `${id}-h`});
    const problems = h('div', {class: 'problems', role: 'alert', id: `${id}-problems`});
    const inputs = {};
    const rows = fields.map((f) => {
      const input = h('input', {id: `${id}-${f.name}`, name: f.name, type: f.type || 'password', required: f.required !== false,
        autocomplete: f.autocomplete, value: f.value, hidden: f.hidden, readonly: f.hidden,
        maxlength: f.maxlength || (f.type === 'text' ? 64 : 256), spellcheck: 'false', autocapitalize: 'none',
        'aria-describedby': f.help ? `${id}-${f.name}-help` : null});
      inputs[f.name] = input;
      if (f.hidden) return input;
      return h('div', {class: 'account-field'}, h('label', {for: input.id}, t(f.label)), input,
        f.help ? h('small', {class: 'muted', id: `${id}-${f.name}-help`}, f.help) : null);
    });
    let box = null;
    if (check) {
      box = h('input', {type: 'checkbox', id: `${id}-check`, name: 'check'});
      rows.push(h('p', {class: 'check-row'}, box, ' ', h('label', {for: box.id}, t(check))));
    }
    const send = h('button', {type: 'submit', class: danger ? 'danger' : 'primary', id: `${id}-submit`}, t(submit));
    const form = h('form', {id: `${id}-form`, class: 'account-form', onsubmit: async (e) => {
      e.preventDefault();
      if (e.submitter?.value === 'cancel') { dialog.close(); return; }
      problems.replaceChildren();
      const values = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value]));
      send.disabled = true;
      try {
        await run(values, box, (key) => { throw Object.assign(new Error(t(key)), {local: key}); });
        dialog.close();
      } catch (err) {
        problems.replaceChildren(err.local ? h('span', {class: 'account-why', 'data-code': err.local}, err.message) : h('div', {}, refusal(err)));
        const first = fields.find((f) => !f.hidden);
        if (err.code === 'bad_name' || err.code === 'username_taken' || err.code === 'name_reserved') inputs.username?.focus();
        else if (first) inputs[first.name].focus();
      }
      send.disabled = false;
    }},
    text ? h('p', {}, text) : null,
    rows, problems,
    h('p', {class: 'dialog-buttons'},
      h('button', {type: 'submit', value: 'cancel', id: `${id}-cancel`, formnovalidate: true}, t('account.cancel')), ' ', send),
    extra ? h('p', {class: 'account-links'}, extra(() => dialog.close())) : null);
    dialog.append(h('h3', {id: `${id}-h`}, t(title)), form);
    showModal(dialog);
    inputs[fields.find((f) => !f.hidden).name].focus();
    return dialog;
  }

  openClaim() {
    const conn = this.app.conn;
    this.dialog({id: 'claim', title: 'account.claim_title', submit: 'account.claim_submit',
      text: t('account.claim_text', {name: playerName(conn.player)}),
      fields: [
        // A guest still under the server's name ("Guest 5ed6") may choose the one others see.
        conn.player?.default_name ? {name: 'display', label: 'prefs.name', type: 'text', autocomplete: 'nickname', required: false,
          maxlength: 24, help: t('account.display_help', {name: playerName(conn.player)})} : null,
        {name: 'username', label: 'account.username', type: 'text', autocomplete: 'username', help: t('account.username_help', {rule: t('name.rule')})},
        {name: 'password', label: 'account.password', autocomplete: 'new-password', help: t('account.password_help')},
        {name: 'confirm', label: 'account.confirm_password', autocomplete: 'new-password'}].filter(Boolean),
      run: async (values, _, local) => {
        const {username, password, confirm} = values;
        if (password !== confirm) local('account.mismatch');
        const name = username.normalize('NFC').trim();
        const ok = await conn.claim(name, password);
        this.say('account.claimed', {username: name});
        // The name others see, when chosen here: the username is only for logging in.
        const display = values.display?.normalize('NFC').trim();
        if (display && display !== conn.player?.name) {
          conn.setName(display);
          conn.restart();
        }
        if (ok?.recovery_code) setTimeout(() => this.showCode(ok.recovery_code, 'account.code_text_claim'));
      }});
  }

  // The recovery code, said once by the server: shown large, with a copy button and a box to tick
  // before the dialog may close, since nothing shows it again.
  showCode(code, textKey) {
    const dialog = h('dialog', {class: 'confirm account-dialog code-dialog', id: 'code-dialog', 'aria-labelledby': 'code-h'});
    const box = h('input', {type: 'checkbox', id: 'code-check'});
    const done = h('button', {type: 'button', class: 'primary', id: 'code-done', disabled: true, onclick: () => dialog.close()}, t('account.code_done'));
    box.addEventListener('change', () => { done.disabled = !box.checked; });
    const copied = h('span', {class: 'small muted', role: 'status', id: 'code-copied'});
    const copy = h('button', {type: 'button', id: 'code-copy', onclick: async () => {
      try {
        await navigator.clipboard.writeText(code);
        copied.textContent = t('account.code_copied');
      } catch {
        copied.textContent = t('account.code_copy_failed');
      }
    }}, t('account.code_copy'));
    dialog.append(h('h3', {id: 'code-h'}, t('account.code_title')),
      h('p', {}, t(textKey)),
      h('p', {class: 'recovery-code', id: 'recovery-code', translate: 'no', 'aria-label': t('account.code_label', {code: code.split('').join(' ')})}, code),
      h('p', {class: 'code-tools'}, copy, ' ', copied),
      h('p', {class: 'small muted'}, t('account.code_note')),
      h('p', {class: 'check-row'}, box, ' ', h('label', {for: box.id}, t('account.code_confirm'))),
      h('p', {class: 'dialog-buttons'}, done));
    // Escape does not dismiss it before the box is ticked: the code would be lost.
    dialog.addEventListener('cancel', (e) => { if (!box.checked) e.preventDefault(); });
    showModal(dialog);
    copy.focus();
    return dialog;
  }

  // A forgotten password: the username, the recovery code and a new password. The server ends
  // every session of the account and gives this browser a token of it, and a new code.
  openRecover() {
    const conn = this.app.conn;
    this.dialog({id: 'recover', title: 'account.recover_title', submit: 'account.recover_submit',
      text: t('account.recover_text'),
      fields: [
        {name: 'username', label: 'account.username', type: 'text', autocomplete: 'username'},
        {name: 'code', label: 'account.code', type: 'text', autocomplete: 'off', help: t('account.code_help')},
        {name: 'password', label: 'account.new_password', autocomplete: 'new-password', help: t('account.password_help')},
        {name: 'confirm', label: 'account.confirm_password', autocomplete: 'new-password'}],
      run: async ({username, code, password, confirm}, _, local) => {
        if (password !== confirm) local('account.mismatch');
        const name = username.normalize('NFC').trim();
        const res = await call('/api/recover', {method: 'POST', headers: {'content-type': 'application/json'},
          body: JSON.stringify({username: name, code: code.trim(), password})});
        if (!res.ok) {
          const err = await httpError(res);
          if (err.code === 'bad_login') local('account.error.bad_code');
          throw err;
        }
        const body = await res.json();
        this.after = ['account.recovered', {username: body.username}];
        conn.adopt(body.token, body.username);
        setTimeout(() => this.showCode(body.recovery_code, 'account.code_text_recovered'));
      }});
  }

  // A new recovery code for the account, which replaces the last: the password is asked again.
  openNewCode() {
    const conn = this.app.conn;
    this.dialog({id: 'new-code', title: 'account.new_code_title', submit: 'account.new_code_submit',
      text: t('account.new_code_text'),
      fields: [
        {name: 'username', type: 'text', autocomplete: 'username', value: conn.account?.username, hidden: true, required: false},
        {name: 'password', label: 'account.password', autocomplete: 'current-password'}],
      run: async ({password}) => {
        const res = await call('/api/me/recovery', {method: 'POST',
          headers: {authorization: `Bearer ${conn.token}`, 'content-type': 'application/json'},
          body: JSON.stringify({password})});
        if (!res.ok) throw await httpError(res);
        const body = await res.json();
        setTimeout(() => this.showCode(body.recovery_code, 'account.code_text_new'));
      }});
  }

  openLogin() {
    const conn = this.app.conn;
    const dialog = this.dialog({id: 'login', title: 'account.login_title', submit: 'account.login_submit',
      text: t('account.login_text', {name: playerName(conn.player)}),
      fields: [
        {name: 'username', label: 'account.username', type: 'text', autocomplete: 'username'},
        {name: 'password', label: 'account.password', autocomplete: 'current-password'}],
      // Where a newcomer or a forgetful player goes from here.
      extra: (close) => [
        h('button', {type: 'button', class: 'link', id: 'login-to-claim', onclick: () => { close(); this.openClaim(); }}, t('account.no_account')),
        h('button', {type: 'button', class: 'link', id: 'login-to-recover', onclick: () => { close(); this.openForgotten(); }}, t('account.forgot'))],
      run: async ({username, password}) => {
        this.after = null;
        const welcome = await conn.login(username.normalize('NFC').trim(), password);
        this.say('account.logged_in', {username: welcome.account?.username ?? username.trim(), name: playerName(welcome.player)});
      }});
    // Cancelled before the server answered (no connection yet): no login later, unseen.
    dialog.addEventListener('close', () => conn.cancelLogin());
  }

  openChangePassword() {
    const conn = this.app.conn;
    this.dialog({id: 'password', title: 'account.change_title', submit: 'account.change_submit',
      text: t('account.change_text'),
      fields: [
        {name: 'username', type: 'text', autocomplete: 'username', value: conn.account?.username, hidden: true, required: false},
        {name: 'current', label: 'account.current_password', autocomplete: 'current-password'},
        {name: 'password', label: 'account.new_password', autocomplete: 'new-password', help: t('account.password_help')},
        {name: 'confirm', label: 'account.confirm_password', autocomplete: 'new-password'}],
      run: async ({current, password, confirm}, _, local) => {
        if (password !== confirm) local('account.mismatch');
        await conn.changePassword(current, password);
        this.say('account.password_changed', {});
      }});
  }

  openDelete() {
    const conn = this.app.conn;
    this.dialog({id: 'delete', title: 'account.delete_title', submit: 'account.delete_submit', danger: true,
      text: t('account.delete_text'), check: 'account.delete_confirm',
      fields: [
        {name: 'username', type: 'text', autocomplete: 'username', value: conn.account?.username, hidden: true, required: false},
        {name: 'password', label: 'account.password', autocomplete: 'current-password'}],
      run: async ({password}, box, local) => {
        if (!box.checked) local('account.delete_unconfirmed');
        this.after = ['account.deleted', {}];
        try {
          const res = await call('/api/me', {method: 'DELETE',
            headers: {authorization: `Bearer ${conn.token}`, 'content-type': 'application/json'},
            body: JSON.stringify({password})});
          if (!res.ok) throw await httpError(res);
        } catch (err) {
          this.after = null;
          throw err;
        }
        conn.forgetIdentity();
      }});
  }

  async logout(everywhere) {
    this.busy = true;
    this.error = null;
    this.changed();
    this.after = [everywhere ? 'account.logged_out_everywhere' : 'account.logged_out', {}];
    try {
      await this.app.conn.logout(everywhere);
    } catch (err) {
      this.after = null;
      this.error = err;
    }
    this.busy = false;
    this.changed();
  }

  // The server's export as a file, tanbo-<id>.json: the bytes as they came, named after the
  // identity the document is about.
  async exportData() {
    const conn = this.app.conn;
    this.busy = true;
    this.error = null;
    this.changed();
    try {
      const res = await call('/api/me/export', {headers: {authorization: `Bearer ${conn.token}`}});
      if (!res.ok) throw await httpError(res);
      const text = await res.text();
      let id = conn.player?.id;
      try { id = JSON.parse(text)?.identity?.id || id; } catch { /* the bytes are saved anyway */ }
      const file = `tanbo-${String(id).replace(/[^\w.-]/g, '_')}.json`;
      const url = URL.createObjectURL(new Blob([text], {type: 'application/json'}));
      const link = h('a', {href: url, download: file, hidden: true});
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      this.busy = false;
      this.say('account.exported', {file});
      return;
    } catch (err) {
      this.error = err;
    }
    this.busy = false;
    this.changed();
  }
}

// Mail (docs/web.md, "Accounts"), loaded where the server sends it: "Forgot your password?" by
// mail, the views of a mail's link (#/reset/, #/confirm-mail/), the account's address.
import {h} from './util.js';
import {t} from './i18n/index.js';

const JSON_TYPE = {'content-type': 'application/json'};

/** The language the mails are written in: the page's. */
function lang() { return (document.documentElement.lang || 'en').slice(0, 2); }

/** {mail, pending} of the account. @param {{conn: any, call: Function, httpError: Function}} ctx */
export async function mailState({conn, call, httpError}) {
  const res = await call('/api/me/mail', {headers: {authorization: `Bearer ${conn.token}`}});
  if (!res.ok) throw await httpError(res);
  return res.json();
}

/** @param {any} account @param {{call: Function, httpError: Function}} ctx */
export function openForgot(account, {call, httpError}) {
  account.dialog({id: 'forgot', title: 'account.forgot', submit: 'account.forgot_submit',
    text: t('account.forgot_text'),
    fields: [{name: 'login', label: 'account.login_or_mail', type: 'text', autocomplete: 'username', maxlength: 254}],
    extra: (close) => [h('button', {type: 'button', class: 'link', id: 'forgot-to-code',
      onclick: () => { close(); account.openRecover(); }}, t('account.use_code'))],
    run: async ({login}) => {
      const res = await call('/api/password/forgot', {method: 'POST', headers: JSON_TYPE,
        body: JSON.stringify({login: login.normalize('NFC').trim(), lang: lang()})});
      if (!res.ok) throw await httpError(res);
      account.say('account.forgot_sent', {});
    }});
}

/** @param {any} account @param {string} token @param {{call: Function, httpError: Function}} ctx */
export function openReset(account, token, {call, httpError}) {
  const conn = account.app.conn;
  account.dialog({id: 'reset', title: 'account.reset_title', submit: 'account.reset_submit',
    text: t('account.reset_text'),
    fields: [
      {name: 'password', label: 'account.new_password', autocomplete: 'new-password', help: t('account.password_help')},
      {name: 'confirm', label: 'account.confirm_password', autocomplete: 'new-password'}],
    run: async ({password, confirm}, _, local) => {
      if (password !== confirm) local('account.mismatch');
      const res = await call('/api/password/reset', {method: 'POST', headers: JSON_TYPE, body: JSON.stringify({token, password})});
      if (!res.ok) throw await httpError(res);
      const body = await res.json();
      account.after = ['account.recovered', {username: body.username}];
      conn.adopt(body.token, body.username);
    }});
}

/** @param {any} account @param {string} token @param {{call: Function, httpError: Function, sentence: Function}} ctx */
export async function confirmMail(account, token, {call, httpError, sentence}) {
  try {
    const res = await call('/api/mail/confirm', {method: 'POST', headers: JSON_TYPE, body: JSON.stringify({token})});
    if (!res.ok) throw await httpError(res);
    const body = await res.json();
    account.say('account.mail_confirmed', {mail: body.mail});
    account.refreshMail();
  } catch (err) {
    account.sayRefusal(sentence(err));
  }
}

/** The panel's address and its buttons. @param {any} account @param {Function} button */
export function mailPart(account, button) {
  const state = account.mailState;
  const lines = [];
  if (!state) return [];
  lines.push(h('p', {id: 'account-mail', class: 'account-user'},
    state.mail ? t('account.mail_is', {mail: state.mail}) : t('account.mail_none')));
  if (state.pending) lines.push(h('p', {id: 'account-mail-pending', class: 'small muted'}, t('account.mail_pending', {mail: state.pending})));
  lines.push(h('div', {class: 'account-buttons'},
    button('account-mail-set', state.mail ? 'account.mail_change' : 'account.mail_add', () => openAskMail(account)),
    state.mail ? button('account-mail-remove', 'account.mail_remove', () => openRemoveMail(account)) : null));
  return lines;
}

/** @param {any} account */
function openAskMail(account) {
  const {conn, call, httpError} = account.mailContext();
  account.dialog({id: 'mail', title: 'account.mail', submit: 'account.forgot_submit',
    text: t('account.mail_text'),
    fields: [
      {name: 'username', type: 'text', autocomplete: 'username', value: conn.account?.username, hidden: true, required: false},
      {name: 'mail', label: 'account.mail', type: 'email', autocomplete: 'email', maxlength: 254},
      {name: 'password', label: 'account.password', autocomplete: 'current-password'}],
    run: async ({mail, password}) => {
      const res = await call('/api/me/mail', {method: 'PUT',
        headers: {authorization: `Bearer ${conn.token}`, ...JSON_TYPE},
        body: JSON.stringify({mail: mail.trim(), password, lang: lang()})});
      if (!res.ok) throw await httpError(res);
      account.mailState = await res.json();
      if (account.mailState.pending) account.say('account.mail_sent', {mail: account.mailState.pending});
      else account.say('account.mail_same', {mail: account.mailState.mail});
    }});
}

/** @param {any} account */
function openRemoveMail(account) {
  const {conn, call, httpError} = account.mailContext();
  account.dialog({id: 'mail-remove', title: 'account.mail_remove', submit: 'account.mail_remove_submit', danger: true,
    text: t('account.mail_remove_text'),
    fields: [
      {name: 'username', type: 'text', autocomplete: 'username', value: conn.account?.username, hidden: true, required: false},
      {name: 'password', label: 'account.password', autocomplete: 'current-password'}],
    run: async ({password}) => {
      const res = await call('/api/me/mail', {method: 'DELETE',
        headers: {authorization: `Bearer ${conn.token}`, ...JSON_TYPE}, body: JSON.stringify({password})});
      if (!res.ok) throw await httpError(res);
      account.mailState = await res.json();
      account.say('account.mail_removed', {});
    }});
}

// An account's sessions (docs/web.md, "Accounts"): every device logged in to it, this one first,
// when each logged in and was last active, and a button that logs out any but this one (this
// one logs out with the account menu's Log out).
// The list comes from GET /api/me/sessions; ending one is DELETE /api/me/sessions/{id}, after
// which the server closes that device's connections.
import {h} from './util.js';
import {language, t} from './i18n/index.js';
import {tNodes} from './player-mark.js';

// A User-Agent as people name it: "Firefox on Windows". The order matters: Edge and Opera say
// Chrome too, and Chrome says Safari.
/** @type {[RegExp, string][]} */
const BROWSERS = [[/Edg(e|A|iOS)?\//, 'Edge'], [/OPR\/|Opera/, 'Opera'], [/Firefox\/|FxiOS/, 'Firefox'],
  [/Chrome\/|CriOS/, 'Chrome'], [/Safari\//, 'Safari']];
/** @type {[RegExp, string][]} */
const SYSTEMS = [[/iPhone|iPad|iPod/, 'iOS'], [/Android/, 'Android'], [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'], [/Linux/, 'Linux']];

export function deviceName(agent) {
  if (!agent) return t('sessions.unknown_device');
  const browser = BROWSERS.find(([re]) => re.test(agent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(agent))?.[1];
  if (browser && system) return t('sessions.device', {browser, system});
  return browser || system || (agent.length > 48 ? `${agent.slice(0, 47)}…` : agent);
}

// A day and a time, with the year only when it is not this one.
function when(ms) {
  if (!ms) return t('sessions.unknown_time');
  const date = new Date(ms);
  const year = date.getFullYear() === new Date().getFullYear() ? undefined : 'numeric';
  return new Intl.DateTimeFormat(language(), {day: 'numeric', month: 'short', year,
    hour: 'numeric', minute: '2-digit'}).format(date);
}

// How long ago, in words ("5 minutes ago", « il y a 5 minutes », 「5分前」): a device's last
// activity, which matters as a distance from now rather than as a date.
/** @type {[Intl.RelativeTimeFormatUnit, number][]} */
const UNITS = [['second', 60], ['minute', 60], ['hour', 24], ['day', 30]];
function ago(ms) {
  if (!ms) return t('sessions.unknown_time');
  let n = Math.max(0, (Date.now() - ms) / 1000);
  for (const [unit, next] of UNITS) {
    if (n < next) return new Intl.RelativeTimeFormat(language(), {numeric: 'auto'}).format(-Math.floor(n), unit);
    n /= next;
  }
  return when(ms);
}

// A time kept whole on its line.
const whole = (text) => h('span', {class: 'nowrap'}, text);

// The dialog. `call(url, init)` and `httpError(res)` are the Account's: fetch with the
// connection's error codes, and an HTTP refusal as an Error with its code. `refusal(err)` draws
// a refusal as the account's forms do; `showModal(dialog)` shows it as they are shown.
export function openSessions({conn, call, httpError, refusal, showModal}) {
  const dialog = h('dialog', {class: 'confirm account-dialog', id: 'sessions-dialog', 'aria-labelledby': 'sessions-h'});
  const list = h('ul', {class: 'sessions', id: 'sessions-list', 'aria-busy': 'true'});
  const problems = h('div', {class: 'problems', role: 'alert', id: 'sessions-problems'});
  const status = h('p', {class: 'small muted', role: 'status', id: 'sessions-status'}, t('sessions.loading'));
  const auth = () => ({authorization: `Bearer ${conn.token}`});

  async function load() {
    problems.replaceChildren();
    list.setAttribute('aria-busy', 'true');
    try {
      const res = await call('/api/me/sessions', {headers: auth()});
      if (!res.ok) throw await httpError(res);
      const {sessions} = await res.json();
      // This device first, then the others as the server lists them: the last used first.
      const ordered = [...sessions.filter((x) => x.current), ...sessions.filter((x) => !x.current)];
      list.replaceChildren(...ordered.map(row));
      status.textContent = t('sessions.count', {n: sessions.length});
    } catch (err) {
      status.textContent = '';
      problems.replaceChildren(h('div', {}, refusal(err)));
    }
    list.setAttribute('aria-busy', 'false');
  }

  async function end(session, button) {
    button.disabled = true;
    problems.replaceChildren();
    try {
      const res = await call(`/api/me/sessions/${encodeURIComponent(session.id)}`, {method: 'DELETE', headers: auth()});
      if (!res.ok) throw await httpError(res);
      status.textContent = t('sessions.ended', {device: deviceName(session.agent)});
      await load();
    } catch (err) {
      button.disabled = false;
      problems.replaceChildren(h('div', {}, refusal(err)));
    }
  }

  function row(session) {
    const device = deviceName(session.agent);
    const lines = [
      h('strong', {class: 'session-device'}, device),
      session.current ? h('span', {class: 'session-current badge'}, t('sessions.this_device')) : null,
      h('br'),
      // Active within the last minute reads "active now", as this device does.
      h('small', {class: 'muted'}, session.current || Date.now() - session.last_used_at < 60000 ? tNodes('sessions.times_current', {created: whole(when(session.created_at))})
        : tNodes('sessions.times', {created: whole(when(session.created_at)), used: whole(ago(session.last_used_at))}))];
    const button = session.current ? null : h('button', {type: 'button', class: 'danger-outline session-end',
      'aria-label': t('sessions.end_label', {device}), onclick: () => end(session, button)}, t('sessions.end'));
    return h('li', {class: 'session', 'data-session': session.id}, h('div', {class: 'session-text'}, lines), button);
  }

  dialog.append(h('h3', {id: 'sessions-h'}, t('sessions.title')),
    h('p', {}, t('sessions.text')), status, list, problems,
    h('p', {class: 'dialog-buttons'}, h('button', {type: 'button', id: 'sessions-close', onclick: () => dialog.close()}, t('sessions.close'))));
  showModal(dialog);
  dialog.querySelector('#sessions-close').focus();
  load();
  return dialog;
}

// The page's words: one catalogue per language (en.js, fr.js, ja.js), each a flat object of keys.
// A value is a sentence with {placeholders}, or, for a count, an object of plural categories
// (Intl.PluralRules: 'one', 'other', ...; keys starting with "ord." use the ordinal rules).
// The language comes from the saved choice, else the browser's, else English; <html lang>
// follows it. Views re-render themselves on the 'langchange' event.
// Only the reader's catalogue is loaded (the server preloads the one the browser's languages
// ask for with the page: docs/web.md, "Serving"); another is loaded when the reader picks its
// language. This module waits for it (a top-level await), so t() is ready in every module that
// imports it. English, the words of a key another catalogue lacks, is loaded only if one does.
export const LANGUAGES = ['en', 'fr', 'ja'];
export const CATALOGUES = {};  // the catalogues loaded so far, by language
const KEY = 'tanbo.lang';

async function load(l) {
  CATALOGUES[l] ??= (await import(`./${l}.js`)).default;
  return CATALOGUES[l];
}

let lang = pickLanguage();
const events = new EventTarget();
try {
  await load(lang);
} catch {
  lang = 'en';  // that catalogue could not be fetched: English, as for an unknown language
  await load(lang);
}

function pickLanguage() {
  const saved = localStorage.getItem(KEY);
  if (LANGUAGES.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

export function language() { return lang; }

// Loads the catalogue first: rejects, the language unchanged, when it cannot be fetched (offline
// and never fetched before).
export async function setLanguage(next) {
  if (!LANGUAGES.includes(next) || next === lang) return;
  await load(next);
  if (next === lang) return;
  lang = next;
  localStorage.setItem(KEY, next);
  applyLanguage();
  events.dispatchEvent(new Event('langchange'));
}

export function onLanguageChange(f) { events.addEventListener('langchange', f); }

// Sets <html lang> and the static words of index.html (elements with data-i18n).
export function applyLanguage() {
  document.documentElement.lang = lang;
  document.title = t('app.title');
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-i18n]'))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-i18n-label]')))
    el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}

const pluralRules = new Map();
function category(n, ordinal) {
  const k = `${lang}:${ordinal}`;
  if (!pluralRules.has(k)) pluralRules.set(k, new Intl.PluralRules(lang, {type: ordinal ? 'ordinal' : 'cardinal'}));
  return pluralRules.get(k).select(n);
}

// t('seat.computer', {n: 2}): the sentence in the current language, placeholders filled in.
// A count value picks its plural form from params.n, or a form for that very number ('=1').
export function t(key, params = {}) {
  let v = CATALOGUES[lang][key] ?? CATALOGUES.en?.[key];
  if (v === undefined) {
    console.warn(`i18n: no text for ${key}`);
    if (!CATALOGUES.en) load('en').catch(() => {});  // for the next time this key is asked for
    return key;
  }
  if (typeof v === 'object') v = v[`=${params.n}`] ?? v[category(Number(params.n), key.startsWith('ord.'))] ?? v.other;
  // Japanese phrase breaking parts a demonstrative from its noun (「この / サーバー」): a word
  // joiner binds them.
  if (lang === 'ja') v = v.replace(/([こそあど]の)(?=[\u30a0-\u30ff\u4e00-\u9fff])/g, '$1\u2060');
  return v.replace(/\{(\w+)\}/g, (_, name) => (params[name] === undefined ? `{${name}}` : String(params[name])));
}

// t with a fallback for keys built from data the server sends (an unknown reason, a new event).
export function tOr(key, params, fallback) {
  return key in CATALOGUES[lang] || key in (CATALOGUES.en ?? {}) ? t(key, params) : fallback;
}

// A list in the language's own way ("a, b and c", "a、b、c").
export function list(items) {
  return new Intl.ListFormat(lang, {style: 'long', type: 'conjunction'}).format(items);
}

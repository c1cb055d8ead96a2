// The catalogue check: every language has exactly the keys of English, a count value has every
// plural form its language uses, each sentence keeps the placeholders of the English one, and
// every key the code names literally exists.
import {readFile, readdir, stat} from 'node:fs/promises';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

async function jsFiles(dir, skip) {
  const out = [];
  for (const name of await readdir(dir)) {
    const p = path.join(dir, name);
    if ((await stat(p)).isDirectory()) { if (name !== skip) out.push(...await jsFiles(p, skip)); }
    else if (p.endsWith('.js')) out.push(p);
  }
  return out;
}

const placeholders = (v) => new Set([...(typeof v === 'object' ? Object.values(v).join(' ') : v).matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

export async function catalogueProblems(webDir) {
  const langs = ['en', 'fr', 'ja'];
  const cats = {};
  for (const l of langs) cats[l] = (await import(pathToFileURL(path.join(webDir, 'i18n', `${l}.js`)).href)).default;
  const problems = [];
  const en = cats.en;
  for (const l of langs) {
    const cat = cats[l];
    for (const k of Object.keys(en)) if (!(k in cat)) problems.push(`${l}: missing ${k}`);
    for (const k of Object.keys(cat)) if (!(k in en)) problems.push(`${l}: extra ${k}`);
    const cardinal = new Intl.PluralRules(l), ordinal = new Intl.PluralRules(l, {type: 'ordinal'});
    for (const [k, v] of Object.entries(cat)) {
      if (typeof v === 'object') {
        const rules = k.startsWith('ord.') ? ordinal : cardinal;
        const needed = new Set(Array.from({length: 201}, (_, n) => rules.select(n)));
        for (const c of needed) if (!(c in v)) problems.push(`${l}: ${k} lacks the plural form '${c}'`);
      } else if (typeof v !== 'string' || !v.trim()) problems.push(`${l}: ${k} is empty`);
      if (k in en) {
        const a = [...placeholders(en[k])].sort().join(','), b = [...placeholders(v)].sort().join(',');
        if (a !== b) problems.push(`${l}: ${k} has placeholders {${b}}, English {${a}}`);
      }
    }
  }
  // Literal keys in the code: t('a.b') and the like; localStorage names start with "tanbo.".
  for (const f of await jsFiles(webDir, 'i18n')) {
    const src = await readFile(f, 'utf8');
    for (const m of src.matchAll(/\bt(?:Or)?\(\s*'([^']+)'/g))
      if (!(m[1] in en)) problems.push(`${path.relative(webDir, f)}: t('${m[1]}') has no text`);
  }
  return problems;
}

// Every value of a catalogue as [key, sentence] (a count value gives one per plural form).
async function sentences(webDir, lang) {
  const cat = (await import(pathToFileURL(path.join(webDir, 'i18n', `${lang}.js`)).href)).default;
  return Object.entries(cat).flatMap(([k, v]) => (typeof v === 'object' ? Object.entries(v).map(([c, x]) => [`${k}.${c}`, x]) : [[k, v]]));
}

// The set-up help describes the JSON a player types: its field names are the point there.
const JSON_HELP = /^create\.setup_help\./;

// French typography: a no-break space (U+00A0) before ':' and inside « », a narrow no-break
// space (U+202F) before ';', '!' and '?'; never an ordinary space there, never nothing (but a
// time such as 1:05, between digits).
export async function frenchTypographyProblems(webDir) {
  const problems = [];
  for (const [k, v] of await sentences(webDir, 'fr')) {
    if (JSON_HELP.test(k)) continue;
    const bad = [];
    for (const m of v.matchAll(/(^|.)([:;!?»])(.|$)/gsu)) {
      const [, before, mark, after] = m;
      if (mark === ':' && /\d/.test(before) && /\d/.test(after)) continue;
      const want = mark === ':' || mark === '»' ? '\u00a0' : '\u202f';
      if (before !== want) bad.push(`${JSON.stringify(before)} before '${mark}'`);
    }
    for (const m of v.matchAll(/«(.|$)/gsu)) if (m[1] !== '\u00a0') bad.push(`${JSON.stringify(m[1])} after '«'`);
    if (bad.length) problems.push(`fr: ${k}: ${bad.join(', ')}`);
  }
  return problems;
}

// What a player must never read: the engine's and the protocol's identifiers. A snake_case word
// (an option, a ruling, an error code), the computer levels' engine names, "seed" and
// "commitment" (the fair draw has plain words), a command line, a "CPU (...)" name.
const ENGINE_WORDS = [/\b[a-z]+_[a-z_]+\b/, /\bgreedy\b/i, /\bmcts\b/i, /\bcpu\b/i, /\bseeds?\b/i, /\bcommitment\b/i,
  /tanbo-engine/, /シード/, /コミットメント/, /\bgermes?\b/i];
export async function engineWordProblems(webDir) {
  const problems = [];
  for (const l of ['en', 'fr', 'ja']) {
    for (const [k, v] of await sentences(webDir, l)) {
      if (JSON_HELP.test(k)) continue;
      const text = v.replace(/\{\w+\}/g, '');  // placeholders are the page's, not the reader's
      for (const re of ENGINE_WORDS) if (re.test(text)) problems.push(`${l}: ${k} shows ${re.exec(text)[0]}`);
    }
  }
  return problems;
}

// Every error code the protocol defines (protocol/errors.hpp, the one table) has its words,
// error.<code>, in every language: a refusal never needs the server's English.
export async function errorCodeProblems(webDir) {
  const table = await readFile(path.join(webDir, '..', 'protocol', 'errors.hpp'), 'utf8');
  const codes = [...table.matchAll(/\{ErrorCode::(\w+), "(\w+)",/g)].map((m) => m[2]);
  const problems = codes.length < 40 ? [`only ${codes.length} codes read from protocol/errors.hpp`] : [];
  for (const l of ['en', 'fr', 'ja']) {
    const keys = new Set((await sentences(webDir, l)).map(([k]) => k));
    for (const c of codes) if (!keys.has(`error.${c}`)) problems.push(`${l}: no error.${c}`);
  }
  return problems;
}

// Wordings a reader once tripped on, which must not come back. A seat is never a number the
// player has to decode ("seat 1", « place 1 » reads as a finishing place, 1番席): the page says
// who plays first, or the colour; nor is the computer ("Computer 2" read as part of its score).
// No hex digits of an id ("Guest 1a2b": player-mark.js says a guest's name in words). A hint
// names no gesture of one kind of screen ("tap" on a desktop), except where it speaks of a small
// screen. A number and its word stay on one line (a no-break space: "3 stones"). In Japanese,
// 黄米 reads as millet (きび): the rice is 黄色い米, and so 黒い米 and 赤い米 beside it; a list's
// separator is 「・」, not a Latin " · "; nothing follows 「。」 but the next sentence.
const SMALL_SCREEN = /^steere\.hint\.zoom$/;
const COUNTS = 'n|m|max|min|inc|liberties|players|s|h|i|d|wanted|white|black|pool|total|base';
const NUMBER_WORD = (skip) => new RegExp(`(\\{(?:${COUNTS})\\}|(?<![\\w.{-])\\d+) (?!(?:${skip})\\b)(?=[^\\W\\d_])`, 'u');
const HEX_ID = [/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{4}\b|\{tag\}/, 'the hex digits of an id'];
const WORDING = {
  en: [[/\bseats? \{\w+\}/i, 'a numbered seat'], [/\btap(ped|ping|s)?\b/i, 'a gesture of touch screens only'],
    [/Computer\s*(\{n\}|\d)/, 'a number after the computer\'s name'], HEX_ID,
    [NUMBER_WORD('or|to|and|of|in|after'), 'a number and its word that may break apart']],
  fr: [[/\bplaces? \{\w+\}/i, 'a numbered seat'], [/\btouche[zr]\b/i, 'a gesture of touch screens only'],
    [/Ordinateur\s*(\{n\}|\d)/, 'a number after the computer\'s name'], HEX_ID,
    [NUMBER_WORD('ou|à|et|de|sur|après'), 'a number and its word that may break apart']],
  ja: [[/\{\w+\}番席/, 'a numbered seat'], [/タップ/, 'a gesture of touch screens only'],
    [/黄米|黒米|赤米/, '黄米 reads as millet'], [/コンピューター\s*(\{n\}|\d)/, 'a number after the computer\'s name'], HEX_ID,
    [/ · /, 'a Latin " · " between Japanese words'], [/。 /, 'a space after 「。」']],
};
// The name rule lists the characters a name may hold, "·" among them; the set-up help is JSON.
const LISTS_CHARACTERS = /^name\.rule$|^create\.setup_help\./;
export async function wordingProblems(webDir) {
  const problems = [];
  for (const [l, rules] of Object.entries(WORDING)) {
    for (const [k, v] of await sentences(webDir, l)) {
      if (LISTS_CHARACTERS.test(k)) continue;
      for (const [re, why] of rules) {
        if (why.startsWith('a gesture') && (SMALL_SCREEN.test(k.replace(/\.(one|other)$/, '')) || k === 'challenge.options')) continue;
        if (re.test(v)) problems.push(`${l}: ${k}: ${why} (${re.exec(v)[0]})`);
      }
    }
  }
  return [...problems, ...await guestWordProblems(webDir)];
}

// The words of guests' names (player-mark.js): as many adjectives and animals in every language,
// in the same order, none twice; a French adjective "masculine/feminine" or one form, an animal
// "Word" or "Word/f".
async function guestWordProblems(webDir) {
  const problems = [];
  const lists = {};
  for (const l of ['en', 'fr', 'ja']) {
    const cat = Object.fromEntries(await sentences(webDir, l));
    for (const key of ['guest.adjectives', 'guest.animals']) {
      const words = String(cat[key] ?? '').split('|').map((w) => w.trim());
      lists[key] ??= words.length;
      if (words.length !== lists[key]) problems.push(`${l}: ${key} has ${words.length} words, English ${lists[key]}`);
      const bare = words.map((w) => w.split('/')[0]);
      if (new Set(bare).size !== bare.length) problems.push(`${l}: ${key} holds a word twice`);
      const form = key === 'guest.animals' ? /^[^/\d]+(\/f)?$/u : /^[^/\d]+(\/[^/\d]+)?$/u;
      for (const w of words) if (!form.test(w)) problems.push(`${l}: ${key}: "${w}"`);
    }
  }
  if (lists['guest.adjectives'] * lists['guest.animals'] < 500) problems.push('fewer than 500 guest names');
  return problems;
}

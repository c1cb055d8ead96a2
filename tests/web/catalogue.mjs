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

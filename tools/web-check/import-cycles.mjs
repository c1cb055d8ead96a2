// Finds import cycles among the page's modules (web/**/*.js): a cycle makes the order modules
// run in depend on which one the browser reached first, and a module read during its own
// evaluation sees bindings not yet set. Static imports, re-exports and import() of a literal path
// count alike. Exits 1 and names each cycle when there is one.
//   node tools/web-check/import-cycles.mjs [dir]   (default: web/ of this repository)
import {readFileSync, readdirSync, existsSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = resolve(process.argv[2] ?? join(root, 'web'));

function modules(d) {
  return readdirSync(d, {withFileTypes: true}).flatMap((e) => {
    const p = join(d, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : modules(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

// Comments first, so that an import shown in a comment is not taken for one.
function stripComments(src) {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const SPECIFIER = [
  /\bimport\s+(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g,  // import x from '…', import '…'
  /\bexport\s+(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s+)?from\s+['"]([^'"]+)['"]/g,  // re-exports
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,  // import('…')
];

function imports(file) {
  const src = stripComments(readFileSync(file, 'utf8'));
  const found = new Set();
  for (const re of SPECIFIER) {
    for (const m of src.matchAll(re)) {
      if (!m[1].startsWith('.')) continue;  // a URL or a bare name: not one of ours
      const target = resolve(dirname(file), m[1]);
      if (!existsSync(target)) {
        console.error(`${relative(root, file)}: imports ${m[1]}, which does not exist`);
        process.exitCode = 1;
        continue;
      }
      found.add(target);
    }
  }
  return [...found];
}

const graph = new Map(modules(dir).map((f) => [f, imports(f)]));

// Tarjan's strongly connected components: every component of more than one module (or a module
// importing itself) holds at least one cycle.
let index = 0;
const stack = [];
const info = new Map();
const components = [];
function visit(v) {
  info.set(v, {index, low: index, onStack: true});
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!info.has(w)) {
      visit(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) {
      info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  }
}
for (const v of graph.keys()) if (!info.has(v)) visit(v);

// One cycle through each component, as a path a reader can follow: a -> b -> a.
function cycleIn(component) {
  const inside = new Set(component);
  const start = component[0];
  const path = [start];
  const seen = new Set([start]);
  function walk(v) {
    for (const w of graph.get(v)) {
      if (w === start) return true;
      if (!inside.has(w) || seen.has(w)) continue;
      seen.add(w);
      path.push(w);
      if (walk(w)) return true;
      path.pop();
    }
    return false;
  }
  walk(start);
  return [...path, start].map((f) => relative(root, f)).join(' -> ');
}

for (const c of components) console.error(`import cycle: ${cycleIn(c)}`);
if (components.length) process.exitCode = 1;
else if (!process.exitCode) console.log(`${graph.size} modules, no import cycle`);

// Reads protocol/schema/ into a small tree of types that the printers (gen-protocol-types.mjs for
// TypeScript, protocol-types-python.mjs for Python) write out. Only the keywords the schemas use
// are understood; any other one stops the reading, so a new keyword in a schema is translated on
// purpose rather than silently dropped.
//
// A type is one of:
//   {k: 'name', name}                    a named type (a definition or a message)
//   {k: 'lit', values}                   const or enum
//   {k: 'prim', t}                       string, integer, number, boolean, null, unknown, never
//   {k: 'array', items}
//   {k: 'object', props, open, hint}     props: [{name, required, type, doc}]; open: more members
//                                        may come; hint: a name for it where one is wanted
//   {k: 'map', values}                   an object of any members, each a `values`
//   {k: 'union', of}
import {readFileSync, readdirSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const schemaDir = join(root, 'protocol', 'schema');

// Keywords that only constrain values (lengths, ranges) or document: no trace in a type. `not`
// cannot be said in a type: a union branch that needs it (the frame of a game without a schema of
// its own) is left out, so the types know the games that have a schema.
const IGNORED = new Set(['$schema', '$id', 'title', 'description', 'minLength', 'maxLength',
  'minimum', 'maximum', 'minItems', 'maxItems', 'uniqueItems', 'default']);
const KNOWN = new Set([...IGNORED, 'type', 'properties', 'required', 'additionalProperties',
  'items', 'const', 'enum', 'anyOf', 'oneOf', '$ref', '$defs', 'not']);

// snake_case or kebab-case to PascalCase: seat_view -> SeatView, steere-tanbo -> SteereTanbo.
export const pascal = (s) => s.split(/[_-]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

function fail(where, why) {
  throw new Error(`${where}: ${why}`);
}

// Every schema file by name, and the named types: common.json's definitions, each game's
// (game-<game>.json: the game's name before each of its definitions), then the messages.
export function readSchemas() {
  const files = new Map();
  for (const f of readdirSync(schemaDir).filter((n) => n.endsWith('.json')).sort()) {
    files.set(f, JSON.parse(readFileSync(join(schemaDir, f), 'utf8')));
  }
  const defName = (file, def) => {
    if (file === 'common.json') return pascal(def);
    const game = /^game-([a-z-]+)\.json$/.exec(file);
    if (game) return pascal(game[1]) + pascal(def);
    return fail(file, `definitions of a message file are not translated (${def})`);
  };
  const ctx = {files, defName};
  const named = [];
  const add = (name, schema, file, where) => named.push({name, schema, file, where});
  for (const [def, s] of Object.entries(files.get('common.json').$defs)) {
    add(defName('common.json', def), s, 'common.json', `common.json#/$defs/${def}`);
  }
  const games = [...files.keys()].filter((f) => f.startsWith('game-'));
  for (const file of games) {
    for (const [def, s] of Object.entries(files.get(file).$defs)) {
      add(defName(file, def), s, file, `${file}#/$defs/${def}`);
    }
  }
  const unions = {client: [], server: []};
  for (const [file, schema] of files) {
    const m = /^(client|server)-([a-z_]+)\.json$/.exec(file);
    if (!m) continue;
    if (schema.$defs) fail(file, 'a message schema with definitions of its own is not translated');
    const name = pascal(m[1]) + pascal(m[2]);
    unions[m[1]].push(name);
    add(name, schema, file, file);
  }
  for (const n of named) {
    n.side = n.file.startsWith('client-') ? 'client' : 'server';
    n.type = typeOf(n.schema, {...ctx, file: n.file, side: n.side}, n.where, n.name);
    n.doc = n.schema.title
      ? `${n.schema.title}${n.schema.description ? `: ${n.schema.description}` : ''}`
      : n.schema.description;
  }
  return {files, named, unions};
}

// The file and definition a $ref names, and the schema there.
function resolve(ref, ctx, where) {
  const m = /^([a-z0-9_-]+\.json)?#\/\$defs\/([a-z0-9_]+)$/.exec(ref);
  if (!m) fail(where, `the reference ${ref} is not translated`);
  const file = m[1] ?? ctx.file;
  const schema = ctx.files.get(file)?.$defs?.[m[2]];
  if (!schema) fail(where, `the reference ${ref} does not resolve`);
  return {file, def: m[2], schema, name: ctx.defName(file, m[2])};
}

// Whether a branch says what no type can: a member that must not be some values.
const negated = (s, ctx, where) => {
  const target = s.$ref ? resolve(s.$ref, ctx, where).schema : s;
  return Object.values(target.properties ?? {}).some((p) => p && typeof p === 'object' && 'not' in p);
};

// Whether a schema refers within its own file ("#/$defs/x"): such a schema is only read in it.
const relative = (s) => JSON.stringify(s).includes('"$ref":"#');

// Two schemas' members as one object schema, read in the file of `second`: the first one's
// references must name their file.
function mergedWith(first, second, where, otherFile = true) {
  if (otherFile && relative(first)) fail(where, 'a reference without its file cannot be read in another file');
  return {
    ...first, ...second,
    required: [...new Set([...(first.required ?? []), ...(second.required ?? [])])],
    properties: {...first.properties, ...second.properties},
  };
}

export function typeOf(schema, ctx, where, hint) {
  if (schema === true) return {k: 'prim', t: 'unknown'};
  if (schema === false) return {k: 'prim', t: 'never'};
  for (const k of Object.keys(schema)) {
    if (!KNOWN.has(k)) fail(where, `the keyword ${k} is not translated`);
  }
  if ('not' in schema) schema = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'not'));
  const own = Object.keys(schema).filter((k) => !IGNORED.has(k) && k !== '$ref');
  if ('$ref' in schema && own.length === 0) {
    return {k: 'name', name: resolve(schema.$ref, ctx, where).name};
  }
  if ('$ref' in schema) {
    // Members beside a $ref add to (or narrow) the target's: an event of the core with the
    // game's actions in it.
    const {$ref, ...own} = schema;
    const target = resolve($ref, ctx, where);
    return typeOf(mergedWith(target.schema, own, where, target.file !== ctx.file), ctx, where, hint);
  }
  if ('const' in schema) return {k: 'lit', values: [schema.const]};
  if ('enum' in schema) return {k: 'lit', values: schema.enum};
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && (schema.type !== undefined || schema.properties)) {
    // Alternatives beside a shape of its own apply to that shape (a chat line with `text` or
    // `phrase` required, a state frame with each game's members): one variant of the shape per
    // alternative, named after the alternative where it is a reference.
    const {anyOf, oneOf, ...base} = schema;
    const of = [];
    (anyOf ?? oneOf).forEach((alt, i) => {
      const at = `${where}/anyOf/${i}`;
      if (negated(alt, ctx, at)) return;
      if (!alt.$ref) {
        of.push(typeOf(mergedWith(base, alt, at, false), ctx, at, `${hint}${i}`));
        return;
      }
      const r = resolve(alt.$ref, ctx, at);
      const variant = hint + pascal(/^game-([a-z-]+)\.json$/.exec(r.file)?.[1] ?? r.def);
      of.push(typeOf(mergedWith(base, r.schema, at), {...ctx, file: r.file}, at, variant));
    });
    return {k: 'union', of};
  }
  if (alternatives) {
    const of = alternatives.filter((s, i) => !negated(s, ctx, `${where}/anyOf/${i}`))
      .map((s, i) => typeOf(s, ctx, `${where}/anyOf/${i}`, `${hint}${i}`));
    return of.length === 1 ? of[0] : {k: 'union', of};
  }
  const types = schema.type === undefined ? [] : [].concat(schema.type);
  if (types.length === 0) {
    if (schema.properties) return objectType(schema, ctx, where, hint);
    return {k: 'prim', t: 'unknown'};
  }
  const of = [];
  for (const t of new Set(types)) {
    switch (t) {
      case 'string': case 'integer': case 'number': case 'boolean': case 'null':
        of.push({k: 'prim', t});
        break;
      case 'array':
        of.push({k: 'array', items: schema.items === undefined ? {k: 'prim', t: 'unknown'}
          : typeOf(schema.items, ctx, `${where}/items`, `${hint}Item`)});
        break;
      case 'object':
        of.push(objectType(schema, ctx, where, hint));
        break;
      default:
        fail(where, `the type ${t} is not translated`);
    }
  }
  return of.length === 1 ? of[0] : {k: 'union', of};
}

function objectType(schema, ctx, where, hint) {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const extra = schema.additionalProperties;
  const list = Object.entries(props).map(([name, s]) => ({name, required: required.has(name),
    doc: s && s.description, type: typeOf(s, ctx, `${where}/${name}`, hint + pascal(name))}));
  // An object with no listed members is a map (or an opaque object).
  if (list.length === 0) {
    const values = extra && extra !== true ? typeOf(extra, ctx, `${where}/additionalProperties`, `${hint}Value`)
      : {k: 'prim', t: 'unknown'};
    return {k: 'map', values};
  }
  if (extra !== undefined && extra !== false && extra !== true) {
    fail(where, 'listed members beside a schema for the others are not translated');
  }
  // A server object open to more members (an event: each game adds its own) says so; a client
  // message stays closed, so that a client sends only the members its schema names.
  return {k: 'object', props: list, open: extra !== false && ctx.side !== 'client', hint};
}

// Generates web/types/protocol.d.ts, the TypeScript declarations of the protocol's messages, from
// the JSON Schemas in protocol/schema/ (the server validates against the same files), so the
// page's JSDoc names the server's own shapes and cannot drift from them.
//   node tools/web-check/gen-protocol-types.mjs           writes the file
//   node tools/web-check/gen-protocol-types.mjs --check   exits 1 when the file is not current
// Only the keywords the schemas use are understood; any other one stops the generator, so a new
// keyword in a schema is translated on purpose rather than silently dropped.
import {readFileSync, readdirSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const schemaDir = join(root, 'protocol', 'schema');
const outFile = join(root, 'web', 'types', 'protocol.d.ts');

// Keywords that only constrain values (lengths, ranges, patterns) or document: no trace in a type.
const IGNORED = new Set(['$schema', '$id', 'title', 'description', 'minLength', 'maxLength',
  'minimum', 'maximum', 'minItems', 'maxItems', 'uniqueItems', 'pattern', 'default']);
const KNOWN = new Set([...IGNORED, 'type', 'properties', 'required', 'additionalProperties',
  'items', 'const', 'enum', 'anyOf', 'oneOf', '$ref', '$defs']);

// snake_case or kebab-case to PascalCase: seat_view -> SeatView, change_password -> ChangePassword.
const pascal = (s) => s.split(/[_-]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

const ident = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k) => (ident.test(k) ? k : JSON.stringify(k));

function fail(where, why) {
  throw new Error(`${where}: ${why}`);
}

// A JSDoc comment from a schema's description, at the given indent; '' when there is none.
function doc(schema, indent) {
  const text = schema && typeof schema === 'object' ? schema.description : undefined;
  if (!text) return '';
  return `${indent}/** ${text.replaceAll('*/', '*\\/')} */\n`;
}

// The type of one schema, as TypeScript source; `where` names it in error messages.
function typeOf(schema, where, indent = '') {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  for (const k of Object.keys(schema)) {
    if (!KNOWN.has(k)) fail(where, `the keyword ${k} is not translated`);
  }
  if ('$ref' in schema) {
    const m = /^(?:common\.json)?#\/\$defs\/([a-z0-9_]+)$/.exec(schema.$ref);
    if (!m) fail(where, `the reference ${schema.$ref} is not translated`);
    return pascal(m[1]);
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if ('enum' in schema) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && (schema.type !== undefined || schema.properties)) {
    // Alternatives beside a shape of its own apply to that shape (a chat line with `text` or
    // `phrase` required): one variant of the shape per alternative.
    const {anyOf, oneOf, ...base} = schema;
    return [anyOf, oneOf].filter(Boolean)[0].map((alt, i) => wrap(typeOf({
      ...base, ...alt,
      required: [...(base.required ?? []), ...(alt.required ?? [])],
      properties: {...base.properties, ...alt.properties},
    }, `${where}/oneOf/${i}`, indent))).join(' | ');
  }
  if (alternatives) {
    return alternatives.map((s, i) => wrap(typeOf(s, `${where}/anyOf/${i}`, indent))).join(' | ');
  }
  const types = schema.type === undefined ? [] : [].concat(schema.type);
  if (types.length === 0) {
    if (schema.properties) return objectType(schema, where, indent);
    return 'unknown';
  }
  return [...new Set(types.map((t) => {
    switch (t) {
      case 'string': return 'string';
      case 'integer': case 'number': return 'number';
      case 'boolean': return 'boolean';
      case 'null': return 'null';
      case 'array': {
        const items = schema.items === undefined ? 'unknown' : typeOf(schema.items, `${where}/items`, indent);
        return `${wrap(items)}[]`;
      }
      case 'object': return objectType(schema, where, indent);
      default: return fail(where, `the type ${t} is not translated`);
    }
  }))].join(' | ');
}

// Parenthesises a union before `[]` or inside another union of objects.
function wrap(t) {
  return /[|&]/.test(t) && !/^\{[\s\S]*\}$/.test(t) ? `(${t})` : t;
}

function objectType(schema, where, indent) {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const extra = schema.additionalProperties;
  const inner = `${indent}  `;
  const lines = Object.entries(props).map(([name, s]) =>
    `${doc(s, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(s, `${where}/${name}`, inner)};\n`);
  // An object with no listed members is a map (or an opaque object such as a game's state).
  if (lines.length === 0) return 'Record<string, unknown>';
  // A server object open to more members (an event: each game adds its own) says so; a client
  // message stays closed, so that the page sends only the members its schema names.
  if (extra !== undefined && extra !== false && extra !== true) {
    lines.push(`${inner}[key: string]: ${typeOf(extra, `${where}/additionalProperties`, inner)};\n`);
  } else if (extra !== false && !where.startsWith('client-')) {
    lines.push(`${inner}[key: string]: unknown;\n`);
  }
  return `{\n${lines.join('')}${indent}}`;
}

function declare(name, schema, where) {
  const t = typeOf(schema, where);
  const title = schema.title ? `/** ${schema.title}${schema.description ? `: ${schema.description}` : ''} */\n`
    : doc(schema, '');
  return `${title}export type ${name} = ${t};\n`;
}

function generate() {
  const files = readdirSync(schemaDir).filter((f) => f.endsWith('.json')).sort();
  const out = [
    '// Generated by tools/web-check/gen-protocol-types.mjs from protocol/schema/*.json: do not edit.',
    '// The page\'s JSDoc imports these, e.g. /** @param {import(\'./types/protocol\').ServerState} msg */.',
    '',
  ];
  const common = JSON.parse(readFileSync(join(schemaDir, 'common.json'), 'utf8'));
  out.push('// common.json: the shared definitions.', '');
  for (const [name, schema] of Object.entries(common.$defs)) {
    out.push(declare(pascal(name), schema, `common.json#/$defs/${name}`));
  }
  const unions = {client: [], server: []};
  for (const file of files) {
    const m = /^(client|server)-([a-z_]+)\.json$/.exec(file);
    if (!m) continue;
    const schema = JSON.parse(readFileSync(join(schemaDir, file), 'utf8'));
    if (schema.$defs) fail(file, 'a message schema with definitions of its own is not translated');
    const name = pascal(m[1]) + pascal(m[2]);
    unions[m[1]].push(name);
    out.push(declare(name, schema, file));
  }
  out.push('/** Every message a client may send. */');
  out.push(`export type ClientMessage =\n  | ${unions.client.join('\n  | ')};\n`);
  out.push('/** Every message the server sends, replies and pushes. */');
  out.push(`export type ServerMessage =\n  | ${unions.server.join('\n  | ')};\n`);
  return out.join('\n');
}

const text = generate();
if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(outFile, 'utf8'); } catch { /* missing: not current */ }
  if (current !== text) {
    console.error(`${outFile} is not what protocol/schema/ generates: run node tools/web-check/gen-protocol-types.mjs`);
    process.exit(1);
  }
  console.log('web/types/protocol.d.ts is current');
} else {
  writeFileSync(outFile, text);
  console.log(`wrote ${outFile}`);
}

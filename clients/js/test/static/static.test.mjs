// Checks that need no server: the JSDoc and the declarations agree (tsc --checkJs), the
// documentation shows the first client as it is, and ws is the only dependency.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const dir = fileURLToPath(new URL('../..', import.meta.url));
const read = (/** @type {string} */ path) => readFileSync(new URL(path, new URL('../../', import.meta.url)), 'utf8');

test('tsc --checkJs finds no error in the client, its examples, its tests and its declarations', () => {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--pretty', 'false'],
                        {cwd: dir, encoding: 'utf8'});
  assert.equal(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
});

test('the documentation shows examples/first-client.mjs verbatim, and it is short', () => {
  const example = read('examples/first-client.mjs');
  const page = read('../../docs/clients/javascript.md');
  const block = page.match(/<!-- examples\/first-client\.mjs -->\n```js\n([\s\S]*?)```\n/);
  assert.ok(block, 'docs/clients/javascript.md has the block after <!-- examples/first-client.mjs -->');
  assert.equal(block[1], example);
  assert.ok(example.split('\n').length <= 51, 'a first client in 50 lines');
});

test('ws is the only dependency', () => {
  const pkg = JSON.parse(read('package.json'));
  assert.deepEqual(Object.keys(pkg.dependencies), ['ws']);
});

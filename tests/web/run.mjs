#!/usr/bin/env node
// Browser tests of the web client. Usage:
//   node tests/web/run.mjs --server build/release/server/tanbo-server [--web-dir web]
//        [--out build/release/web-test-output] [--chromium /usr/bin/chromium] [--only NAME]
//        [--docs docs/web]   (also keep the documentation's screenshots there)
//        [--group NAME]      (only the tests of one group: see GROUPS in tests.mjs)
import {existsSync} from 'node:fs';
import {mkdir} from 'node:fs/promises';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
if (!existsSync(path.join(here, 'node_modules', 'playwright-core'))) {
  console.error('tests/web: playwright-core is not installed; run tools/install-deps.sh --test ' +
                '(or: cd tests/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)');
  process.exit(1);
}
const {startServer, launchBrowser, run} = await import('./harness.mjs');
const {tests, GROUPS, inGroup} = await import('./tests.mjs');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const binary = opt('server');
if (!binary) {
  console.error('usage: run.mjs --server PATH [--web-dir DIR] [--out DIR] [--chromium PATH] [--only NAME] [--group NAME] [--docs DIR]');
  process.exit(2);
}
const webDir = path.resolve(opt('web-dir', path.join(here, '..', '..', 'web')));
const outDir = path.resolve(opt('out', path.join(process.cwd(), 'web-test-output')));
const docsDir = opt('docs') ? path.resolve(opt('docs')) : null;
const chromiumPath = opt('chromium', '/usr/bin/chromium');
const group = opt('group');
if (group && !GROUPS[group]) {
  console.error(`tests/web: no group ${group}; the groups: ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
if (!existsSync(chromiumPath)) {
  console.error(`tests/web: no browser at ${chromiumPath}; run tools/install-deps.sh --test (Debian's chromium)`);
  process.exit(1);
}

// A short takeover grace, so the test of an away player's seat waits 5 s, not 30.
const server = await startServer({binary: path.resolve(binary), webDir, extraArgs: ['--takeover-grace', '5']});
const browser = await launchBrowser(chromiumPath);
let failed = 1;
try {
  if (docsDir) await mkdir(docsDir, {recursive: true});
  const env = {base: server.base, serverBinary: path.resolve(binary), browser, outDir, docsDir, webDir, serverLog: server.log, adminToken: server.adminToken};
  const started = Date.now();
  const all = tests(env);
  // A test no group names would run in no ctest test: each must be in exactly one.
  const misfiled = all.filter((t) => Object.keys(GROUPS).filter((g) => inGroup(t.name, g)).length !== 1);
  if (misfiled.length) throw new Error(`tests in no group or in two: ${misfiled.map((t) => t.name).join('; ')}`);
  const chosen = all.filter((t) => !group || inGroup(t.name, group));
  failed = await run(chosen, {outDir, filter: opt('only'), timeoutMs: 240000});
  console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close().catch(() => {});
  const ended = await server.stop();
  if (ended !== 'exited with 0') {
    const unusual = server.log.join('').split('\n').filter((line) => line && !/^\S+ info /.test(line));
    console.error(`tanbo-server, sent SIGTERM, ${ended}; its log's lines other than info:\n${unusual.join('\n')}`);
    failed = 1;
  }
}
process.exit(failed ? 1 : 0);

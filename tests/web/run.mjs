#!/usr/bin/env node
// Browser tests of the web client. Usage:
//   node tests/web/run.mjs --server build/release/server/tanbo-server [--web-dir web]
//        [--out build/release/web-test-output] [--chromium /usr/bin/chromium] [--only NAME]
import {existsSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
if (!existsSync(path.join(here, 'node_modules', 'playwright-core'))) {
  console.error('tests/web: playwright-core is not installed; run tools/install-deps.sh --test ' +
                '(or: cd tests/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)');
  process.exit(1);
}
const {startServer, launchBrowser, run} = await import('./harness.mjs');
const {tests} = await import('./tests.mjs');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const binary = opt('server');
if (!binary) {
  console.error('usage: run.mjs --server PATH [--web-dir DIR] [--out DIR] [--chromium PATH] [--only NAME]');
  process.exit(2);
}
const webDir = path.resolve(opt('web-dir', path.join(here, '..', '..', 'web')));
const outDir = path.resolve(opt('out', path.join(process.cwd(), 'web-test-output')));
const chromiumPath = opt('chromium', '/usr/bin/chromium');
if (!existsSync(chromiumPath)) {
  console.error(`tests/web: no browser at ${chromiumPath}; run tools/install-deps.sh --test (Debian's chromium)`);
  process.exit(1);
}

const server = await startServer({binary: path.resolve(binary), webDir});
const browser = await launchBrowser(chromiumPath);
let failed = 1;
try {
  const env = {base: server.base, browser, outDir, serverLog: server.log};
  failed = await run(tests(env), {outDir, filter: opt('only'), timeoutMs: 180000});
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close().catch(() => {});
  await server.stop();
}
process.exit(failed ? 1 : 0);

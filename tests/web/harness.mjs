// The test harness: starts tanbo-server on a free port with a fresh data directory (and its
// operators' API behind a fresh secret), launches Debian's chromium through playwright-core,
// runs the tests in order and kills the server.
import {spawn} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {mkdtemp, mkdir, rm, writeFile} from 'node:fs/promises';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {chromium} from 'playwright-core';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const {port} = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(base, child, ms = 15000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`tanbo-server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('tanbo-server did not become healthy');
}

export async function startServer({binary, webDir, extraArgs = []}) {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tanbo-web-data-'));
  // The operators' API (docs/operations.md, "Moderation"), for the chat tests' removals and bans:
  // its secret in a file of its own, beside the data directory.
  const adminDir = await mkdtemp(path.join(tmpdir(), 'tanbo-web-admin-'));
  const adminToken = randomBytes(24).toString('hex');
  const adminFile = path.join(adminDir, 'admin-token');
  await writeFile(adminFile, `${adminToken}\n`, {mode: 0o600});
  const log = [];
  const child = spawn(binary, ['--bind', '127.0.0.1', '--port', String(port), '--data-dir', dataDir,
                               '--web-dir', webDir, '--threads', '2',
                               // Play now pairs in waves: every 300 ms here (2 s by default),
                               // so the pairing tests wait a fraction of a second.
                               '--pool-wave-ms', '300', '--admin-token-file', adminFile, ...extraArgs],
                      {stdio: ['ignore', 'pipe', 'pipe']});
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(base, child);
  return {
    base, port, dataDir, log, adminToken,
    // SIGTERM, the clean stop; how the server ended: 'exited with 0' is the only good end (a
    // sanitized build's report, or a leak, makes it another), and SIGKILL after 15 s another.
    async stop() {
      let ended = `exited with ${child.exitCode}`;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', (code, signal) => r(signal ? `was killed by ${signal}` : `exited with ${code}`)));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
        ended = await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, {recursive: true, force: true});
      await rm(adminDir, {recursive: true, force: true});
      return ended;
    },
  };
}

export async function launchBrowser(executablePath) {
  // Playwright gives every launch a fresh, temporary --user-data-dir of its own (and refuses
  // one in args), so no profile is shared between runs.
  return chromium.launch({executablePath, headless: true, args: CHROMIUM_FLAGS});
}

export async function run(tests, {outDir, filter, timeoutMs}) {
  await mkdir(outDir, {recursive: true});
  let passed = 0, failed = 0;
  for (const t of tests) {
    if (filter && !t.name.includes(filter)) continue;
    const started = Date.now();
    let timer;
    try {
      await Promise.race([t.fn(), new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      })]);
      passed++;
      console.log(`ok   ${t.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failed++;
      console.log(`FAIL ${t.name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n     ${err.stack || err}`);
    } finally {
      clearTimeout(timer);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

// What the tests share: the server's address (tests/clients/with-server.py sets TANBO_URL, and
// TANBO_URL2 in a cluster), fresh clients, and the examples run as programs.
import {spawn} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {TanboClient, memoryStorage} from '../src/index.js';

export const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url));

/** @param {string} name */
export function serverUrl(name = 'TANBO_URL') {
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set: run the tests through tests/clients/with-server.py`);
  return url;
}

/** A new guest, forgotten at the end. @param {import('../src/client.js').ClientOptions} [options] */
export function guest(options = {}, url = serverUrl()) {
  return TanboClient.connect(url, {storage: memoryStorage(), ...options});
}

/**
 * Runs a program of clients/js with node; resolves with its status and output. Lines of its
 * output can be waited for as they come (`onLine`).
 * @param {string[]} args @param {{env?: Record<string, string>, timeoutMs?: number, onLine?: (line: string) => void}} [options]
 * @returns {Promise<{code: number | null, stdout: string, stderr: string}>}
 */
export function runNode(args, {env = {}, timeoutMs = 90000, onLine} = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {cwd: CLIENT_DIR, env: {...process.env, ...env}});
    let stdout = '';
    let stderr = '';
    let partial = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop();
      for (const line of lines) onLine?.(line);
    });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} ran past ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({code, stdout, stderr});
    });
  });
}

/**
 * Plays random legal actions for the client's seat in `room` until the game ends.
 * @param {TanboClient} client @param {string} room
 * @returns {Promise<import('../src/client.js').StateMessage>}
 */
export function playRandomly(client, room) {
  return new Promise((resolve, reject) => {
    const onState = (/** @type {import('../src/client.js').StateMessage} */ state) => {
      if (state.room !== room) return;
      if (state.status === 'finished') {
        stop();
        resolve(state);
      } else if (state.legal) {
        client.act(room, state.legal[Math.floor(Math.random() * state.legal.length)], state.version)
          .catch((err) => {
            // Moved meanwhile, or cut off (the state after the reconnection asks again).
            if (err.code !== 'stale_version' && err.code !== 'disconnected') reject(err);
          });
      }
    };
    const stop = client.on('state', onState);
    const seen = client.rooms.get(room)?.state;
    if (seen) onState(seen);
  });
}

// A developer's first bot, as docs/clients/python.md tells it: the example random bot, run
// against the server, plays a game of each kind with both seats (paced, so that a person can
// follow), and the page opens each room the bot prints and watches it, move after move, to its
// result.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {createInterface} from 'node:readline';
import {fileURLToPath} from 'node:url';
import {DESKTOP, GAMES, newPlayer, closeAll, claimAccount, joinFromLobby, docShot} from './support.mjs';

const PYTHON = '/usr/bin/python3';  // Debian's, with python3-websockets (install-deps --test)
const BOT = fileURLToPath(new URL('../../clients/python/examples/random_bot.py', import.meta.url));

// A JSON call of the HTTP API with a bearer token; its answer's body.
async function call(env, method, path, token, body) {
  const res = await fetch(`${env.base}${path}`, {method, headers: {authorization: `Bearer ${token}`,
    'content-type': 'application/json'}, body: body && JSON.stringify(body)});
  assert.equal(res.status, 200, `${method} ${path}: ${res.status}`);
  return res.json();
}

// Starts the example bot: its process, its exit code to come, and its lines as they are printed
// (read from the start: a line printed before the test asks for it is kept).
function startBot(args, env = {}) {
  const bot = spawn(PYTHON, [BOT, ...args], {stdio: ['ignore', 'pipe', 'inherit'], env: {...process.env, ...env}});
  const exited = new Promise((resolve) => bot.on('exit', (code) => resolve(code)));
  const lines = createInterface({input: bot.stdout})[Symbol.asyncIterator]();
  return {bot, exited, lines: {[Symbol.asyncIterator]: () => lines}};
}

export function tests(env) {
  return [
    {name: 'walkthrough: the example bot plays each game, the page watches each to its end', fn: async () => {
      assert.ok(existsSync(PYTHON), `no ${PYTHON}: run tools/install-deps.sh --test`);
      const dev = await newPlayer(env, 'Dev', {viewport: DESKTOP});
      const url = `${env.base.replace(/^http/, 'ws')}/ws`;
      const {bot, exited, lines} = startBot(['--url', url, '--game', 'all', '--both', '--pace', '0.02', '--seed', '7']);
      const watched = [];
      try {
        for await (const line of lines) {
          const printed = /^room (\S+): (\S+), waiting for a player/.exec(line);
          if (!printed) continue;
          const [, room, game] = printed;
          await dev.page.goto(`${env.base}/#/room/${room}`);
          await dev.page.waitForFunction((r) => window.tanbo.view?.msg?.room === r, room);
          await dev.page.waitForSelector('#board svg');
          // Seen while it is played, then to its end, the result card in view.
          await dev.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
          const from = await dev.page.evaluate(() => window.tanbo.view.msg.version);
          await dev.page.waitForFunction(() => window.tanbo.view.msg.status === 'finished', null, {timeout: 120000});
          await dev.page.waitForSelector('#result .places');
          const to = await dev.page.evaluate(() => window.tanbo.view.msg.version);
          watched.push({game, moves: to - from, game_shown: await dev.page.evaluate(() => window.tanbo.view.msg.game)});
        }
        assert.equal(await exited, 0, 'the bot exits 0 once every game ended');
      } finally {
        bot.kill();
        await closeAll([dev]);
      }
      console.log(`     watched: ${watched.map((w) => `${w.game} (${w.moves} moves seen)`).join(', ')}`);
      assert.deepEqual(watched.map((w) => w.game).sort(), [...GAMES].sort());
      for (const w of watched) {
        assert.equal(w.game_shown, w.game);
        assert.ok(w.moves > 0, `${w.game}: the page saw the game move`);
      }
      assert.deepEqual(dev.errors, []);
    }},
    {name: 'walkthrough: a bot account\'s room, joined from the lobby, shows BOT beside its name', fn: async () => {
      // Rob's account becomes a bot and makes an access token, as docs/bots-write.md tells it.
      const rob = await newPlayer(env, 'Rob', {viewport: DESKTOP});
      await claimAccount(rob, 'rob', 'a much better passphrase');
      await closeAll([rob]);
      const login = await fetch(`${env.base}/api/login`, {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({username: 'rob', password: 'a much better passphrase'})}).then((r) => r.json());
      assert.equal((await call(env, 'POST', '/api/me/bot', login.token, {})).bot, true);
      const {token} = await call(env, 'POST', '/api/me/tokens', login.token, {name: 'the example bot'});
      // The example bot, as Rob's program, creates a room and waits for a player.
      const url = `${env.base.replace(/^http/, 'ws')}/ws`;
      const {bot, exited, lines} = startBot(['--url', url, '--game', 'mancala-simple', '--pace', '0.2'],
                                            {TANBO_ACCESS_TOKEN: token});
      const una = await newPlayer(env, 'Una', {viewport: DESKTOP});
      try {
        let room = null;
        for await (const line of lines) {
          room = /^room (\S+): mancala-simple, waiting for a player/.exec(line)?.[1];
          if (room) break;
        }
        assert.ok(room, 'the bot printed its room');
        // In the lobby, the waiting room names its bot; in the room, its seat does.
        await una.page.waitForSelector(`[data-join="${room}"]`);
        const card = una.page.locator('.room', {has: una.page.locator(`[data-join="${room}"]`)});
        assert.match(await card.textContent(), /Rob\s*BOT/);
        await joinFromLobby(una, room);
        const botSeat = una.page.locator('.seat', {hasText: 'Rob'});
        await botSeat.locator('.tag.cpu', {hasText: 'BOT'}).waitFor();
        assert.equal(await botSeat.locator('.tag.cpu').getAttribute('title'), 'A bot: this account is played by a program');
        await una.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
        await docShot(env, una.page, 'bot-room');
        // Una resigns: the bot's game is over, and so is its run.
        await una.page.click('#resign');
        await una.page.click('#resign-confirm');
        await una.page.waitForSelector('#result .places');
        assert.equal(await exited, 0, 'the bot exits 0 once its game ended');
      } finally {
        bot.kill();
        await closeAll([una]);
      }
      assert.deepEqual(una.errors, []);
    }},
  ];
}

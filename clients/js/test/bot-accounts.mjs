// Bot accounts as docs/bots-write.md has them, against one server or across a cluster's two
// nodes (`url`, `url2`): the client saying an access token, two bots paired in a pool for bots
// and a person who plays bots challenging one, both through the example bot, and a revoked
// token stopping the client.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {TanboClient, TanboError, memoryStorage} from '../src/index.js';
import {http, makeAccessToken, makeAccount, revokeAccessToken} from './accounts.mjs';
import {guest, playRandomly, runNode} from './support.mjs';

const RESULT = /^(\S+) (r-\S+): \w+, places (\[[\d,]+\]) after \d+ steps; this bot played seat (\d)$/m;
const WAITING = /^waiting for a challenge to (\S+)/;

/** A storage that records every use: an access token must leave it untouched. */
function recordingStorage() {
  /** @type {string[]} */
  const uses = [];
  return {
    uses,
    get: async (/** @type {string} */ key) => { uses.push(`get ${key}`); return null; },
    set: async (/** @type {string} */ key) => { uses.push(`set ${key}`); },
    remove: async (/** @type {string} */ key) => { uses.push(`remove ${key}`); },
  };
}

/**
 * `challenging`, once the player is known online: in a cluster, another node names a new
 * connection within a pool wave (2 s) of its hello.
 * @param {TanboClient} client @param {string} player @param {string} game
 */
async function challengeSoon(client, player, game) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.challenge(player, game);
    } catch (err) {
      if (err.code !== 'player_offline' || attempt >= 60) throw err;
      await new Promise((resolve) => { setTimeout(resolve, 100); });
    }
  }
}

/** @param {string} url @param {string} url2 the second node, or the same server */
export function botAccountTests(url, url2) {
  test('a bot says its access token in hello, keeps nothing of it, and seeks among bots', async () => {
    const rob = await makeAccount('Rob', {bot: true});
    const {token} = await makeAccessToken(rob.session);
    const storage = recordingStorage();
    const program = await TanboClient.connect(url2, {accessToken: token, storage});
    try {
      assert.equal(program.player.id, rob.id);
      assert.equal(program.player.bot, true);
      assert.equal(program.welcome.account.username, rob.username);
      assert.deepEqual(storage.uses, [], 'the storage is never read nor written');
      await assert.rejects(program.seek('mancala-simple'), {code: 'bot_pools_only'});
      const seeking = await program.seek('mancala-simple', {bots: true});
      assert.equal(seeking.pool.bots, true);
      assert.equal((await program.unseek(seeking.seek)).type, 'ok');
    } finally {
      program.close();
    }
  });

  test('two bot accounts paired in a pool for bots play a game to the end', async () => {
    const tokens = [];
    for (const name of ['Ada', 'Bob']) tokens.push((await makeAccessToken((await makeAccount(name, {bot: true})).session)).token);
    const runs = await Promise.all(tokens.map((token, i) => runNode(['examples/random-bot.mjs', '--game', 'tsoro'],
                                                                      {env: {TANBO_URL: [url, url2][i], TANBO_ACCESS_TOKEN: token}})));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const [first, second] = runs.map((run) => run.stdout.match(RESULT));
    assert.ok(first && second, runs.map((run) => run.stdout).join('\n'));
    assert.equal(first[2], second[2], 'the two bots were paired together');
    assert.deepEqual([first[4], second[4]].sort(), ['0', '1']);
    const stored = await http('GET', `/api/games/${first[2]}-1`);
    assert.equal(stored.status, 'finished');
    assert.deepEqual(stored.result.places, JSON.parse(first[3]));
  });

  test('a person who plays bots challenges a bot, which accepts and plays to the end', async () => {
    const rex = await makeAccount('Rex', {bot: true});
    const {token} = await makeAccessToken(rex.session);
    const eve = await makeAccount('Eve');
    assert.equal((await http('PUT', '/api/me/play_bots', {bearer: eve.session, body: {play_bots: true}})).play_bots, true);
    const stranger = await guest({name: 'Stranger'}, url2);  // on the bot's node: it is online there
    // The account's connection opened after the change, as in a cluster it must be.
    const storage = memoryStorage();
    await storage.set('token:default', eve.session);
    const person = await TanboClient.connect(url, {storage});
    try {
      /** @type {Promise<import('../src/client.js').StateMessage | null>} */
      let played = Promise.resolve(null);
      const run = await runNode(['examples/random-bot.mjs', '--game', 'mancala-simple', '--accept'], {
        env: {TANBO_URL: url2, TANBO_ACCESS_TOKEN: token},
        onLine: (line) => {
          const waiting = line.match(WAITING);
          if (!waiting) return;
          played = (async () => {
            await assert.rejects(stranger.challenge(waiting[1], 'mancala-simple'), {code: 'bots_refused'});
            const paired = person.next('paired', undefined, {timeoutMs: 20000});
            await challengeSoon(person, waiting[1], 'mancala-simple');
            return playRandomly(person, (await paired).room);
          })();
        },
      });
      assert.equal(run.code, 0, run.stderr);
      const end = await played;
      assert.equal(end?.status, 'finished');
      const result = run.stdout.match(RESULT);
      assert.equal(result?.[2], end.room);
      assert.deepEqual(JSON.parse(result[3]), end.result.places);
      assert.equal(end.seats[Number(result[4])].player.bot, true);
    } finally {
      person.close();
      stranger.close();
    }
  });

  test('a revoked access token stops the client with bad_token, never as a guest', async () => {
    const una = await makeAccount('Una');  // a person's: any account may hold access tokens
    const {token, id} = await makeAccessToken(una.session);
    const program = await TanboClient.connect(url2, {accessToken: token, reconnectDelayMs: 100});
    const closed = program.next('closed', undefined, {timeoutMs: 30000});
    const reconnected = program.next('reconnected');
    await revokeAccessToken(una.session, id);
    const {reason, error} = await closed;
    assert.equal(reason, 'bad_token');
    assert.ok(error instanceof TanboError);
    assert.match(error.message, /access token was refused/);
    assert.equal(program.failure, error);
    await assert.rejects(reconnected, error);
    await assert.rejects(program.ping(), {code: 'bad_token'});
    await assert.rejects(TanboClient.connect(url, {accessToken: token}), {code: 'bad_token', message: /access token was refused/});
    const run = await runNode(['examples/random-bot.mjs', '--game', 'tsoro', '--accept'],
                              {env: {TANBO_URL: url, TANBO_ACCESS_TOKEN: token}});
    assert.equal(run.code, 1);
    assert.match(run.stderr, /access token was refused/);
  });
}

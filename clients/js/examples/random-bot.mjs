#!/usr/bin/env node
// A bot that plays a random legal action whenever its seat must decide, until the game ends.
//
//   node examples/random-bot.mjs --game tanbo                 seek a game of tanbo, play it
//   node examples/random-bot.mjs --game all --both            both seats, one game of each game
//   node examples/random-bot.mjs --game tsoro --create        create a room, wait for a person
//   node examples/random-bot.mjs --game tsoro --join r-8f3a   take a seat in a person's room
//   node examples/random-bot.mjs --game tsoro --accept        wait for a challenge, accept it
//   node examples/random-bot.mjs --game all --both --pace 0.5 a move each half second, to watch
//
// The server is --url, else TANBO_URL, else ws://localhost:8080/ws. With --both the second seat
// connects to --url2, else TANBO_URL2, else the same server (in a cluster: another node). With a
// personal access token (--access-token, else TANBO_ACCESS_TOKEN) it plays as that account, and
// a bot account seeks in the pools for bots (docs/bots-write.md). It prints each game's result
// and exits 0 once every game ended, 1 on a failure (a revoked token, say) or a timeout.
import {parseArgs} from 'node:util';
import {TanboClient, fileStorage, memoryStorage} from '../src/index.js';

const GAMES = ['tanbo', 'steere-tanbo', 'mancala-simple', 'tsoro'];
// What a random player meets in a game that goes on: another seat moved first, the game ended
// meanwhile, the connection dropped (the client reconnects, and the room's state comes again).
// The next state says what to do.
const HARMLESS = new Set(['stale_version', 'not_your_turn', 'game_over', 'not_in_game', 'disconnected']);

const {values: args} = parseArgs({options: {
  game: {type: 'string'},
  url: {type: 'string', default: process.env.TANBO_URL || 'ws://localhost:8080/ws'},
  url2: {type: 'string', default: process.env.TANBO_URL2 || ''},
  both: {type: 'boolean', default: false},
  create: {type: 'boolean', default: false},
  join: {type: 'string'},
  accept: {type: 'boolean', default: false},
  name: {type: 'string'},
  identity: {type: 'string'},
  'access-token': {type: 'string', default: process.env.TANBO_ACCESS_TOKEN || ''},
  timeout: {type: 'string', default: '300'},
  pace: {type: 'string', default: '0'},  // seconds before each move: time to watch in the page
}});
const paceMs = Number(args.pace) * 1000;

const accessToken = args['access-token'];
if (!args.game || (args.game !== 'all' && !GAMES.includes(args.game)) || (accessToken && args.both)) {
  console.error(`usage: random-bot.mjs --game ${GAMES.join('|')}|all [--both] [--create | --join ROOM | --accept]` +
                ' [--access-token TOKEN] [--pace SECONDS] (one account: not with --both)');
  process.exit(2);
}
const timer = setTimeout(() => {
  console.error(`random-bot: no end within ${args.timeout} s`);
  process.exit(1);
}, Number(args.timeout) * 1000);

/** @param {string} url @param {string} profile */
function connect(url, profile) {
  // An account's bot plays under the account's name unless --name says another.
  if (accessToken) return TanboClient.connect(url, {accessToken, ...(args.name ? {name: args.name} : {})});
  const storage = args.identity ? fileStorage(args.identity) : memoryStorage();
  return TanboClient.connect(url, {name: args.name ?? 'Random bot', storage, profile});
}

/**
 * Plays the client's seat in `room` until the game ends; resolves with the finished state.
 * @param {TanboClient} client @param {string} room
 * @returns {Promise<import('../src/client.js').StateMessage>}
 */
function playToTheEnd(client, room) {
  return new Promise((resolve, reject) => {
    /** @param {import('../src/client.js').StateMessage} state */
    const onState = (state) => {
      if (state.room !== room) return;
      if (state.status === 'finished') {
        stop();
        resolve(state);
      } else if (state.legal?.length) {
        const action = state.legal[Math.floor(Math.random() * state.legal.length)];
        const move = () => client.act(room, action, state.version).catch((err) => {
          if (HARMLESS.has(err.code)) return;
          stop();
          reject(err);
        });
        if (paceMs > 0) setTimeout(move, paceMs);
        else move();
      }
    };
    const stops = [client.on('state', onState),
                   // Stopped for good (its access token revoked, say): no state comes any more.
                   client.on('closed', (closed) => { stop(); reject(closed.error ?? new Error('closed')); })];
    const stop = () => { for (const unlisten of stops) unlisten(); };
    // The room's first state may have come with the answer that brought the client in.
    const seen = client.rooms.get(room)?.state;
    if (seen) onState(seen);
  });
}

/**
 * Seeks in the game's default pool (a bot account: the pool for bots); resolves with the room
 * once paired. @param {TanboClient} client @param {string} game
 */
async function seek(client, game) {
  const paired = client.next('paired', (p) => p.seek != null);
  await client.seek(game, client.player.bot ? {bots: true} : {});
  return (await paired).room;
}

/** @param {TanboClient} client */
async function acceptChallenge(client) {
  console.log(`waiting for a challenge to ${client.player.id} (${client.player.name})`);
  const challenged = await client.next('challenged');
  const paired = client.next('paired', (p) => p.challenge === challenged.challenge);
  await client.accept(challenged.challenge);
  return (await paired).room;
}

/** The rooms each connection plays in this game: one per connection. @param {TanboClient[]} clients @param {string} game */
async function seat(clients, game) {
  const [first, second] = clients;
  if (args.join) return [(await first.join(args.join)).room];
  if (args.accept) return [await acceptChallenge(first)];
  if (args.create) {
    const {room} = await first.create(game);
    if (!second) console.log(`created ${room}: waiting for a player to join it`);
    else await second.join(room);
    return clients.map(() => room);
  }
  return Promise.all(clients.map((client) => seek(client, game)));
}

/** @param {TanboClient[]} clients @param {string} game */
async function playOne(clients, game) {
  const rooms = await seat(clients, game);
  const ends = await Promise.all(clients.map((client, i) => playToTheEnd(client, rooms[i])));
  const end = ends[0];
  const mine = clients[0].rooms.get(rooms[0])?.seat;
  console.log(`${game} ${end.room}: ${end.result.reason}, places ${JSON.stringify(end.result.places)}` +
              ` after ${end.version} steps` + (clients.length === 1 ? `; this bot played seat ${mine}` : ''));
  await Promise.all(clients.map((client, i) => client.leave(rooms[i])));
}

/** @type {TanboClient[]} */
const clients = [];
try {
  clients.push(await connect(args.url, 'bot-0'));
  if (args.both) clients.push(await connect(args.url2 || args.url, 'bot-1'));
  for (const game of args.game === 'all' ? GAMES : [args.game]) await playOne(clients, game);
} catch (err) {
  console.error(`random-bot: ${err.message}`);
  process.exitCode = 1;
} finally {
  for (const client of clients) client.close();
  clearTimeout(timer);
}

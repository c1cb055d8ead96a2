// The client against one real server: replies matched to their requests, refusals typed, the
// identity kept between runs, a cut connection resumed, rate_limited sent again.
import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {TanboClient, TanboError, fileStorage} from '../../src/index.js';
import {guest, playRandomly, runNode, serverUrl} from '../support.mjs';

test('each reply settles the request that has its id, whatever the order', async () => {
  const client = await guest({name: 'Matcher'});
  try {
    /** @type {import('../../src/client.js').ServerMessage[]} */
    const frames = [];
    client.on('message', (m) => frames.push(m));
    // Requests of different kinds at once: a room's answer can come after a ping sent later.
    const asked = [client.games(), client.ping(), client.create('mancala-simple'), client.myGames(),
                   client.listRooms('mancala-simple'), client.ping()];
    const replies = await Promise.all(asked);
    assert.deepEqual(replies.map((r) => r.type), ['games', 'pong', 'created', 'my_games', 'rooms', 'pong']);
    const ids = replies.map((r) => r.re);
    assert.equal(new Set(ids).size, ids.length, 'every reply repeats its own id');
    const created = /** @type {import('../../src/client.js').CreatedMessage} */ (replies[2]);
    assert.ok(client.rooms.get(created.room), 'the room created is tracked');
    assert.equal(client.rooms.get(created.room).seat, 0);
    // The state pushed after `created` is an event, not a reply, and the room's view has it.
    if (!client.rooms.get(created.room).state) {
      await client.next('state', (s) => s.room === created.room, {timeoutMs: 10000});
    }
    assert.ok(frames.some((f) => f.type === 'state' && f.room === created.room && f.re === undefined));
    assert.equal(client.rooms.get(created.room).version, 0);
  } finally {
    client.close();
  }
});

test('a reply that overtakes an earlier request settles its own request', async () => {
  // A room answers an act once it is stored; a ping is answered at once, and may come first.
  // Rounds of both, until the server has answered out of order at least once.
  const client = await guest();
  try {
    const {room} = await client.create('mancala-simple', {cpu: [{seat: 1, level: 'random'}]});
    /** @type {Array<string | number>} */
    const order = [];
    client.on('message', (m) => { if (m.re != null) order.push(m.re); });
    let overtaken = false;
    for (let round = 0; round < 20 && !overtaken; round++) {
      const view = client.rooms.get(room);
      const state = view.state?.legal || view.state?.status === 'finished' ? view.state
        : await client.next('state', (s) => s.room === room && (!!s.legal || s.status === 'finished'), {timeoutMs: 10000});
      if (state.status === 'finished') break;
      order.length = 0;
      const [ok, pong] = await Promise.all([client.act(room, state.legal[0], state.version), client.ping()]);
      assert.equal(ok.type, 'ok');
      assert.equal(ok.version, state.version + 1);
      assert.equal(pong.type, 'pong');
      overtaken = order[0] === pong.re;
    }
    assert.ok(overtaken, 'the server answered a ping before an act sent earlier at least once');
  } finally {
    client.close();
  }
});

test('an error reply rejects with a TanboError carrying its code', async () => {
  const client = await guest();
  try {
    const unknownGame = await client.create('chess').catch((err) => err);
    assert.ok(unknownGame instanceof TanboError);
    assert.equal(unknownGame.code, 'bad_option');
    assert.deepEqual(unknownGame.problems.map((p) => p.field), ['game']);
    assert.equal(unknownGame.reply.type, 'error');
    await assert.rejects(client.join('r-nowhere'), {name: 'TanboError', code: 'no_such_room'});
    await assert.rejects(client.act('r-nowhere', {hole: 0}, 1), {code: 'no_such_room'});
    // Refusals leave the connection usable.
    assert.equal((await client.ping()).type, 'pong');
    // A request after close is the client's own refusal.
    client.close();
    await assert.rejects(client.ping(), {code: 'closed'});
  } finally {
    client.close();
  }
});

test('the identity is kept between two runs through the storage', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tanbo-client-identity-'));
  try {
    const env = {TANBO_IDENTITY_FILE: join(dir, 'identity.json'), TANBO_URL: serverUrl()};
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const run = await runNode(['examples/first-client.mjs'], {env});
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /no chess here: bad_option/);
      assert.match(run.stdout, /game over \(\w+\) after \d+ steps: (we won|we placed \d)/);
      runs.push(run.stdout.match(/connected as First Client \((p[0-9a-f]+)\)/)[1]);
    }
    assert.equal(runs[0], runs[1], 'the second run is the same player');
    const kept = JSON.parse(await readFile(env.TANBO_IDENTITY_FILE, 'utf8'));
    assert.equal(typeof kept['token:default'], 'string');
    // And the same token, given to a client of this process, is that player too.
    const again = await TanboClient.connect(serverUrl(), {storage: fileStorage(env.TANBO_IDENTITY_FILE)});
    assert.equal(again.player.id, runs[0]);
    again.close();
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('a token the server does not know gives a new guest, and is replaced', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tanbo-client-identity-'));
  try {
    const storage = fileStorage(join(dir, 'identity.json'));
    await storage.set('token:default', 'not-a-token-of-this-server');
    const client = new TanboClient(serverUrl(), {storage});
    const refused = client.next('token_refused');
    const welcome = await client.connect();
    assert.equal((await refused).token, 'not-a-token-of-this-server');
    assert.equal(await storage.get('token:default'), welcome.token);
    client.close();
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

/** Cuts the client's connection as a network failure would: no closing handshake. @param {TanboClient} client */
function cut(client) {
  const socket = /** @type {any} */ (client.socket);
  if (typeof socket.terminate === 'function') socket.terminate();
  else socket.close(4000, 'cut by the test');
}

test('after a cut connection the client reconnects, takes its seat back and resumes', async () => {
  const ana = await guest({name: 'Ana', reconnectDelayMs: 800});
  const ben = await guest({name: 'Ben'});
  try {
    const {room} = await ana.create('mancala-simple', {options: {first: 1}});
    const bensTurn = ben.next('state', (s) => s.room === room && s.version === 1);
    const anaSeesStart = ana.next('state', (s) => s.room === room && s.version === 1, {timeoutMs: 10000});
    await ben.join(room);
    const start = await bensTurn;
    assert.ok(start.legal, 'Ben moves first');
    await anaSeesStart;

    const dropped = ana.next('disconnected');
    const lost = ana.ping();  // its answer cannot come: it rejects
    cut(ana);
    await assert.rejects(lost, {code: 'disconnected'});
    await dropped;
    // Ben moves while Ana is away; she learns it from the resume after she is back.
    await ben.act(room, start.legal[0], 1);
    const resumed = ana.next('resumed', (r) => r.room === room, {timeoutMs: 20000});
    const back = await ana.next('reconnected', undefined, {timeoutMs: 20000});
    assert.equal(back.player.name, 'Ana');
    assert.deepEqual(back.seats, [{room, seat: 0}]);
    const missed = await resumed;
    assert.equal(missed.gap, false);
    assert.equal(missed.steps[0].version, 2);
    assert.deepEqual(missed.steps[0].events[0], {type: 'action', seat: 1, action: start.legal[0]});
    assert.equal(ana.rooms.get(room).seat, 0);
    assert.ok(ana.rooms.get(room).version >= 2);

    // The seat is hers again: the game plays to its end.
    const [end] = await Promise.all([playRandomly(ana, room), playRandomly(ben, room)]);
    assert.equal(end.status, 'finished');
    assert.equal(ana.status, 'open');
  } finally {
    ana.close();
    ben.close();
  }
});

test('rate_limited requests wait and go again; without retries they reject', async () => {
  const patient = await guest({rateLimitRetries: 5, rateLimitDelayMs: () => 1000});
  const hasty = await guest({rateLimitRetries: 0});
  try {
    let limited = 0;
    patient.on('rate_limited', () => { limited++; });
    const pongs = await Promise.all(Array.from({length: 30}, () => patient.ping()));
    assert.equal(pongs.length, 30);
    assert.ok(pongs.every((p) => p.type === 'pong'));
    assert.ok(limited >= 5, `a burst of 30 meets the limit of 20 (${limited} refusals retried)`);

    const outcomes = await Promise.allSettled(Array.from({length: 30}, () => hasty.ping()));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    assert.ok(refused.length >= 5, `${refused.length} refused`);
    assert.ok(refused.every((o) => o.status === 'rejected' && o.reason.code === 'rate_limited'));
  } finally {
    patient.close();
    hasty.close();
  }
});

test("rate_limited requests wait the server's retry_ms, not the back-off", async () => {
  // A back-off of a minute: only the server's retry_ms, a tenth of a second, ends in time.
  const client = await guest({rateLimitDelayMs: () => 60000});
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  try {
    /** @type {number[]} */
    const delays = [];
    client.on('rate_limited', ({delayMs}) => { delays.push(delayMs); });
    const pongs = await Promise.race([
      Promise.all(Array.from({length: 30}, () => client.ping())),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('not answered within 20 s')), 20000); }),
    ]);
    assert.ok(pongs.every((p) => p.type === 'pong'));
    assert.ok(delays.length >= 5, `a burst of 30 meets the limit of 20 (${delays.length} refusals retried)`);
    assert.ok(delays.every((ms) => ms < 60000), `${delays}`);
  } finally {
    clearTimeout(timer);
    client.close();
  }
});

test('say reaches the room as said events; a repeat is refused', async () => {
  const ana = await guest({name: 'Ana'});
  const ben = await guest({name: 'Ben'});
  try {
    const {room} = await ana.create('tsoro');
    await ben.join(room);
    const heard = ben.next('said', (s) => s.room === room, {timeoutMs: 10000});
    const ok = await ana.say(room, 'players', 'Good luck!');
    assert.equal(ok.type, 'ok');
    const said = await heard;
    assert.equal(said.text, 'Good luck!');
    assert.equal(said.from.id, ana.player.id);
    await assert.rejects(ana.say(room, 'players', 'Good luck!'), {code: 'chat_repeated'});
    await ben.say(room, 'players', {phrase: 'thanks'});
    await ana.resign(room);
    const left = await ana.leave(room);
    assert.equal(left.type, 'left');
    assert.equal(ana.rooms.has(room), false);
  } finally {
    ana.close();
    ben.close();
  }
});

test('a challenge declined reaches the challenger; one accepted pairs both', async () => {
  const eve = await guest({name: 'Eve'});
  const cleo = await guest({name: 'Cleo'});
  try {
    const invited = cleo.next('challenged', undefined, {timeoutMs: 10000});
    const {challenge} = await eve.challenge(cleo.player.id, 'mancala-simple');
    const challenged = await invited;
    assert.equal(challenged.challenge, challenge);
    assert.equal(challenged.from.id, eve.player.id);
    const ended = eve.next('challenge_ended', (e) => e.challenge === challenge, {timeoutMs: 10000});
    await cleo.decline(challenge);
    assert.equal((await ended).reason, 'declined');
    await assert.rejects(cleo.accept(challenge), {code: 'no_such_challenge'});

    const again = cleo.next('challenged', undefined, {timeoutMs: 10000});
    const second = await eve.challenge(cleo.player.id, 'mancala-simple');
    await again;
    const pairs = Promise.all([eve.next('paired', undefined, {timeoutMs: 10000}),
                               cleo.next('paired', undefined, {timeoutMs: 10000})]);
    await cleo.accept(second.challenge);
    const [pe, pc] = await pairs;
    assert.equal(pe.room, pc.room);
    assert.notEqual(pe.seat, pc.seat);
    const [end] = await Promise.all([playRandomly(eve, pe.room), playRandomly(cleo, pc.room)]);
    assert.equal(end.status, 'finished');
  } finally {
    eve.close();
    cleo.close();
  }
});

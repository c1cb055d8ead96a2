// Through a cluster: the two seats of each game on different nodes, so that every move of one
// of them reaches the room through the other node; and a cut connection resumed on the other node.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {guest, playRandomly, runNode, serverUrl} from '../support.mjs';

const GAMES = ['tanbo', 'steere-tanbo', 'mancala-simple', 'tsoro'];

test('the bot plays a game of each game with its seats on two nodes', async () => {
  const run = await runNode(['examples/random-bot.mjs', '--game', 'all', '--both', '--create'],
                            {env: {TANBO_URL: serverUrl(), TANBO_URL2: serverUrl('TANBO_URL2')}});
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.deepEqual(lines.map((l) => l.split(' ')[0]), GAMES);
  for (const line of lines) assert.match(line, /^[\w-]+ r-\S+: \w+, places \[[12],[12]\] after \d+ steps$/);
});

test('paired through seek across nodes, a player cut off comes back and finishes', async () => {
  const ana = await guest({name: 'Ana'}, serverUrl());
  const ben = await guest({name: 'Ben'}, serverUrl('TANBO_URL2'));
  try {
    const paired = Promise.all([ana.next('paired', undefined, {timeoutMs: 20000}),
                                ben.next('paired', undefined, {timeoutMs: 20000})]);
    await ana.seek('mancala-simple', {options: {stones: 3}});
    await ben.seek('mancala-simple', {options: {stones: 3}});
    const [pa, pb] = await paired;
    assert.equal(pa.room, pb.room);
    const back = ben.next('reconnected', undefined, {timeoutMs: 20000});
    const ends = Promise.all([playRandomly(ana, pa.room), playRandomly(ben, pb.room)]);
    const socket = /** @type {any} */ (ben.socket);
    if (typeof socket.terminate === 'function') socket.terminate();
    else socket.close(4000, 'cut by the test');
    await back;
    assert.equal(ben.rooms.get(pb.room)?.seat, pb.seat, 'the seat it was paired to is joined again');
    const [end] = await ends;
    assert.equal(end.status, 'finished');
    assert.deepEqual([...end.result.places].sort(), [1, 2]);
  } finally {
    ana.close();
    ben.close();
  }
});

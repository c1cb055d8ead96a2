// The example bot plays each of the four games to its end on one server: both seats itself
// (found through Play now), or one seat against a person's client (a room joined, a challenge
// accepted).
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {guest, playRandomly, runNode, serverUrl} from '../support.mjs';

const GAMES = ['tanbo', 'steere-tanbo', 'mancala-simple', 'tsoro'];

test('the bot plays both seats of a game of each game, paired through seek', async () => {
  const run = await runNode(['examples/random-bot.mjs', '--game', 'all', '--both'], {env: {TANBO_URL: serverUrl()}});
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.deepEqual(lines.map((l) => l.split(' ')[0]), GAMES);
  for (const line of lines) assert.match(line, /^[\w-]+ r-\S+: \w+, places \[[12],[12]\] after \d+ steps$/);
});

test('the bot takes the seat of a room a person created, and plays it to the end', async () => {
  const person = await guest({name: 'Person'});
  try {
    const {room} = await person.create('steere-tanbo');
    const end = playRandomly(person, room);
    const run = await runNode(['examples/random-bot.mjs', '--game', 'steere-tanbo', '--join', room],
                              {env: {TANBO_URL: serverUrl()}});
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^steere-tanbo ${room}: .*this bot played seat 1$`, 'm'));
    assert.equal((await end).status, 'finished');
  } finally {
    person.close();
  }
});

test('the bot accepts a challenge and plays it to the end', async () => {
  const person = await guest({name: 'Challenger'});
  try {
    /** @type {Promise<unknown>} */
    let played = Promise.resolve();
    const run = runNode(['examples/random-bot.mjs', '--game', 'tsoro', '--accept'], {
      env: {TANBO_URL: serverUrl()},
      onLine: (line) => {
        const waiting = line.match(/^waiting for a challenge to (\S+)/);
        if (!waiting) return;
        played = (async () => {
          const paired = person.next('paired', undefined, {timeoutMs: 20000});
          await person.challenge(waiting[1], 'tsoro');
          const {room} = await paired;
          return playRandomly(person, room);
        })();
      },
    });
    const {code, stdout, stderr} = await run;
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^tsoro r-\S+: \w+, places/m);
    assert.equal((/** @type {any} */ (await played)).status, 'finished');
  } finally {
    person.close();
  }
});

// A first client: plays one game of mancala-simple against the computer, at random, and prints
// the result. Run it against a server:  node first-client.mjs ws://localhost:8080/ws
import {TanboClient, TanboError, fileStorage} from '../src/index.js';

const url = process.argv[2] ?? process.env.TANBO_URL ?? 'ws://localhost:8080/ws';

// The server gives this identity a token; the file keeps it, so the next run is the same player.
const client = await TanboClient.connect(url, {
  name: 'First Client',
  storage: fileStorage(process.env.TANBO_IDENTITY_FILE ?? 'first-client-identity.json'),
});
console.log(`connected as ${client.player.name} (${client.player.id})`);

// A refused request rejects with a TanboError naming the server's code.
try {
  await client.create('chess');
} catch (err) {
  if (!(err instanceof TanboError)) throw err;
  console.log(`no chess here: ${err.code}`);
}

// Every state is pushed as an event; the copy for the seat that must decide lists the legal
// actions: send one back, verbatim.
const finished = new Promise((resolve) => {
  client.on('state', (state) => {
    if (state.status === 'finished') resolve(state);
    else if (state.legal) {
      const action = state.legal[Math.floor(Math.random() * state.legal.length)];
      client.act(state.room, action, state.version).catch((err) => console.log(`act: ${err.code}`));
    }
  });
});

// Seat 1 is the computer's, so the game starts at once; seat 0 is ours.
const {room} = await client.create('mancala-simple', {cpu: [{seat: 1, level: 'random'}]});
console.log(`playing in ${room}`);

const end = await finished;
await client.say(room, 'players', {phrase: 'good_game'});
const place = end.result.places[0];
console.log(`game over (${end.result.reason}) after ${end.version} steps: ` +
            (place === 1 ? 'we won' : `we placed ${place}`));
client.close();

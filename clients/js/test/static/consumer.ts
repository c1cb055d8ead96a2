// A TypeScript program using tanbo-client as a developer would, through its declarations
// (src/client.d.ts, the package's "types"). Never run: tsc checks it (clients:js:types), and
// each @ts-expect-error is a misuse the declarations must refuse.
import {TanboClient, TanboError, fileStorage, memoryStorage} from 'tanbo-client';
import type {StateMessage, TokenStorage} from 'tanbo-client';
import * as implementation from '../../src/index.js';

// The implementation is what the declarations say it is.
const declared: typeof TanboClient = implementation.TanboClient;
const declaredError: typeof TanboError = implementation.TanboError;
const declaredStorage: () => TokenStorage = implementation.memoryStorage;
void declared; void declaredError; void declaredStorage;

export async function play(url: string): Promise<number> {
  const client = await TanboClient.connect(url, {name: 'Typed', storage: fileStorage('identity.json')});
  const id: string = client.player!.id;
  const {room, seat} = await client.create('tanbo', {options: {first: 0}});
  const stop = client.on('state', (state: StateMessage) => {
    if (state.legal) void client.act(room, state.legal[0], state.version);
  });
  const said = await client.next('said', (s) => s.room === room, {timeoutMs: 1000});
  const text: string | undefined = said.text;
  try {
    await client.join('r-none', {as: 'spectator'});
  } catch (err) {
    if (err instanceof TanboError) {
      const code: string = err.code;
      void code;
    }
  }
  stop();
  client.close();
  void id; void text;
  // A program playing as a bot account, with its personal access token.
  const bot = await TanboClient.connect(url, {accessToken: 'tbp_0123'});
  await bot.becomeBot();
  const {seek} = await bot.seek('tsoro', {bots: true});
  const failure: TanboError | null = bot.failure;
  void seek; void failure;
  // @ts-expect-error: bots is a boolean
  await bot.seek('tsoro', {bots: 'yes'});
  // @ts-expect-error: a room id is a string
  await client.resign(42);
  // @ts-expect-error: no such event
  client.on('no_such_event', () => {});
  // @ts-expect-error: a state's version is a number
  const version: string = (await client.next('state')).version;
  // @ts-expect-error: the channels are players and spectators
  await client.say(room, 'everyone', 'hi');
  void version;
  void memoryStorage;
  return seat;
}

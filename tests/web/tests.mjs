// The browser tests: everything is done by clicking in the page, as a person would; the page's
// own state (window.tanbo) is only read, to know when the server's answer has arrived and an
// animation has finished. One file per area (support.mjs holds what they share); each test
// belongs to the group of ctest tests its name's prefix says.
import {tests as site} from './site.mjs';
import {tests as accounts} from './accounts.mjs';
import {tests as mail} from './mail.mjs';
import {tests as social} from './social.mjs';
import {tests as games} from './games.mjs';
import {tests as clocks} from './clocks.mjs';
import {tests as play} from './play.mjs';
import {tests as end} from './end.mjs';
import {tests as install} from './install.mjs';
import {tests as sowing} from './sowing.mjs';
import {tests as lobby} from './lobby.mjs';
import {tests as axe} from './axe.mjs';

// The tests in groups that ctest runs apart (tests/CMakeLists.txt), each with a server and a
// browser of its own, so that no one run comes near its time limit: a test belongs to the group
// whose prefix its name starts with. run.mjs fails a test that is in no group.
export const GROUPS = {
  site: ['catalogues:', 'size:', 'lobby:', 'names:', 'rules:', 'ratings:', 'axe:', 'install:'],
  accounts: ['accounts:'],
  social: ['play now', 'challenges:', 'chat:'],
  // replay: reads the game the full mancala-simple game leaves, before it in this group.
  games: ['mancala-simple:', 'replay:', 'steere-tanbo:', 'tsoro:', 'tanbo:', 'animation:', 'absences:'],
  clocks: ['time controls:'],
  end: ['end:'],
  'play-mancala-steere': ['play: mancala-simple', 'play: steere-tanbo'],
  'play-tsoro-tanbo': ['play: tsoro', 'play: tanbo'],
  sowing: ['sowing:'],
  lobby: ['lobby games:'],
};
export const inGroup = (name, group) => GROUPS[group].some((prefix) => name.startsWith(prefix));

export function tests(env) {
  return [site, accounts, mail, social, games, clocks, play, end, sowing, lobby, axe, install].flatMap((area) => area(env));
}

// The browser tests: everything is done by clicking in the page, as a person would; the page's
// own state (window.tanbo) is only read, to know when the server's answer has arrived and an
// animation has finished. One file per area (support.mjs holds what they share); each test
// belongs to the group of ctest tests its name's prefix says.
import {readFileSync} from 'node:fs';
import {tests as site} from './site.mjs';
import {tests as accounts} from './accounts.mjs';
import {tests as mail} from './mail.mjs';
import {tests as social} from './social.mjs';
import {tests as games} from './games.mjs';
import {tests as clocks} from './clocks.mjs';
import {tests as play} from './play.mjs';
import {tests as end} from './end.mjs';
import {tests as walkthrough} from './walkthrough.mjs';
import {tests as install} from './install.mjs';
import {tests as sowing} from './sowing.mjs';
import {tests as lobby} from './lobby.mjs';
import {tests as axe} from './axe.mjs';

// The tests in groups that ctest runs apart (tests/CMakeLists.txt registers one ctest test for
// each group of groups.json), each with a server and a browser of its own, so that no one run
// comes near its time limit: a test belongs to the group whose prefix its name starts with.
// run.mjs fails a test that is in no group. The `replay:` tests of `games` read the game that
// group's full mancala-simple game, run before them, leaves.
/** @type {Record<string, string[]>} */
export const GROUPS = JSON.parse(readFileSync(new URL('./groups.json', import.meta.url), 'utf8'));
export const inGroup = (name, group) => GROUPS[group].some((prefix) => name.startsWith(prefix));

export function tests(env) {
  return [site, accounts, mail, social, games, clocks, play, end, walkthrough, sowing, lobby, axe, install].flatMap((area) => area(env));
}

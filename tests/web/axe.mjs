// axe-core over every kind of page at both sizes, with no violation of any impact: the lobby, a
// room of each game against the computer, a finished room, the replays and a replay, the rules,
// the leaderboard, the player's own page and the header's drop-down with the account.
import assert from 'node:assert/strict';
import {axeViolations} from './checks.mjs';
import {PHONE, DESKTOP, GAMES, newPlayer, closeAll, playComputer, toLobby, openPrefs, closePrefs, playerId} from './support.mjs';

export function tests(env) {
  return [DESKTOP, PHONE].map((viewport) => ({
    name: `axe: every page at ${viewport.width} px, no violation of any impact`, fn: async () => {
      const size = `${viewport.width} px`;
      const p = await newPlayer(env, 'Axel', {viewport, speed: 'off'});
      const page = p.page;
      const found = [];
      // Every page is checked before any failure is reported: one run names all that is wrong.
      const check = async (what) => {
        for (const v of await axeViolations(page)) found.push(`${what} (${size}): ${v}`);
      };
      const go = async (hash, selector) => {
        await page.goto(`${env.base}/${hash}`);
        await page.waitForSelector(selector);
      };

      await toLobby(p);
      await check('lobby');
      let room = null;
      for (const game of GAMES) {
        room = await playComputer(p, game);
        await page.waitForSelector('#board svg.board-svg');
        await check(`${game} room`);
      }
      // The last room, finished: its result, the rematch.
      await page.click('#resign');
      await page.click('#resign-confirm');
      await page.waitForSelector('#result .reason');
      await check('a finished room');
      await go('#/replays', `#replay-list a[href*="${room}"]`);
      await check('the replays');
      await page.click(`#replay-list a[href*="${room}"]`);
      await page.waitForSelector('#replay-board svg.board-svg');
      await check('a replay');
      await go('#/rules', '#rules-title');
      await check('the rules');
      for (const game of GAMES) {
        await go(`#/rules/${game}`, '#rules-title');
        await check(`the rules of ${game}`);
      }
      await go('#/leaderboard/mancala-simple', '#leaderboard, #leaderboard-empty');
      await check('the leaderboard');
      await go(`#/player/${await playerId(p)}`, '#player-name');
      await check('the player\'s page');
      await toLobby(p);
      await openPrefs(page);
      await page.waitForSelector('#account');
      await check('the header\'s drop-down with the account');
      await closePrefs(page);
      await closeAll([p]);
      assert.deepEqual(found, [], `axe:\n       ${found.join('\n       ')}`);
    },
  }));
}

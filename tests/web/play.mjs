// Each game against the computer in each language at both sizes: a few decisions by clicking
// and one by the keyboard, targets a finger can hit, axe on the room.
import assert from 'node:assert/strict';
import {axeCheck, smallTargets, someInView} from './checks.mjs';
import {PHONE, DESKTOP, GAMES, newPlayer, closeAll, playComputer, viewInfo, waitMine,
  clickDecision, status, rematchAll, docShot} from './support.mjs';

export function tests(env) {
  // One game of `game` against the computer, in `lang` at `viewport`: a few decisions by
  // clicking (one by the keyboard), each with its controls in view and its targets finger-sized
  // on a phone; axe on the room; a screenshot for docs/web in English.
  async function playEverywhere(game, lang, viewport, label) {
    const p = await newPlayer(env, lang === 'ja' ? '花子' : lang === 'fr' ? 'Élodie' : 'Ana', {viewport, lang});
    assert.equal(await p.page.evaluate(() => document.documentElement.lang), lang);
    await playComputer(p, game);
    await p.page.waitForSelector('#board svg');
    const phone = viewport.width < 500;
    let keyboard = false, decisions = 0;
    for (let i = 0; i < 40 && decisions < 6; ++i) {
      await waitMine(p.page);
      if ((await status(p)) === 'finished') { await rematchAll([p]); continue; }
      // From the page's top, where the page itself scrolls on a decision (a board taller than
      // the room under a phone's header is brought into view): there a control must be seen.
      await p.page.evaluate(() => { window.scrollTo(0, 0); window.tanbo.view.boardIntoView(); });
      const info = await viewInfo(p.page);
      if (phone) {
        // 44 pixels, but Tsoro's 4 x 21 board stands upright on a phone, its 21 columns as rows
        // in the screen's height: 32 there; and Steere's board is seen whole, its 11 points
        // across a phone 33 pixels apart (one finer than 32 is zoomed into by a tap first).
        const min = game === 'tsoro' || game === 'steere-tanbo' ? 32 : 44;
        assert.deepEqual(await smallTargets(p.page, '#board .pick', min), [], `${game} ${lang}: board targets under ${min} px`);
        assert.ok(await someInView(p.page, '#board .pick, #controls button'), `${game} ${lang} ${info.decision}: no control in view without scrolling`);
        // And the whole board above the decision bar, as the page brings it.
        const b = await p.page.evaluate(() => {
          const r = document.querySelector('#board svg.board-svg').getBoundingClientRect();
          const bar = document.querySelector('#controls.active');
          return {top: r.top, bottom: r.bottom, foot: bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight};
        });
        assert.ok(b.top >= -0.5 && b.bottom <= b.foot + 0.5, `${game} ${lang} ${info.decision}: the board at ${Math.round(b.top)}..${Math.round(b.bottom)}, the bar at ${Math.round(b.foot)}`);
      } else if (game === 'steere-tanbo') {
        // 11 x 11 whole in the window as the page opens, row 1, the letters and the players'
        // row under them included.
        const low = await p.page.evaluate(() => Math.max(...[...document.querySelectorAll('#board svg.steere .coord, #board svg.steere .players')].map((el) => el.getBoundingClientRect().bottom)));
        assert.ok(low <= 800, `${lang}: the board runs to ${Math.round(low)} px of 800`);
      }
      if (!keyboard && (await p.page.locator('#board .pick, #controls button').count())) {
        // The keyboard: focus is on the first control when a decision arrives; Enter plays it.
        const focused = await p.page.evaluate(() => document.activeElement?.matches?.('.pick [role=button], #controls button'));
        if (focused) {
          await p.page.keyboard.press('Enter');
          await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
          keyboard = true;
          decisions++;
          continue;
        }
      }
      await clickDecision(p.page);
      await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      decisions++;
    }
    assert.ok(decisions >= 3, `${game} ${lang}: only ${decisions} decisions made`);
    assert.ok(keyboard, `${game} ${lang}: no decision made by the keyboard`);
    await waitMine(p.page);
    await p.page.waitForTimeout(100);  // the page scrolls the board into view on a phone
    if (lang === 'en') await docShot(env, p.page, `${game}-${label}`);
    await p.page.evaluate(() => window.scrollTo(0, 0));
    // The log names the computer's seat as the seats do (one name per computer seat), in running
    // text as its language says it (French « l’ordinateur »).
    const cpuName = await p.page.locator('.seat[data-seat="1"] .seat-name').textContent();
    assert.ok((await p.page.locator('#log').textContent()).toLowerCase().includes(cpuName.toLowerCase()), `${game} ${lang}: log without "${cpuName}"`);
    if (lang === 'fr') assert.doesNotMatch(await p.page.locator('#log').textContent(), /\p{L}[ ;:] ?Ordinateur/u, `${game}: « Ordinateur » bare in a sentence`);
    // The last move is marked whenever the last step moved something (not after a bare start).
    const moved = await p.page.evaluate(() => window.tanbo.view.msg.events.some((e) => ['sow', 'place', 'pick_up', 'capture', 'bonus'].includes(e.type)));
    if (moved) assert.ok((await p.page.locator('#board .mark, #board .last-dot').count()) > 0, `${game}: no last move marked`);
    await axeCheck(p.page, `${game} room (${lang}, ${viewport.width} px)`);
    await closeAll([p]);
  }

  const everywhere = [];
  for (const game of GAMES)
    for (const lang of ['en', 'fr', 'ja'])
      for (const [label, vp] of [['desktop', DESKTOP], ['phone', PHONE]])
        everywhere.push({name: `play: ${game} against the computer in ${lang} at ${vp.width}x${vp.height}`, fn: () => playEverywhere(game, lang, vp, label)});
  return everywhere;
}

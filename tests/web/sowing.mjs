// The sowing boards (mancala-simple for 2 and 4, tsoro 4 x 21) played to their end against the
// computer by tapping the board only, at 390 x 844 and 1280 x 800: at every decision the board
// is whole (no zoom, no panning, nothing wider than the screen), its targets finger-sized, and
// what may be tapped is exactly the legal list; Tsoro's head and bonus decisions are taps on the
// holes (and the tray); the last move is marked, and nobody is marked to move once it is over.
import assert from 'node:assert/strict';
import {horizontalOverflow} from './checks.mjs';
import {PHONE, DESKTOP, newPlayer, closeAll, createRoom, waitMine, viewInfo, shot} from './support.mjs';

export function tests(env) {
  const sizes = [['phone', PHONE], ['desktop', DESKTOP]];

  // What the page shows at a decision, read in one go: the board's box and the screen's, the
  // zoom, the targets' sizes, the tappable elements and the legal list, the text buttons.
  function readBoard(page) {
    return page.evaluate(() => {
      const svg = document.querySelector('#board svg.board-svg');
      const r = svg.getBoundingClientRect();
      const bar = document.querySelector('#controls.active');
      const barH = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().height : 0;
      const scroller = document.querySelector('#board .board-scroll');
      return {
        left: r.left, right: r.right, height: r.height, screenW: innerWidth, room: innerHeight - barH,
        zoomed: !!document.querySelector('#board .viewport.zoomed') || scroller.scrollWidth > scroller.clientWidth + 1,
        targets: [...document.querySelectorAll('#board .pick [role=button]')].map((el) => {
          const b = el.getBoundingClientRect();
          return {w: b.width, h: b.height, label: el.getAttribute('aria-label')};
        }),
        buttons: document.querySelectorAll('#board [role=button]').length,
        legal: window.tanbo.view.msg.legal?.length ?? 0,
        textButtons: document.querySelectorAll('#controls button').length,
        fold: document.querySelectorAll('#all-choices .all-actions button').length,
      };
    });
  }

  // The checks of one decision; `min` the smallest target allowed, in CSS pixels.
  async function checkDecision(p, what, min) {
    const b = await readBoard(p.page);
    const over = await horizontalOverflow(p.page);
    assert.equal(over.over, 0, `${what}: the page is ${over.over} px wider than the screen (${over.culprits})`);
    assert.ok(!b.zoomed, `${what}: the board is zoomed or pans`);
    assert.ok(b.left >= -0.5 && b.right <= b.screenW + 0.5, `${what}: the board spans ${b.left}..${b.right} of ${b.screenW}`);
    assert.ok(b.height <= b.room, `${what}: the board is ${Math.round(b.height)} px tall, ${Math.round(b.room)} in view`);
    const small = b.targets.filter((x) => x.w < min || x.h < min);
    assert.deepEqual(small, [], `${what}: targets under ${min} px`);
    assert.equal(b.buttons, b.legal, `${what}: ${b.buttons} board targets for ${b.legal} legal actions`);
    assert.equal(b.textButtons, 0, `${what}: a decision as a text button`);
    assert.equal(b.fold, b.legal, `${what}: the details fold lists ${b.fold} of ${b.legal} actions`);
    return b;
  }

  // Plays one game to its end by tapping board targets: `choose(info, page)` gives the selector
  // of the target to tap (null: any). Returns the decision kinds made and how often.
  async function playToEnd(p, what, {min, choose = () => null, each = async () => {}}) {
    const kinds = {};
    for (let i = 0; ; ++i) {
      assert.ok(i < 400, `${what}: the game did not end`);
      await waitMine(p.page, 20000);
      const info = await viewInfo(p.page);
      if (info.status === 'finished') break;
      await checkDecision(p, `${what}, decision ${i} (${info.decision})`, min);
      await each(p, info);
      const wanted = await choose(info, p.page);
      const targets = p.page.locator(`#board .pick${wanted || ''} [role=button]`);
      const n = await targets.count();
      assert.ok(n > 0, `${what}: no target ${wanted} for ${info.decision}`);
      await targets.nth(Math.floor(Math.random() * n)).click();
      await p.page.waitForFunction((v) => window.tanbo.view.msg.version > v, info.version);
      kinds[info.decision] = (kinds[info.decision] || 0) + 1;
      if (wanted) kinds[wanted] = (kinds[wanted] || 0) + 1;
    }
    // Over: a result, nobody marked to move on the board.
    await p.page.waitForSelector('#result .places');
    assert.equal(await p.page.locator('#board .seat-label.mover').count(), 0, `${what}: a player marked to move after the end`);
    assert.doesNotMatch(await p.page.locator('#board svg').textContent(), /▶/, `${what}: "▶" after the end`);
    return kinds;
  }

  // After a move of the computer's that sowed, the board marks where it ended.
  async function lastMoveMarked(p, what) {
    const sowed = await p.page.evaluate(() => (window.tanbo.view.msg.events || []).some((e) => e.type === 'sow'));
    if (sowed) assert.ok(await p.page.locator('#board .mark.last-to').count() > 0, `${what}: the last move not marked`);
  }

  // No seat's name on the board is cut short or lies over a hole or a hole's number.
  async function namesFit(p, what) {
    const bad = await p.page.evaluate(() => {
      const boxes = (sel) => [...document.querySelectorAll(sel)].map((el) => el.getBoundingClientRect());
      const cross = (a, b) => a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1;
      const names = [...document.querySelectorAll('#board .seat-label text')];
      const holes = [...boxes('#board .bowl'), ...boxes('#board .hole-num')];
      const board = document.querySelector('#board svg').getBoundingClientRect();
      return names.filter((el) => {
        const b = el.getBoundingClientRect();
        return el.textContent.includes('…') || holes.some((hb) => cross(b, hb)) ||
          b.left < board.left - 1 || b.right > board.right + 1;
      }).map((el) => el.textContent);
    });
    assert.deepEqual(bad, [], `${what}: names cut short or over the holes`);
  }

  // The whole board lies within the screen, above the decision bar: as the page shows it at a
  // decision, or (`unscrolled`) with the page at its top, below the header and the turn line.
  async function boardInView(p, what, {unscrolled = false} = {}) {
    if (unscrolled) await p.page.evaluate(() => window.scrollTo(0, 0));
    const b = await p.page.evaluate(() => {
      const r = document.querySelector('#board svg.board-svg').getBoundingClientRect();
      const bar = document.querySelector('#controls.active');
      const barH = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().height : 0;
      return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: innerWidth, h: innerHeight - barH};
    });
    assert.ok(b.top >= -0.5 && b.left >= -0.5 && b.bottom <= b.h + 0.5 && b.right <= b.w + 0.5,
      `${what}: the board at ${Math.round(b.left)},${Math.round(b.top)}..${Math.round(b.right)},${Math.round(b.bottom)}, the screen 0,0..${b.w},${Math.round(b.h)}${unscrolled ? ' unscrolled' : ''}`);
  }

  const out = [];
  for (const [label, viewport] of sizes) {
    out.push({name: `sowing: mancala-simple for 2 played to its end by tapping the board at ${viewport.width}x${viewport.height}`, fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport, speed: 'off'});
      await createRoom(p, 'mancala-simple', {cpu: {1: 'random'}, options: {first: 0}});
      const what = `mancala 2 (${label})`;
      const kinds = await playToEnd(p, what, {min: 44, each: async () => {
        await lastMoveMarked(p, what);
        await namesFit(p, what);
      }});
      assert.ok(kinds.sow > 3, `${what}: ${kinds.sow} sowings`);
      // Holes and stores draw their stones: as many pebbles as stones, up to a dozen a pit.
      const drawn = await p.page.evaluate(() => [...document.querySelectorAll('#board [data-count]')].every((g) =>
        g.querySelectorAll('.pebbles .stone').length === Math.min(Number(g.dataset.count), 12) ||
        (Number(g.dataset.count) > 12 && g.querySelector('.heap-figure')?.textContent === g.dataset.count)));
      assert.ok(drawn, `${what}: a pit whose pebbles are not its count`);
      await shot(env, p, `sowing-mancala-2-${label}`);
      await closeAll([p]);
    }});
    out.push({name: `sowing: mancala-simple for 4 played to its end by tapping the board at ${viewport.width}x${viewport.height}, every store named in full`, fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport, speed: 'off'});
      await createRoom(p, 'mancala-simple', {seats: 4, cpu: {1: 'random', 2: 'random', 3: 'random'}, options: {first: 0, holes: 4, stones: 3}});
      const what = `mancala 4 (${label})`;
      let named = false;
      await playToEnd(p, what, {min: 44, each: async () => {
        await boardInView(p, what, {unscrolled: true});
        if (named) return;
        named = true;
        assert.equal(await p.page.locator('#board svg.mancala [data-store] .store-owner').count(), 4);
        const owners = await p.page.locator('#board [data-store] .store-owner text').allTextContents();
        for (const n of ['Computer 2', 'Computer 3', 'Computer 4']) assert.ok(owners.some((o) => o.includes(n)), `${what}: ${n}'s store unnamed (${owners})`);
        await namesFit(p, what);
        await shot(env, p, `sowing-mancala-4-${label}`);
      }});
      await closeAll([p]);
    }});
    out.push({name: `sowing: tsoro 4x21 played to its end by tapping the board at ${viewport.width}x${viewport.height}, heads and bonus holes included`, fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport, speed: 'off'});
      const what = `tsoro 4x21 (${label})`;
      // Bonus holes optional: the capturer's tray stops the picks. At a head, sow on and stop by
      // turns; at a bonus pick, the tray once a hole was taken.
      await createRoom(p, 'tsoro', {cpu: {1: 'random'}, options: {first: 0, bonus_optional: true}});
      await p.page.waitForSelector('#board svg.tsoro');
      // In two bands on the phone (21 columns fit neither its width nor its height), across on
      // the desktop; numbered once.
      assert.equal(await p.page.locator('#board svg.tsoro.bands').count(), label === 'phone' ? 1 : 0, `${what}: in bands`);
      assert.equal(await p.page.locator('#board .hole-num').count(), 21, `${what}: columns numbered once`);
      const all = {};
      let heads = 0, bonuses = 0;
      const choose = (info) => {
        if (info.decision === 'head') return ++heads % 2 ? '.tap-relay' : '.tap-stop';
        if (info.decision === 'bonus') return ++bonuses % 3 ? '.tap-take' : '.tap-done';
        return '.tap-sow';
      };
      for (let game = 0; game < 4 && !['.tap-relay', '.tap-stop', '.tap-take', '.tap-done'].every((k) => all[k]); ++game) {
        if (game) {
          await p.page.click('#rematch');
          await p.page.waitForFunction(() => window.tanbo.view.msg.status === 'playing');
        }
        const kinds = await playToEnd(p, what, {min: 32, choose, each: async (pp, info) => {
          await lastMoveMarked(pp, what);
          await boardInView(pp, what, {unscrolled: true});
          if (info.decision === 'head') {
            // The head says "stop" (■), the hole after it "sow on" (➜): two targets, one each.
            assert.equal(await pp.page.locator('#board .pick.tap-stop.head').count(), 1, `${what}: the head is no stop target`);
            assert.equal(await pp.page.locator('#board .pick.tap-relay .badge-relay').count(), 1, `${what}: no sow-on target`);
            if (heads === 0) await shot(env, pp, `sowing-tsoro-head-${label}`);
          }
          if (info.decision === 'bonus' && bonuses === 0) {
            assert.ok(await pp.page.locator('#board .pick.tap-take[data-seat="1"] .badge-take').count() > 0, `${what}: no opponent hole to take`);
            assert.equal(await pp.page.locator('#board .pick.tap-done[data-tray="0"]').count(), 1, `${what}: the tray does not stop the picks`);
            await shot(env, pp, `sowing-tsoro-bonus-${label}`);
          }
        }});
        for (const [k, v] of Object.entries(kinds)) all[k] = (all[k] || 0) + v;
      }
      for (const k of ['.tap-relay', '.tap-stop', '.tap-take', '.tap-done'])
        assert.ok(all[k], `${what}: never tapped ${k} (${JSON.stringify(all)})`);
      await closeAll([p]);
    }});
  }
  return out;
}

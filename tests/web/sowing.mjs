// The sowing boards (mancala-simple for 2 and 4, tsoro 4 x 21) played to their end against the
// computer by tapping the board only, at 390 x 844 and 1280 x 800: at every decision the board
// is whole (no zoom, no panning, nothing wider than the screen), its targets finger-sized, and
// what may be tapped is exactly the legal list; Tsoro's head and bonus decisions are taps on the
// holes (and the tray); the last move is marked, and nobody is marked to move once it is over.
import assert from 'node:assert/strict';
import {horizontalOverflow} from './checks.mjs';
import {PHONE, DESKTOP, newPlayer, closeAll, createRoom, waitMine, viewInfo, shot, openChat} from './support.mjs';

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

  // Every count a newcomer needs is said, above every mark: a store's always, a hole's when it
  // holds a stone (a Mancala hole's too: one stone with no figure read as a hole left out); no
  // figure comes before a mark in the drawing, where a ring could cover it.
  async function countsShown(p, what) {
    const bad = await p.page.evaluate(() => {
      const out = [];
      for (const g of document.querySelectorAll('#board [data-count]')) {
        const d = g.dataset, n = Number(d.count);
        const key = d.store !== undefined ? `${d.store}:store` : d.row ? `${d.seat}:${d.row}:${d.col}` : `${d.seat}:${d.hole}`;
        const from = d.store !== undefined ? 0 : 1;
        const fig = document.querySelector(`#board .figure[data-of="${key}"]`);
        if ((n >= from) !== !!fig || (fig && fig.textContent !== d.count)) out.push(`${key}: ${n} shown as ${fig?.textContent}`);
      }
      const marks = [...document.querySelectorAll('#board .mark')];
      for (const f of document.querySelectorAll('#board .figure'))
        if (marks.some((m) => f.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING)) out.push(`${f.dataset.of}: under a mark`);
      return out;
    });
    assert.deepEqual(bad, [], `${what}: counts`);
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

  // Every hole and store shows the stones its count says, as the page draws them at rest: as
  // many stones as the count (up to a dozen, and a heap's extra half-dozen), each seen where it
  // lies, nothing but its own pit's stones on top of it. Seen as the page leaves the board,
  // then with each target in turn focused and hovered (a target's styles must not cover its
  // stones). The count figures, the hand and the targets' badges sit on a rim on purpose: left
  // out of what may cover a stone. `skip`: first the page's Skip button, while a step plays,
  // and the check at once, before any next step begins; false when no step was playing.
  async function stonesSeen(page, what, {skip = false} = {}) {
    const check = (skipFirst) => page.evaluate((skipFirst) => {
      if (skipFirst) {
        const button = document.getElementById('skip-motion');
        if (!button || !window.tanbo.view.drawn?.frame) return null;
        button.click();
        if (window.tanbo.view.drawn.frame) return ['an animation frame still drawn after Skip'];
      }
      // Everything drawn made hit-testable for the probe, through the CSSOM (the page's
      // Content-Security-Policy refuses a style element).
      const els = [...document.querySelectorAll('#board svg *')];
      for (const el of els) {
        el.style.setProperty('pointer-events', el.closest('.figures, .hand, .badge') ? 'none' : 'visiblePainted', 'important');
      }
      const bad = [];
      try {
        for (const g of document.querySelectorAll('#board [data-count]')) {
          const d = g.dataset, n = Number(d.count);
          const key = d.store !== undefined ? `${d.store}:store` : d.row ? `${d.seat}:${d.row}:${d.col}` : `${d.seat}:${d.hole}`;
          const heap = g.querySelector(':scope > .pebbles');
          const stones = heap ? [...heap.querySelectorAll('.stone')] : [];
          const want = Math.min(n, n > 12 ? 18 : 12);
          if (stones.length !== want) bad.push(`${key}: ${n} stones, ${stones.length} drawn`);
          const hidden = stones.filter((st) => {
            const b = st.firstElementChild.getBoundingClientRect();
            const top = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
            return top?.closest('.pebbles') !== heap;
          });
          if (hidden.length) bad.push(`${key}: ${hidden.length} of ${stones.length} stones covered`);
        }
      } finally {
        for (const el of els) el.style.removeProperty('pointer-events');
      }
      return bad;
    }, skipFirst);
    await page.evaluate(() => document.querySelector('#board svg').scrollIntoView({block: 'nearest'}));
    const bad = await check(skip);
    if (bad === null) return false;
    assert.deepEqual(bad, [], `${what}: stones not shown`);
    const targets = page.locator('#board .pick [role=button]');
    for (let i = 0, n = await targets.count(); i < n; ++i) {
      await targets.nth(i).focus();
      await targets.nth(i).hover();
      assert.deepEqual(await check(), [], `${what}: stones not shown with target ${i + 1} focused and hovered`);
    }
    await page.mouse.move(0, 0);
    return true;
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
        await countsShown(p, what);
      }});
      assert.ok(kinds.sow > 3, `${what}: ${kinds.sow} sowings`);
      // Holes and stores draw their stones: as many pebbles as stones, up to a dozen a pit.
      const drawn = await p.page.evaluate(() => [...document.querySelectorAll('#board [data-count]')].every((g) =>
        g.querySelectorAll('.pebbles .stone').length === Math.min(Number(g.dataset.count), 12) || Number(g.dataset.count) > 12));
      assert.ok(drawn, `${what}: a pit whose pebbles are not its count`);
      await countsShown(p, what);
      // The board's panel ends with the board and the legend of its marks under it, not stretched
      // to the side column's height.
      const gap = await p.page.evaluate(() => document.getElementById('board').getBoundingClientRect().bottom -
        Math.max(...['#board svg', '#board .board-legend'].map((q) => document.querySelector(q)?.getBoundingClientRect().bottom ?? 0)));
      assert.ok(gap < 12, `${what}: ${Math.round(gap)} px of empty panel under the board`);
      // Every name pill is whole inside the picture.
      const clipped = await p.page.evaluate(() => {
        const box = document.querySelector('#board svg').getBoundingClientRect();
        return [...document.querySelectorAll('#board .seat-label')].map((el) => el.getBoundingClientRect())
          .filter((b) => b.left < box.left - 0.5 || b.right > box.right + 0.5 || b.top < box.top - 0.5 || b.bottom > box.bottom + 0.5).length;
      });
      assert.equal(clipped, 0, `${what}: a name pill cut by the board's edge`);
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
        // A no-break space keeps the computer's letter with its name.
        for (const n of ['Computer A', 'Computer B', 'Computer C']) assert.ok(owners.some((o) => o.replace(/\s/gu, ' ').includes(n)), `${what}: ${n}'s store unnamed (${owners})`);
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
      // One board: turned a quarter on the phone (21 columns do not fit its width), across on
      // the desktop; numbered once; each name over its own two rows when turned.
      assert.equal(await p.page.locator('#board svg.tsoro.upright').count(), label === 'phone' ? 1 : 0, `${what}: turned`);
      assert.equal(await p.page.locator('#board svg.tsoro .wood').count(), 1, `${what}: not one board`);
      assert.equal(await p.page.locator('#board .hole-num').count(), 21, `${what}: columns numbered once`);
      if (label === 'phone') {
        // The name, its tray and its holes on the same side of the line between the two sides.
        const sides = await p.page.evaluate(() => [0, 1].map((seat) => {
          const mid = (el) => { const b = el.getBoundingClientRect(); return (b.left + b.right) / 2; };
          const line = mid(document.querySelector('#board .divider'));
          const els = [document.querySelector(`#board .seat-label[data-side="${seat}"]`), document.querySelector(`#board [data-tray="${seat}"] .tray-bowl`),
            ...document.querySelectorAll(`#board .pit[data-seat="${seat}"] .bowl`)];
          return new Set(els.map((el) => mid(el) < line)).size === 1;
        }));
        assert.deepEqual(sides, [true, true], `${what}: a name not over its own rows`);
        // Each tray right after its own name, its word whole within the board: no count reads
        // as the other side's, none is cut at the screen's edge.
        const trays = await p.page.evaluate(() => [0, 1].map((seat) => {
          const box = (q) => document.querySelector(`#board ${q}`).getBoundingClientRect();
          const svg = box('svg'), name = box(`.seat-label[data-side="${seat}"] text`), bowl = box(`[data-tray="${seat}"] .tray-bowl`);
          const word = document.querySelector(`#board [data-tray="${seat}"]`).previousElementSibling.getBoundingClientRect();
          const gap = bowl.left - name.right;
          return gap >= 0 && gap < 20 && word.left >= svg.left && word.right <= svg.right ? 'ok' : `${Math.round(gap)} px after the name, word ${Math.round(word.left)}-${Math.round(word.right)}`;
        }));
        assert.deepEqual(trays, ['ok', 'ok'], `${what}: a tray away from its name or its word cut`);
      }
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
          await countsShown(pp, what);
          // Whole in view at each decision: on the phone the page brings the turned board there.
          await boardInView(pp, what);
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

  // After each move and its animation, and after a step skipped: every pit's stones are seen.
  for (const game of ['mancala-simple', 'tsoro']) {
    out.push({name: `sowing: ${game}, every hole and store shows its stones after a move played out or skipped`, fn: async () => {
      const p = await newPlayer(env, 'Ana', {viewport: DESKTOP, speed: 'fast'});
      await createRoom(p, game, {cpu: {1: 'random'}, options: {first: 1}});
      const what = game;
      let skipped = 0;
      for (let i = 0; i < 8; ++i) {
        await waitMine(p.page, 20000);
        const info = await viewInfo(p.page);
        if (info.status === 'finished') break;
        await stonesSeen(p.page, `${what}, decision ${i}, after the move played out`);
        const target = p.page.locator('#board .pick [role=button]');
        await target.nth(i % await target.count()).click();
        if (i % 2) continue;
        // Skipped while it plays: the position it reaches is drawn whole at once.
        const playing = await p.page.waitForFunction((v) => window.tanbo.view.drawn?.version > v && window.tanbo.view.drawn.frame,
          info.version, {timeout: 5000}).then(() => true, () => false);
        if (playing && await stonesSeen(p.page, `${what}, decision ${i}, after Skip`, {skip: true})) ++skipped;
      }
      assert.ok(skipped > 0, `${what}: no step was skipped`);
      await closeAll([p]);
    }});
  }

  // One meaning per mark: the keyboard's ring shows only while the keys are in use, never after
  // a tap or after a line typed in the chat (the room itself focuses a decision's first target);
  // a legend under the board names the marks; on a phone, the page ends below the pinned bar.
  out.push({name: 'sowing: the focus ring only from the keys, a legend of the marks, nothing left under the pinned bar', fn: async () => {
    const p = await newPlayer(env, 'Ana', {viewport: PHONE, speed: 'slow'});
    await createRoom(p, 'mancala-simple', {cpu: {1: 'random'}, options: {first: 0}});
    const page = p.page;
    // The bowls drawn in the focus colour, and whether the room has put focus on a target.
    const rings = () => page.evaluate(() => {
      const focus = getComputedStyle(document.documentElement).getPropertyValue('--focus').trim();
      const probe = document.createElement('i');
      probe.style.color = focus;
      document.body.append(probe);
      const blue = getComputedStyle(probe).color;
      probe.remove();
      return {blue: [...document.querySelectorAll('#board .pit .bowl')].filter((b) => getComputedStyle(b).stroke === blue).length,
              focused: !!document.activeElement?.matches('#board .pick [role=button]')};
    });
    // Plays the first target by a tap, `meanwhile` done while it plays out; waits for the next decision.
    const tapAndWait = async (meanwhile = async () => {}) => {
      const v = await page.evaluate(() => window.tanbo.view.msg.version);
      await page.locator('#board .pick [role=button]').first().click();
      await meanwhile();
      await page.waitForFunction((x) => window.tanbo.view.msg.version > x, v, {timeout: 20000});
      await waitMine(page, 20000);
      await page.waitForTimeout(100);
    };
    await openChat(p);
    await waitMine(page, 20000);
    // A tap plays; the next decision's focus is not drawn.
    await tapAndWait();
    let r = await rings();
    assert.ok(r.focused, 'the room focuses the decision\'s first target');
    assert.equal(r.blue, 0, 'a focus ring after a tap');
    // A line said in the chat with Enter while the move plays out, then the next decision: the
    // room's focus on its first target is not drawn either.
    await tapAndWait(async () => {
      await page.focus('#chat-input');
      await page.keyboard.type('Hello');
      await page.keyboard.press('Enter');
      await page.evaluate(() => document.activeElement.blur());
    });
    r = await rings();
    assert.ok(r.focused, 'the room focuses the decision\'s first target after the chat');
    assert.equal(r.blue, 0, 'a focus ring after typing in the chat');
    // The keys: Tab from the board's first target rings the next one.
    await page.locator('#board .pick [role=button]').first().focus();
    await page.keyboard.press('Tab');
    r = await rings();
    assert.ok(r.focused && r.blue === 1, `the keyboard's focus not ringed (${JSON.stringify(r)})`);
    // The legend: what one may play, where the last move started and ended, in the board's marks.
    const legend = await page.evaluate(() => [...document.querySelectorAll('#board .board-legend .legend-item')].map((el) => ({
      mark: el.dataset.mark, text: el.textContent, stroke: getComputedStyle(el.querySelector('.legend-swatch')).borderTopColor})));
    assert.deepEqual(legend.map((l) => l.mark), ['play', 'last-from', 'last-to']);
    const stroke = (sel) => page.evaluate((q) => { const el = document.querySelector(q); return el && getComputedStyle(el).stroke; }, sel);
    assert.equal(legend[0].stroke, await stroke('#board .pick .bowl'), 'the legend\'s green is not the targets\'');
    const lastTo = await stroke('#board .pit .mark.last-to, #board .sow-store .mark.last-to');
    if (lastTo) assert.equal(legend[2].stroke, lastTo, 'the legend\'s orange is not the last move\'s');
    // Scrolled to its end, the page's last line is above the pinned decision bar.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const under = await page.evaluate(() => {
      const bar = document.querySelector('#controls.active').getBoundingClientRect();
      const last = [...document.querySelectorAll('#main *')].filter((el) => el.getClientRects().length && !el.closest('#controls'))
        .map((el) => el.getBoundingClientRect().bottom);
      return {bar: bar.top, last: Math.max(...last)};
    });
    assert.ok(under.last <= under.bar + 0.5, `the page's end at ${under.last}, under the bar from ${under.bar}`);
    await closeAll([p]);
  }});
  // A long Tsoro (the default 21 columns) on a wide screen has the room's whole width, its holes
  // as large as the height below its top allows, seen whole; the decision and the facts, the log
  // and the chat side by side under it.
  out.push({name: 'sowing: a 21-column Tsoro at 1280x800 takes the room\'s width, holes of 44 px, the whole board in view, the log beside the decision under it', fn: async () => {
    const p = await newPlayer(env, 'Ana', {viewport: DESKTOP});
    try {
      await createRoom(p, 'tsoro', {cpu: {1: 'random'}, options: {first: 0}});
      await waitMine(p.page);
      await p.page.evaluate(() => window.scrollTo(0, 0));
      const g = await p.page.evaluate(() => {
        const box = (el) => el.getBoundingClientRect();
        const board = box(document.querySelector('#board svg.tsoro'));
        const main = box(document.getElementById('main'));
        return {board: {top: board.top, bottom: board.bottom, width: board.width}, main: main.width,
          hole: Math.min(...[...document.querySelectorAll('#board .pick .bowl')].map((el) => Math.min(box(el).width, box(el).height))),
          controls: box(document.getElementById('controls')), log: box(document.getElementById('log'))};
      });
      assert.ok(g.board.width > g.main * 0.9, `the board ${g.board.width} px wide in ${g.main}`);
      assert.ok(g.hole >= 44, `holes of ${g.hole} px`);
      assert.ok(g.board.top >= 0 && g.board.bottom <= 800, `the board at ${g.board.top}..${g.board.bottom}`);
      assert.ok(g.controls.top >= g.board.bottom && g.log.left > g.controls.right, 'the decision and the log not side by side under the board');
      assert.equal((await horizontalOverflow(p.page)).over, 0);
      // Every hole that may be sown is drawn as one, the square heads as the round holes: as
      // many as the legal list holds, each bowl in the same colours.
      const picks = await p.page.evaluate(() => [...document.querySelectorAll('#board .pick .bowl')].map((el) => {
        const cs = getComputedStyle(el);
        return {head: el.closest('.pit').classList.contains('head'), look: `${cs.stroke} ${cs.fill}`};
      }));
      const legal = await p.page.evaluate(() => document.querySelectorAll('.all-actions .choice-list button').length);
      assert.ok(picks.some((x) => x.head), 'no head among the holes to sow');
      assert.equal(picks.length, legal, `${picks.length} holes drawn to sow, ${legal} in the list`);
      assert.equal(new Set(picks.map((x) => x.look)).size, 1, `tappable holes drawn differently: ${[...new Set(picks.map((x) => x.look))]}`);
      // The way back's words centred in it, as Resign's are in the button beside it.
      const off = await p.page.evaluate(() => [...document.querySelectorAll('.room-actions :is(a.button, #resign)')].map((el) => {
        const r = document.createRange();
        r.selectNodeContents(el);
        const text = r.getBoundingClientRect(), box = el.getBoundingClientRect();
        return Math.abs((text.top + text.bottom) / 2 - (box.top + box.bottom) / 2);
      }));
      assert.equal(off.length, 2);
      assert.ok(off.every((d) => d <= 1.5), `words off centre by ${off} px`);
      assert.deepEqual(p.errors, []);
    } finally {
      await closeAll([p]);
    }
  }});
  return out;
}

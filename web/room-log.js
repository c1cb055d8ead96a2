// "What happened" in a room: the events of each step in words, newest first. Decisions are
// numbered from their game's start as the replay counts them (the start is decision 0), and a
// line separates the games of a rematch. Entries keep the server's events, not their words, so
// a change of language rewords the whole log; the room shows them only as far as its board.
import {h} from './util.js';
import {t} from './i18n/index.js';

const LOG_MAX = 200;

export class RoomLog {
  constructor() {
    this.steps = new Map();  // version -> events
  }

  add(version, events) {
    if (this.steps.has(version) || !events?.length) return;
    this.steps.set(version, events);
    if (this.steps.size > LOG_MAX) this.steps.delete(Math.min(...this.steps.keys()));
  }

  // The versions where a game started (a `start` event), oldest first.
  starts() {
    return [...this.steps.entries()].filter(([, evs]) => evs.some((e) => e.type === 'start')).map(([v]) => v).sort((a, b) => a - b);
  }

  // Who moved first in the latest game seen starting (a rematch may change it).
  first() {
    const v = this.starts().pop();
    return v === undefined ? undefined : this.steps.get(v).find((e) => e.type === 'start').first;
  }

  // The steps up to version `upTo` (the one the board shows: later ones are not told yet).
  render(el, describe, upTo = Infinity) {
    const starts = this.starts();
    const versions = [...this.steps.keys()].filter((v) => v <= upTo).sort((a, b) => b - a);
    const items = [];
    for (const v of versions) {
      const lines = this.steps.get(v).map(describe).filter(Boolean);
      const start = starts.filter((s) => s <= v).pop();
      const isStart = start === v;
      if (lines.length) {
        const number = start !== undefined && !isStart ? h('span', {class: 'v'}, t('log.number', {n: v - start})) : null;
        items.push(h('li', {'data-version': v, 'data-decision': start !== undefined ? v - start : null, class: isStart ? 'start' : ''},
          number, number ? ' ' : '', lines.join(t('log.sep'))));
      }
      // A rematch: a separator above the new game's start (the first game needs none).
      if (isStart && v > 1) items.push(h('li', {class: 'game-sep'}, t('log.new_game')));
    }
    el.replaceChildren(...items);
  }
}

// The events the core adds to every game (engine/core/match.cpp), in words; the room's log and
// the replay word them the same. A decision the computer made is shown as the computer's.
import {t} from './i18n/index.js';
import {reason} from './words.js';

export function describeCore(ev, name, board) {
  switch (ev.type) {
    case 'start': return t('core.start', {name: name(ev.first)});
    case 'action': {
      const what = board.describeAction(ev.action, ev.seat);
      if (ev.by === 'timer' || ev.by === 'takeover') return t(`core.action_by.${ev.by}`, {name: name(ev.seat), what});
      return board.describeSetup?.(ev, name) ?? t('core.action', {name: name(ev.seat), what});
    }
    case 'forced': return t('core.forced', {name: name(ev.seat), what: board.describeAction(ev.action, ev.seat)});
    case 'resign': return t('core.resign', {name: name(ev.seat)});
    case 'time': return t('core.time', {name: name(ev.seat)});
    case 'end': return ev.result.reason === 'resigned' ? t('core.won', {name: name(ev.result.places.indexOf(1))}) : t('core.end', {reason: reason(ev.result.reason)});
    default: return undefined;
  }
}

// A seat whose time ran out leaves as by resigning, and its game says so with its own events
// (a place "resigned"): within the step of a `time` event, they are told as the time-out's.
// A resignation that ends the game is said once, "Ben resigns; Ana wins".
export function withTimeOuts(events) {
  if (events?.some((e) => e.result?.reason === 'resigned')) events = events.filter((e) => e.type !== 'place');
  const out = new Set((events || []).filter((e) => e.type === 'time').map((e) => e.seat));
  if (!out.size) return events;
  return events.map((e) => (e.type === 'place' && e.by === 'resigned' && out.has(e.seat) ? {...e, by: 'time'} : e));
}

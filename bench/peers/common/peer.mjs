// What a peer driver does the same on every framework: its rooms set up a few at a time, the
// check's summary, play started and stopped, the drain's count and the games per room, all that
// `run` of measure.mjs asks of it.
//
// A framework's driver extends Peer with closeAll() and checkDetails(), and gives it rooms with
// setUp(), check(), `ready`, `games` and `players`, each player with `pending` and maybeAct().
import { Figures, makeRandom, waitUntil } from "./measure.mjs";

const SETUP_CONCURRENCY = 32; // rooms in their joins at once, so that set-up does not time out joins

export class Peer {
  constructor(o, makeRoom) {
    this.o = o;
    this.figures = new Figures();
    this.random = makeRandom(o.seed);
    this.rooms = Array.from({ length: o.rooms }, () => makeRoom(this));
    this.playing = false;
    this.stopping = false;
    this.closing = false;
  }

  roomsReady() { return this.rooms.filter((r) => r.ready).length; }

  async setUp(timeoutS) {
    let next = 0;
    const worker = async () => {
      while (next < this.rooms.length) {
        const room = this.rooms[next++];
        try { await room.setUp(); } catch (e) { this.figures.error("setup", e.message); }
      }
    };
    const workers = Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
    const done = await Promise.race([workers.then(() => true), waitUntil(() => false, timeoutS)]);
    // Ready once every member has seen its game start, as tanbo-load waits for.
    return done && (await waitUntil(() => this.roomsReady() === this.rooms.length, timeoutS));
  }

  // Each room's check() gives illegal_sent, refused, changed and legal_applied; checkDetails()
  // adds what only its framework can tell.
  async check() {
    const results = await Promise.all(this.rooms.filter((r) => r.ready).map((r) => r.check()));
    const sum = (k) => results.reduce((n, r) => n + r[k], 0);
    return {
      rooms_checked: results.length,
      illegal_sent: sum("illegal_sent"),
      refused: sum("refused"),
      ...this.checkDetails(results, sum),
      rooms_whose_state_an_illegal_move_changed: results.filter((r) => r.changed).length,
      rooms_that_applied_the_legal_move: results.filter((r) => r.legal_applied).length,
    };
  }

  startPlay() {
    this.figures.refused = 0; // refusals of the check are in its own report
    this.playing = true;
    for (const room of this.rooms) for (const p of room.players) p.maybeAct();
  }
  stopPlay() { this.stopping = true; }
  outstanding() { return this.rooms.reduce((n, r) => n + r.players.filter((p) => p.pending).length, 0); }

  extra() {
    const games = this.rooms.map((r) => r.games);
    return { games_per_room: { min: Math.min(...games), max: Math.max(...games) } };
  }
}

// The states a member waits for in the check: each waiter takes the first state offered that
// satisfies its predicate, or null once its time is up.
export class StateWaiters {
  constructor() { this.waiting = []; }

  next(pred, ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), ms);
      this.waiting.push((s) => (pred(s) ? (clearTimeout(timer), resolve(s), true) : false));
    });
  }

  offer(state) { this.waiting = this.waiting.filter((w) => !w(state)); }
}

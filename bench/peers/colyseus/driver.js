// Load driver of the Colyseus peer: R rooms of 2 players + 3 spectators, each an @colyseus/sdk
// client with its own WebSocket, decoding the room's Schema patches as any client does.
// Usage: node driver.js --url ws://127.0.0.1:PORT [--rooms R] [--duration S] [--server-pid PID]
//        [--check] (see --help)
import { Client } from "@colyseus/sdk";
import { createRequire } from "node:module";
import { legalHoles } from "../common/mancala.mjs";
import { SPECTATORS_PER_ROOM, main, nowMs, packageVersion, waitUntil } from "../common/measure.mjs";
import { Peer, StateWaiters } from "../common/peer.mjs";

const require = createRequire(import.meta.url);
const CHECK_TIMEOUT_MS = 3000;

class Member {
  constructor(peer, room, role) {
    this.peer = peer;
    this.room = room; // the driver's room
    this.role = role; // "player" or "spectator"
    this.seat = -1;
    this.sdkRoom = null;
    this.state = null;
    this.sawStart = false;
    this.pending = null; // { version, sentAt } of the move in flight
    this.actedVersion = -1;
    this.waiters = new StateWaiters();
  }

  async join(sdk, roomId) {
    const options = { role: this.role };
    this.sdkRoom = roomId ? await sdk.joinById(roomId, options) : await sdk.create("mancala", options);
    const figures = this.peer.figures;
    // Every message's payload as it came off the socket, as tanbo-load counts its frames.
    this.sdkRoom.connection.transport.ws.on("message", (data) => figures.received(data.byteLength));
    this.sdkRoom.onStateChange((state) => this.onState(state));
    this.sdkRoom.onMessage("refused", (why) => this.onRefused(why));
    this.sdkRoom.onLeave((code) => { if (!this.peer.closing) figures.error("left", `code ${code}`); });
    this.sdkRoom.onError((code, message) => figures.error("room_error", `${code} ${message}`));
    return this.sdkRoom.roomId;
  }

  onState(state) {
    this.state = state;
    const t = nowMs();
    const v = state.version;
    if (this.role === "player" && this.seat < 0) this.seat = state.seats.indexOf(this.sdkRoom.sessionId);
    if (!this.sawStart && state.toMove >= 0) { this.sawStart = true; this.room.memberStarted(); }
    this.room.sawGames(state.games);
    if (this.pending && v > this.pending.version) { // only this seat could move the room on
      this.peer.figures.moveSeen(this.pending.sentAt, t);
      this.pending = null;
    }
    this.waiters.offer(state);
    if (this.role === "player" && this.peer.playing) this.maybeAct();
  }

  maybeAct() {
    const state = this.state;
    if (!state || this.pending || this.peer.stopping) return;
    if (state.toMove !== this.seat || state.version === this.actedVersion) return;
    const legal = legalHoles(state.pits, this.seat);
    this.actedVersion = state.version;
    this.pending = { version: state.version, sentAt: nowMs() };
    this.sdkRoom.send("move", legal[this.peer.random(legal.length)]);
  }

  onRefused(why) {
    ++this.peer.figures.refused;
    if (this.refusedWaiter) return this.refusedWaiter(why);
    this.peer.figures.error("refused", JSON.stringify(why));
    this.pending = null;
  }

  // Check mode: resolves with the next refusal, or null after the timeout.
  nextRefusal() {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.refusedWaiter = null; resolve(null); }, CHECK_TIMEOUT_MS);
      this.refusedWaiter = (why) => { clearTimeout(timer); this.refusedWaiter = null; resolve(why); };
    });
  }

  // Check mode: resolves with the first state that satisfies `pred`, or null after the timeout.
  nextState(pred) { return this.waiters.next(pred, CHECK_TIMEOUT_MS); }
}

class DriverRoom {
  constructor(peer) {
    this.peer = peer;
    this.players = [new Member(peer, this, "player"), new Member(peer, this, "player")];
    this.spectators = Array.from({ length: SPECTATORS_PER_ROOM }, () => new Member(peer, this, "spectator"));
    this.started = 0;
    this.games = 0;
  }
  get members() { return [...this.players, ...this.spectators]; }
  get ready() { return this.started === this.members.length; }

  // Player 0 creates the room, the spectators join, then player 1 takes the second seat.
  async setUp() {
    const sdk = this.peer.sdk;
    const roomId = await this.players[0].join(sdk, null);
    await Promise.all(this.spectators.map((m) => m.join(sdk, roomId)));
    await this.players[1].join(sdk, roomId);
  }
  memberStarted() { ++this.started; }
  sawGames(games) {
    if (games > this.games) { this.peer.figures.gamesFinished += games - this.games; this.games = games; }
  }

  // Illegal moves must be refused and leave the state as it was; a legal one must be applied.
  // From a fresh board hole 2 ends in the mover's own store, so the mover moves again and
  // hole 2, now empty, is an illegal choice of the seat to move.
  async check() {
    const [a, b] = this.players;
    const mover = a.seat === a.state.toMove ? a : b;
    const other = mover === a ? b : a;
    const v0 = mover.state.version;
    const tries = [
      ["not their turn", other, 0],
      ["hole out of range", mover, 6],
      ["not an integer", mover, "2"],
    ];
    const result = { illegal_sent: 0, refused: 0, reasons: [], changed: false };
    for (const [, member, hole] of tries) {
      const refusal = member.nextRefusal();
      member.sdkRoom.send("move", hole);
      ++result.illegal_sent;
      const why = await refusal;
      if (why) { ++result.refused; result.reasons.push(why.reason); }
    }
    result.changed ||= mover.state.version !== v0;
    const applied = mover.nextState((s) => s.version > v0);
    mover.sdkRoom.send("move", 2);
    const after = await applied;
    result.legal_applied = !!after && after.version === v0 + 1 && after.toMove === mover.seat;
    const refusal = mover.nextRefusal();
    mover.sdkRoom.send("move", 2);
    ++result.illegal_sent;
    const why = await refusal;
    if (why) { ++result.refused; result.reasons.push(why.reason); }
    result.changed ||= mover.state.version !== v0 + 1;
    return result;
  }
}

class ColyseusPeer extends Peer {
  constructor(o) {
    super(o, (peer) => new DriverRoom(peer));
    this.sdk = new Client(o.httpUrl);
  }

  checkDetails(results) {
    return { refusal_reasons: [...new Set(results.flatMap((r) => r.reasons))] };
  }

  async closeAll() {
    this.closing = true;
    const leaves = this.rooms.flatMap((r) => r.members.map((m) => m.sdkRoom?.leave(true).catch(() => {})));
    await Promise.race([Promise.all(leaves), waitUntil(() => false, 5)]);
  }
}

await main("colyseus", (o) => new ColyseusPeer(o),
  () => packageVersion(require.resolve("@colyseus/core/package.json")));

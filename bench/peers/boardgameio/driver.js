// Load driver of the boardgame.io peer: R rooms of 2 players + 3 spectators, each a stock
// boardgame.io Client (socket.io transport, spectators without a playerID). Matches are made and
// remade through the Lobby API; a finished match is followed by the Lobby's "play again" match.
// Usage: node driver.js --url http://127.0.0.1:PORT [--rooms R] [--duration S]
//        [--server-pid PID] [--check] (see --help)
import { createRequire } from "node:module";
import { Mancala } from "./mancala-game.js";
import { legalHoles } from "../common/mancala.mjs";
import { SPECTATORS_PER_ROOM, main, nowMs, packageVersion } from "../common/measure.mjs";
import { Peer, StateWaiters } from "../common/peer.mjs";

const require = createRequire(import.meta.url);
const { Client, LobbyClient } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");

const GAME = Mancala.name;
const CHECK_WAIT_MS = 500; // how long an unanswered illegal move is given to change anything

class Member {
  constructor(peer, room, playerID) {
    this.peer = peer;
    this.room = room;
    this.playerID = playerID; // "0", "1", or undefined for a spectator
    this.client = null;
    this.state = null; // the last state the server sent, of the room's current match
    this.sawStart = false;
    this.pending = null; // { matchID, stateID, sentAt } of the move in flight
    this.actedOn = null; // "matchID/stateID" of the last state acted on
    this.waiters = new StateWaiters();
  }
  get isPlayer() { return this.playerID !== undefined; }

  start(server, matchID, credentials) {
    this.client = Client({
      game: Mancala,
      numPlayers: 2,
      matchID,
      playerID: this.playerID,
      credentials,
      debug: false,
      // Straight to WebSocket, one connection per member: a load of long-polling handshakes
      // first would measure set-up, not play.
      multiplayer: SocketIO({ server, socketOpts: { transports: ["websocket"], forceNew: true } }),
    });
    this.client.start();
    const socket = this.client.transport.socket;
    const figures = this.peer.figures;
    // Every frame's payload as it came off the socket, as tanbo-load counts its frames.
    socket.io.on("open", () => {
      socket.io.engine.transport.ws.on("message", (data) => figures.received(data.length ?? data.byteLength));
    });
    // Listened to after the client's own handlers, so its store already holds this state.
    socket.on("sync", (id, syncInfo) => this.onServerState(id, syncInfo.state));
    socket.on("update", (id, state) => this.onServerState(id, state));
    socket.on("connect_error", (e) => figures.error("connect_error", e.message));
    socket.on("disconnect", (why) => { if (!this.peer.closing) figures.error("disconnect", why); });
  }

  // The next match of the room, on the same connection.
  switchTo(matchID, credentials) {
    this.state = null;
    this.sawStart = false;
    if (this.isPlayer) {
      // Set directly rather than through updateCredentials(), which would first re-sync the
      // finished match with credentials it does not know.
      this.client.credentials = credentials;
      this.client.transport.credentials = credentials;
    }
    this.client.updateMatchID(matchID);
  }

  onServerState(matchID, state) {
    if (matchID !== this.room.matchID) return; // a late message of the previous match
    const t = nowMs();
    this.state = state;
    if (!this.sawStart) { this.sawStart = true; this.room.memberStarted(); }
    const p = this.pending;
    if (p && p.matchID === matchID && state._stateID > p.stateID) { // only this seat moves it on
      this.peer.figures.moveSeen(p.sentAt, t);
      this.pending = null;
    }
    this.waiters.offer(state);
    if (state.ctx.gameover) return this.room.gameOver(matchID);
    if (this.isPlayer && this.peer.playing) this.maybeAct();
  }

  toMove() {
    const s = this.state;
    return !!s && !s.ctx.gameover && s.ctx.currentPlayer === this.playerID;
  }

  maybeAct() {
    if (!this.toMove() || this.pending || this.peer.stopping) return;
    const key = `${this.room.matchID}/${this.state._stateID}`;
    if (key === this.actedOn) return;
    this.actedOn = key;
    const legal = legalHoles(this.state.G.pits, Number(this.playerID));
    this.pending = { matchID: this.room.matchID, stateID: this.state._stateID, sentAt: nowMs() };
    this.client.moves.sow(legal[this.peer.random(legal.length)]);
  }

  // Check mode: resolves with the first state that satisfies `pred`, or null after `ms`.
  nextState(pred, ms) { return this.waiters.next(pred, ms); }
}

class DriverRoom {
  constructor(peer) {
    this.peer = peer;
    this.players = [new Member(peer, this, "0"), new Member(peer, this, "1")];
    this.spectators = Array.from({ length: SPECTATORS_PER_ROOM }, () => new Member(peer, this, undefined));
    this.matchID = null;
    this.credentials = [];
    this.started = 0;
    this.games = 0;
    this.finishedMatch = null;
    this.everReady = false;
  }
  get members() { return [...this.spectators, ...this.players]; }
  get ready() { return this.everReady; }

  async newMatch(matchID) {
    const lobby = this.peer.lobby;
    const joins = await Promise.all(this.players.map((p) =>
      lobby.joinMatch(GAME, matchID, { playerID: p.playerID, playerName: `player ${p.playerID}` })));
    this.credentials = joins.map((j) => j.playerCredentials);
    this.started = 0;
    this.matchID = matchID;
  }

  // The match is made and both seats taken through the Lobby; the spectators connect first.
  async setUp() {
    const { matchID } = await this.peer.lobby.createMatch(GAME, { numPlayers: 2 });
    await this.newMatch(matchID);
    for (const m of this.members) m.start(this.peer.o.httpUrl, matchID, this.credentials[Number(m.playerID)]);
  }

  memberStarted() {
    if (++this.started < this.members.length) return;
    this.everReady = true;
    if (this.peer.playing) for (const p of this.players) p.maybeAct();
  }

  // Seen by each member in turn: the first one asks the Lobby for the next match.
  async gameOver(matchID) {
    if (this.finishedMatch === matchID) return;
    this.finishedMatch = matchID;
    ++this.games;
    ++this.peer.figures.gamesFinished;
    if (this.peer.stopping) return;
    try {
      const { nextMatchID } = await this.peer.lobby.playAgain(GAME, matchID,
        { playerID: "0", credentials: this.credentials[0] });
      await this.newMatch(nextMatchID);
      for (const m of this.members) m.switchTo(nextMatchID, this.credentials[Number(m.playerID)]);
    } catch (e) {
      this.peer.figures.error("play_again", `${e.message} ${JSON.stringify(e.details ?? "")}`);
    }
  }

  // Illegal moves must leave the state as it was; a legal one must be applied. From a fresh
  // board hole 2 ends in the mover's own store, so the mover moves again and hole 2, now empty,
  // is an illegal choice of the seat to move. A move by the seat not to move gets no answer
  // from this server; an invalid one is answered with the unchanged state.
  async check() {
    const [a, b] = this.players;
    const mover = a.toMove() ? a : b;
    const other = mover === a ? b : a;
    const s0 = mover.state._stateID;
    const result = { illegal_sent: 0, refused: 0, answered_unchanged: 0, changed: false };
    const illegal = async (member, hole, expectAnswer) => {
      const before = member.state._stateID;
      const echo = member.nextState(() => true, CHECK_WAIT_MS);
      member.client.moves.sow(hole);
      ++result.illegal_sent;
      const answer = await echo;
      if (answer && answer._stateID === before) ++result.answered_unchanged;
      if (expectAnswer && !answer) return;
      if (this.members.every((m) => m.state._stateID === before)) ++result.refused;
      else result.changed = true;
    };
    await illegal(other, 0, false);
    await illegal(mover, 6, true);
    await illegal(mover, "2", true);
    const applied = mover.nextState((s) => s._stateID > s0, 3000);
    mover.client.moves.sow(2);
    const after = await applied;
    result.legal_applied = !!after && after._stateID === s0 + 1 && mover.toMove();
    await illegal(mover, 2, true);
    return result;
  }
}

class BoardgameioPeer extends Peer {
  constructor(o) {
    super(o, (peer) => new DriverRoom(peer));
    this.lobby = new LobbyClient({ server: o.httpUrl });
  }

  checkDetails(results, sum) {
    return { answered_with_unchanged_state: sum("answered_unchanged") };
  }

  async closeAll() {
    this.closing = true;
    for (const r of this.rooms) for (const m of r.members) m.client?.stop();
  }
}

await main("boardgame.io", (o) => new BoardgameioPeer(o),
  () => packageVersion(require.resolve("boardgame.io/package.json")));

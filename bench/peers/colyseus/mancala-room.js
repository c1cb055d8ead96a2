// The `mancala` room: one 2-player mancala-simple table with any spectators. The state is a
// Colyseus Schema, so every member gets the framework's own binary patches at the default patch
// rate; the only message a client sends is `move` (a hole index), checked here before it is
// applied.
import { Room } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import { SEATS, newBoard, isLegal, play, drawFirstSeat } from "../common/mancala.mjs";

export const MancalaState = schema({
  pits: t.array("uint8"), // 14 pits: seat s's holes at s*7 .. s*7+5, its store at s*7+6
  toMove: t.int8().default(-1), // -1 until both seats are taken
  version: t.uint32().default(0), // +1 per accepted move and per new game, as our server's
  games: t.uint32().default(0), // games finished in this room
  lastWinner: t.int8().default(-1),
  seats: t.array("string"), // the players' session ids, seat order
}, "MancalaState");

export class MancalaRoom extends Room {
  // 2 players and 3 spectators.
  maxClients = 5;
  state = new MancalaState();
  firstSeat = drawFirstSeat();

  messages = {
    move: (client, hole) => {
      const seat = this.state.seats.indexOf(client.sessionId);
      if (seat < 0 || seat !== this.state.toMove) return this.refuse(client, "not your turn", hole);
      if (!isLegal(this.state.pits, seat, hole)) return this.refuse(client, "illegal hole", hole);
      const { toMove, winner } = play(this.state.pits, seat, hole);
      this.state.version += 1;
      if (winner === null) {
        this.state.toMove = toMove;
        return;
      }
      this.state.games += 1;
      this.state.lastWinner = winner;
      // A finished game restarts at once with the same seats, the first seat moving one on.
      this.firstSeat = 1 - this.firstSeat;
      this.startGame();
    },
  };

  onJoin(client, options) {
    if (options?.role === "spectator") return;
    if (this.state.seats.length >= SEATS) throw new Error("both seats are taken");
    this.state.seats.push(client.sessionId);
    if (this.state.seats.length === SEATS) this.startGame();
  }

  startGame() {
    const board = newBoard();
    if (this.state.pits.length === 0) this.state.pits.push(...board);
    else board.forEach((stones, pit) => { this.state.pits[pit] = stones; });
    this.state.toMove = this.firstSeat;
    this.state.version += 1;
  }

  refuse(client, reason, hole) {
    client.send("refused", { reason, hole });
  }
}

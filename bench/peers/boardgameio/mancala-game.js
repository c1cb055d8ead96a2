// mancala-simple as a boardgame.io Game: G holds the board, ctx.currentPlayer the seat to move,
// one move `sow` (a hole index) checked before it is applied, endIf the first seat to empty its
// side. The rules themselves are those shared with the Colyseus peer.
import { createRequire } from "node:module";
import { isLegal, newBoard, play } from "../common/mancala.mjs";

const require = createRequire(import.meta.url);
const { INVALID_MOVE } = require("boardgame.io/core");

export const Mancala = {
  name: "mancala",
  minPlayers: 2,
  maxPlayers: 2,

  // R6 default "random": each match draws its first seat.
  setup: ({ random }) => ({ pits: newBoard(), first: random.Die(2) - 1, winner: null }),

  turn: {
    order: {
      first: ({ G }) => G.first,
      next: ({ ctx }) => (ctx.playOrderPos + 1) % ctx.numPlayers,
    },
  },

  moves: {
    sow: ({ G, playerID, events }, hole) => {
      const seat = Number(playerID);
      if (!isLegal(G.pits, seat, hole)) return INVALID_MOVE;
      const { toMove, winner } = play(G.pits, seat, hole);
      if (winner !== null) G.winner = winner;
      // An extra move (a last stone in a store) keeps the turn; otherwise it passes.
      else if (toMove !== seat) events.endTurn();
    },
  },

  endIf: ({ G }) => (G.winner === null ? undefined : { winner: String(G.winner) }),
};

// mancala-simple, 2 players, default options (6 holes, 4 stones): the rules of
// docs/rules/mancala-simple.md (M1-M4) and the forced-decision ruling R4, on a flat board of
// 14 pits. Seat s owns pits s*7 .. s*7+5 (its holes, from its left) and s*7+6 (its store), so
// counter-clockwise sowing is simply "the next index, wrapping round", as in the engine.
//
// Every function works on any array-like board (a plain array, an immer draft, a Colyseus
// ArraySchema), so each peer keeps its own idiomatic state and shares only these rules.

export const SEATS = 2;
export const HOLES = 6;
export const STONES = 4;
export const WIDTH = HOLES + 1; // a seat's holes and its store
export const PITS = SEATS * WIDTH;

export const pitOf = (seat, hole) => seat * WIDTH + hole;
export const isStore = (pit) => pit % WIDTH === HOLES;

// M1: every hole holds STONES, every store is empty.
export function newBoard() {
  const board = [];
  for (let pit = 0; pit < PITS; ++pit) board.push(isStore(pit) ? 0 : STONES);
  return board;
}

// The seat's non-empty holes, in hole order: the legal actions of the one decision kind.
export function legalHoles(board, seat) {
  const holes = [];
  for (let hole = 0; hole < HOLES; ++hole) if (board[pitOf(seat, hole)] > 0) holes.push(hole);
  return holes;
}

// A client's hole is checked as untrusted input: an integer, on the board, not empty.
export function isLegal(board, seat, hole) {
  return Number.isInteger(hole) && hole >= 0 && hole < HOLES && board[pitOf(seat, hole)] > 0;
}

// M3: take every stone of the hole and sow one per pit from the next pit on, through both
// stores; a sowing of 14 or more passes the starting hole and drops a stone in it too.
// Returns the pit of the last stone.
function sow(board, seat, hole) {
  let pit = pitOf(seat, hole);
  let stones = board[pit];
  board[pit] = 0;
  while (stones > 0) {
    pit = (pit + 1) % PITS;
    board[pit] += 1;
    --stones;
  }
  return pit;
}

function sideEmpty(board, seat) {
  for (let hole = 0; hole < HOLES; ++hole) if (board[pitOf(seat, hole)] > 0) return false;
  return true;
}

// One decision and the forced ones that follow it (R4: a seat with a single non-empty hole
// sows it without being asked). Precondition: isLegal(board, mover, hole).
// Returns { toMove, winner }: winner is the seat that finished (M4: with 2 players the first
// to empty their side wins) or null, toMove the seat to decide next (null once over).
export function play(board, mover, hole) {
  for (;;) {
    const last = sow(board, mover, hole);
    // M3: finishing is checked right after the sowing, before any extra move.
    if (sideEmpty(board, mover)) return { toMove: null, winner: mover };
    // M3: a last stone in any store gives the same seat another move.
    const next = isStore(last) ? mover : 1 - mover;
    const legal = legalHoles(board, next);
    if (legal.length !== 1) return { toMove: next, winner: null };
    mover = next;
    hole = legal[0];
  }
}

// R6 default "random": the first seat of a room's first game is drawn.
export const drawFirstSeat = () => (Math.random() < 0.5 ? 0 : 1);

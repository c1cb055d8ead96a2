// The rooms this browser holds a seat in and those it created, kept in localStorage: the room
// view takes its seat back with them, the lobby and the turn list mark them, and a creator
// opens and closes the spectators' chat. A module of its own so that whoever creates or joins
// a room (the lobby, Play now, the computer's level dialog) need not import the room view.
const SEATS_KEY = 'tanbo.seats';
const CREATED_KEY = 'tanbo.created';
const KEPT = 50;

function seatRooms() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY)) || []; } catch { return []; }
}
export function rememberSeat(room) {
  const rooms = seatRooms().filter((r) => r !== room);
  rooms.unshift(room);
  localStorage.setItem(SEATS_KEY, JSON.stringify(rooms.slice(0, KEPT)));
}
export function hasSeat(room) { return seatRooms().includes(room); }
// The seat is someone else's now (room_full on taking it back).
export function forgetSeat(room) {
  localStorage.setItem(SEATS_KEY, JSON.stringify(seatRooms().filter((r) => r !== room)));
}
// Another identity now (logged in, logged out): the seats and rooms kept were the old one's.
export function forgetSeats() {
  localStorage.removeItem(SEATS_KEY);
  localStorage.removeItem(CREATED_KEY);
}

// The rooms created in this browser: their creator opens and closes the spectators' chat.
export function createdRooms() {
  try { return JSON.parse(localStorage.getItem(CREATED_KEY)) || []; } catch { return []; }
}
export function rememberCreated(room) {
  rememberSeat(room);
  const rooms = createdRooms().filter((r) => r !== room);
  rooms.unshift(room);
  localStorage.setItem(CREATED_KEY, JSON.stringify(rooms.slice(0, KEPT)));
}

// The Colyseus peer: the standard 0.18 set-up (defineServer + defineRoom, the default WebSocket
// transport), bound to loopback only. Usage: node server.js [--port P]
import { defineServer, defineRoom } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { MancalaRoom } from "./mancala-room.js";

const args = process.argv.slice(2);
const portAt = args.indexOf("--port");
const port = portAt >= 0 ? Number(args[portAt + 1]) : 2567;

const server = defineServer({
  greet: false,
  transport: new WebSocketTransport(),
  rooms: { mancala: defineRoom(MancalaRoom) },
});
await server.listen(port, "127.0.0.1");
console.error(`colyseus peer listening on ws://127.0.0.1:${port}`);

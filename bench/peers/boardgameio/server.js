// The boardgame.io peer: the stock Server (its in-memory storage, its socket.io transport and
// Lobby API) hosting the Mancala game. Usage: node server.js [--port P]
import { createRequire } from "node:module";
import { Mancala } from "./mancala-game.js";

const require = createRequire(import.meta.url);
const { Server, Origins } = require("boardgame.io/server");

const args = process.argv.slice(2);
const portAt = args.indexOf("--port");
const port = portAt >= 0 ? Number(args[portAt + 1]) : 8000;

const server = Server({ games: [Mancala], origins: [Origins.LOCALHOST] });
// Server.run() listens on every interface; the transport has already made app.listen the
// http.Server's own, so pass it the loopback address to keep the peer on this machine.
const listen = server.app.listen;
server.app.listen = (p, callback) => listen.call(server.app, p, "127.0.0.1", callback);
await server.run(port);
console.error(`boardgame.io peer listening on http://127.0.0.1:${port}`);

// Smoke client for docker/verify-image.sh: plain Node (18 or later), no packages, so it runs on a
// fresh Debian with only `nodejs` installed. It speaks just enough HTTP/1.1 and WebSocket
// (RFC 6455, client side: masked text frames out, unmasked frames in) for docs/protocol.md.
//
//   node docker/smoke-client.mjs health HOST:PORT        GET /healthz answers 200 {"status":"ok"}
//   node docker/smoke-client.mjs web HOST:PORT           GET / serves the browser client (HTML)
//   node docker/smoke-client.mjs play HOST:PORT          two players, one random mancala-simple game
//   node docker/smoke-client.mjs games HOST:PORT ROOM    GET /api/games lists ROOM's finished game
//
// Every command prints one JSON line on success and exits 0; anything else exits 1.
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";

const [cmd, hostport, arg] = process.argv.slice(2);
const [host, port] = (hostport ?? "").split(":");

function fail(message) {
  console.error(`smoke-client: ${message}`);
  process.exit(1);
}

function get(path) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host, port, path, timeout: 5000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${path}: timed out`)));
    req.on("error", reject);
  });
}

// One WebSocket connection to /ws, delivering each text message to onMessage as parsed JSON.
class Ws {
  constructor(name, onMessage) {
    this.name = name;
    this.onMessage = onMessage;
    this.buf = Buffer.alloc(0);
    this.fragments = [];
  }

  open() {
    return new Promise((resolve, reject) => {
      const key = crypto.randomBytes(16).toString("base64");
      this.sock = net.connect({ host, port: Number(port) }, () => {
        this.sock.write(
          `GET /ws HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\n` +
            `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
      let upgraded = false;
      this.sock.on("error", (e) => (upgraded ? fail(`${this.name}: ${e.message}`) : reject(e)));
      this.sock.on("close", () => this.closed || fail(`${this.name}: the server closed the socket`));
      this.sock.on("data", (chunk) => {
        this.buf = Buffer.concat([this.buf, chunk]);
        if (!upgraded) {
          const end = this.buf.indexOf("\r\n\r\n");
          if (end < 0) return;
          const head = this.buf.subarray(0, end).toString("latin1");
          this.buf = this.buf.subarray(end + 4);
          if (!/^HTTP\/1\.1 101/.test(head)) return reject(new Error(`upgrade refused: ${head}`));
          const accept = crypto
            .createHash("sha1")
            .update(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")
            .digest("base64");
          if (!head.toLowerCase().includes(`sec-websocket-accept: ${accept.toLowerCase()}`))
            return reject(new Error("bad Sec-WebSocket-Accept"));
          upgraded = true;
          resolve();
        }
        this.drain();
      });
    });
  }

  drain() {
    for (;;) {
      if (this.buf.length < 2) return;
      const fin = this.buf[0] & 0x80, opcode = this.buf[0] & 0x0f;
      let len = this.buf[1] & 0x7f, at = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2), at = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2)), at = 10;
      }
      if (this.buf.length < at + len) return;
      const payload = this.buf.subarray(at, at + len);
      this.buf = this.buf.subarray(at + len);
      if (opcode === 0x8) fail(`${this.name}: closed by the server (${payload.length >= 2 ? payload.readUInt16BE(0) : "no code"})`);
      if (opcode === 0x9) this.frame(0xa, payload);  // ping: pong with the same payload
      if (opcode === 0x1 || opcode === 0x0) {
        this.fragments.push(payload);
        if (fin) {
          const text = Buffer.concat(this.fragments).toString("utf8");
          this.fragments = [];
          this.onMessage(JSON.parse(text));
        }
      }
    }
  }

  frame(opcode, payload) {
    const mask = crypto.randomBytes(4);
    const len = payload.length;
    const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len])
               : len < 65536 ? Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff])
               : fail("frame too large");
    const body = Buffer.from(payload);
    for (let i = 0; i < body.length; i++) body[i] ^= mask[i & 3];
    this.sock.write(Buffer.concat([head, mask, body]));
  }

  send(message) { this.frame(0x1, Buffer.from(JSON.stringify(message), "utf8")); }

  close() {
    this.closed = true;
    this.frame(0x8, Buffer.from([0x03, 0xe8]));
    this.sock.end();
  }
}

// A player: hello, then create (or join) and act on every state that hands it the decision.
// Acts are paced under the server's default message rate (10 per second sustained).
function player(name, onEvent) {
  const p = { name, seat: null, acted: -1, decisions: 0, last: 0, nextId: 1 };
  p.ws = new Ws(name, (m) => {
    if (m.type === "error") {
      if (m.code === "rate_limited") return setTimeout(() => p.retry?.(), 1000);
      fail(`${name}: error ${m.code}: ${m.message}`);
    }
    // The creator's seat comes with `created`; a joining player's with `joined`.
    if ((m.type === "created" || m.type === "joined") && Number.isInteger(m.seat)) p.seat = m.seat;
    if (m.type === "state" && m.status === "playing" && Array.isArray(m.legal) &&
        m.pending?.seat === p.seat && m.version > p.acted) {
      p.acted = m.version;
      const action = m.legal[crypto.randomInt(m.legal.length)];
      p.retry = () => p.ws.send({ type: "act", id: p.nextId++, room: m.room, version: m.version, action });
      const wait = Math.max(0, p.last + 120 - Date.now());
      setTimeout(() => { p.last = Date.now(); p.decisions++; p.retry(); }, wait);
    }
    onEvent(p, m);
  });
  return p;
}

async function play() {
  let room = null, finished = null, resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const watchdog = setTimeout(() => fail("the game did not finish within 120 s"), 120_000);
  const onEvent = (p, m) => {
    if (m.type === "welcome" && p === a)
      a.ws.send({ type: "create", id: a.nextId++, game: "mancala-simple", options: {} });
    if (m.type === "created") room = m.room;
    if (m.type === "created" && p === a)  // the second player comes once the room exists
      b.ws.open().then(() => b.ws.send({ type: "hello", id: b.nextId++, name: "smoke-b" }),
                       (e) => fail(`b: ${e.message}`));
    if (m.type === "welcome" && p === b) b.ws.send({ type: "join", id: b.nextId++, room, as: "player" });
    if (m.type === "state" && m.status === "finished" && !finished) {
      finished = m;
      resolveDone();
    }
  };
  const a = player("a", onEvent), b = player("b", onEvent);
  await a.ws.open();
  a.ws.send({ type: "hello", id: a.nextId++, name: "smoke-a" });
  await done;
  clearTimeout(watchdog);
  a.ws.close();
  b.ws.close();
  if (!finished.result || !Array.isArray(finished.result.places)) fail("finished state without a result");
  console.log(JSON.stringify({ room, version: finished.version, decisions: a.decisions + b.decisions,
                               result: finished.result }));
}

async function main() {
  if (!host || !port) fail("usage: smoke-client.mjs health|web|play|games HOST:PORT [ROOM]");
  if (cmd === "health") {
    const r = await get("/healthz");
    const body = JSON.parse(r.body);
    if (r.status !== 200 || body.status !== "ok") fail(`/healthz: ${r.status} ${r.body}`);
    console.log(r.body);
  } else if (cmd === "web") {
    const r = await get("/");
    if (r.status !== 200 || !/<html/i.test(r.body)) fail(`GET /: ${r.status} ${r.body.slice(0, 200)}`);
    console.log(JSON.stringify({ path: "/", status: r.status, bytes: r.body.length }));
  } else if (cmd === "play") {
    await play();
  } else if (cmd === "games") {
    const r = await get("/api/games?limit=20");
    if (r.status !== 200) fail(`/api/games: ${r.status} ${r.body}`);
    const game = JSON.parse(r.body).games.find((g) => g.room === arg);
    if (!game) fail(`/api/games lists no game of room ${arg}: ${r.body}`);
    // The list holds finished games only; an entry has no `status` of its own (GET /api/games/{id} has).
    if ((game.status !== undefined && game.status !== "finished") || !game.result || !game.finished_at)
      fail(`game ${game.id} is not finished: ${JSON.stringify(game)}`);
    console.log(JSON.stringify({ id: game.id, room: game.room, result: game.result }));
  } else {
    fail(`unknown command ${cmd}`);
  }
  process.exit(0);
}

main().catch((e) => fail(e.message));

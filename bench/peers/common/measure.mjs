// What the peer load drivers share: their flags and bounds, the loopback rule, the figures of the
// measurement window and the JSON report, named as tanbo-load names them where they apply.
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";

export const MAX_ROOMS = 2000;
export const MAX_DURATION_S = 600;
export const MAX_SETUP_S = 300;
export const MEMBERS_PER_ROOM = 5; // 2 players + 3 spectators
export const SPECTATORS_PER_ROOM = MEMBERS_PER_ROOM - 2;

export function usage(name) {
  return `Usage: node driver.js --url URL [OPTION]...
Loads a ${name} peer server on this machine and prints one JSON line of figures.

  --url URL              the server, ws:// or http:// on a loopback address (required)
  --rooms R              rooms of 2 players + 3 spectators (default 10, at most ${MAX_ROOMS})
  --duration S           measurement window in seconds (default 10, at most ${MAX_DURATION_S})
  --setup-timeout S      longest set-up before measuring anyway (default 120, at most ${MAX_SETUP_S})
  --server-pid PID       report the server's CPU and RSS from /proc/PID
  --seed N               seed of the random choices (default 1)
  --check                before play, send each room illegal moves and report how they fared
  -h, --help             print this help and exit
`;
}

// Same rule as tanbo-load: localhost, ::1 or a dotted 127.x.y.z address.
export function isLoopback(host) {
  if (host === "localhost" || host === "::1" || host === "[::1]") return true;
  const parts = host.split(".");
  return parts.length === 4 && parts[0] === "127" &&
    parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

export class OptionsError extends Error {}

export function parseOptions(argv) {
  const o = { rooms: 10, duration: 10, setupTimeout: 120, serverPid: 0, seed: 1, check: false };
  const bounded = (flag, text, lo, hi) => {
    const v = Number(text);
    if (text === undefined || !Number.isFinite(v) || v < lo || v > hi)
      throw new OptionsError(`${flag}: bad value '${text}' (${lo} to ${hi})`);
    return v;
  };
  for (let i = 0; i < argv.length; ++i) {
    const flag = argv[i];
    if (flag === "-h" || flag === "--help") return { help: true };
    if (flag === "--check") { o.check = true; continue; }
    const value = argv[++i];
    switch (flag) {
      case "--url": o.url = value; break;
      case "--rooms": o.rooms = Math.trunc(bounded(flag, value, 1, MAX_ROOMS)); break;
      case "--duration": o.duration = bounded(flag, value, 0.1, MAX_DURATION_S); break;
      case "--setup-timeout": o.setupTimeout = bounded(flag, value, 1, MAX_SETUP_S); break;
      case "--server-pid": o.serverPid = Math.trunc(bounded(flag, value, 1, 2 ** 30)); break;
      case "--seed": o.seed = Math.trunc(bounded(flag, value, 0, 2 ** 32 - 1)); break;
      default: throw new OptionsError(`unknown option '${flag}'`);
    }
  }
  if (!o.url) throw new OptionsError("--url is required");
  let url;
  try { url = new URL(o.url); } catch { throw new OptionsError(`--url: cannot read '${o.url}'`); }
  if (!["ws:", "http:"].includes(url.protocol)) throw new OptionsError("--url: only ws:// or http://");
  if (!isLoopback(url.hostname))
    throw new OptionsError(`--url: ${url.hostname} is not a loopback address; the driver only loads a server on this machine`);
  o.httpUrl = `http://${url.host}`;
  o.wsUrl = `ws://${url.host}`;
  return o;
}

// xorshift32: the same moves for the same seed and the same order of events.
export function makeRandom(seed) {
  let x = (seed >>> 0) || 0x9e3779b9;
  return (n) => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

export const nowMs = () => performance.now();

const CLOCK_TICKS = (() => {
  try { return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100; }
  catch { return 100; }
})();

// utime + stime (fields 14 and 15 of /proc/PID/stat) in seconds, and VmRSS in KiB.
export function sampleProcess(pid) {
  if (!pid) return { cpuS: null, rssKib: null };
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // the name may hold spaces
    const ticks = Number(rest[11]) + Number(rest[12]); // fields 14 and 15, counted from 3
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rss = /VmRSS:\s+(\d+)/.exec(status);
    return { cpuS: ticks / CLOCK_TICKS, rssKib: rss ? Number(rss[1]) : null };
  } catch {
    return { cpuS: null, rssKib: null };
  }
}

const selfCpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function percentiles(ms) {
  if (ms.length === 0) return null;
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
  const round = (v) => Math.round(v * 1000) / 1000;
  return { samples: ms.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)),
    max: round(ms[ms.length - 1]) };
}

// The counters every driver fills, and the window they are read in.
export class Figures {
  constructor() {
    this.windowStart = Infinity;
    this.windowEnd = Infinity;
    this.accepted = 0;
    this.acceptedInWindow = 0;
    this.refused = 0;
    this.latencyPlayerMs = [];
    this.messages = 0;
    this.bytes = 0;
    this.messagesTotal = 0;
    this.bytesTotal = 0;
    this.errors = {};
    this.gamesFinished = 0;
  }
  inWindow(t) { return t >= this.windowStart && t < this.windowEnd; }
  received(byteCount) {
    ++this.messagesTotal;
    this.bytesTotal += byteCount;
    if (this.inWindow(nowMs())) { ++this.messages; this.bytes += byteCount; }
  }
  // A move of a player seen applied: sent at `sentAt`, seen at `seenAt`.
  moveSeen(sentAt, seenAt) {
    ++this.accepted;
    if (this.inWindow(seenAt)) ++this.acceptedInWindow;
    if (this.inWindow(sentAt)) this.latencyPlayerMs.push(seenAt - sentAt);
  }
  error(kind, detail) {
    this.errors[kind] = (this.errors[kind] ?? 0) + 1;
    if (this.errors[kind] <= 3) console.error(`driver: ${kind}${detail ? `: ${detail}` : ""}`);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits for `done()` every 20 ms, at most `seconds`; true if it came.
export async function waitUntil(done, seconds) {
  const deadline = nowMs() + seconds * 1000;
  while (!done()) {
    if (nowMs() >= deadline) return false;
    await sleep(20);
  }
  return true;
}

// The whole run: set-up, one second of warm-up after the first moves (as tanbo-load), the
// window, a bounded drain. `peer` is a Peer of peer.mjs: setUp(), check(), startPlay(),
// stopPlay(), outstanding(), closeAll() and extra() (members added to the report).
export async function run(o, peer, { server, version }) {
  const figures = peer.figures;
  const before = sampleProcess(o.serverPid);
  const t0 = nowMs();
  const ready = await peer.setUp(o.setupTimeout);
  const setupS = (nowMs() - t0) / 1000;
  console.error(`driver: set-up ${ready ? "done" : "timed out"} in ${setupS.toFixed(1)} s: ` +
    `${peer.roomsReady()} of ${o.rooms} rooms ready`);
  const check = o.check ? await peer.check() : undefined;

  peer.startPlay();
  await sleep(1000);
  const start = sampleProcess(o.serverPid);
  const selfStart = selfCpuS();
  figures.windowStart = nowMs();
  await sleep(o.duration * 1000);
  figures.windowEnd = nowMs();
  const end = sampleProcess(o.serverPid);
  const selfEnd = selfCpuS();

  peer.stopPlay();
  const drained = await waitUntil(() => peer.outstanding() === 0, 5);
  await sleep(200);
  const extra = peer.extra();
  await peer.closeAll();

  const windowS = (figures.windowEnd - figures.windowStart) / 1000;
  const serverCpuS = start.cpuS !== null && end.cpuS !== null ? end.cpuS - start.cpuS : null;
  const moves = figures.acceptedInWindow;
  const report = {
    server,
    version,
    node: process.version,
    ok: ready,
    rooms: o.rooms,
    rooms_ready: peer.roomsReady(),
    members_per_room: MEMBERS_PER_ROOM,
    duration_s: o.duration,
    setup_s: setupS,
    window_s: windowS,
    actions: {
      accepted: figures.accepted,
      accepted_in_window: moves,
      accepted_per_s: moves / windowS,
      refused: figures.refused,
      unresolved: peer.outstanding(),
      drained,
    },
    games: { finished: figures.gamesFinished },
    latency_ms: { player: percentiles(figures.latencyPlayerMs) },
    received: {
      messages: figures.messages,
      bytes: figures.bytes,
      messages_per_s: figures.messages / windowS,
      bytes_per_s: figures.bytes / windowS,
      messages_total: figures.messagesTotal,
      bytes_total: figures.bytesTotal,
    },
    bytes_per_member_per_move: moves > 0 ? figures.bytes / (moves * MEMBERS_PER_ROOM) : null,
    server_cpu_percent: serverCpuS !== null ? (100 * serverCpuS) / windowS : null,
    moves_per_server_cpu_s: serverCpuS ? moves / serverCpuS : null,
    server_rss_kib: { before: before.rssKib, start: start.rssKib, end: end.rssKib },
    load_generator_cpu_percent: (100 * (selfEnd - selfStart)) / windowS,
    errors: figures.errors,
    ...extra,
  };
  if (check) report.check = check;
  return report;
}

export function packageVersion(path) {
  try { return JSON.parse(readFileSync(path, "utf8")).version; } catch { return null; }
}

// Parses the flags, runs, prints the JSON line; exit 2 on a bad flag, 1 when set-up failed.
export async function main(name, makePeer, versionOf) {
  let o;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof OptionsError)) throw e;
    console.error(`driver: ${e.message}\n${usage(name)}`);
    process.exit(2);
  }
  if (o.help) { process.stdout.write(usage(name)); return; }
  const peer = makePeer(o);
  const report = await run(o, peer, { server: name, version: versionOf() });
  process.stdout.write(JSON.stringify(report) + "\n");
  process.exit(report.ok ? 0 : 1);
}

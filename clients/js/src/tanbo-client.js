// The client: one WebSocket to a Tanbo Server (docs/protocol.md). Requests get an `id` and a
// Promise settled by the reply that repeats it as `re`; pushes are dispatched as events named by
// their `type`. The identity's token is kept in a storage between runs, unless the client plays
// with a personal access token; a dropped connection is opened again with back-off, and every
// room the client was in is joined again and resumed.
import {TanboError} from './errors.js';
import {defaultStorage} from './storage.js';
import {webSocketClass} from './transport.js';

/** @typedef {import('./client.js').ClientMessage} ClientMessage */
/** @typedef {import('./client.js').ServerMessage} ServerMessage */
/** @typedef {import('./client.js').WelcomeMessage} WelcomeMessage */
/** @typedef {import('./client.js').RoomView} RoomView */
/** @typedef {import('./client.js').EventMessages} EventMessages */
/** @typedef {import('./client.js').TanboClientApi} TanboClientApi */

/** @template M */
export class TanboEvent extends Event {
  /** @param {string} type @param {M} message */
  constructor(type, message) {
    super(type);
    /** @type {M} */
    this.message = message;
  }
}

// The protocol version this client speaks (docs/protocol-changelog.md).
export const PROTOCOL = 2;

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

const DEFAULTS = {
  profile: 'default',
  reconnect: true,
  reconnectDelayMs: 250,
  reconnectMaxDelayMs: 10000,
  reconnectAttempts: Infinity,
  rateLimitRetries: 5,
  // For a rate_limited without retry_ms (a login's, which says "try again in a second"): a
  // second, then doubling.
  rateLimitDelayMs: (/** @type {number} */ attempt) => 1000 * 2 ** attempt,
  silenceMs: 10000,
};

/**
 * @typedef {object} Pending
 * @property {(reply: any) => void} resolve
 * @property {(error: TanboError) => void} reject
 * @property {ReturnType<typeof setTimeout> | undefined} silence
 */

/** @implements {TanboClientApi} */
export class TanboClient extends EventTarget {
  /** @type {Map<number, Pending>} */
  #pending = new Map();
  #nextId = 1;
  /** @type {import('./client.js').SocketLike | null} */
  #socket = null;
  /** @type {import('./client.js').TanboClientApi['status']} */
  #status = 'idle';
  /** @type {WelcomeMessage | null} */
  #welcome = null;
  /** @type {import('./client.js').TokenStorage | null} */
  #storage = null;
  /** @type {import('./client.js').WebSocketClass | null} */
  #WebSocket = null;
  /** @type {Array<() => void>} callers waiting for the connection to be open again */
  #waiting = [];
  /** @type {TanboError | null} why the client stopped by itself */
  #failure = null;
  /** the time (Date.now()) the last retry of a dropped request goes at */
  #retryAt = 0;
  /** milliseconds between two such retries */
  #retrySpacingMs = 0;

  /** @param {string} url @param {import('./client.js').ClientOptions} [options] */
  constructor(url, options = {}) {
    super();
    this.url = url;
    this.options = {...DEFAULTS, ...options};
    /** @type {Map<string, RoomView>} */
    this.rooms = new Map();
  }

  /** @param {string} url @param {import('./client.js').ClientOptions} [options] */
  static async connect(url, options) {
    const client = new TanboClient(url, options);
    await client.connect();
    return client;
  }

  get welcome() { return this.#welcome; }
  get player() { return this.#welcome?.player ?? null; }
  get status() { return this.#status; }
  get socket() { return this.#socket; }
  get failure() { return this.#failure; }

  async connect() {
    if (this.#status !== 'idle') throw new TanboError('closed', `connect() once, not when ${this.#status}`);
    this.#status = 'connecting';
    this.#WebSocket = this.options.WebSocket ?? await webSocketClass();
    // An access token is the program's own secret: nothing of it goes to a storage.
    if (!this.options.accessToken) this.#storage = this.options.storage ?? await defaultStorage();
    try {
      await this.#open();
      const welcome = await this.#hello();
      this.#setOpen();
      return welcome;
    } catch (err) {
      this.close();
      throw err;
    }
  }

  close() { this.#stop(null); }

  /** @param {TanboError | null} failure why the client stops by itself; null: its owner closed it */
  #stop(failure) {
    if (this.#status === 'closed') return;
    this.#status = 'closed';
    this.#failure = failure;
    const socket = this.#socket;
    this.#socket = null;
    this.#failPending('closed', 'the client was closed', failure);
    socket?.close(1000);
    for (const wake of this.#waiting.splice(0)) wake();
    this.#emit('closed', failure ? {reason: failure.code, error: failure} : {reason: 'closed'});
  }

  // --- Requests -------------------------------------------------------------------------------

  /**
   * @template {ServerMessage} [R=ServerMessage]
   * @param {ClientMessage} message
   * @returns {Promise<R>}
   */
  async request(message) {
    while (this.#status === 'reconnecting' || this.#status === 'connecting') {
      await new Promise((wake) => { this.#waiting.push(() => wake(undefined)); });
    }
    return /** @type {Promise<R>} */ (this.#call(message));
  }

  /** @param {ClientMessage} message */
  send(message) {
    if (!this.#socket) throw new TanboError('disconnected', 'not connected');
    this.#socket.send(JSON.stringify(message));
  }

  /** @type {TanboClientApi['games']} */
  games() { return this.request({type: 'games'}); }
  /** @type {TanboClientApi['listRooms']} */
  listRooms(game) { return this.request(game ? {type: 'rooms', game} : {type: 'rooms'}); }
  /** @type {TanboClientApi['myGames']} */
  myGames() { return this.request({type: 'my_games'}); }
  /** @type {TanboClientApi['ping']} */
  ping() { return  this.request({type: 'ping'}); }
  /** @type {TanboClientApi['watchLobby']} */
  watchLobby() { return this.request({type: 'watch_lobby'}); }
  /** @type {TanboClientApi['unwatchLobby']} */
  unwatchLobby() { return this.request({type: 'unwatch_lobby'}); }

  /** @type {TanboClientApi['create']} */
  create(game, terms = {}) { return this.request({...terms, type: 'create', game}); }
  /** @type {TanboClientApi['join']} */
  join(room, {as = 'player', seat} = {}) {
    return this.request(seat == null ? {type: 'join', room, as} : {type: 'join', room, as, seat});
  }
  /** @type {TanboClientApi['leave']} */
  leave(room) { return this.request({type: 'leave', room}); }
  /** @type {TanboClientApi['seek']} */
  seek(game, terms = {}) { return this.request({...terms, type: 'seek', game}); }
  /** @type {TanboClientApi['unseek']} */
  unseek(seek) { return this.request({type: 'unseek', seek}); }
  /** @type {TanboClientApi['challenge']} */
  challenge(player, game, terms = {}) { return this.request({...terms, type: 'challenge', player, game}); }
  /** @type {TanboClientApi['accept']} */
  accept(challenge) { return this.request({type: 'accept', challenge}); }
  /** @type {TanboClientApi['decline']} */
  decline(challenge) { return this.request({type: 'decline', challenge}); }
  /** @type {TanboClientApi['cancel']} */
  cancel(challenge) { return this.request({type: 'cancel', challenge}); }
  /** @type {TanboClientApi['takeChallenges']} */
  takeChallenges(open) { return this.request({type: 'challenges', open}); }
  /** @type {TanboClientApi['becomeBot']} */
  becomeBot() { return this.request({type: 'become_bot'}); }

  /** @type {TanboClientApi['act']} */
  act(room, action, version = this.rooms.get(room)?.version ?? undefined) {
    if (version == null) return Promise.reject(new TypeError(`act: no state of ${room} seen, and no version given`));
    return this.request({type: 'act', room, version, action});
  }
  /** @type {TanboClientApi['resign']} */
  resign(room) { return this.request({type: 'resign', room}); }
  /** @type {TanboClientApi['rematch']} */
  rematch(room) { return this.request({type: 'rematch', room}); }
  /** @type {TanboClientApi['fillCpu']} */
  fillCpu(room, level) { return this.request({type: 'fill_cpu', room, level}); }
  /** @type {TanboClientApi['say']} */
  say(room, channel, line) {
    const said = typeof line === 'string' ? {text: line} : {phrase: line.phrase};
    return this.request({type: 'say', room, channel, ...said});
  }
  /** @type {TanboClientApi['resume']} */
  resume(room, version = this.rooms.get(room)?.version ?? 0) {
    return this.request({type: 'resume', room, version});
  }

  // --- Events ---------------------------------------------------------------------------------

  /**
   * @template {keyof EventMessages & string} K
   * @param {K} type
   * @param {(message: EventMessages[K]) => boolean} [filter]
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<EventMessages[K]>}
   */
  next(type, filter = () => true, {timeoutMs} = {}) {
    return new Promise((resolve, reject) => {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const done = () => {
        clearTimeout(timer);
        this.removeEventListener(type, listener);
        this.removeEventListener('closed', closed);
      };
      const listener = (/** @type {Event} */ event) => {
        const {message} = /** @type {TanboEvent<EventMessages[K]>} */ (event);
        if (!filter(message)) return;
        done();
        resolve(message);
      };
      const closed = () => { done(); reject(this.#failure ?? new TanboError('closed', `closed while waiting for ${type}`)); };
      this.addEventListener(type, listener);
      if (type !== 'closed') this.addEventListener('closed', closed);
      if (timeoutMs != null) {
        timer = setTimeout(() => { done(); reject(new TanboError('timeout', `no ${type} within ${timeoutMs} ms`)); }, timeoutMs);
      }
    });
  }

  /**
   * @template {keyof EventMessages & string} K
   * @param {K} type
   * @param {(message: EventMessages[K]) => void} listener
   */
  on(type, listener) {
    const handler = (/** @type {Event} */ event) => listener(/** @type {TanboEvent<EventMessages[K]>} */ (event).message);
    this.addEventListener(type, handler);
    return () => this.removeEventListener(type, handler);
  }

  /** @param {string} type @param {unknown} message */
  #emit(type, message) { this.dispatchEvent(new TanboEvent(type, message)); }

  // --- The connection -------------------------------------------------------------------------

  /** Opens a socket; resolves once it is open, rejects `disconnected` if it closes first. */
  #open() {
    return new Promise((resolve, reject) => {
      const socket = new this.#WebSocket(this.url);
      this.#socket = socket;
      let opened = false;
      socket.onopen = () => { opened = true; resolve(undefined); };
      socket.onmessage = (event) => this.#receive(socket, event.data);
      socket.onerror = () => {};  // a close follows, and says it
      socket.onclose = (event) => {
        if (!opened) reject(new TanboError('disconnected', `cannot connect to ${this.url} (close ${event.code})`));
        this.#dropped(socket, event);
      };
    });
  }

  get #tokenKey() { return `token:${this.options.profile}`; }

  /**
   * hello with the access token, else with the kept token; a kept token the server refuses is
   * forgotten for a new guest's, a refused access token is the end (the program plays as its
   * account or not at all).
   */
  async #hello() {
    const name = this.options.name ? {name: this.options.name} : {};
    const welcome = this.options.accessToken ? await this.#helloWithAccessToken(name)
      : await this.#helloWithToken(name);
    this.#welcome = welcome;
    this.#emit('welcome', welcome);
    return welcome;
  }

  /** @param {{name?: string}} name @returns {Promise<WelcomeMessage>} */
  async #helloWithAccessToken(name) {
    try {
      return await this.#call({type: 'hello', protocol: PROTOCOL, access_token: this.options.accessToken, ...name});
    } catch (err) {
      if (!(err instanceof TanboError) || err.code !== 'bad_token') throw err;
      throw new TanboError('bad_token', `the access token was refused (${err.reply?.message}): revoked, or not ` +
                           "this server's; make a new one with the account's session", err.reply);
    }
  }

  /** @param {{name?: string}} name @returns {Promise<WelcomeMessage>} */
  async #helloWithToken(name) {
    const token = await this.#storage.get(this.#tokenKey);
    /** @type {WelcomeMessage} */
    let welcome;
    try {
      welcome = await this.#call(token ? {type: 'hello', protocol: PROTOCOL, token, ...name}
        : {type: 'hello', protocol: PROTOCOL, ...name});
    } catch (err) {
      if (!(err instanceof TanboError) || err.code !== 'bad_token' || !token) throw err;
      await this.#storage.remove(this.#tokenKey);
      this.#emit('token_refused', {token});
      welcome = await this.#call({type: 'hello', protocol: PROTOCOL, ...name});
    }
    await this.#storage.set(this.#tokenKey, welcome.token);
    return welcome;
  }

  #isClosed() { return this.#status === 'closed'; }

  #setOpen() {
    this.#status = 'open';
    for (const wake of this.#waiting.splice(0)) wake();
  }

  /**
   * Sends with a fresh id, and settles on the reply. `rate_limited` (the request was dropped)
   * is sent again after a wait, a bounded number of times; `unknown_outcome` is never sent again
   * (docs/protocol.md, "When an answer does not come"): the room is resumed, and the error,
   * carrying the `resumed`, rejects. `room_moved` rejects, and the room is joined again.
   * @param {ClientMessage} message
   * @returns {Promise<any>}
   */
  async #call(message) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#sendWithId(message);
      } catch (err) {
        if (err.code === 'rate_limited' && attempt < this.options.rateLimitRetries) {
          const delayMs = this.#rateLimitDelayMs(err.reply, attempt);
          this.#emit('rate_limited', {request: message, attempt, delayMs});
          await sleep(delayMs);
          if (this.#isClosed()) throw err;
          continue;
        }
        const view = typeof message.room === 'string' ? this.rooms.get(message.room) : undefined;
        if (err.code === 'room_moved' && view && message.type !== 'join') {
          // Nothing changed, and the room runs elsewhere now: join it again, whose state tells
          // where the game stands; the caller decides anew from it.
          this.#joinAgain(view).catch((joinError) => {
            if (joinError.code === 'disconnected') return;  // the reconnection joins it
            this.rooms.delete(view.room);
            this.#emit('room_lost', {room: view.room, error: joinError});
          });
        }
        if (err.code === 'unknown_outcome' && typeof message.room === 'string') {
          err.resumed = await this.#call({type: 'resume', room: message.room,
                                          version: this.rooms.get(message.room)?.version ?? 0}).catch(() => null);
        }
        throw err;
      }
    }
  }

  /**
   * How long a dropped request waits: the server's `retry_ms` when it says one, else the
   * back-off. Retries waiting together go one after another: the bucket gives back one message
   * at a time, so retries sent together would be dropped together. The longest `retry_ms` seen
   * is about one message's worth of refill (a refusal comes with less than one left), and is
   * their spacing.
   * @param {import('./client.js').ErrorMessage | null} refusal @param {number} attempt
   */
  #rateLimitDelayMs(refusal, attempt) {
    const retryMs = refusal?.retry_ms;
    if (typeof retryMs !== 'number' || retryMs < 0) return this.options.rateLimitDelayMs(attempt);
    const now = Date.now();
    this.#retrySpacingMs = Math.max(this.#retrySpacingMs, retryMs);
    this.#retryAt = Math.max(now + retryMs, this.#retryAt + this.#retrySpacingMs);
    return this.#retryAt - now;
  }

  /** @param {ClientMessage} message @returns {Promise<ServerMessage>} */
  #sendWithId(message) {
    return new Promise((resolve, reject) => {
      if (this.#failure) {
        reject(this.#failure);
        return;
      }
      if (!this.#socket || this.#socket.readyState !== 1) {
        const code = this.#status === 'closed' ? 'closed' : 'disconnected';
        reject(new TanboError(code, `not connected: ${message.type} not sent`));
        return;
      }
      const id = this.#nextId++;
      const room = typeof message.room === 'string' ? this.rooms.get(message.room) : undefined;
      /** @type {Pending} */
      const pending = {resolve, reject, silence: undefined};
      if (room && this.options.silenceMs > 0 && message.type !== 'resume') {
        // No answer and no state of the room for this long: resume, and let its state tell.
        const seen = room.state;
        pending.silence = setTimeout(() => {
          if (this.#pending.has(id) && room.state === seen) this.resume(room.room).catch(() => {});
        }, this.options.silenceMs);
      }
      this.#pending.set(id, pending);
      this.#socket.send(JSON.stringify({...message, id}));
    });
  }

  /** @param {string} code @param {string} text @param {TanboError | null} [error] rather than a new one */
  #failPending(code, text, error = null) {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      clearTimeout(p.silence);
      p.reject(error ?? new TanboError(code, text));
    }
  }

  /** @param {import('./client.js').SocketLike} socket @param {unknown} data */
  #receive(socket, data) {
    if (socket !== this.#socket) return;
    /** @type {ServerMessage} */
    const message = JSON.parse(String(data));
    this.#emit('message', message);
    this.#track(message);
    const pending = message.re == null ? undefined : this.#pending.get(Number(message.re));
    if (message.type === 'resumed') this.#emit('resumed', message);
    if (!pending) {
      if (message.type !== 'resumed') this.#emit(message.type, message);
      return;
    }
    this.#pending.delete(Number(message.re));
    clearTimeout(pending.silence);
    if (message.type === 'error') {
      const error = /** @type {import('./client.js').ErrorMessage} */ (message);
      pending.reject(new TanboError(error.code, error.message, error));
    } else {
      pending.resolve(message);
    }
  }

  /** What the client keeps of the rooms it is in. @param {ServerMessage} message */
  #track(message) {
    const room = /** @type {string} */ (message.room);
    if (message.type === 'created' || (message.type === 'paired' && !this.rooms.has(room))) {
      // Paired, the client is in the room as if it had joined: its joined comes next.
      this.rooms.set(room, {room, role: 'player', seat: /** @type {number} */ (message.seat), version: null, state: null});
    } else if (message.type === 'joined') {
      const joined = /** @type {import('./client.js').JoinedMessage} */ (message);
      const known = this.rooms.get(room);
      this.rooms.set(room, {room, role: joined.role, seat: joined.seat,
                            version: known?.version ?? null, state: known?.state ?? null});
    } else if (message.type === 'left') {
      this.rooms.delete(room);
    } else if (message.type === 'state') {
      const view = this.rooms.get(room);
      if (view) {
        view.state = /** @type {import('./client.js').StateMessage} */ (message);
        view.version = view.state.version;
      }
    }
  }

  /** @param {import('./client.js').SocketLike} socket @param {{code: number, reason: string}} event */
  #dropped(socket, event) {
    if (socket !== this.#socket) return;
    this.#socket = null;
    this.#failPending('disconnected', `the connection dropped (close ${event.code}) before the answer came`);
    if (this.#status === 'closed') return;
    this.#emit('disconnected', {code: event.code, reason: event.reason});
    if (this.#status !== 'open') return;  // connecting, or reconnecting: that loop goes on
    if (!this.options.reconnect) {
      this.close();
      return;
    }
    this.#reconnect();
  }

  /** Opens again with back-off, says hello with the token, joins and resumes every room. */
  async #reconnect() {
    this.#status = 'reconnecting';
    for (let attempt = 0; attempt < this.options.reconnectAttempts; attempt++) {
      const base = Math.min(this.options.reconnectMaxDelayMs, this.options.reconnectDelayMs * 2 ** attempt);
      const delayMs = Math.round(base * (0.5 + Math.random() / 2));  // spread, so a server's many clients do not come back at once
      this.#emit('reconnecting', {attempt, delayMs});
      await sleep(delayMs);
      if (this.#isClosed()) return;
      try {
        await this.#open();
        const welcome = await this.#hello();
        await this.#rejoin();
        this.#setOpen();
        this.#emit('reconnected', welcome);
        return;
      } catch (err) {
        // Refused for good: banned, or the access token revoked.
        if (err.code === 'banned' || (err.code === 'bad_token' && this.options.accessToken)) {
          this.#stop(err);
          return;
        }
        if (this.#socket) this.#socket.close();  // a half-made connection: the next attempt starts clean
        this.#socket = null;
      }
    }
    this.close();
  }

  /** Every room again: a player takes back the seat, then the steps missed are asked for. */
  async #rejoin() {
    for (const view of [...this.rooms.values()]) {
      const seen = view.version;
      try {
        await this.#joinAgain(view);
        if (seen != null) await this.#call({type: 'resume', room: view.room, version: seen});
      } catch (err) {
        if (err.code === 'disconnected') throw err;
        this.rooms.delete(view.room);
        this.#emit('room_lost', {room: view.room, error: err});
      }
    }
  }

  /**
   * `join`, again a few times while the answer says to wait: the room is moving to another node
   * of a cluster (`room_moved`), or its store is failing (`store_unavailable`); nothing changed.
   * @param {RoomView} view
   */
  async #joinAgain(view) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#call({type: 'join', room: view.room, as: view.role});
      } catch (err) {
        const transient = err.code === 'room_moved' || err.code === 'store_unavailable';
        if (!transient || attempt >= 5) throw err;
        await sleep(Math.min(this.options.reconnectMaxDelayMs, 500 * 2 ** attempt));
      }
    }
  }
}

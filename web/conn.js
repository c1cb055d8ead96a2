// The WebSocket connection: hello with the saved token, requests answered by `re`, pushes
// (state, lobby) handed to listeners, and reconnection with back-off after any drop.
const TOKEN_KEY = 'tanbo.token';
const NAME_KEY = 'tanbo.name';

export class Connection extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.ws = null;
    this.state = 'connecting';  // connecting | open | closed
    this.player = null;
    this.nextId = 1;
    this.pending = new Map();  // id -> {resolve, reject}
    this.retry = 0;
    this.everOpened = false;
    this.timer = null;
    this.lobbyOwners = new Set();  // who wants lobby pushes: the lobby view, a waiting seek
    this.lobbyWs = null;           // the connection watch_lobby was sent on
    this.banned = false;           // an operator banned this identity (error `banned`)
  }

  get token() { return localStorage.getItem(TOKEN_KEY); }
  get name() { return localStorage.getItem(NAME_KEY) || ''; }
  setName(name) {
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  }

  start() {
    clearTimeout(this.timer);
    this.setState('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.hello(ws);
    ws.onmessage = (e) => this.receive(ws, e.data);
    ws.onclose = () => this.dropped(ws);
    ws.onerror = () => {};  // onclose follows and reports it
  }

  // Closes and opens again, for a new name.
  restart() {
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      old.close();
      this.failPending('reconnecting');
    }
    this.start();
  }

  async hello(ws) {
    const msg = {type: 'hello'};
    if (this.token) msg.token = this.token;
    if (this.name) msg.name = this.name;
    try {
      const welcome = await this.request(msg, ws);
      this.welcomed(welcome);
    } catch (err) {
      if (err.code === 'bad_token') {
        // The server does not know this identity (a new data directory): start as a guest.
        localStorage.removeItem(TOKEN_KEY);
        ws.close();
        return;
      }
      if (err.code === 'banned') {
        // An operator banned this identity: said, and tried again only once a minute.
        this.banned = true;
        this.dispatchEvent(new CustomEvent('banned', {detail: {code: err.code, message: err.message}}));
        ws.close();
        return;
      }
      if (err.code === 'bad_name' && this.name) {
        // The server's name rule refused it: say why, and come back under the previous name.
        const refused = this.name;
        this.setName(this.previousName || '');
        this.dispatchEvent(new CustomEvent('name-refused', {detail: {name: refused, message: err.message}}));
        ws.close();
      }
    }
  }

  welcomed(welcome) {
    localStorage.setItem(TOKEN_KEY, welcome.token);
    this.player = welcome.player;
    this.mutes = welcome.mutes || [];
    this.previousName = welcome.player.name;
    this.retry = 0;
    this.banned = false;
    const reconnect = this.everOpened;
    this.everOpened = true;
    this.setState('open');
    this.syncLobby();
    this.dispatchEvent(new CustomEvent('ready', {detail: {reconnect, player: this.player}}));
  }

  // Lobby pushes (`lobby`: rooms and pools) for as long as someone wants them, on every new
  // connection too: one watch_lobby per connection, unwatch_lobby once nobody wants them.
  watchLobby(owner) { this.lobbyOwners.add(owner); this.syncLobby(); }
  unwatchLobby(owner) { this.lobbyOwners.delete(owner); this.syncLobby(); }
  syncLobby() {
    const ws = this.state === 'open' ? this.ws : null;
    if (!ws) return;
    const want = this.lobbyOwners.size > 0;
    if (want && this.lobbyWs !== ws) {
      this.lobbyWs = ws;
      this.fire({type: 'watch_lobby'}).catch(() => { if (this.lobbyWs === ws) this.lobbyWs = null; });
    } else if (!want && this.lobbyWs === ws) {
      this.lobbyWs = null;
      this.fire({type: 'unwatch_lobby'}).catch(() => {});
    }
  }

  receive(ws, text) {
    if (ws !== this.ws) return;
    let msg;
    try { msg = JSON.parse(text); } catch { return; }
    if (msg.type === 'error' && msg.code === 'banned') this.banned = true;  // pushed before the close
    if (msg.re !== undefined && this.pending.has(msg.re)) {
      const p = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      if (msg.type === 'error') {
        const err = new Error(msg.message);
        err.code = msg.code;
        err.problems = msg.problems;
        p.reject(err);
      } else {
        p.resolve(msg);
      }
      // `resumed` and `joined` replies are also worth seeing as messages.
      if (msg.type !== 'resumed') return;
    }
    this.dispatchEvent(new CustomEvent(msg.type, {detail: msg}));
    this.dispatchEvent(new CustomEvent('message', {detail: msg}));
  }

  dropped(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.failPending('connection lost');
    this.setState('closed');
    const delay = this.banned ? 60000 : Math.min(5000, 300 * 2 ** this.retry++);
    this.timer = setTimeout(() => this.start(), delay);
  }

  failPending(why) {
    for (const p of this.pending.values()) {
      const err = new Error(why);
      err.code = 'disconnected';
      p.reject(err);
    }
    this.pending.clear();
  }

  setState(state) {
    this.state = state;
    this.dispatchEvent(new CustomEvent('connstate', {detail: state}));
  }

  // Sends a message with a fresh id; resolves with the reply, rejects with the error.
  request(msg, ws = this.ws) {
    return new Promise((resolve, reject) => {
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        const err = new Error('not connected');
        err.code = 'disconnected';
        reject(err);
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, {resolve, reject});
      ws.send(JSON.stringify({...msg, id}));
    });
  }

  // Sends a message answered only by pushes (watch_lobby) or by a state (act, resign): an error
  // still comes back by id; silence for 15 s counts as accepted.
  fire(msg) {
    return new Promise((resolve, reject) => {
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        const err = new Error('not connected');
        err.code = 'disconnected';
        reject(err);
        return;
      }
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(null);
      }, 15000);
      this.pending.set(id, {
        resolve: (m) => { clearTimeout(timer); resolve(m); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      ws.send(JSON.stringify({...msg, id}));
    });
  }
}

// The WebSocket connection: hello with the saved token (or, to log in, with a username and
// password), requests answered by `re`, pushes (state, lobby) handed to listeners, and
// reconnection with back-off after any drop.
const TOKEN_KEY = 'tanbo.token';
const NAME_KEY = 'tanbo.name';
// The username of the account the saved token belongs to: only to show it before the welcome
// arrives; each welcome says whether there is an account, and that is what counts.
const ACCOUNT_KEY = 'tanbo.account';

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
    this.pendingLogin = null;      // {username, password, resolve, reject}: for the next hello
    this.refused = false;          // the saved token was refused: the next welcome is a new guest
    const saved = localStorage.getItem(ACCOUNT_KEY);
    this.account = saved ? {username: saved} : null;
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

  // Closes and opens again: for a new name, a login, a new guest.
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
    const login = this.pendingLogin;
    this.pendingLogin = null;
    /** @type {import('./types/protocol').ClientHello} */
    const msg = {type: 'hello', protocol: 2};
    if (login) {
      // No token of its own, so the guest is not renamed or tied to the account; no name, so the
      // account keeps its own. The saved token goes inside the login: if it is one of that
      // account's, the waits others' failed attempts impose on the account do not apply to it.
      msg.login = {username: login.username, password: login.password};
      if (this.token) msg.login.token = this.token;
    } else {
      if (this.token) msg.token = this.token;
      if (this.name) msg.name = this.name;
    }
    try {
      const welcome = await this.request(msg, ws);
      if (login) this.setName(welcome.player.name);
      this.welcomed(welcome);
      login?.resolve(welcome);
    } catch (err) {
      if (login) {
        login.reject(err);
        // Refused: this connection says hello again with the old token, and stays that guest.
        if (err.code !== 'disconnected' && ws === this.ws) this.hello(ws);
        return;
      }
      if (err.code === 'bad_token' || err.code === 'unauthorized') {
        this.tokenRefused();
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
      if ((err.code === 'bad_name' || err.code === 'name_reserved') && this.name) {
        // The server's name rule refused it, or it is an account's: say why, and come back
        // under the previous name.
        const refused = this.name;
        this.setName(this.previousName || '');
        this.dispatchEvent(new CustomEvent('name-refused', {detail: {name: refused, code: err.code, message: err.message}}));
        ws.close();
      }
    }
  }

  // The server does not know this token (a new data directory, or an account's session ended:
  // logged out everywhere, the password changed, the account deleted): the next hello starts a
  // guest. An account's name goes with it.
  tokenRefused() {
    const account = this.account;
    localStorage.removeItem(TOKEN_KEY);
    this.refused = true;
    if (!account) return;
    this.forgetAccount();
    this.setName('');
    this.dispatchEvent(new CustomEvent('session-ended', {detail: account}));
  }

  welcomed(welcome) {
    localStorage.setItem(TOKEN_KEY, welcome.token);
    // Another identity than the last welcome's, or than the refused token's (logged in, logged
    // out, a session ended elsewhere): what the page kept for the old one (seats, seeks,
    // challenges) is not this one's.
    const changed = (!!this.player && this.player.id !== welcome.player.id) || !!this.refused;
    this.refused = false;
    const account = welcome.account?.username ? {username: welcome.account.username} : null;
    if (account) localStorage.setItem(ACCOUNT_KEY, account.username);
    else localStorage.removeItem(ACCOUNT_KEY);
    this.account = account;
    this.player = welcome.player;
    this.mutes = welcome.mutes || [];
    this.previousName = welcome.player.name;
    this.retry = 0;
    this.banned = false;
    const reconnect = this.everOpened;
    this.everOpened = true;
    this.setState('open');
    this.syncLobby();
    this.dispatchEvent(new CustomEvent('ready', {detail: {reconnect, changed, player: this.player}}));
  }

  // Accounts (docs/web.md, "Accounts"). Logging in is a hello with the username and the
  // password on a fresh connection; resolves with the welcome, rejects with the refusal (the
  // page stays the guest it was).
  login(username, password) {
    return new Promise((resolve, reject) => {
      const prev = this.pendingLogin;
      if (prev) {
        const err = new Error('another login was asked for');
        err.code = 'disconnected';
        prev.reject(err);
      }
      this.pendingLogin = {username, password, resolve, reject};
      this.restart();
    });
  }

  // A login not yet sent (no connection opened since): dropped.
  cancelLogin() {
    const p = this.pendingLogin;
    if (!p) return;
    this.pendingLogin = null;
    const err = new Error('cancelled');
    err.code = 'disconnected';
    p.reject(err);
  }

  // The guest becomes an account: same identity, same token. Resolves with the server's `ok`,
  // whose recovery_code the page shows once.
  async claim(username, password) {
    const ok = await this.request({type: 'claim', username, password});
    this.account = {username};
    localStorage.setItem(ACCOUNT_KEY, username);
    this.dispatchEvent(new CustomEvent('account', {detail: this.account}));
    return ok;
  }

  // A token of an account got over HTTP (a recovery): the next hello says it, and the page
  // becomes that account's identity.
  adopt(token, username) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(ACCOUNT_KEY, username);
    this.account = {username};
    this.setName('');
    this.restart();
  }

  async changePassword(current, password) {
    await this.request({type: 'change_password', current, password});
  }

  // The server revokes the token (every token of the identity with `everywhere`) and closes
  // the connection; this browser starts again as a new guest.
  async logout(everywhere = false) {
    await this.request(everywhere ? {type: 'logout', everywhere: true} : {type: 'logout'});
    this.forgetIdentity();
  }

  // Forgets the token, the account and the name: the next hello makes a new guest.
  forgetIdentity() {
    localStorage.removeItem(TOKEN_KEY);
    this.forgetAccount();
    this.setName('');
    this.restart();
  }

  forgetAccount() {
    localStorage.removeItem(ACCOUNT_KEY);
    this.account = null;
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
    if (msg.type === 'error' && msg.code === 'bad_token' && msg.re == null) {
      // This token was revoked elsewhere (pushed before the close): the reconnection is a guest.
      this.tokenRefused();
      return;
    }
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
      // A `resumed` reply is also dispatched as a message: the room view reads its chat and
      // missed steps. A `joined` pushed without an id (a pairing) comes as a message anyway.
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
  /**
   * The message is checked against the protocol's schemas (types/protocol.d.ts); the reply is
   * whichever message answers it.
   * @param {import('./types/protocol').ClientMessage} msg
   * @param {WebSocket} [ws]
   * @returns {Promise<any>}
   */
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
  // still comes back by id; silence for 10 s resolves null (docs/protocol.md, "When an answer
  // does not come": the caller resumes).
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
      }, 10000);
      this.pending.set(id, {
        resolve: (m) => { clearTimeout(timer); resolve(m); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      ws.send(JSON.stringify({...msg, id}));
    });
  }
}

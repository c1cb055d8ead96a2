// The API of tanbo-client (src/index.js), as TypeScript sees it. The implementation's JSDoc
// names these types, and `tsc --checkJs` (the clients:js:types test) checks one against the other.

// ---------------------------------------------------------------------------------------------
// THE PROTOCOL'S MESSAGES: the one place where the message types plug in.
//
// protocol/schema/ generates src/messages.d.ts, a type for every message. Until the client uses
// it, the types below are plain object types with the members this client and its examples read
// (docs/protocol.md describes every member). To use the generated ones, replace the body of this
// block with re-exports that keep these names, e.g.
//   export type {ServerState as StateMessage, ServerWelcome as WelcomeMessage} from './messages';
// Nothing outside this block names a message's members.
// ---------------------------------------------------------------------------------------------

/** a request id: an integer or a string of at most 64 characters */
export type Id = string | number;

export interface Player {
  id: string;
  name: string;
  account?: true;
  /** a bot account's (docs/bots-write.md) */
  bot?: true;
  default_name?: true;
}

export interface SeatView {
  seat: number;
  player: Player | null;
  connected: boolean;
  cpu: boolean;
  level?: string;
}

/** Any message the server sends; `re` repeats the request's id (null or absent: a push). */
export interface ServerMessage {
  type: string;
  re?: Id | null;
  [member: string]: unknown;
}

/** Any message a client sends; the client adds `id`. */
export interface ClientMessage {
  type: string;
  [member: string]: unknown;
}

export interface Problem {
  field: string;
  message: string;
}

export interface ErrorMessage extends ServerMessage {
  type: 'error';
  code: string;
  message: string;
  problems?: Problem[];
  /** with a dropped message's `rate_limited`: milliseconds until the connection may send again */
  retry_ms?: number;
}

export interface WelcomeMessage extends ServerMessage {
  type: 'welcome';
  player: Player;
  token: string;
  protocol: number;
  server: string;
  seats: {room: string; seat: number}[];
  mutes: string[];
  account?: {username: string};
}

export interface GameResult {
  places: number[];
  reason: string;
  takeover?: number[];
  ratings?: {before: number; after: number}[];
}

export interface StateMessage extends ServerMessage {
  type: 'state';
  room: string;
  version: number;
  game: string;
  status: 'waiting' | 'playing' | 'finished';
  seats: SeatView[];
  spectators: number;
  /** the game's own state, as its rules page describes it; null while waiting */
  state: unknown;
  pending: {seat: number; decision: string} | null;
  /** only in the copy sent to the seat that must decide: send one back verbatim in `act` */
  legal?: unknown[];
  events: {type: string; [member: string]: unknown}[];
  result?: GameResult;
  commit: string;
  seed?: string;
  rematch?: number[];
}

export interface CreatedMessage extends ServerMessage { type: 'created'; room: string; seat: number }
export interface JoinedMessage extends ServerMessage {
  type: 'joined';
  room: string;
  role: 'player' | 'spectator';
  seat: number | null;
}
export interface LeftMessage extends ServerMessage { type: 'left'; room: string }
export interface OkMessage extends ServerMessage { type: 'ok'; room?: string; version?: number }
export interface PongMessage extends ServerMessage { type: 'pong' }
export interface ResumedMessage extends ServerMessage {
  type: 'resumed';
  room: string;
  version: number;
  gap: boolean;
  steps: {version: number; events: {type: string; [member: string]: unknown}[]}[];
}
export interface SeekingMessage extends ServerMessage { type: 'seeking'; seek: string; pool: Record<string, unknown> }
export interface PairedMessage extends ServerMessage {
  type: 'paired';
  seek?: string;
  challenge?: string;
  room: string;
  seat: number;
}
export interface ChallengingMessage extends ServerMessage { type: 'challenging'; challenge: string }
export interface ChallengedMessage extends ServerMessage {
  type: 'challenged';
  challenge: string;
  from: Player;
  terms: Record<string, unknown>;
}
export interface ChallengeEndedMessage extends ServerMessage { type: 'challenge_ended'; challenge: string; reason: string }
export interface SaidMessage extends ServerMessage {
  type: 'said';
  room: string;
  channel: 'players' | 'spectators';
  n: number;
  from: Player;
  text?: string;
  phrase?: string;
  at: number;
}
export interface UnsaidMessage extends ServerMessage { type: 'unsaid'; room: string; channel: string; n: number }
export interface LobbyMessage extends ServerMessage { type: 'lobby'; changed: Record<string, unknown>[]; removed: string[] }
export interface GamesMessage extends ServerMessage { type: 'games'; games: Record<string, unknown>[] }
export interface RoomsMessage extends ServerMessage { type: 'rooms'; rooms: Record<string, unknown>[]; pools: Record<string, unknown>[] }
export interface MyGamesMessage extends ServerMessage { type: 'my_games'; games: Record<string, unknown>[] }

/** The terms of `create`, `seek` and `challenge` besides the game (docs/protocol.md). */
export interface Terms {
  options?: Record<string, unknown>;
  [member: string]: unknown;
}

/** The terms of `seek`: `bots: true` waits in a pool for bots, the only pools a bot seeks in. */
export interface SeekTerms extends Terms {
  bots?: boolean;
}

/** The pushes, by type: what the client dispatches as events of that name. */
export interface PushMessages {
  state: StateMessage;
  paired: PairedMessage;
  joined: JoinedMessage;
  challenged: ChallengedMessage;
  challenge_ended: ChallengeEndedMessage;
  said: SaidMessage;
  unsaid: UnsaidMessage;
  lobby: LobbyMessage;
  /** an error with no request: a revoked token, a ban, a frame the server could not read */
  error: ErrorMessage;
  /** the answer to every resume, the client's own after a reconnection included */
  resumed: ResumedMessage;
}

// ---------------------------------------------------------------------------------------------
// End of the protocol's messages.
// ---------------------------------------------------------------------------------------------

/** What the client dispatches besides the pushes, with what each event's `message` holds. */
export interface ClientEvents {
  /** every frame the server sends, replies included */
  message: ServerMessage;
  /** each welcome: the first, and each after a reconnection */
  welcome: WelcomeMessage;
  /** the connection dropped; the client reconnects unless closed (`reconnecting` says when) */
  disconnected: {code: number; reason: string};
  /** the next attempt to reconnect starts in `delayMs` */
  reconnecting: {attempt: number; delayMs: number};
  /** welcomed again, and every room joined again and resumed */
  reconnected: WelcomeMessage;
  /** a room the client was in could not be joined again after a reconnection */
  room_lost: {room: string; error: TanboError};
  /** a request was refused `rate_limited`; it is sent again after `delayMs` */
  rate_limited: {request: ClientMessage; attempt: number; delayMs: number};
  /** the saved token was refused (`bad_token`): the client is a new guest now */
  token_refused: {token: string};
  /**
   * the client stopped for good: closed by its owner (`reason` 'closed'), or refused (`banned`,
   * or `bad_token` for its access token), `error` saying why
   */
  closed: {reason: string; error?: TanboError};
}

export type EventMessages = PushMessages & ClientEvents;

export declare class TanboEvent<M = unknown> extends Event {
  constructor(type: string, message: M);
  readonly message: M;
}

/** A refused request: the server's code (docs/protocol.md, "Errors") or one of CLIENT_CODES. */
export declare class TanboError extends Error {
  constructor(code: string, message: string, reply?: ErrorMessage | null);
  readonly code: string;
  readonly reply: ErrorMessage | null;
  readonly problems: Problem[];
  /** after `unknown_outcome`: the room's `resumed`, when it answered */
  resumed: ResumedMessage | null;
}

export declare const CLIENT_CODES: Readonly<{disconnected: 'disconnected'; closed: 'closed'; timeout: 'timeout'}>;

/** Where the identity token is kept between runs. */
export interface TokenStorage {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export declare function memoryStorage(): TokenStorage;
export declare function browserStorage(prefix?: string): TokenStorage;
export declare function fileStorage(path: string): TokenStorage;
export declare function defaultStorage(): Promise<TokenStorage>;

/** The part of a WebSocket the client uses: the browser's, Node's global one, or `ws`'s. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // The events differ in type between the browser's class and ws's: read as `any`, the client
  // uses only `data` (message) and `code`, `reason` (close).
  onopen: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
}
export type WebSocketClass = new (url: string) => SocketLike;

export interface ClientOptions {
  /** the display name for a new guest, or a new name for the kept identity */
  name?: string;
  /**
   * a personal access token (docs/bots-write.md): said in `hello` as `access_token`, never kept
   * in the storage; refused (`bad_token`: revoked), the client stops rather than play as a guest
   */
  accessToken?: string;
  /** where the token is kept; default: localStorage in a browser, ~/.tanbo-client.json on Node */
  storage?: TokenStorage;
  /** the key of the token in the storage, so that one storage keeps several identities */
  profile?: string;
  /** the WebSocket class to use; default: the global one, else `ws` */
  WebSocket?: WebSocketClass;
  /** reconnect after a dropped connection (default true) */
  reconnect?: boolean;
  /** the first wait before reconnecting, doubled each failed attempt (default 250 ms) */
  reconnectDelayMs?: number;
  /** the longest wait between two attempts (default 10 s) */
  reconnectMaxDelayMs?: number;
  /** attempts before giving up and closing (default: no limit) */
  reconnectAttempts?: number;
  /** how many times a request refused `rate_limited` is sent again (default 5) */
  rateLimitRetries?: number;
  /** the wait before resending a `rate_limited` request whose refusal says no `retry_ms`, by attempt (default 1 s, doubling) */
  rateLimitDelayMs?: (attempt: number) => number;
  /** a room request unanswered, with no state of its room, this long is followed by a resume (default 10 s; 0: never) */
  silenceMs?: number;
}

/** What the client knows of a room it is in. */
export interface RoomView {
  room: string;
  role: 'player' | 'spectator';
  seat: number | null;
  /** the last version seen (null before the first state) */
  version: number | null;
  /** the last state seen */
  state: StateMessage | null;
}

export interface TanboClientApi {
  readonly url: string;
  /** the last welcome; null before the first */
  readonly welcome: WelcomeMessage | null;
  readonly player: Player | null;
  /** idle, connecting, open, reconnecting or closed */
  readonly status: 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';
  /** the WebSocket now open, if any */
  readonly socket: SocketLike | null;
  /** the rooms this connection is in, by id */
  readonly rooms: Map<string, RoomView>;
  /** why the client stopped by itself (`banned`, its access token refused); null otherwise */
  readonly failure: TanboError | null;

  connect(): Promise<WelcomeMessage>;
  close(): void;

  /** Sends a request with a fresh `id`; resolves with its reply, rejects with a TanboError. */
  request<R extends ServerMessage = ServerMessage>(message: ClientMessage): Promise<R>;
  /** Sends a message without an `id`: no reply but a refusal, which comes as an `error` event. */
  send(message: ClientMessage): void;

  games(): Promise<GamesMessage>;
  listRooms(game?: string): Promise<RoomsMessage>;
  myGames(): Promise<MyGamesMessage>;
  ping(): Promise<PongMessage>;
  watchLobby(): Promise<OkMessage>;
  unwatchLobby(): Promise<OkMessage>;

  create(game: string, terms?: Terms): Promise<CreatedMessage>;
  join(room: string, options?: {as?: 'player' | 'spectator'; seat?: number}): Promise<JoinedMessage>;
  leave(room: string): Promise<LeftMessage>;
  seek(game: string, terms?: SeekTerms): Promise<SeekingMessage>;
  unseek(seek: string): Promise<OkMessage>;
  challenge(player: string, game: string, terms?: Terms): Promise<ChallengingMessage>;
  accept(challenge: string): Promise<OkMessage>;
  decline(challenge: string): Promise<OkMessage>;
  cancel(challenge: string): Promise<OkMessage>;
  takeChallenges(open: boolean): Promise<OkMessage>;
  /** Makes the connection's account a bot, for good (docs/bots-write.md). */
  becomeBot(): Promise<OkMessage>;

  /** Plays one of the `legal` actions; `version` defaults to the room's last state's. */
  act(room: string, action: unknown, version?: number): Promise<OkMessage>;
  resign(room: string): Promise<OkMessage>;
  rematch(room: string): Promise<OkMessage>;
  fillCpu(room: string, level: 'random' | 'greedy' | 'mcts'): Promise<OkMessage>;
  /** A chat line: a text, or `{phrase}` for a canned one. */
  say(room: string, channel: 'players' | 'spectators', line: string | {phrase: string}): Promise<OkMessage>;
  /** The steps after `version` (default: the last seen), then the room's state as a push. */
  resume(room: string, version?: number): Promise<ResumedMessage>;

  /** The next event of that type whose message passes `filter`; rejects `timeout` after `timeoutMs`. */
  next<K extends keyof EventMessages>(type: K, filter?: (message: EventMessages[K]) => boolean,
                                      options?: {timeoutMs?: number}): Promise<EventMessages[K]>;
  /** Listens to one event type; returns the function that stops listening. */
  on<K extends keyof EventMessages>(type: K, listener: (message: EventMessages[K]) => void): () => void;
}

/** The client: every member of TanboClientApi, and the events of EventMessages. */
export declare class TanboClient extends EventTarget {
  constructor(url: string, options?: ClientOptions);
  /** A client, connected and welcomed. */
  static connect(url: string, options?: ClientOptions): Promise<TanboClient>;
}
// The class's members are the interface's (declaration merging): one list of them.
export interface TanboClient extends TanboClientApi {}

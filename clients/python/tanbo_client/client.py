"""An asyncio client of the Tanbo Server protocol (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import logging
import os
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Optional, Union

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
# The asyncio client every websockets release from 10 on has (Debian 12 ships 10.4).
from websockets.legacy.client import WebSocketClientProtocol, connect as open_websocket

from .errors import (AccessTokenRefused, ConnectionLost, RateLimited, RequestTimeout, ServerError,
                     TanboError, UnknownOutcome)
from .identity import TokenFile

# The protocol version this client speaks (docs/protocol-changelog.md).
PROTOCOL = 2

Message = dict[str, Any]
Handler = Callable[[Message], Optional[Awaitable[None]]]

log = logging.getLogger("tanbo_client")

_END: Message = {"type": "_end"}
# What may fail while a connection opens: each is worth another try.
_OPEN_FAILURES = (OSError, asyncio.TimeoutError, InvalidHandshake, ConnectionClosed,
                  ConnectionLost, RequestTimeout, ServerError)


@dataclass
class Policy:
    """How long the client waits, and how often it tries again."""

    rate_limit_attempts: int = 5  # retries of a request answered rate_limited
    # Seconds before the first retry, doubled each time, when the refusal says no retry_ms.
    rate_limit_wait: float = 0.25
    reconnect_attempts: int = 8  # connections tried after a drop before giving up
    reconnect_wait: float = 0.5  # seconds before the first, doubled each time...
    reconnect_wait_max: float = 8.0  # ...up to this
    silence: float = 10.0  # no answer nor state of the room this long: resume (the protocol's)


@dataclass
class RoomSeen:
    """A room this connection is in: its role, and the last `state` it received."""

    role: str
    version: int = -1
    state: Optional[Message] = None
    heard_at: float = 0.0  # the event loop's time of that state


class Client:
    """One connection to a Tanbo server, which comes back by itself when it drops.

    Requests are coroutines returning the server's answer (`created`, `joined`, `ok`, ...) or
    raising ServerError with the error's `code`. Pushes (`state`, `paired`, `challenged`,
    `said`, ...) are events: read them with `async for event in client.events()`, or register
    callbacks with `on(type, callback)`.
    """

    def __init__(self, url: str, *, name: Optional[str] = None,
                 token_file: Union[str, os.PathLike[str], None] = None,
                 token: Optional[str] = None, access_token: Optional[str] = None,
                 reconnect: bool = True, policy: Optional[Policy] = None) -> None:
        if access_token is not None and (token is not None or token_file is not None):
            raise ValueError("an access token names the account: give no token nor token_file")
        self.url = url
        self.name = name
        self.token = token
        self.access_token = access_token
        self.token_file = TokenFile.at(token_file) if token_file is not None else None
        self.reconnect = reconnect
        self.policy = policy or Policy()
        self.welcome: Message = {}
        self.rooms: dict[str, RoomSeen] = {}
        self.rate_limited_retries = 0  # how often a request was sent again after rate_limited
        self._retry_at = 0.0  # the event loop's time the last retry of a dropped request goes at
        self._retry_spacing = 0.0  # seconds between two such retries
        self.reconnections = 0
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._events: asyncio.Queue[Message] = asyncio.Queue()
        self._handlers: dict[str, list[Handler]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ws: Optional[WebSocketClientProtocol] = None
        self._live: Optional[WebSocketClientProtocol] = None
        self._connected = asyncio.Event()
        self._closing = False
        self._failed: Optional[TanboError] = None

    # -- the connection ------------------------------------------------------------------------

    async def connect(self) -> Message:
        """Opens the connection and says hello: the `welcome`."""
        self._closing = False
        self._failed = None
        return await self._open()

    async def close(self) -> None:
        """Closes the connection for good; the event stream ends."""
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        if self._ws is not None:
            await self._ws.close()
        self._events.put_nowait(_END)

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    @property
    def player(self) -> Message:
        """This identity: `{id, name}` as `welcome` gave it."""
        return dict(self.welcome.get("player") or {})

    @property
    def failure(self) -> Optional[TanboError]:
        """Why the client stopped for good (None while it runs, or once closed by its owner)."""
        return self._failed

    @property
    def websocket(self) -> Optional[WebSocketClientProtocol]:
        """The current WebSocket (None before connect)."""
        return self._ws

    async def _open(self) -> Message:
        ws = await open_websocket(self.url, open_timeout=10, max_size=1 << 22)
        self._ws = ws
        self._spawn(self._read(ws))
        try:
            welcome = await self._hello(ws)
        except BaseException:
            await ws.close()
            raise
        self.welcome = welcome
        if self.access_token is None:  # an access token's welcome repeats it: nothing to keep
            given: str = welcome["token"]
            self.token = given
            if self.token_file is not None:
                self.token_file.save(given)
        self._live = ws
        self._connected.set()
        return welcome

    async def _hello(self, ws: WebSocketClientProtocol) -> Message:
        if self.access_token is not None:
            return await self._hello_with_access_token(ws)
        token = self.token_file.load() if self.token_file else self.token
        try:
            return await self._exchange({"type": "hello", "protocol": PROTOCOL, "token": token,
                                         "name": self.name}, ws)
        except ServerError as error:
            if error.code != "bad_token":
                raise
        # A token this server does not know (another server's, or revoked): a new guest.
        log.warning("the saved token is unknown here: starting as a new guest")
        return await self._exchange({"type": "hello", "protocol": PROTOCOL, "name": self.name}, ws)

    async def _hello_with_access_token(self, ws: WebSocketClientProtocol) -> Message:
        try:
            return await self._exchange({"type": "hello", "protocol": PROTOCOL,
                                         "access_token": self.access_token, "name": self.name}, ws)
        except ServerError as error:
            if error.code == "bad_token":
                raise AccessTokenRefused(error.reply) from None
            raise

    async def _read(self, ws: WebSocketClientProtocol) -> None:
        try:
            async for text in ws:
                self._dispatch(json.loads(text))
        except ConnectionClosed:
            pass
        finally:
            self._dropped(ws)

    def _dropped(self, ws: WebSocketClientProtocol) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionLost("the connection dropped before the answer"))
        self._pending.clear()
        if ws is not self._live:
            return
        self._live = None
        self._connected.clear()
        if self._closing:
            return
        if self.reconnect:
            self._spawn(self._come_back())
        else:
            self._give_up(ConnectionLost("the connection dropped"))

    async def _come_back(self) -> None:
        """Reconnects with exponential backoff, says hello with the token, rejoins the rooms."""
        wait = self.policy.reconnect_wait
        for attempt in range(1, self.policy.reconnect_attempts + 1):
            await asyncio.sleep(wait * random.uniform(0.5, 1.0))
            wait = min(wait * 2, self.policy.reconnect_wait_max)
            try:
                await self._open()
            except AccessTokenRefused as refused:  # revoked: no attempt will do better
                self._give_up(refused)
                return
            except _OPEN_FAILURES as failure:
                log.info("reconnection %d failed: %s", attempt, failure)
                continue
            self.reconnections += 1
            self._emit({"type": "reconnected", "welcome": self.welcome})
            await self._rejoin()
            return
        self._give_up(ConnectionLost(
            f"no connection again after {self.policy.reconnect_attempts} attempts"))

    async def _rejoin(self) -> None:
        """Joins every room again in its role, then resumes from the last version seen."""
        for room, seen in list(self.rooms.items()):
            since = seen.version
            try:
                await self.join(room, as_=seen.role)
                if since >= 0:
                    self._emit(await self._request(
                        {"type": "resume", "room": room, "version": since}, resume_on_doubt=False))
            except ServerError as error:
                log.warning("room %s not rejoined: %s", room, error)
                self.rooms.pop(room, None)
            except ConnectionLost:
                return  # dropped again: the next reconnection rejoins

    def _give_up(self, why: TanboError) -> None:
        self._failed = why
        self._connected.set()  # wakes the requests waiting for a connection, to fail
        self._events.put_nowait(_END)

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- messages in -----------------------------------------------------------------------------

    def _dispatch(self, message: Message) -> None:
        self._track(message)
        re = message.get("re")
        future = self._pending.pop(re, None) if isinstance(re, int) else None
        if future is None:
            self._emit(message)
        elif not future.done():
            future.set_result(message)

    def _track(self, message: Message) -> None:
        kind, room = message.get("type"), message.get("room")
        if not isinstance(room, str):
            return
        if kind in ("created", "paired"):
            self.rooms[room] = RoomSeen("player")
        elif kind == "joined":
            self.rooms.setdefault(room, RoomSeen(message["role"])).role = message["role"]
        elif kind == "left":
            self.rooms.pop(room, None)
        elif kind == "state" and room in self.rooms:
            seen = self.rooms[room]
            seen.version, seen.state = message["version"], message
            seen.heard_at = asyncio.get_running_loop().time()

    def _emit(self, message: Message) -> None:
        self._events.put_nowait(message)
        for handler in self._handlers.get(message["type"], []) + self._handlers.get("*", []):
            try:
                result = handler(message)
            except Exception:  # a handler's bug must not end the connection
                log.exception("the handler of %s failed", message["type"])
                continue
            if inspect.isawaitable(result):
                self._spawn(result)

    def on(self, kind: str, handler: Handler) -> None:
        """Calls `handler(message)` for every event of that type ("*": every event).

        A coroutine function's calls run as tasks, each on its own.
        """
        self._handlers.setdefault(kind, []).append(handler)

    async def events(self) -> AsyncIterator[Message]:
        """Every push, in the order received, until the client is closed or gives up.

        Besides the server's pushes, one event is the client's own: `{"type": "reconnected",
        "welcome": ...}` once the connection came back; the rooms' `resumed` (each the answer
        to the client's own `resume`) and `state` events follow it as they are joined again.
        """
        while True:
            message = await self._events.get()
            if message is _END:
                self._events.put_nowait(_END)
                return
            yield message

    async def next_event(self, kind: str, room: Optional[str] = None,
                         timeout: float = 30.0) -> Message:
        """The next event of that type (and room), dropping the events before it."""
        async def find() -> Message:
            async for event in self.events():
                if event["type"] == kind and room in (None, event.get("room")):
                    return event
            raise self._failed or ConnectionLost("the client was closed")
        return await asyncio.wait_for(find(), timeout)

    # -- messages out ----------------------------------------------------------------------------

    async def request(self, kind: str, **members: Any) -> Message:
        """Sends a request of that type with an `id`; its answer (`error` raises ServerError).

        Members given as None are left out (the protocol reads null as absent).
        """
        return await self._request({"type": kind, **members})

    async def send(self, kind: str, **members: Any) -> None:
        """Sends a message without an `id`: only a refusal answers it, as an `error` event."""
        ws = await self._ready()
        await self._write(ws, {"type": kind, **members})

    async def _request(self, message: Message, resume_on_doubt: bool = True) -> Message:
        wait = self.policy.rate_limit_wait
        for attempt in itertools.count():
            try:
                return await self._exchange(message, await self._ready())
            except ServerError as error:
                if error.code == "rate_limited":
                    if attempt >= self.policy.rate_limit_attempts:
                        raise RateLimited(error.reply) from None
                    # The request was dropped, so sending it again is safe.
                    self.rate_limited_retries += 1
                    await asyncio.sleep(self._rate_limit_delay(error.reply, wait))
                    wait *= 2
                elif error.code == "unknown_outcome" and resume_on_doubt:
                    raise await self._in_doubt(error, message.get("room")) from None
                else:
                    raise
        raise AssertionError("unreachable")

    def _rate_limit_delay(self, refusal: Message, backoff: float) -> float:
        """Seconds until a dropped request goes again: the server's `retry_ms` when it says one,
        else the back-off.

        Retries waiting together go one after another: the bucket gives back one message at a
        time, so retries sent together would be dropped together. The longest `retry_ms` seen
        is about one message's worth of refill (a refusal comes with less than one left), and
        is their spacing.
        """
        retry_ms = refusal.get("retry_ms")
        if not isinstance(retry_ms, (int, float)) or retry_ms < 0:
            return backoff
        now = asyncio.get_running_loop().time()
        self._retry_spacing = max(self._retry_spacing, retry_ms / 1000)
        self._retry_at = max(now + retry_ms / 1000, self._retry_at + self._retry_spacing)
        return self._retry_at - now

    async def _in_doubt(self, error: ServerError, room: Optional[str]) -> UnknownOutcome:
        """The protocol's answer to unknown_outcome: resume the room, never repeat blindly."""
        doubt = UnknownOutcome(error.reply)
        if room is not None:  # a resume needs no seat: a join in doubt is resumed too
            seen = self.rooms.get(room)
            since = max(seen.version, 0) if seen is not None else 0
            try:
                doubt.resumed = await self._request(
                    {"type": "resume", "room": room, "version": since}, resume_on_doubt=False)
            except TanboError as failure:
                log.warning("resume of %s after unknown_outcome failed: %s", room, failure)
        return doubt

    async def _ready(self) -> WebSocketClientProtocol:
        while True:
            if self._failed is not None:
                raise self._failed
            if self._closing:
                raise ConnectionLost("the client was closed")
            if self._connected.is_set() and self._live is not None:
                return self._live
            await self._connected.wait()

    async def _exchange(self, message: Message, ws: WebSocketClientProtocol) -> Message:
        """One request and its reply; after `silence` without either, a resume of its room."""
        loop = asyncio.get_running_loop()
        request_id = next(self._ids)
        future: asyncio.Future[Message] = loop.create_future()
        self._pending[request_id] = future
        sent_at = loop.time()
        seen = self.rooms.get(message.get("room", ""))
        try:
            await self._write(ws, {**message, "id": request_id})
            try:
                reply = await asyncio.wait_for(asyncio.shield(future), self.policy.silence)
            except asyncio.TimeoutError:
                if seen is not None and seen.heard_at < sent_at and message["type"] != "resume":
                    self._spawn(self._resume_quietly(message["room"]))
                try:
                    reply = await asyncio.wait_for(future, self.policy.silence)
                except asyncio.TimeoutError:
                    raise RequestTimeout(f"no answer to {message['type']} "
                                         f"in {2 * self.policy.silence:.0f} s") from None
        finally:
            self._pending.pop(request_id, None)
            if future.done() and not future.cancelled():
                future.exception()  # retrieved: a drop after a failed write is no news
        if reply["type"] == "error":
            raise ServerError(reply)
        return reply

    async def _resume_quietly(self, room: str) -> None:
        seen = self.rooms.get(room)
        if seen is None:
            return
        try:
            self._emit(await self._request(
                {"type": "resume", "room": room, "version": max(seen.version, 0)},
                resume_on_doubt=False))
        except TanboError as failure:
            log.warning("resume of %s failed: %s", room, failure)

    async def _write(self, ws: WebSocketClientProtocol, message: Message) -> None:
        text = json.dumps({k: v for k, v in message.items() if v is not None})
        try:
            await ws.send(text)
        except ConnectionClosed:
            raise ConnectionLost("the connection dropped before the request left") from None

    # -- the protocol's requests -----------------------------------------------------------------

    async def ping(self) -> Message:
        return await self.request("ping")

    async def games(self) -> Message:
        return await self.request("games")

    async def create(self, game: str, *, options: Optional[Message] = None,
                     players: Optional[int] = None, ranked: Optional[bool] = None,
                     timer: Any = None, cpu: Optional[list[Message]] = None, setup: Any = None,
                     spectator_chat: Optional[bool] = None) -> Message:
        """A new room, seat 0 this identity's: `created` (its `state` follows as an event)."""
        return await self.request("create", game=game, options=options, players=players,
                                  ranked=ranked, timer=timer, cpu=cpu, setup=setup,
                                  spectator_chat=spectator_chat)

    async def join(self, room: str, as_: str = "player", seat: Optional[int] = None) -> Message:
        """Takes a seat (`as_="player"`) or watches (`"spectator"`): `joined`."""
        return await self.request("join", room=room, seat=seat, **{"as": as_})

    async def leave(self, room: str) -> Message:
        return await self.request("leave", room=room)

    async def act(self, room: str, version: int, action: Message) -> Message:
        """Plays `action`, one of the `legal` list of the `state` at `version`: `ok`."""
        return await self.request("act", room=room, version=version, action=action)

    async def resign(self, room: str) -> Message:
        return await self.request("resign", room=room)

    async def rematch(self, room: str) -> Message:
        return await self.request("rematch", room=room)

    async def resume(self, room: str, version: int) -> Message:
        """`resumed`: the steps after `version`; the room's current `state` follows."""
        return await self._request({"type": "resume", "room": room, "version": version},
                                   resume_on_doubt=False)

    async def fill_cpu(self, room: str, level: str) -> Message:
        return await self.request("fill_cpu", room=room, level=level)

    async def say(self, room: str, channel: str, *, text: Optional[str] = None,
                  phrase: Optional[str] = None) -> Message:
        """A chat line, `text` or one of the canned `phrase`s: `ok` (after its `said`)."""
        return await self.request("say", room=room, channel=channel, text=text, phrase=phrase)

    async def seek(self, game: str, *, players: Optional[int] = None,
                   options: Optional[Message] = None, timer: Any = None,
                   ranked: Optional[bool] = None, bots: Optional[bool] = None,
                   cpu_after: Optional[int] = None, level: Optional[str] = None) -> Message:
        """Waits in the pool of those terms: `seeking`; a `paired` event comes later.

        `bots=True`: a pool for bots, the only pools a bot account seeks in.
        """
        return await self.request("seek", game=game, players=players, options=options,
                                  timer=timer, ranked=ranked, bots=bots, cpu_after=cpu_after,
                                  level=level)

    async def unseek(self, seek: str) -> Message:
        return await self.request("unseek", seek=seek)

    async def challenge(self, player: str, game: str, *, players: Optional[int] = None,
                        options: Optional[Message] = None, timer: Any = None,
                        ranked: Optional[bool] = None) -> Message:
        """Invites the identity `player` (its public id): `challenging`."""
        return await self.request("challenge", player=player, game=game, players=players,
                                  options=options, timer=timer, ranked=ranked)

    async def accept(self, challenge: str) -> Message:
        return await self.request("accept", challenge=challenge)

    async def decline(self, challenge: str) -> Message:
        return await self.request("decline", challenge=challenge)

    async def cancel(self, challenge: str) -> Message:
        return await self.request("cancel", challenge=challenge)

    async def challenges(self, open: bool) -> Message:
        """Whether this connection takes challenges (it does by default)."""
        return await self.request("challenges", open=open)

    async def become_bot(self) -> Message:
        """Makes this connection's account a bot, for good: `ok` (docs/bots-write.md)."""
        return await self.request("become_bot")


async def connect(url: str, **options: Any) -> Client:
    """A connected Client (see Client for the options)."""
    client = Client(url, **options)
    try:
        await client.connect()
    except (*_OPEN_FAILURES, InvalidURI):
        await client.close()
        raise
    return client

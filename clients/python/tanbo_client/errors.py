"""The exceptions a client raises."""

from __future__ import annotations

from typing import Any, Optional


class TanboError(Exception):
    """Every error of this package."""


class ServerError(TanboError):
    """The server refused a request with an `error` reply: nothing changed.

    `code` is the protocol's stable error code (docs/protocol.md, "Errors"), `message` the text
    for people, `problems` the refused fields of a `bad_option`, `reply` the whole message.
    """

    def __init__(self, reply: dict[str, Any]) -> None:
        self.reply = reply
        self.code: str = reply.get("code", "")
        self.message: str = reply.get("message", "")
        self.problems: list[dict[str, Any]] = reply.get("problems") or []
        super().__init__(f"{self.code}: {self.message}")


class RateLimited(ServerError):
    """`rate_limited` still, after the client waited and sent the request again."""


class AccessTokenRefused(ServerError):
    """`bad_token` for the access token the client was given: revoked, or not this server's.

    A program holding an access token plays as its account or not at all, so the client never
    falls back to a new guest: it stops, and its requests and `next_event` raise this error.
    """

    def __str__(self) -> str:
        return (f"the access token was refused ({self.code}: {self.message}): revoked, or not "
                "this server's; make a new one with the account's session")


class UnknownOutcome(ServerError):
    """`unknown_outcome`: the request may or may not have taken effect.

    The client has sent `resume` for the room already; `resumed` is its answer (None when the
    resume failed too), and the room's current `state` follows it as an event.
    """

    resumed: Optional[dict[str, Any]] = None


class ConnectionLost(TanboError):
    """The connection dropped before the request was answered: it may have taken effect.

    With reconnection on, the client is coming back and rejoins its rooms; the `state` events
    that follow tell where things stand.
    """


class RequestTimeout(TanboError):
    """No answer came in time, even after a `resume` of the request's room."""

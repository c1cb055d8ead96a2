"""A Python client of Tanbo Server: asyncio, over one WebSocket (docs/clients/python.md)."""

from .client import Client, Message, Policy, RoomSeen, connect
from .errors import (AccessTokenRefused, ConnectionLost, RateLimited, RequestTimeout, ServerError,
                     TanboError, UnknownOutcome)
from .identity import TokenFile

__all__ = [
    "AccessTokenRefused", "Client", "ConnectionLost", "Message", "Policy", "RateLimited",
    "RequestTimeout", "RoomSeen", "ServerError", "TanboError", "TokenFile", "UnknownOutcome",
    "connect",
]
__version__ = "0.1.0"

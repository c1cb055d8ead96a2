"""Accounts for the tests: claimed over the WebSocket, then given tokens over the HTTP API.

The steps docs/bots-write.md asks of a bot's owner: claim an account, log in for a session's
token, mark the account as a bot, make a personal access token for the program.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Optional

from support import URL, ServerTestCase

from tanbo_client import Client

# with-server.py names the first node's HTTP base; in a cluster every node shares the accounts.
HTTP = os.environ.get("TANBO_HTTP", "")


class HttpRefusal(Exception):
    """An HTTP API call answered with an error status."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"{status}: {body}")
        self.status = status
        self.code: str = (body.get("error") or {}).get("code", "") if isinstance(body, dict) else ""


def _call(method: str, path: str, bearer: Optional[str], body: Any) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{HTTP}{path}", data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if bearer is not None:
        request.add_header("Authorization", f"Bearer {bearer}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as refused:
        raise HttpRefusal(refused.code, json.load(refused)) from None


async def http(method: str, path: str, bearer: Optional[str] = None, body: Any = None) -> Any:
    """The JSON answer of one call to the HTTP API (in a thread: the event loop plays on)."""
    return await asyncio.to_thread(_call, method, path, bearer, body)


@dataclass
class Account:
    username: str
    client: Client  # the connection that claimed it, still open
    session: str  # a session's token, from POST /api/login

    @property
    def id(self) -> str:
        return str(self.client.player["id"])

    async def make_access_token(self, name: str = "the test's program") -> tuple[str, str]:
        """A new personal access token: the token, said this once, and its id."""
        made = await http("POST", "/api/me/tokens", self.session, {"name": name})
        listed = [t for t in made["tokens"] if t["name"] == name]
        return made["token"], listed[0]["id"]

    async def revoke(self, token_id: str) -> None:
        await http("DELETE", f"/api/me/tokens/{token_id}", self.session)


class AccountTestCase(ServerTestCase):
    def setUp(self) -> None:
        super().setUp()
        if not HTTP:
            self.fail("TANBO_HTTP is not set: run the tests through tests/clients/with-server.py")

    async def account(self, name: str) -> Account:
        """A new account, claimed by a guest named `name` and a few random characters."""
        unique = secrets.token_hex(3)
        username, password = f"{name}{unique}", f"{unique} plays on and on"
        client = await self.client(URL, name=f"{name} {unique}")
        await client.request("claim", username=username, password=password)
        login = await http("POST", "/api/login", body={"username": username,
                                                       "password": password})
        return Account(username, client, login["token"])

    async def bot_account(self, name: str) -> tuple[Account, str, str]:
        """A new account marked as a bot: it, an access token of it and the token's id.

        The connection that claimed it is closed, as its owner's would be: in a cluster a
        challenge goes to the connections of one node only, which might be that one's.
        """
        account = await self.account(name)
        await account.client.become_bot()
        token, token_id = await account.make_access_token()
        await account.client.close()
        return account, token, token_id

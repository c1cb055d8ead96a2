"""What the Python client's tests share: the servers with-server.py started, clients of them."""

from __future__ import annotations

import asyncio
import os
import random
import re
import sys
import unittest
from pathlib import Path
from typing import Any

SOURCE_DIR = Path(__file__).resolve().parents[3]
CLIENT_DIR = SOURCE_DIR / "clients" / "python"
sys.path.insert(0, str(CLIENT_DIR))

from tanbo_client import Client, Message, ServerError, connect  # noqa: E402

# Run through tests/clients/with-server.py, which names the servers it started.
URL = os.environ.get("TANBO_URL", "")
# A cluster's second node; alone, the same server.
URL2 = os.environ.get("TANBO_URL2", URL)
PYTHON = "/usr/bin/python3"
EXAMPLES = CLIENT_DIR / "examples"


class ServerTestCase(unittest.IsolatedAsyncioTestCase):
    """A test against the running server, closing the clients it opens."""

    def setUp(self) -> None:
        if not URL:
            self.fail("TANBO_URL is not set: run the tests through tests/clients/with-server.py")

    async def client(self, url: str = URL, **options: Any) -> Client:
        client = await connect(url, **options)
        self.addAsyncCleanup(client.close)
        return client

    async def start_bot(self, url: str, *args: str,
                        env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
        """The example random bot against `url`, killed at the test's end if still running."""
        bot = await asyncio.create_subprocess_exec(
            PYTHON, str(EXAMPLES / "random_bot.py"), "--url", url, *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(CLIENT_DIR), **(env or {})})

        def stop() -> None:
            if bot.returncode is None:
                bot.kill()
        self.addCleanup(stop)
        return bot

    async def line_of(self, bot: asyncio.subprocess.Process, pattern: str,
                      timeout: float = 120) -> re.Match[str]:
        """The first line the bot prints that matches `pattern`."""
        assert bot.stdout is not None and bot.stderr is not None
        while line := (await asyncio.wait_for(bot.stdout.readline(), timeout)).decode():
            if found := re.search(pattern, line):
                return found
        self.fail(f"the bot ended without printing {pattern!r}: {(await bot.stderr.read())!r}")

    async def state_where(self, client: Client, room: str, check: Any,
                          timeout: float = 20) -> Message:
        """The first `state` event of the room for which check(state) holds."""
        while True:
            state = await client.next_event("state", room, timeout)
            if check(state):
                return state

    async def play_to_end(self, client: Client, room: str, timeout: float = 120) -> Message:
        """Random legal moves for the client's seat until the game ends: the last state."""
        async def play() -> Message:
            async for state in client.events():
                if state["type"] != "state" or state["room"] != room:
                    continue
                if state["status"] == "finished":
                    return state
                if "legal" in state:
                    try:
                        await client.act(room, state["version"], random.choice(state["legal"]))
                    except ServerError as late:
                        self.assertEqual(late.code, "stale_version")
            self.fail("the events ended before the game")
        return await asyncio.wait_for(play(), timeout)

    async def challenge_soon(self, client: Client, player: str, game: str,
                             **terms: Any) -> Message:
        """`challenging`, once the player is known online: in a cluster, another node names
        a new connection in Redis within a pool wave (2 s) of its hello."""
        for _ in range(60):
            try:
                return await client.challenge(player, game, **terms)
            except ServerError as offline:
                self.assertIn(offline.code, ("player_offline", "no_such_player"))
            await asyncio.sleep(0.1)
        self.fail(f"{player} never came online")

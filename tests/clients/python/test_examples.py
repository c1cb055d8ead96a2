"""The Python client's examples, run against the server: the docs' first client and the bot."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import tempfile
import unittest
import urllib.request
from typing import Any

from support import CLIENT_DIR, EXAMPLES, PYTHON, SOURCE_DIR, URL, URL2, ServerTestCase

from tanbo_client import Message

GUIDE = SOURCE_DIR / "docs" / "clients" / "python.md"
GAMES = ("tanbo", "steere-tanbo", "mancala-simple", "tsoro")
FINISHED = re.compile(r"^finished: (\S+) room (\S+) seat (\d) places (\[[\d, ]*\]) reason (\S+)$",
                      re.MULTILINE)


def run(args: list[str], cwd: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(CLIENT_DIR)}
    return subprocess.run([PYTHON, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def record(room: str) -> Any:
    """The stored record of the room's first game, over the HTTP API."""
    with urllib.request.urlopen(f"{os.environ['TANBO_HTTP']}/api/games/{room}-1",
                                timeout=10) as answer:
        return json.load(answer)


class FirstClient(unittest.TestCase):
    def test_the_guide_shows_the_example_whole(self) -> None:
        code = (EXAMPLES / "first_client.py").read_text()
        blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.DOTALL)
        self.assertIn(code, blocks, f"{GUIDE} no longer shows {EXAMPLES / 'first_client.py'}")
        self.assertLessEqual(len(code.splitlines()), 50)

    def test_it_plays_a_game_and_comes_back_as_itself(self) -> None:
        self.assertTrue(URL, "run through tests/clients/with-server.py")
        with tempfile.TemporaryDirectory() as cwd:
            runs = [run([str(EXAMPLES / "first_client.py")], cwd) for _ in range(2)]
        for done in runs:
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertRegex(done.stdout, r"finished: \w+ - my place: [12]")
        identities = [re.search(r"playing as First client (\S+)", r.stdout) for r in runs]
        self.assertEqual(identities[0] and identities[0][1], identities[1] and identities[1][1])


class RandomBot(unittest.TestCase):
    def test_it_plays_both_seats_of_every_game_to_the_end(self) -> None:
        self.assertTrue(URL, "run through tests/clients/with-server.py")
        with tempfile.TemporaryDirectory() as cwd:
            done = run([str(EXAMPLES / "random_bot.py"), "--game", "all", "--both"], cwd,
                       timeout=300)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        results = FINISHED.findall(done.stdout)
        self.assertEqual(sorted((game, int(seat)) for game, _, seat, _, _ in results),
                         sorted((game, seat) for game in GAMES for seat in (0, 1)), done.stdout)
        for game, room, _, places, reason in results:
            stored = record(room)
            self.assertEqual((stored["game"], stored["status"]), (game, "finished"))
            self.assertEqual(stored["result"]["places"], json.loads(places))
            self.assertEqual(stored["result"]["reason"], reason)
            self.assertEqual(len({p["id"] for p in stored["players_info"]}), 2, stored)


class RandomBotWithAPerson(ServerTestCase):
    """The bot's seat against the test's, as a person in the page would play it."""

    async def finish(self, bot: asyncio.subprocess.Process, room: str, final: Message) -> None:
        result = await self.line_of(bot, r"^finished: \S+ room (\S+) seat \d places (.*) reason")
        self.assertEqual(result[1], room)
        self.assertEqual(json.loads(result[2]), final["result"]["places"])
        self.assertEqual(await asyncio.wait_for(bot.wait(), 30), 0)

    async def test_it_accepts_a_challenge(self) -> None:
        bot = await self.start_bot(URL2, "--accept")
        waiting = await self.line_of(bot, r"^player (\S+) .*waiting for a challenge")
        person = await self.client(name="Person")
        await self.challenge_soon(person, waiting[1], "mancala-simple")
        paired = await person.next_event("paired", timeout=30)
        final = await self.play_to_end(person, paired["room"])
        await self.finish(bot, paired["room"], final)

    async def test_it_joins_a_room(self) -> None:
        person = await self.client(name="Person")
        room = (await person.create("tsoro", options={"columns": 6}))["room"]
        bot = await self.start_bot(URL2, "--join", room)
        final = await self.play_to_end(person, room)
        self.assertEqual(final["seats"][1]["player"]["name"], "Random bot")
        await self.finish(bot, room, final)


if __name__ == "__main__":
    unittest.main()

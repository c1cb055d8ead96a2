"""Bot accounts as docs/bots-write.md has them: made, marked, given an access token; the client
saying it, bots paired in their pools and a person who plays bots challenging one, both through
the example bot; and a revoked token stopping the client."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

from accounts import AccountTestCase, http
from support import URL, URL2
from test_examples import record

from tanbo_client import AccessTokenRefused, Client, ServerError, connect

FINISHED = r"^finished: (\S+) room (\S+) seat (\d) places (\[[\d, ]*\]) reason (\S+)"


class BotAccountTestCase(AccountTestCase):
    async def start_bot_as(self, access_token: str, url: str,
                           *args: str) -> asyncio.subprocess.Process:
        """The example bot, playing as the account of `access_token`."""
        return await self.start_bot(url, *args, env={"TANBO_ACCESS_TOKEN": access_token})


class AccessTokens(BotAccountTestCase):
    async def test_a_bot_says_its_access_token_and_seeks_among_bots(self) -> None:
        rob, token, _ = await self.bot_account("Rob")
        program = await self.client(URL2, access_token=token)
        self.assertEqual(program.player["id"], rob.id)
        self.assertIs(program.player.get("bot"), True)
        self.assertEqual(program.welcome["account"]["username"], rob.username)
        self.assertIsNone(program.token)  # an access token is never kept as a session's
        with self.assertRaises(ServerError) as people_only:
            await program.seek("mancala-simple")
        self.assertEqual(people_only.exception.code, "bot_pools_only")
        seeking = await program.seek("mancala-simple", bots=True)
        self.assertIs(seeking["pool"]["bots"], True)
        self.assertEqual((await program.unseek(seeking["seek"]))["type"], "ok")

    async def test_an_access_token_is_never_written_to_a_token_file(self) -> None:
        with tempfile.TemporaryDirectory() as directory:
            kept = Path(directory) / "token"
            with self.assertRaises(ValueError):
                Client(URL, access_token="tbp_anything", token_file=kept)
            self.assertFalse(kept.exists())

    async def test_a_revoked_access_token_stops_the_client(self) -> None:
        una = await self.account("Una")  # a person's: any account may hold access tokens
        token, token_id = await una.make_access_token()
        program = await self.client(URL2, access_token=token)
        reconnected = asyncio.ensure_future(program.next_event("reconnected", timeout=60))
        await una.revoke(token_id)
        with self.assertRaises(AccessTokenRefused) as stopped:
            await reconnected
        self.assertEqual(stopped.exception.code, "bad_token")
        self.assertIn("access token was refused", str(stopped.exception))
        self.assertIs(program.failure, stopped.exception)
        with self.assertRaises(AccessTokenRefused):
            await program.ping()
        with self.assertRaises(AccessTokenRefused):
            await connect(URL, access_token=token)
        bot = await self.start_bot_as(token, URL, "--accept")
        assert bot.stderr is not None
        self.assertEqual(await asyncio.wait_for(bot.wait(), 60), 1)
        self.assertIn("access token was refused", (await bot.stderr.read()).decode())


class BotsPlaying(BotAccountTestCase):
    async def test_two_bots_paired_in_a_pool_for_bots_play_to_the_end(self) -> None:
        bots = [await self.bot_account(name) for name in ("Ada", "Bob")]
        runs = [await self.start_bot_as(token, url, "--seek", "--game", "tsoro")
                for (_, token, _), url in zip(bots, (URL, URL2))]
        results = [await self.line_of(run, FINISHED) for run in runs]
        for run in runs:
            self.assertEqual(await asyncio.wait_for(run.wait(), 30), 0)
        room = results[0][2]
        self.assertEqual(results[1][2], room, "the two bots were paired together")
        self.assertEqual(sorted(r[3] for r in results), ["0", "1"])
        stored = record(room)
        self.assertEqual((stored["status"], stored["result"]["places"]),
                         ("finished", json.loads(results[0][4])))
        self.assertEqual({p["id"] for p in stored["players_info"]},
                         {account.id for account, _, _ in bots})

    async def test_a_person_who_plays_bots_challenges_one(self) -> None:
        _, token, _ = await self.bot_account("Rex")
        bot = await self.start_bot_as(token, URL2, "--accept", "--game", "mancala-simple")
        waiting = await self.line_of(bot, r"^player (\S+) .*waiting for a challenge")

        stranger = await self.client(URL2, name="Stranger")  # the bot's node: it is online there
        with self.assertRaises(ServerError) as refused:
            await stranger.challenge(waiting[1], "mancala-simple")
        self.assertEqual(refused.exception.code, "bots_refused")

        eve = await self.account("Eve")
        answer = await http("PUT", "/api/me/play_bots", eve.session, {"play_bots": True})
        self.assertIs(answer["play_bots"], True)
        # A connection of the account opened after the change, as in a cluster it must be.
        person = await self.client(URL, token=eve.session)
        await self.challenge_soon(person, waiting[1], "mancala-simple")
        paired = await person.next_event("paired", timeout=30)
        final = await self.play_to_end(person, paired["room"])
        result = await self.line_of(bot, FINISHED)
        self.assertEqual(result[2], paired["room"])
        self.assertEqual(json.loads(result[4]), final["result"]["places"])
        self.assertEqual(await asyncio.wait_for(bot.wait(), 30), 0)
        self.assertIs(final["seats"][1 - paired["seat"]]["player"].get("bot"), True)

"""tanbo_client against a real server: replies, errors, identity, reconnection, rate limits."""

from __future__ import annotations

import asyncio
import tempfile
import unittest
from pathlib import Path

from support import CLIENT_DIR, PYTHON, URL, URL2, ServerTestCase

from tanbo_client import (Client, ConnectionLost, Message, Policy, RateLimited, ServerError,
                          TokenFile)

# Prints the identity a run of the client comes back as.
WHO_AM_I = """
import asyncio, sys
sys.path.insert(0, sys.argv[3])
from tanbo_client import connect
async def main():
    client = await connect(sys.argv[1], token_file=sys.argv[2])
    print(client.player["id"])
    await client.close()
asyncio.run(main())
"""


class Replies(ServerTestCase):
    async def test_each_reply_reaches_its_own_request(self) -> None:
        client = await self.client()
        requests = [client.ping(), client.games(), client.create("tsoro"), client.ping(),
                    client.request("rooms", game="tsoro"), client.ping()]
        replies = await asyncio.gather(*requests)
        self.assertEqual([r["type"] for r in replies],
                         ["pong", "games", "created", "pong", "rooms", "pong"])
        ids = [r["re"] for r in replies]
        self.assertEqual(len(set(ids)), len(ids), ids)
        self.assertIn("tsoro", [g["id"] for g in replies[1]["games"]])

    async def test_an_error_reply_raises_with_its_code(self) -> None:
        client = await self.client()
        with self.assertRaises(ServerError) as refused:
            await client.create("mancala-simple", options={"stones": 5, "colour": "red"})
        self.assertEqual(refused.exception.code, "bad_option")
        self.assertEqual(sorted(p["field"] for p in refused.exception.problems),
                         ["colour", "stones"])
        with self.assertRaises(ServerError) as missing:
            await client.join("r-no-such-room")
        self.assertEqual(missing.exception.code, "no_such_room")
        self.assertEqual((await client.ping())["type"], "pong")  # the connection goes on

    async def test_a_message_without_id_is_refused_as_an_event(self) -> None:
        client = await self.client()
        await client.send("act", room="r-no-such-room", version=0, action={})
        error = await client.next_event("error", timeout=10)
        self.assertEqual((error["re"], error["code"]), (None, "no_such_room"))


class Identity(ServerTestCase):
    async def run_once(self, url: str, token_file: Path) -> str:
        """A run of its own: another process."""
        run = await asyncio.create_subprocess_exec(
            PYTHON, "-c", WHO_AM_I, url, str(token_file), str(CLIENT_DIR),
            stdout=asyncio.subprocess.PIPE)
        out, _ = await asyncio.wait_for(run.communicate(), 60)
        self.assertEqual(run.returncode, 0)
        return out.decode().strip()

    async def test_the_token_file_brings_the_identity_back(self) -> None:
        with tempfile.TemporaryDirectory() as directory:
            kept = Path(directory) / "bot" / "token"
            first = await self.run_once(URL, kept)
            self.assertTrue(first.startswith("p"), first)
            self.assertEqual(kept.stat().st_mode & 0o777, 0o600)
            self.assertEqual(await self.run_once(URL2, kept), first)
            self.assertNotEqual(await self.run_once(URL, Path(directory) / "other"), first)

    async def test_an_unknown_token_starts_a_new_guest(self) -> None:
        with tempfile.TemporaryDirectory() as directory:
            kept = TokenFile.at(Path(directory) / "token")
            kept.save("a-token-no-server-gave")
            client = await self.client(token_file=kept.path)
            self.assertEqual(kept.load(), client.token)
            self.assertNotEqual(client.token, "a-token-no-server-gave")


class Playing(ServerTestCase):
    async def two_seated(self, game: str = "mancala-simple",
                         first: int = 0) -> tuple[Client, Client, str]:
        ana = await self.client(name="Ana")
        ben = await self.client(URL2, name="Ben")
        room = (await ana.create(game, options={"first": first}))["room"]
        await ben.join(room)
        for client in (ana, ben):
            await self.state_where(client, room, lambda s: s["status"] == "playing")
        return ana, ben, room

    async def test_act_answers_ok_after_the_state(self) -> None:
        ana, _, room = await self.two_seated()
        state = ana.rooms[room].state
        assert state is not None
        ok = await ana.act(room, state["version"], state["legal"][0])
        self.assertEqual((ok["type"], ok["room"], ok["version"]),
                         ("ok", room, state["version"] + 1))
        self.assertEqual(ana.rooms[room].version, ok["version"])  # its state came first
        with self.assertRaises(ServerError) as stale:
            await ana.act(room, state["version"], state["legal"][0])
        self.assertEqual(stale.exception.code, "stale_version")

    async def test_chat_and_callbacks(self) -> None:
        ana, ben, room = await self.two_seated()
        heard: list[Message] = []
        ben.on("said", heard.append)
        await ana.say(room, "players", text="Good luck!")
        said = await ben.next_event("said", room, timeout=10)
        self.assertEqual((said["text"], said["from"]["name"]), ("Good luck!", "Ana"))
        self.assertEqual(heard, [said])
        await ben.resign(room)
        final = await self.state_where(ana, room, lambda s: s["status"] == "finished")
        self.assertEqual(final["result"]["places"], [1, 2])

    async def test_a_challenge_declined_then_accepted(self) -> None:
        eve = await self.client(name="Eve")
        cleo = await self.client(URL2, name="Cleo")
        sent = await self.challenge_soon(eve, cleo.player["id"], "tsoro", options={"columns": 6})
        challenged = await cleo.next_event("challenged", timeout=10)
        self.assertEqual((challenged["challenge"], challenged["from"]["name"]),
                         (sent["challenge"], "Eve"))
        await cleo.decline(challenged["challenge"])
        ended = await eve.next_event("challenge_ended", timeout=10)
        self.assertEqual(ended["reason"], "declined")
        with self.assertRaises(ServerError) as gone:
            await cleo.accept(challenged["challenge"])
        self.assertEqual(gone.exception.code, "no_such_challenge")

        again = await eve.challenge(cleo.player["id"], "tsoro", options={"columns": 6})
        await cleo.accept((await cleo.next_event("challenged", timeout=10))["challenge"])
        paired = [await c.next_event("paired", timeout=10) for c in (eve, cleo)]
        self.assertEqual({p["challenge"] for p in paired}, {again["challenge"]})
        self.assertEqual(paired[0]["room"], paired[1]["room"])
        self.assertEqual(sorted(p["seat"] for p in paired), [0, 1])
        self.assertEqual(eve.rooms[paired[0]["room"]].role, "player")

    async def test_seekers_are_paired(self) -> None:
        ana = await self.client()
        ben = await self.client(URL2)
        for client in (ana, ben):
            await client.seek("mancala-simple", options={"holes": 7})
        paired = [await c.next_event("paired", timeout=20) for c in (ana, ben)]
        self.assertEqual(paired[0]["room"], paired[1]["room"])
        with self.assertRaises(ServerError) as unknown:
            await ana.unseek(paired[0]["seek"])
        self.assertEqual(unknown.exception.code, "no_such_seek")


class Reconnection(ServerTestCase):
    async def test_a_cut_connection_comes_back_and_resumes_its_room(self) -> None:
        ana = await self.client(name="Ana", policy=Policy(reconnect_wait=0.2))
        ben = await self.client(URL2, name="Ben")
        room = (await ana.create("mancala-simple", options={"first": 1}))["room"]
        await ben.join(room)
        start = await self.state_where(ben, room, lambda s: "legal" in s)
        await self.state_where(ana, room, lambda s: s["status"] == "playing")
        cut_at = ana.rooms[room].version
        identity = ana.player["id"]

        assert ana.websocket is not None
        ana.websocket.transport.abort()  # no closing handshake: a dropped network
        await self.state_where(ben, room, lambda s: not s["seats"][0]["connected"])
        ben_move = await ben.act(room, start["version"], start["legal"][-1])

        reconnected = await ana.next_event("reconnected", timeout=20)
        self.assertEqual(reconnected["welcome"]["player"]["id"], identity)
        resumed = await ana.next_event("resumed", room, timeout=10)
        self.assertFalse(resumed["gap"])
        self.assertIn(ben_move["version"], [step["version"] for step in resumed["steps"]])
        self.assertLessEqual(cut_at, ben_move["version"] - 1)
        self.assertEqual(ana.reconnections, 1)
        self.assertEqual(ana.rooms[room].version, ben_move["version"])
        await self.state_where(ben, room, lambda s: s["seats"][0]["connected"])
        self.assertEqual((await ana.ping())["type"], "pong")

    async def test_a_request_in_flight_when_the_connection_drops_raises(self) -> None:
        ana = await self.client(policy=Policy(reconnect_wait=0.2))
        assert ana.websocket is not None
        pending = asyncio.ensure_future(ana.ping())
        await asyncio.sleep(0)  # sent, unanswered
        ana.websocket.transport.abort()
        with self.assertRaises(ConnectionLost):
            await pending
        await ana.next_event("reconnected", timeout=20)
        self.assertEqual((await ana.ping())["type"], "pong")

    async def test_without_reconnection_a_drop_ends_the_events(self) -> None:
        ana = await self.client(reconnect=False)
        assert ana.websocket is not None
        ana.websocket.transport.abort()
        self.assertEqual([e async for e in ana.events()], [])
        with self.assertRaises(ConnectionLost):
            await ana.ping()


class RateLimits(ServerTestCase):
    # The server's default: bursts of 20 messages, 10 a second after.
    async def test_rate_limited_requests_are_sent_again(self) -> None:
        client = await self.client()
        replies = await asyncio.gather(*(client.ping() for _ in range(30)))
        self.assertEqual({r["type"] for r in replies}, {"pong"})
        self.assertGreater(client.rate_limited_retries, 0)

    async def test_retries_wait_the_servers_retry_ms_not_the_back_off(self) -> None:
        # A back-off of a minute: only the server's retry_ms, a tenth of a second, ends in time.
        client = await self.client(policy=Policy(rate_limit_wait=60))
        replies = await asyncio.wait_for(asyncio.gather(*(client.ping() for _ in range(30))), 20)
        self.assertEqual({r["type"] for r in replies}, {"pong"})
        self.assertGreater(client.rate_limited_retries, 0)

    async def test_retries_are_bounded(self) -> None:
        client = await self.client(policy=Policy(rate_limit_attempts=0))
        # Twice the burst: a slow server may refill the bucket meanwhile, never by 20.
        replies = await asyncio.gather(*(client.ping() for _ in range(40)),
                                       return_exceptions=True)
        refused = [r for r in replies if isinstance(r, RateLimited)]
        pongs = [r for r in replies if isinstance(r, dict) and r["type"] == "pong"]
        self.assertEqual(len(refused) + len(pongs), 40)
        self.assertGreater(len(refused), 0)
        self.assertEqual({r.code for r in refused}, {"rate_limited"})
        self.assertEqual(client.rate_limited_retries, 0)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
"""A bot that plays a random legal action whenever its seat must decide.

It creates a room for the game (and waits for someone to join it), or seeks a game (--seek),
joins an existing room (--join ROOM) or accepts the next challenge (--accept); with --both it
plays both seats itself over two connections (the second to --url2, a cluster's other node).
With an access token (--access-token, or $TANBO_ACCESS_TOKEN) it plays as that account; a bot
account seeks in the pools for bots (docs/bots-write.md). It exits 0 once every game it started
has ended, printing each result.

    random_bot.py --url ws://localhost:8080/ws --game tsoro --both
    random_bot.py --game all --both --seek          # one game of each, in turn
    TANBO_ACCESS_TOKEN=tbp_... random_bot.py --seek  # a bot account, among bots
    random_bot.py --game all --both --pace 0.5       # a move each half second, to watch it
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # a checkout, not installed

from tanbo_client import Client, ConnectionLost, Message, ServerError, TanboError  # noqa: E402

GAMES = ("tanbo", "steere-tanbo", "mancala-simple", "tsoro")
# Refusals that only say the bot was late: the next state comes and it decides again.
LATE = {"stale_version", "not_your_turn", "game_over", "unknown_outcome"}
Seat = tuple[str, int]  # a room, and the seat taken in it


def say(text: str) -> None:
    print(text, flush=True)


async def play(client: Client, room: str, rng: random.Random, pace: float = 0) -> Message:
    """Plays the room to its end: the finished `state`; `pace` seconds before each move."""
    seen = client.rooms.get(room)
    if seen is not None and seen.state is not None and seen.state["status"] == "finished":
        return seen.state
    async for event in client.events():
        if event["type"] != "state" or event["room"] != room:
            continue
        if event["status"] == "finished":
            return event
        legal = event.get("legal")  # only in the copy of the seat that must decide
        if legal:
            if pace:
                await asyncio.sleep(pace)  # time for a person to follow the game in the page
            try:
                await client.act(room, event["version"], rng.choice(legal))
            except ServerError as error:
                if error.code not in LATE:
                    raise
            except ConnectionLost:
                pass  # the client reconnects and rejoins; the next state says where we are
    raise client.failure or ConnectionLost("the connection ended before the game")


def report(game: str, room: str, seat: Any, final: Message) -> None:
    result = final.get("result") or {}
    say(f"finished: {game} room {room} seat {seat} places {json.dumps(result.get('places'))} "
        f"reason {result.get('reason')}")


async def seat_in_new_room(client: Client, game: str, options: Optional[Message]) -> Seat:
    created = await client.create(game, options=options)
    say(f"room {created['room']}: {game}, waiting for a player")
    return created["room"], created["seat"]


async def seat_by_seeking(client: Client, game: str, options: Optional[Message]) -> Seat:
    among_bots = True if client.player.get("bot") else None  # a bot's only pools
    seeking = await client.seek(game, options=options, bots=among_bots)
    say(f"seeking {game}{' among bots' if among_bots else ''} ({seeking['seek']})")
    paired = await client.next_event("paired", timeout=120)
    return paired["room"], paired["seat"]


async def seat_by_challenge(client: Client) -> Seat:
    say(f"player {client.player['id']} ({client.player['name']}): waiting for a challenge")
    challenged = await client.next_event("challenged", timeout=3600)
    await client.accept(challenged["challenge"])
    paired = await client.next_event("paired", timeout=60)
    return paired["room"], paired["seat"]


async def one_game(clients: list[Client], game: str, args: argparse.Namespace,
                   rng: random.Random) -> None:
    options = json.loads(args.options) if args.options else None
    first = clients[0]
    if args.join:
        joined = await first.join(args.join)
        seats = [(args.join, joined["seat"])]
    elif args.accept:
        seats = [await seat_by_challenge(first)]
    elif args.seek:
        seats = list(await asyncio.gather(*(seat_by_seeking(c, game, options) for c in clients)))
    else:
        seats = [await seat_in_new_room(first, game, options)]
        for other in clients[1:]:
            joined = await other.join(seats[0][0])
            seats.append((seats[0][0], joined["seat"]))
    finals = await asyncio.gather(
        *(play(c, room, rng, args.pace) for c, (room, _) in zip(clients, seats)))
    for client, (room, seat), final in zip(clients, seats, finals):
        report(final["game"], room, seat, final)
        await client.leave(room)


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    urls = [args.url] + ([args.url2 or args.url] if args.both else [])
    names = [args.name] + [f"{args.name} 2"] * args.both
    files = [args.token_file] + [None] * args.both
    clients = [Client(url, name=name, token_file=file, access_token=args.access_token)
               for url, name, file in zip(urls, names, files)]
    try:
        for client in clients:
            welcome = await client.connect()
            say(f"connected to {client.url} as {welcome['player']['name']} "
                f"({welcome['player']['id']})")
        games = GAMES if args.game == "all" else (args.game,)
        for game in games:
            await asyncio.wait_for(one_game(clients, game, args, rng), args.timeout)
    except TanboError as error:  # a revoked access token, say: one line, not a traceback
        print(f"random_bot: {error}", file=sys.stderr)
        return 1
    finally:
        for client in clients:
            await client.close()
    return 0


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("TANBO_URL", "ws://localhost:8080/ws"),
                        help="the server's WebSocket (default: $TANBO_URL, else localhost:8080)")
    parser.add_argument("--url2", default=os.environ.get("TANBO_URL2"),
                        help="--both: the second seat's server (default: $TANBO_URL2, else --url)")
    parser.add_argument("--game", choices=GAMES + ("all",), default="tsoro")
    parser.add_argument("--options", help="the game's options, as JSON")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--seek", action="store_true", help="seek a game instead of creating a room")
    how.add_argument("--join", metavar="ROOM", help="take a seat in this room")
    how.add_argument("--accept", action="store_true", help="accept the next challenge")
    parser.add_argument("--both", action="store_true", help="play both seats, two connections")
    parser.add_argument("--name", help="the name to play under (default: Random bot; with an "
                        "access token, the account's own)")
    parser.add_argument("--token-file", help="keep the identity in this file between runs")
    parser.add_argument("--access-token", default=os.environ.get("TANBO_ACCESS_TOKEN") or None,
                        help="play as the account of this personal access token "
                             "(default: $TANBO_ACCESS_TOKEN)")
    parser.add_argument("--seed", type=int, help="the random choices' seed")
    parser.add_argument("--pace", type=float, default=0, metavar="SECONDS",
                        help="wait this long before each move, to watch the game in the page")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per game at most")
    args = parser.parse_args(argv)
    if args.both and (args.join or args.accept):
        parser.error("--both creates or seeks: not with --join or --accept")
    if (args.join or args.accept) and args.game == "all":
        parser.error("--join and --accept play one game")
    if args.access_token and (args.both or args.token_file):
        parser.error("an access token is one account: not with --both or --token-file")
    if args.name is None and not args.access_token:
        args.name = "Random bot"
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(run(parse_args(sys.argv[1:]))))

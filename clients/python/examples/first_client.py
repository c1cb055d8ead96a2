#!/usr/bin/python3
"""A first client: one game of Tsoro against the computer, a random legal move at each turn."""

import asyncio
import os
import random
import sys

from tanbo_client import ServerError, connect

URL = os.environ.get("TANBO_URL", "ws://localhost:8080/ws")


async def main() -> int:
    # The token file brings the same identity back on the next run.
    client = await connect(URL, name="First client", token_file="first-client.token")
    print("playing as", client.player["name"], client.player["id"])

    # A room of two seats: this client in seat 0, the computer in seat 1.
    created = await client.create("tsoro", options={"columns": 6},
                                  cpu=[{"seat": 1, "level": "random"}])
    room = created["room"]

    async for event in client.events():  # pushes: state, said, ...
        if event["type"] != "state" or event["room"] != room:
            continue
        if event["status"] == "finished":
            places = event["result"]["places"]
            print("finished:", event["result"]["reason"], "- my place:", places[0])
            break
        if "legal" in event:  # only the seat that must decide gets the list
            try:
                await client.act(room, event["version"], random.choice(event["legal"]))
            except ServerError as error:  # e.g. stale_version: the next state follows
                print("refused:", error.code)

    await client.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

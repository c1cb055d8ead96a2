#!/usr/bin/env python3
"""One JSON line of side-by-side.sh from a driver's report on stdin, then a one-line summary.

Usage: annotate.py SERVER ROOMS COMMIT LOADAVG_BEFORE LOADAVG_AFTER COMMAND < REPORT

Adds the case, command, date, commit and load averages. tanbo-load's report is turned into the
members the peer drivers print (its whole report kept under "tanbo_load"), so that the three
servers' lines compare member for member.
"""
import datetime
import json
import os
import sys

MEMBERS_PER_ROOM = 5  # 2 players + 3 spectators


def from_tanbo_load(j):
    window = j["window_s"]
    actions = j["actions"]
    per_s = actions["accepted_per_s"]
    moves = round(per_s * window)
    server = j.get("server", {})
    cpu = server.get("cpu_percent")
    bytes_per_s = j["received"]["bytes_per_s"]
    wire_per_s = j["received"].get("wire_bytes_per_s")
    return {
        "server": os.environ.get("TANBO_NAME", "tanbo"),
        "version": os.environ.get("TANBO_VERSION", "unknown"),
        "ok": j["ok"],
        "rooms": j["rooms"]["planned"],
        "rooms_ready": j["rooms"]["started"],
        "members_per_room": j["rooms"]["players_per_room"] + j["rooms"]["spectators_per_room"],
        "duration_s": float(os.environ.get("DURATION_S", window)),
        "setup_s": j["setup_s"],
        "window_s": window,
        "actions": {
            "accepted": actions["accepted"],
            "accepted_in_window": moves,
            "accepted_per_s": per_s,
            "refused": actions["refused"],
            "unresolved": actions["unresolved"],
            "drained": actions["drained"],
        },
        "games": {"finished": j["games"]["finished"]},
        "latency_ms": {"player": j["latency_ms"]["player"]},
        "received": j["received"],
        "bytes_per_member_per_move": bytes_per_s / per_s / MEMBERS_PER_ROOM if per_s else None,
        # What the sockets received, WebSocket framing and (tanbo-deflate) compression included.
        "wire_bytes_per_member_per_move":
            wire_per_s / per_s / MEMBERS_PER_ROOM if per_s and wire_per_s is not None else None,
        "server_cpu_percent": cpu,
        "moves_per_server_cpu_s": per_s / (cpu / 100) if cpu else None,
        "server_rss_kib": {
            "before": server.get("rss_before_kib"),
            "start": server.get("rss_start_kib"),
            "end": server.get("rss_end_kib"),
        },
        "load_generator_cpu_percent": j["load_generator_cpu_percent"],
        "errors": j["errors"],
        "tanbo_load": j,
    }


def main():
    server, rooms, commit, before, after, command = sys.argv[1:7]
    report = json.loads(sys.stdin.read())
    if server.startswith("tanbo"):
        report = from_tanbo_load(report)
    line = {
        "case": f"rooms-{rooms}",
        **report,
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "loadavg_before": before,
        "loadavg_after": after,
    }
    print(json.dumps(line))
    lat = (line.get("latency_ms") or {}).get("player") or {}
    wire = line.get("wire_bytes_per_member_per_move")
    print("%-13s %5s rooms  %8.0f moves/s  server cpu %5.1f%%  %8.0f moves/cpu-s  %6.1f B/member/move%s"
          "  player p50 %s p99 %s ms  driver cpu %.0f%%  errors %s" % (
              line["server"], rooms, line["actions"]["accepted_per_s"],
              line["server_cpu_percent"] or 0, line["moves_per_server_cpu_s"] or 0,
              line["bytes_per_member_per_move"] or 0,
              " (wire %.1f)" % wire if wire is not None else "", lat.get("p50", "-"), lat.get("p99", "-"),
              line["load_generator_cpu_percent"], json.dumps(line["errors"])))


if __name__ == "__main__":
    main()

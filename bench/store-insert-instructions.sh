#!/usr/bin/env bash
# Instructions per action insert in SQLite, for the forms the hot write could take: the guarded
# INSERT ... SELECT the store runs (server/store/rooms.cpp, append_action), the same with OR FAIL,
# a plain INSERT ... VALUES, and a guard SELECT followed by that insert. Python's sqlite3 module
# (the system libsqlite3, as the server links) inserts N actions into 50 rooms' tables with the
# store's keys and foreign keys, WAL and synchronous=NORMAL, committing every 50 as a group does;
# each form runs under callgrind and the same script without inserts is subtracted. Needs
# valgrind (apt install valgrind).
#
# Usage: bench/store-insert-instructions.sh        one JSON line per form on stdout
# Environment: N (inserts, default 20000), FK (ON or OFF, default ON: PRAGMA foreign_keys),
#   PYTHON (default /usr/bin/python3).
set -euo pipefail
n=${N:-20000}
fk=${FK:-ON}
python=${PYTHON:-/usr/bin/python3}  # Debian's binary: callgrind follows no wrapper's exec
work=$(mktemp -d /tmp/tanbo-insert.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/insert.py" <<'EOF'
import os, sqlite3, sys
form, n, fk, db = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
c = sqlite3.connect(db, isolation_level=None)
c.execute("PRAGMA journal_mode=WAL")
c.execute("PRAGMA synchronous=NORMAL")
c.execute("PRAGMA foreign_keys=" + fk)
c.executescript("""
CREATE TABLE rooms (id TEXT PRIMARY KEY, players INTEGER NOT NULL, game_no INTEGER NOT NULL);
CREATE TABLE games (seq INTEGER PRIMARY KEY, room TEXT NOT NULL REFERENCES rooms(id),
  game_no INTEGER NOT NULL, finished_at INTEGER, UNIQUE (room, game_no));
CREATE TABLE actions (room TEXT NOT NULL, version INTEGER NOT NULL, game_no INTEGER NOT NULL,
  seat INTEGER NOT NULL, action TEXT NOT NULL, at INTEGER, clocks TEXT,
  PRIMARY KEY (room, version), FOREIGN KEY (room, game_no) REFERENCES games(room, game_no)
) WITHOUT ROWID;
""")
ROOMS = 50
for r in range(ROOMS):
    c.execute("INSERT INTO rooms VALUES (?, 2, 1)", ("room-%04d" % r,))
    c.execute("INSERT INTO games (room, game_no) VALUES (?, 1)", ("room-%04d" % r,))
guard = ("FROM rooms r JOIN games g ON g.room = r.id AND g.game_no = r.game_no "
         "WHERE r.id = $6 AND r.game_no = CAST($7 AS INTEGER) AND g.finished_at IS NULL "
         "AND CAST($2 AS INTEGER) >= 0 AND CAST($2 AS INTEGER) < r.players")
insert_select = ("INSERT INTO actions (room, version, game_no, seat, action, at, clocks) "
                 "SELECT r.id, CAST($1 AS BIGINT), g.game_no, CAST($2 AS INTEGER), "
                 "CAST($3 AS TEXT), CAST($4 AS BIGINT), CAST($5 AS TEXT) " + guard)
insert_values = ("INSERT INTO actions (room, version, game_no, seat, action, at, clocks) "
                 "VALUES ($6, $1, $7, $2, $3, $4, $5)")
c.execute("BEGIN")
for i in range(n):
    p = {"1": 2 + i // ROOMS, "2": i % 2, "3": '{"pit":3}', "4": 1700000000000 + i, "5": "[]",
         "6": "room-%04d" % (i % ROOMS), "7": 1}
    if form == "insert-select":
        c.execute(insert_select, p)
    elif form == "insert-or-fail-select":
        c.execute(insert_select.replace("INSERT INTO", "INSERT OR FAIL INTO"), p)
    elif form == "insert-values":
        c.execute(insert_values, p)
    elif form == "guard-then-insert":
        assert c.execute("SELECT 1 " + guard, {k: p[k] for k in ("2", "6", "7")}).fetchone()
        c.execute(insert_values, p)
    if i % 50 == 49:
        c.execute("COMMIT")
        c.execute("BEGIN")
c.execute("COMMIT")
EOF

instructions() {
  rm -f "$work"/t.db*
  valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$python" "$work/insert.py" "$1" "$n" \
    "$fk" "$work/t.db" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

base=$(instructions none)
for form in insert-select insert-or-fail-select insert-values guard-then-insert; do
  total=$(instructions "$form")
  printf '{"form":"%s","instructions_per_insert":%d,"inserts":%d,"foreign_keys":"%s"}\n' \
    "$form" $(((total - base) / n)) "$n" "$fk"
done

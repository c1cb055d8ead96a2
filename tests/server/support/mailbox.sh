#!/bin/sh
# A sendmail-compatible stand-in for the tests: `mailbox.sh DIR [-t -i ...]` reads one message on
# its stdin, as sendmail -t -i does, and delivers it to DIR as a file of its own (N.eml, written
# whole, then linked). The server's side is the real one: its child process, the message on its
# stdin, its exit status. With a file DIR/fail holding a number, it reads the message and exits
# with that status instead, saying so on stderr, as a transport that refuses does.
set -eu
dir=$1
tmp=$(mktemp "$dir/.incoming.XXXXXX")
cat > "$tmp"
if [ -f "$dir/fail" ]; then
  rm -f "$tmp"
  echo "mailbox.sh: refused by $dir/fail" >&2
  exit "$(cat "$dir/fail")"
fi
# Several servers may deliver at once (a cluster's nodes): a hard link fails when its name is
# taken, so each message takes the next free number, whole.
n=$(ls "$dir" | grep -c '\.eml$' || true)
until ln "$tmp" "$dir/$((n + 1)).eml" 2>/dev/null; do n=$((n + 1)); done
rm -f "$tmp"

#!/usr/bin/env bash
# Re-records the expected conformance transcripts from a real redis-server 7.
#
#   server/src/test/conformance-record.sh [script-name ...]    (default: every script)
#
# For each server/src/test/resources/conformance/NAME.txt it starts from an empty keyspace
# (FLUSHALL), feeds the script to `redis-cli --no-raw` (non-interactive, one connection, so
# SELECT / HELLO / CLIENT SETNAME carry over from line to line) and writes NAME.expected.
# ConformanceTest feeds the same script to the same redis-cli against Ebb and compares the two.
#
# Script format: one command per line in redis-cli syntax; blank lines and lines starting with
# '#' are not sent. Directives: `#! options ARGS` adds redis-cli options for the whole script
# (e.g. `#! options -3`); `#! requires CMD...` makes ConformanceTest skip the script while Ebb has
# no such command (the recorder ignores it). Never start a command line with a number: redis-cli
# reads `3 incr k` as "run INCR 3 times".
#
# Transcript format: every command appears as a line `> COMMAND` followed by the reply lines
# exactly as redis-cli printed them, less two things that are not part of a reply: a trailing CR
# (INFO's lines end in CRLF) and the "(0.53s)" line redis-cli adds after a slow command. To know
# where one reply ends, a client-side marker (`:set conformance-line-N`, which redis-cli answers
# itself with "unknown redis-cli preference") goes before each command; it never reaches the
# server and is replaced by the `> ` line. ConformanceScript.java parses the same way: change both.
#
# The server is started here on REDIS_PORT (default 6393), bound to 127.0.0.1, without
# persistence, and stopped (by its own pid) on exit. Set REDIS_SERVER / REDIS_CLI to use other
# binaries. Record from Redis 7.0 or later: the transcript header names the version used.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
dir="$here/resources/conformance"
port="${REDIS_PORT:-6393}"
redis_server="${REDIS_SERVER:-redis-server}"
redis_cli="${REDIS_CLI:-redis-cli}"

for tool in "$redis_server" "$redis_cli" awk timeout; do
  command -v "$tool" >/dev/null 2>&1 || { echo "conformance-record: '$tool' not found (apt-get install redis-server)" >&2; exit 2; }
done
if "$redis_cli" -p "$port" ping >/dev/null 2>&1; then
  echo "conformance-record: something already answers on port $port; choose another with REDIS_PORT=N" >&2
  exit 2
fi

work="$(mktemp -d)"
pidfile="$work/redis.pid"
cleanup() {
  if [[ -s "$pidfile" ]]; then
    kill "$(cat "$pidfile")" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$redis_server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$work" --pidfile "$pidfile" --logfile "$work/redis.log"
for _ in $(seq 1 100); do
  "$redis_cli" -p "$port" ping >/dev/null 2>&1 && break
  sleep 0.1
done
version="$("$redis_cli" -p "$port" --raw info server | awk -F: '/^redis_version:/ { sub(/\r$/, "", $2); print $2 }')"
[[ -n "$version" ]] || { echo "conformance-record: redis-server did not start; log:" >&2; cat "$work/redis.log" >&2; exit 1; }
case "$version" in
  7.*) ;;
  *) echo "conformance-record: redis-server $version found; the transcripts are of Redis 7" >&2; exit 2 ;;
esac

if [[ $# -gt 0 ]]; then
  scripts=()
  for name in "$@"; do scripts+=("$dir/${name%.txt}.txt"); done
else
  scripts=("$dir"/*.txt)
fi

for script in "${scripts[@]}"; do
  [[ -f "$script" ]] || { echo "conformance-record: no script $script" >&2; exit 2; }
  name="$(basename "$script" .txt)"
  options="$(awk '/^#![ \t]*options[ \t]/ { sub(/^#![ \t]*options[ \t]+/, ""); print }' "$script")"
  # The fed stream: a marker before every command line.
  awk '/^[ \t]*(#|$)/ { next } { printf ":set conformance-line-%d\n%s\n", NR, $0 }' "$script" > "$work/feed"

  "$redis_cli" -p "$port" flushall >/dev/null
  # shellcheck disable=SC2086 # options are words on purpose
  if ! timeout 60 "$redis_cli" --no-raw -p "$port" $options < "$work/feed" > "$work/raw" 2> "$work/err"; then
    echo "conformance-record: redis-cli failed on $name:" >&2; cat "$work/err" >&2; exit 1
  fi
  if [[ -s "$work/err" ]]; then
    echo "conformance-record: redis-cli wrote to stderr on $name:" >&2; cat "$work/err" >&2; exit 1
  fi

  {
    echo "# Recorded from redis-server $version by server/src/test/conformance-record.sh from $name.txt; do not edit."
    awk -v script="$script" '
      BEGIN { while ((getline line < script) > 0) text[++n] = line }
      { sub(/\r$/, "") }
      /^\([0-9]+\.[0-9]+s\)$/ { next }
      match($0, /conformance-line-[0-9]+/) {
        print "> " text[substr($0, RSTART + 17, RLENGTH - 17) + 0]
        next
      }
      { print }' "$work/raw"
  } > "$work/transcript"

  commands="$(grep -cvE '^[[:space:]]*(#|$)' "$script" || true)"
  recorded="$(grep -c '^> ' "$work/transcript" || true)"
  if [[ "$commands" != "$recorded" ]]; then
    echo "conformance-record: $name has $commands commands but $recorded replies were recorded" >&2
    exit 1
  fi
  mv "$work/transcript" "$dir/$name.expected"
  echo "recorded $name.expected ($commands commands, redis $version)"
done

#!/usr/bin/env bash
# Stop-the-world pauses of a big keyspace under a write load, for one collector (#24's GC
# acceptance: "a 10-minute, 10 GB write load, longest pause ≤ 10 ms").
#   benchmarks/scripts/gc-pauses.sh PORT SECONDS "JVM_OPTIONS" [KEYS [VALUE_BYTES]]
# Starts Ebb with `$JAVA JVM_OPTIONS -Xlog:safepoint -jar ...` (JAVA defaults to java on the PATH;
# set it to a JDK 21+ for generational ZGC), fills it with KEYS keys (default 10,000,000) of
# VALUE_BYTES (default 1000) by DEBUG POPULATE (keys key:0 ... key:9999999), then writes random keys with
# `redis-benchmark -c 50 -t set -d VALUE_BYTES -r KEYS` for SECONDS (its keys are named key:000000000042,
# so the load adds keys to the 10M and the table grows once it passes 11.8M), and prints what the safepoint
# log says of the load's pauses (every safepoint stops the command loop, a GC's or not: count, median,
# p99, max, total), the allocation stalls in its GC log (ZGC, Shenandoah), the SETs served a second
# and the process's RSS. Stops only the server it started, by pid. Needs bash, python3, redis-cli,
# redis-benchmark, java.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/servers.sh"
port=$1; seconds=$2; jvm=$3; keys=${4:-10000000}; size=${5:-1000}
java_bin=${JAVA:-java}
dir=$(mktemp -d /tmp/gc-pauses.XXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
# shellcheck disable=SC2086
EBB_RELAUNCH=no "$java_bin" $jvm -Xlog:safepoint:file="$dir/safepoint.log":uptime \
  -Xlog:gc:file="$dir/gc.log":uptime -jar "$ebb_jar" \
  --port "$port" --dir "$dir" --save '' --enable-debug-command yes > "$dir/server.log" 2>&1 &
pid=$!
until "$cli" -p "$port" ping 2>/dev/null | grep -q PONG; do
  kill -0 "$pid" 2>/dev/null || { cat "$dir/server.log"; exit 1; }
  sleep 0.1
done
start=$(date +%s)
"$cli" -p "$port" debug populate "$keys" key "$size" > /dev/null
echo "gc-pauses: $($java_bin -version 2>&1 | head -1), options '$jvm', $keys keys of $size bytes" \
  "loaded in $(( $(date +%s) - start )) s, used_memory $("$cli" -p "$port" info memory | tr -d '\r' \
  | awk -F: '/^used_memory_human/ {print $2}'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
# Only the load's pauses count: the log so far (start-up and the fill) is set aside.
mark=$(wc -l < "$dir/safepoint.log")
gc_mark=$(wc -l < "$dir/gc.log")
commands() { "$cli" -p "$port" info stats | tr -d '\r' | awk -F: '/^total_commands_processed/ {print $2}'; }
before=$(commands)
"$bench" -p "$port" -c 50 -n 1000000000 -t set -d "$size" -r "$keys" > /dev/null 2>&1 &
bench_pid=$!
sleep "$seconds"
kill "$bench_pid" 2>/dev/null || true
wait "$bench_pid" 2>/dev/null || true
sets=$(( $(commands) - before ))
rss=$(awk '/VmRSS/ {printf "%d MB", $2 / 1024}' "/proc/$pid/status")
tail -n +"$((mark + 1))" "$dir/safepoint.log" | python3 -c '
import re, sys
totals = sorted(int(m.group(1)) / 1e6 for m in (re.search(r"Total: (\d+) ns", l) for l in sys.stdin) if m)
if not totals:
    sys.exit("no safepoint during the load")
pick = lambda p: totals[min(len(totals) - 1, int(p * len(totals)))]
print("pauses during %s s of load: %d, median %.3f ms, p99 %.3f ms, max %.3f ms, total %.0f ms" % (
    sys.argv[1], len(totals), pick(0.5), pick(0.99), totals[-1], sum(totals)))
' "$seconds"
tail -n +"$((mark + 1))" "$dir/safepoint.log" | { grep -o 'Safepoint "[A-Za-z0-9]*".*Total: [0-9]* ns' || true; } \
  | sed -E 's/Safepoint "([^"]*)".*Reaching safepoint: ([0-9]+) ns.*At safepoint: ([0-9]+) ns.*Total: ([0-9]+) ns/\4 \1 \2 \3/' \
  | sort -n | tail -3 \
  | awk '{printf "  longest: %.3f ms %s (reaching the safepoint %.3f ms, at it %.3f ms)\n", $1 / 1e6, $2, $3 / 1e6, $4 / 1e6}'
# With -XX:+SafepointTimeout the JVM names the threads that were slow to reach a safepoint (in the server's log).
{ grep -o '^\[[0-9.]*s\].*# "[^"]*"' "$dir/server.log" || true; } \
  | sed -E 's/^\[([0-9.]+)s\].*# "([^"]*)"/  slow to reach a safepoint at \1 s: \2/'
# ZGC and Shenandoah stop a thread whose allocation finds no free memory: not a safepoint, a pause all the same.
tail -n +"$((gc_mark + 1))" "$dir/gc.log" | { grep -o 'Allocation Stall ([^)]*) [0-9.]*ms' || true; } \
  | awk '{ms = $NF; sub("ms", "", ms); n++; if (ms + 0 > max) max = ms + 0; sum += ms}
         END { printf "  allocation stalls: %d, longest %.3f ms, %.0f ms in all\n", n, max, sum }'
echo "  SETs served: $sets ($(( sets / seconds )) a second)"
echo "  RSS at the end: $rss"

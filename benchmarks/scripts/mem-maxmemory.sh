#!/usr/bin/env bash
# Resident memory against maxmemory: start a fresh server with the given command line (it must
# listen on PORT and have maxmemory set), write SETs of random keys well past the limit with
# redis-benchmark while sampling RSS every 0.2 s, then FLUSHALL and sample RSS for WAIT seconds.
# RSS is the sum over the server process and its children (Ebb may run its server in a child JVM).
# usage: mem-maxmemory.sh PORT -- server command...
#   env: N (SETs, default 3000000), SIZE (value bytes, default 100), WAIT (seconds after FLUSHALL, default 10)
set -u
PORT=$1; shift 2
n=${N:-3000000}; size=${SIZE:-100}; wait_s=${WAIT:-10}
bin=$(dirname "$(command -v redis-cli || echo /work/shared/reference/redis-7.2.4/redis-cli)")
cli="$bin/redis-cli"; bench="$bin/redis-benchmark"
"$@" >/tmp/mem-maxmemory-$PORT.log 2>&1 &
pid=$!
for i in $(seq 1 150); do [ "$($cli -p $PORT ping 2>/dev/null)" = PONG ] && break; sleep 0.2; done
tree() { echo "$1"; for c in $(cat /proc/$1/task/*/children 2>/dev/null); do tree "$c"; done; }
rss() { local t=0; for p in $(tree $pid); do t=$((t + $(awk '/VmRSS/ {print $2}' /proc/$p/status 2>/dev/null || echo 0))); done; echo $((t / 1024)); }
idle=$(rss)
"$bench" -p $PORT -t set -n "$n" -r 100000000 -d "$size" -P 16 -c 50 -q >/dev/null 2>&1 &
bpid=$!
peak=$idle
while kill -0 $bpid 2>/dev/null; do r=$(rss); [ "$r" -gt "$peak" ] && peak=$r; sleep 0.2; done
loaded=$(rss)
info() { $cli -p $PORT info memory | tr -d '\r' | sed -n "s/^$1://p"; }
used=$(info used_memory); evicted=$($cli -p $PORT info stats | tr -d '\r' | sed -n 's/^evicted_keys://p')
keys=$($cli -p $PORT dbsize)
oom=$($cli -p $PORT info errorstats | tr -d '\r' | sed -n 's/^errorstat_OOM:count=//p')
$cli -p $PORT flushall >/dev/null
[ -n "${GCRUN:-}" ] && jcmd $pid GC.run >/dev/null
after1=$(rss); sleep 1; after2=$(rss); sleep $((wait_s - 1)); after=$(rss)
echo "idle=${idle}MB peak=${peak}MB loaded=${loaded}MB keys=$keys used_memory=$((used / 1048576))MB evicted=$evicted oom_refused=${oom:-0} after_flushall: 0s=${after1}MB 1s=${after2}MB ${wait_s}s=${after}MB heap_committed_after=$(info jvm_heap_committed)"
$cli -p $PORT shutdown nosave >/dev/null 2>&1; sleep 1; kill $pid 2>/dev/null; wait $pid 2>/dev/null

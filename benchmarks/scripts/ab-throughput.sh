#!/usr/bin/env bash
# Throughput of two Ebb builds beside redis-server 7.2.4: each server fresh on its defaults (Ebb with
# `java $JAVA_OPTS -jar`), both Ebbs warmed by 300,000 requests of six tests, then ROUNDS rounds of
# `redis-benchmark -q -c 50 -P PIPELINE -n N -r 100000 -t T` per test, the three servers alternating
# (Redis first in odd rounds, last in even ones) so machine drift hits all of them. Prints the median
# ops/s of each and the ratios before / Redis, after / Redis, after / before.
#   benchmarks/scripts/ab-throughput.sh JAR_BEFORE JAR_AFTER PORT_BASE [ROUNDS [PIPELINE [N [TESTS]]]]
# Ports PORT_BASE (Redis), +1 (before), +2 (after). TESTS defaults to redis-benchmark's default list
# less ping/lrange_300+. Stops only the servers it started, by pid. Needs bash, python3, java.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
EBB_JAR=$1 source "$here/servers.sh"
before=$1; after=$2; base=$3; rounds=${4:-3}; pipeline=${5:-16}; n=${6:-500000}
tests=${7:-set,get,incr,lpush,rpush,lpop,rpop,sadd,hset,spop,zadd,zpopmin,lrange_100,mset}
[ -f "$after" ] || { echo "no $after" >&2; exit 2; }
dir=$(mktemp -d /tmp/ab-throughput.XXXX)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
"$redis_server" --port "$base" --save '' --dir "$dir" > "$dir/redis.log" 2>&1 & pids+=($!)
EBB_RELAUNCH=no java $java_opts -jar "$before" --port $((base + 1)) --save '' --dir "$dir" > "$dir/before.log" 2>&1 & pids+=($!)
EBB_RELAUNCH=no java $java_opts -jar "$after" --port $((base + 2)) --save '' --dir "$dir" > "$dir/after.log" 2>&1 & pids+=($!)
for p in "$base" $((base + 1)) $((base + 2)); do
  for _ in $(seq 100); do "$cli" -p "$p" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
done
for p in $((base + 1)) $((base + 2)); do
  timeout 300 "$bench" -p "$p" -q -P 16 -c 50 -n 300000 -t set,get,incr,sadd,hset,zadd -r 100000 > /dev/null 2>&1
done
rps() { timeout 300 "$bench" -p "$1" -q -P "$pipeline" -c 50 -n "$n" -t "$2" -r 100000 2>/dev/null \
        | tr '\r' '\n' | grep 'requests per second' | tail -1 | sed -E 's/.*: ([0-9.]+) requests.*/\1/'; }
for ((r = 1; r <= rounds; r++)); do
  for t in ${tests//,/ }; do
    if ((r % 2)); then order="$base $((base + 1)) $((base + 2))"; else order="$((base + 2)) $((base + 1)) $base"; fi
    for p in $order; do echo "$t $((p - base)) $(rps "$p" "$t")"; done
  done
done > "$dir/runs.txt"
python3 - "$dir/runs.txt" <<'EOF'
import collections, statistics, sys
runs = collections.defaultdict(list); order = []
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 3:
        continue
    test, which, ops = parts
    runs[(test, which)].append(float(ops))
    if test not in order:
        order.append(test)
print('%-11s %9s %9s %9s %14s %13s %13s' % ('test', 'redis', 'before', 'after', 'before/redis', 'after/redis', 'after/before'))
for t in order:
    r, b, a = (statistics.median(runs[(t, w)]) for w in ('0', '1', '2'))
    print('%-11s %9.0f %9.0f %9.0f %14.2f %13.2f %13.2f' % (t, r, b, a, b / r, a / r, a / b))
EOF

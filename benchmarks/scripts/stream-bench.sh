#!/usr/bin/env bash
# Stream benchmarks against a running Ebb and a running redis-server, the same way for both:
# XADD at -P 1 and -P 16, XRANGE of 10 and 100 entries, memory for 1M entries, and the
# consumer-group loop (4 consumers, XREADGROUP COUNT 10 BLOCK + XACK).
#   benchmarks/scripts/stream-bench.sh REDIS_PORT EBB_PORT [RUNS]
# Needs redis-benchmark, redis-cli and python3. Flushes both servers.
set -euo pipefail
redis_port=$1
ebb_port=$2
runs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
bench=${REDIS_BENCHMARK:-redis-benchmark}
rps() { "$bench" -q "$@" | tr '\r' '\n' | grep "requests per second" | tail -1 | sed 's/.*: \([0-9.]*\) requests.*/\1/'; }
for p in "$redis_port" "$ebb_port"; do
  redis-cli -p "$p" flushall >/dev/null
  for _ in $(seq 1 100); do echo "XADD r * name 12345678 value 1234567890123456"; done | redis-cli -p "$p" >/dev/null
done
echo "port xadd-P1 xadd-P16 xrange10-P1 xrange100-P1 xrange10-P16"
for _ in $(seq 1 "$runs"); do
  for p in "$redis_port" "$ebb_port"; do
    redis-cli -p "$p" del s >/dev/null
    echo "$p $(rps -p "$p" -n 100000 -P 1 XADD s '*' name 12345678 value 1234567890123456)" \
      "$(rps -p "$p" -n 500000 -P 16 XADD s '*' name 12345678 value 1234567890123456)" \
      "$(rps -p "$p" -n 100000 -P 1 XRANGE r - + COUNT 10)" "$(rps -p "$p" -n 50000 -P 1 XRANGE r - + COUNT 100)" \
      "$(rps -p "$p" -n 200000 -P 16 XRANGE r - + COUNT 10)"
  done
done
for p in "$redis_port" "$ebb_port"; do
  redis-cli -p "$p" flushall >/dev/null
  sleep 1
  u0=$(redis-cli -p "$p" info memory | grep '^used_memory:' | tr -d '\r' | cut -d: -f2)
  "$bench" -q -p "$p" -n 1000000 -P 16 XADD mem '*' name 12345678 value 1234567890123456 >/dev/null
  u1=$(redis-cli -p "$p" info memory | grep '^used_memory:' | tr -d '\r' | cut -d: -f2)
  echo "$p memory: used_memory delta $((u1 - u0)), MEMORY USAGE $(redis-cli -p "$p" memory usage mem samples 0)," \
    "entries $(redis-cli -p "$p" xlen mem)"
done
for _ in $(seq 1 "$runs"); do
  for p in "$redis_port" "$ebb_port"; do
    python3 "$here/stream_consumer_groups.py" "$p" 100000
  done
done

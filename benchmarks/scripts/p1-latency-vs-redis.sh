#!/usr/bin/env bash
# The `-P 1` tail beside redis-server 7.2.4: RUNS alternating rounds (Ebb first in odd rounds), each server
# started fresh for its round (Ebb as the README's first command starts it: `java $JAVA_OPTS -jar`, JAVA_OPTS
# empty here unless set, so the JVM's default collector), warmed by 300,000 SET and GET requests, then
# `redis-benchmark -c 50 -n REQUESTS -r 100000 -t set,get -P 1 --csv`. Prints each round's rps, p50, p99 and
# max per test.
#   benchmarks/scripts/p1-latency-vs-redis.sh PORT [RUNS [REQUESTS]]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
JAVA_OPTS=${JAVA_OPTS:- } source "$here/servers.sh"
port=$1; runs=${2:-3}; requests=${3:-500000}
up() {
  for _ in $(seq 150); do [ "$("$cli" -p "$port" ping 2>/dev/null)" = PONG ] && return 0; sleep 0.1; done
  echo "no server on port $port" >&2; return 1
}
round() {
  local name=$1 pid
  if [ "$name" = ebb ]; then
    # shellcheck disable=SC2086
    EBB_RELAUNCH=no java $java_opts -jar "$ebb_jar" --port "$port" --save '' >/dev/null 2>&1 &
  else
    "$redis_server" --port "$port" --save '' --appendonly no >/dev/null 2>&1 &
  fi
  pid=$!
  up
  "$bench" -p "$port" -c 50 -n 300000 -r 100000 -t set,get -q >/dev/null 2>&1
  printf '%-5s %s load %s: ' "$name" "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)"
  "$bench" -p "$port" -c 50 -n "$requests" -r 100000 -t set,get -P 1 --csv --precision 3 2>/dev/null | tr -d '"' \
    | awk -F, 'NR > 1 {printf "%s rps %s p50 %s p99 %s max %s; ", $1, $2, $5, $7, $8} END {print ""}'
  "$cli" -p "$port" shutdown nosave >/dev/null 2>&1 || true
  wait "$pid" 2>/dev/null || true
}
for run in $(seq "$runs"); do
  if [ $((run % 2)) -eq 1 ]; then round ebb; round redis; else round redis; round ebb; fi
done

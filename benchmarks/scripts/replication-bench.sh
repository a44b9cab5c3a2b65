#!/usr/bin/env bash
# Replication figures, Ebb beside redis-server 7.2.4 (issue #20's benchmarks), both on their defaults but
# repl-diskless-sync-delay 0 (so the sync time is the transfer, not the 5 s wait for more replicas):
#   1. full sync time of N keys primary -> replica (REPLICAOF issued on a running replica; the clock stops when
#      the replica reports master_link_status:up and master_sync_in_progress:0), and the primary's GET p99 and
#      max meanwhile (one client sending GET every millisecond);
#   2. replication lag under redis-benchmark SET -c 50: the primary's master_repl_offset minus the replica's
#      slave_repl_offset sampled every 100 ms (median and max, bytes);
#   3. primary SET throughput (-c 50, -P 1) with 0, 1 and 2 replicas attached.
# usage: [KINDS='ebb redis'] benchmarks/scripts/replication-bench.sh [N] [BASE_PORT]   (from the project root; builds nothing:
#        run `mvn -B -q package -DskipTests` first). Uses ports BASE_PORT..BASE_PORT+5.
set -euo pipefail
N=${1:-1000000}
BASE=${2:-7900}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JAR=$ROOT/server/target/ebb-server.jar
REDIS=${REDIS_SERVER:-$ROOT/../shared/reference/redis-7.2.4/redis-server}
CLI=${REDIS_CLI:-redis-cli}
BENCH=${REDIS_BENCHMARK:-redis-benchmark}
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

start() { # kind port -> starts a server, records its pid
  local kind=$1 port=$2 d=$WORK/$1-$2
  mkdir -p "$d"
  if [ "$kind" = ebb ]; then
    EBB_RELAUNCH=no java -XX:+UseParallelGC -jar "$JAR" --port "$port" --dir "$d" --save '' --repl-diskless-sync-delay 0 --enable-debug-command yes >"$d/log" 2>&1 &
  else
    "$REDIS" --port "$port" --dir "$d" --save '' --appendonly no --repl-diskless-sync-delay 0 --enable-debug-command yes >"$d/log" 2>&1 &
  fi
  PIDS+=($!)
  for _ in $(seq 600); do "$CLI" -p "$port" ping 2>/dev/null | grep -q PONG && return; sleep 0.1; done
  echo "server on $port did not start" >&2; exit 1
}
field() { "$CLI" -p "$1" info replication | tr -d '\r' | sed -n "s/^$2://p"; }
stop_all() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; PIDS=(); }

run() { # kind
  local kind=$1 p=$BASE r1=$((BASE + 1)) r2=$((BASE + 2))
  start "$kind" $p; start "$kind" $r1; start "$kind" $r2
  "$CLI" -p $p debug populate "$N" key 32 >/dev/null
  # 3a. throughput with no replica
  local t0; t0=$("$BENCH" -p $p -t set -c 50 -n 300000 -r 100000 -q | tr '\r' '\n' | grep -o '[0-9.]* requests per second' | tail -1)
  # 1. full sync with a GET load on the primary
  rm -f "$WORK/stop"
  python3 - "$p" "$WORK/stop" >"$WORK/get-$kind.txt" <<'PROBE' &
import os, socket, sys, time
port, stop = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(('127.0.0.1', port)); f = s.makefile('rb')
lat = []
while not os.path.exists(stop):
    a = time.perf_counter(); s.sendall(b'*2\r\n$3\r\nGET\r\n$11\r\nkey:1000000\r\n'); line = f.readline()
    if line.startswith(b'$') and not line.startswith(b'$-1'): f.read(int(line[1:]) + 2)
    lat.append((time.perf_counter() - a) * 1000); time.sleep(0.001)
lat.sort()
if not lat: sys.exit('no samples')
print('%.3f %.3f' % (lat[int(0.99 * (len(lat) - 1))], lat[-1]))
PROBE
  local bpid=$!
  sleep 1   # let the prober start sending
  local start_ns; start_ns=$(date +%s%N)
  "$CLI" -p $r1 replicaof 127.0.0.1 $p >/dev/null
  until [ "$(field $r1 master_link_status)" = up ] && [ "$(field $r1 master_sync_in_progress)" = 0 ]; do sleep 0.05; done
  local sync_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
  touch "$WORK/stop"; wait $bpid || true
  local p99; p99=$(cat "$WORK/get-$kind.txt")
  # 3b. one replica attached
  local t1; t1=$("$BENCH" -p $p -t set -c 50 -n 300000 -r 100000 -q | tr '\r' '\n' | grep -o '[0-9.]* requests per second' | tail -1)
  # 2. lag under SET load
  "$BENCH" -p $p -t set -c 50 -n 1000000 -r 100000 -q >/dev/null 2>&1 &
  bpid=$!
  local lags=()
  while kill -0 $bpid 2>/dev/null; do
    local a b; b=$(field $r1 slave_repl_offset); a=$(field $p master_repl_offset)
    [ -n "$a" ] && [ -n "$b" ] && lags+=($((a - b)))
    sleep 0.1
  done
  local sorted; sorted=$(printf '%s\n' "${lags[@]}" | sort -n)
  local med; med=$(echo "$sorted" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  local max; max=$(echo "$sorted" | tail -1)
  # 3c. two replicas
  "$CLI" -p $r2 replicaof 127.0.0.1 $p >/dev/null
  until [ "$(field $r2 master_link_status)" = up ] && [ "$(field $r2 master_sync_in_progress)" = 0 ]; do sleep 0.05; done
  local t2; t2=$("$BENCH" -p $p -t set -c 50 -n 300000 -r 100000 -q | tr '\r' '\n' | grep -o '[0-9.]* requests per second' | tail -1)
  printf '%-6s keys=%s full-sync=%d ms  GET-p99/max-during-sync=%s ms  lag-median=%s B lag-max=%s B  SET/s 0,1,2 replicas: %s | %s | %s\n' \
    "$kind" "$N" "$sync_ms" "${p99:-?}" "${med:-?}" "${max:-?}" "${t0% requests per second}" "${t1% requests per second}" "${t2% requests per second}"
  stop_all
}

for kind in ${KINDS:-ebb redis}; do run "$kind"; done

#!/usr/bin/env bash
# Persistence figures, Ebb beside the reference redis-server, each fresh in its own temporary dir:
#   benchmarks/scripts/persistence-bench.sh PORT_EBB PORT_REDIS N
# For each server: load N keys (8-byte keys, 32-byte values, redis-cli --pipe), then
#   1. SAVE: time and dump.rdb size;
#   2. restart on that file: time to load (the "DB loaded from disk: X seconds" log line);
#   3. BGSAVE while redis-benchmark -c 50 -t get,set -n 2000000 -r N runs, started once the GET phase
#      has begun: GET p99 and max latency (redis-benchmark's latency summary), peak VmRSS during the
#      save minus VmRSS before (sampled every 50 ms), rdb_last_cow_size, latest_fork_usec;
#   4. BGREWRITEAOF with appendonly yes: wall time until aof_rewrite_in_progress:0.
# Then prints one table. Environment: EBB_JAR (default server/target/ebb-server.jar, build it with
# `mvn -o -q -pl server -am package -DskipTests`), REDIS_SERVER (default the 7.2.4 reference),
# REDIS_CLI, REDIS_BENCHMARK, BENCH_REQUESTS (default 2000000), JAVA_OPTS (default -XX:+UseParallelGC).
# Stops only the servers it started, by pid. Needs bash, awk, redis-cli, redis-benchmark, java.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 PORT_EBB PORT_REDIS N" >&2; exit 2; }
ebb_port=$1
redis_port=$2
n=$3
. "$(dirname "$0")/servers.sh"
requests=${BENCH_REQUESTS:-2000000}

work=$(mktemp -d /tmp/persistence-bench.XXXXXX)
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The keys as RESP, once: k0000000.. (8 bytes), values 32 bytes.
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "*3\r\n$3\r\nSET\r\n$8\r\nk%07d\r\n$32\r\n%032d\r\n", i, i }' \
  > "$work/keys.resp"

now_ms() { date +%s%3N; }
info() { "$cli" -p "$port" info "$1" | tr -d '\r' | grep "^$2:" | cut -d: -f2; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0; }

start_server() { # name dir
  local log=$2/server.log
  if [ "$1" = ebb ]; then
    (cd "$2" && EBB_RELAUNCH=no exec java $java_opts -jar "$ebb_jar" --port "$port" --bind 127.0.0.1 --dir "$2" \
      --save '' --appendonly no --logfile "$log") &
    pid=$!
  else
    "$redis_server" --port "$port" --bind 127.0.0.1 --dir "$2" --save '' --appendonly no --logfile "$log" &
    pid=$!
  fi
  for _ in $(seq 1 3000); do
    reply=$("$cli" -p "$port" ping 2>/dev/null || true)
    [ "$reply" = PONG ] && return 0
    sleep 0.05
  done
  echo "$1 did not start on port $port" >&2; exit 1
}

stop_server() {
  "$cli" -p "$port" shutdown nosave >/dev/null 2>&1 || true
  wait "$pid" 2>/dev/null || true
  pid=""
}

wait_info() { # section field value
  while [ "$(info "$1" "$2")" != "$3" ]; do sleep 0.01; done
}

run() { # name port
  local name=$1 dir=$work/$1
  port=$2
  mkdir -p "$dir"
  start_server "$name" "$dir"
  "$cli" -p "$port" --pipe < "$work/keys.resp" >/dev/null

  local t0 t1
  t0=$(now_ms); "$cli" -p "$port" save >/dev/null; t1=$(now_ms)
  save_ms=$((t1 - t0))
  rdb_bytes=$(stat -c %s "$dir/dump.rdb")

  stop_server
  start_server "$name" "$dir"
  while "$cli" -p "$port" ping 2>&1 | grep -q LOADING; do sleep 0.05; done
  load_s=$(grep -o 'DB loaded from disk: [0-9.]* seconds' "$dir/server.log" | tail -1 | awk '{ print $5 }')
  keys=$("$cli" -p "$port" dbsize)

  "$cli" -p "$port" config resetstat >/dev/null
  "$bench" -p "$port" -c 50 -t set,get -n "$requests" -r "$n" -d 32 --precision 3 > "$dir/bench.txt" 2>&1 &
  local bench_pid=$!
  for _ in $(seq 1 6000); do
    [ -n "$(info commandstats cmdstat_get)" ] && break
    sleep 0.05
  done
  sleep 1
  local before peak now
  before=$(rss_kb); peak=$before
  "$cli" -p "$port" bgsave >/dev/null
  while true; do
    now=$(rss_kb); [ "$now" -gt "$peak" ] && peak=$now
    [ "$(info persistence rdb_bgsave_in_progress)" = 0 ] && break
    sleep 0.05
  done
  bgsave_s=$(info persistence rdb_last_bgsave_time_sec)
  cow=$(info persistence rdb_last_cow_size)
  fork_usec=$(info stats latest_fork_usec)
  wait "$bench_pid"
  get_p99=$(tr '\r' '\n' < "$dir/bench.txt" | awk '/====== GET/ { g = 1 } g && /latency summary/ { getline; getline; print $5; exit }')
  get_max=$(tr '\r' '\n' < "$dir/bench.txt" | awk '/====== GET/ { g = 1 } g && /latency summary/ { getline; getline; print $6; exit }')
  get_rps=$(tr '\r' '\n' < "$dir/bench.txt" | awk '/====== GET/ { g = 1 } g && /throughput summary/ { print $3; exit }')

  "$cli" -p "$port" config set appendonly yes >/dev/null
  wait_info persistence aof_rewrite_in_progress 0
  wait_info persistence aof_rewrite_scheduled 0
  t0=$(now_ms)
  "$cli" -p "$port" bgrewriteaof >/dev/null
  wait_info persistence aof_rewrite_in_progress 0
  t1=$(now_ms)
  rewrite_ms=$((t1 - t0))
  stop_server

  printf '%-6s %9s %9s %12s %9s %11s %10s %10s %12s %12s %10s %8s %11s\n' "$name" "$keys" "$save_ms" "$rdb_bytes" \
    "$load_s" "$bgsave_s" "$get_p99" "$get_max" "$get_rps" "$(( (peak - before) / 1024 ))" "$((cow / 1048576))" \
    "$fork_usec" "$rewrite_ms" >> "$work/table.txt"
}

run ebb "$ebb_port"
run redis "$redis_port"
echo "persistence-bench: N=$n keys, redis-benchmark -c 50 -t set,get -n $requests -r $n; $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %9s %9s %12s %9s %11s %10s %10s %12s %12s %10s %8s %11s\n' server keys save_ms rdb_bytes load_s \
  bgsave_sec get_p99_ms get_max_ms get_rps rss_delta_MB cow_MB fork_us rewrite_ms
cat "$work/table.txt"

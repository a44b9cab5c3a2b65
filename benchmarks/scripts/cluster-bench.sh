#!/usr/bin/env bash
# Cluster figures, Ebb beside the reference redis-server, each node fresh in its own temporary dir:
#   benchmarks/scripts/cluster-bench.sh BASE_PORT
# For each server and each cluster of 1, 2 and 3 primaries (ports BASE_PORT.., bus ports +10000):
#   1. the primaries get equal slot ranges (CLUSTER ADDSLOTSRANGE, then MEET: redis-cli --cluster
#      create wants three primaries), and every node is waited for until cluster_state:ok;
#   2. `redis-benchmark --cluster -c 50 (without --cluster for one node) -t set,get -n REQUESTS -r 1000000 -d 32 -P PIPELINE`:
#      aggregate requests per second of SET and GET;
# and with 3 primaries, after KEYS keys (`key:<i>`, 32-byte values, every slot) were written:
#   3. `redis-cli --cluster reshard --cluster-from <first> --cluster-to <second> --cluster-slots 1000
#      --cluster-yes`: wall time, keys moved (COUNTKEYSINSLOT of the moved slots before) and keys/s.
# Then prints one table. Environment: EBB_JAR (default server/target/ebb-server.jar), REDIS_SERVER
# (default the 7.2.4 reference), REDIS_CLI, REDIS_BENCHMARK, REQUESTS (default 1000000), PIPELINE
# (default 1), KEYS (default 300000), JAVA_OPTS (default -XX:+UseParallelGC). Stops only the
# servers it started, by pid. Needs bash, awk, python3, redis-cli, redis-benchmark, java.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 BASE_PORT" >&2; exit 2; }
base=$1
. "$(dirname "$0")/servers.sh"
requests=${REQUESTS:-1000000}
pipeline=${PIPELINE:-1}
keys=${KEYS:-300000}

work=$(mktemp -d /tmp/cluster-bench.XXXXXX)
pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
cleanup() { stop_all; rm -rf "$work"; }
trap cleanup EXIT

now_ms() { date +%s%3N; }

start_node() { # server port dir
  mkdir -p "$3"
  if [ "$1" = ebb ]; then
    (cd "$3" && EBB_RELAUNCH=no exec java $java_opts -jar "$ebb_jar" --port "$2" --bind 127.0.0.1 --dir "$3" \
      --cluster-enabled yes --save '' --appendonly no --logfile "$3/server.log") &
  else
    "$redis_server" --port "$2" --bind 127.0.0.1 --dir "$3" --cluster-enabled yes --save '' --appendonly no \
      --logfile "$3/server.log" &
  fi
  pids+=($!)
  for _ in $(seq 1 600); do
    [ "$("$cli" -p "$2" ping 2>/dev/null || true)" = PONG ] && return 0
    sleep 0.05
  done
  echo "$1 did not start on port $2" >&2; exit 1
}

make_cluster() { # server primaries
  local n=$2 i from to
  for ((i = 0; i < n; i++)); do
    start_node "$1" $((base + i)) "$work/$1-$n-$i"
    from=$((16384 * i / n)); to=$((16384 * (i + 1) / n - 1))
    "$cli" -p $((base + i)) cluster addslotsrange "$from" "$to" >/dev/null
  done
  for ((i = 1; i < n; i++)); do "$cli" -p $((base + i)) cluster meet 127.0.0.1 "$base" >/dev/null; done
  for ((i = 0; i < n; i++)); do
    for _ in $(seq 1 1200); do
      local info
      info=$("$cli" -p $((base + i)) cluster info | tr -d '\r')
      grep -q '^cluster_state:ok' <<<"$info" && grep -q "^cluster_known_nodes:$n\$" <<<"$info" && break
      sleep 0.05
    done
  done
}

rps() { # test name in a redis-benchmark -q output
  tr '\r' '\n' < "$work/bench.txt" | awk -v t="$1:" '$1 == t && /requests per second/ { print $2; exit }'
}

run() { # server
  local n
  for n in 1 2 3; do
    make_cluster "$1" "$n"
    # redis-benchmark --cluster refuses a one-node cluster; that node owns every slot anyway.
    "$bench" $([ "$n" -gt 1 ] && echo --cluster) -h 127.0.0.1 -p "$base" -c 50 -t set,get -n "$requests" -r 1000000 -d 32 -P "$pipeline" -q \
      > "$work/bench.txt" 2>&1
    printf '%-6s %9s %12s %12s\n' "$1" "$n" "$(rps SET)" "$(rps GET)" >> "$work/throughput.txt"
    if [ "$n" = 3 ]; then reshard "$1"; fi
    stop_all
  done
}

reshard() { # server
  local i total moved=0 from to first t0 t1
  # KEYS keys key:<i> spread over every slot, each sent to its owner (redis-benchmark --cluster's keys
  # carry a hash tag per node, so they sit in three slots and would not measure a reshard).
  "$cli" -p "$base" flushall >/dev/null; "$cli" -p $((base + 1)) flushall >/dev/null; "$cli" -p $((base + 2)) flushall >/dev/null
  python3 - "$keys" "$work" <<'PY'
import sys
n, work = int(sys.argv[1]), sys.argv[2]
def crc16(data):
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc
outs = [open('%s/node%d.resp' % (work, i), 'wb') for i in range(3)]
v = b'v' * 32
for i in range(n):
    k = b'key:%d' % i
    slot = crc16(k) % 16384
    node = max(i for i in range(3) if 16384 * i // 3 <= slot)
    outs[node].write(b'*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$32\r\n%s\r\n' % (len(k), k, v))
for o in outs:
    o.close()
PY
  for ((i = 0; i < 3; i++)); do "$cli" -p $((base + i)) --pipe < "$work/node$i.resp" > /dev/null; done
  from=$("$cli" -p "$base" cluster myid | tr -d '\r')
  to=$("$cli" -p $((base + 1)) cluster myid | tr -d '\r')
  for ((i = 0; i < 1000; i++)); do
    moved=$((moved + $("$cli" -p "$base" cluster countkeysinslot "$i")))
  done
  total=$(( $("$cli" -p "$base" dbsize) + $("$cli" -p $((base + 1)) dbsize) + $("$cli" -p $((base + 2)) dbsize) ))
  t0=$(now_ms)
  "$cli" --cluster reshard "127.0.0.1:$base" --cluster-from "$from" --cluster-to "$to" --cluster-slots 1000 \
    --cluster-yes > "$work/reshard.txt" 2>&1
  t1=$(now_ms)
  first=$("$cli" -p $((base + 1)) cluster countkeysinslot 0)
  printf '%-6s %10s %10s %10s %10s %12s\n' "$1" "$total" "$moved" "$first" "$((t1 - t0))" \
    "$(( moved * 1000 / (t1 - t0 > 0 ? t1 - t0 : 1) ))" >> "$work/reshard-table.txt"
}

run ebb
run redis
echo "cluster-bench: redis-benchmark --cluster -c 50 -t set,get -n $requests -r 1000000 -d 32 -P $pipeline;" \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %9s %12s %12s\n' server primaries set_rps get_rps
cat "$work/throughput.txt"
echo "reshard of 1000 slots (0-999) from the first primary to the second, redis-cli --cluster reshard:"
printf '%-6s %10s %10s %10s %10s %12s\n' server keys moved slot0_after ms keys_per_s
cat "$work/reshard-table.txt"
